"""One colour per bot in every report; percent ticks that say what they mark;
simulate --report draws the board and fills fields.csv like a report of a run
directory does."""
import pandas as pd

from analyzer.cli import main
from analyzer.games import bot_families, names
from analyzer.report.figures import BOT_COLORS, _figure, _pct_axis, bot_color, bot_colors, png


def test_built_in_bots_have_distinct_fixed_colours():
    for game in names():  # a report shows one game's bots
        labels = sorted(bot_families(game))
        colours = [bot_color(b) for b in labels]
        assert len(set(colours)) == len(labels) and set(colours) <= set(BOT_COLORS), game
    # the colour is the label's, not its place in a table
    a = bot_colors({"bots": pd.DataFrame({"bot": ["random", "timer"]})})
    b = bot_colors({"bots": pd.DataFrame({"bot": ["timer", "favourite", "random"]})})
    assert a["random"] == b["random"] and a["timer"] == b["timer"]


def test_percent_ticks_are_distinct_on_a_narrow_axis():
    fig, ax = _figure(4, 3)
    ax.plot([0, 1], [0.249, 0.253])
    ax.set_ylim(0.248, 0.254)
    _pct_axis(ax)
    png(fig)  # draw, so the ticks are placed
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert len(labels) >= 3 and len(set(labels)) == len(labels), labels
    assert all(lab.endswith("%") for lab in labels) and "25.00%" in labels


def test_simulate_report_draws_the_board_and_fills_fields(tmp_path):
    report = tmp_path / "r.html"
    try:
        main(["simulate", "lemming-mafia", "--races", "300", "--bots", "random", "--report", str(report),
              "--no-progress"])
    except SystemExit as e:
        assert e.code in (0, None)
    page = report.read_text()
    assert 'id="board"' in page
    fields = pd.read_csv(tmp_path / "r_files" / "fields.csv")
    assert len(fields) > 0 and fields["landings"].sum() > 0
    assert (tmp_path / "r_files" / "board.png").is_file()


def test_percentage_point_ticks_are_distinct():
    from analyzer.report.figures import _pp_axis

    fig, ax = _figure(4, 3)
    ax.plot([0, 1], [-0.004, 0.006])
    _pp_axis(ax)
    png(fig)
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert len(labels) >= 3 and len(set(labels)) == len(labels), labels
    assert "0" in labels and any(lab.startswith("+0.") for lab in labels), labels


def test_percentage_point_ticks_are_exact():
    """Ticks 2.5 pp apart read +2.5, +5.0, +7.5 (not "+2", "+5", "+8")."""
    from analyzer.report.figures import _pp_axis

    fig, ax = _figure(4, 3)
    ax.plot([0, 1], [-0.08, 0.085])
    _pp_axis(ax)
    png(fig)
    ticks = [(t.get_position()[1], t.get_text()) for t in ax.get_yticklabels() if t.get_text()]
    assert any(abs(100 * v - round(100 * v)) > 0.1 for v, _ in ticks), ticks  # a tick between whole points
    for v, text in ticks:
        assert text == "0" or abs(float(text) - 100 * v) < 1e-6, ticks


def test_percent_ticks_on_a_log_axis_keep_their_digits():
    """A log axis of shares reads 0.1% and 0.01%, not "0%" twice."""
    from analyzer.report.figures import _pct_axis

    fig, ax = _figure(4, 3)
    ax.bar([0, 1, 2, 3], [0.8, 0.05, 0.002, 0.0001])
    ax.set_yscale("log")
    _pct_axis(ax)
    png(fig)
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert {"0.1%", "0.01%", "1%", "10%"} <= set(labels) and "0%" not in labels, labels
