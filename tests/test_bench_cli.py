"""The bench command starts and exposes its measurements; no timing is asserted."""
import subprocess
import sys

import analyzer.bench as bench
from analyzer.games import game_info, infos, search_budget


def test_help_works():
    done = subprocess.run([sys.executable, "-m", "analyzer.bench", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "--quick" in done.stdout and "--only" in done.stdout


def test_exposes_measurements():
    names = {"throughput", "startup", "memory", "out", "report", "report_memory", "compare", "lookahead", "sprt", "cluster", "compile", "ladder", "balance"}
    for name in names:
        assert callable(getattr(bench, f"measure_{name}"))
    assert set(bench.MEASURES) == names


def test_every_game_declares_a_timed_random_table():
    """Throughput rows come from the games' declarations: every game has at least
    its random table with a target."""
    for info in infos():
        assert any(t.bots == "random" and t.target for t in info.bench), info.name


def test_a_throughput_row_shows_the_cost_model_estimate():
    """A game's table that declares the cost model's estimate gets it beside its figure."""
    run = bench.Run(["analyzer"], 2.0, 0, 4.0, 0, "speed: 1,000 games/s (1.00 s on 2 threads)\n", "")
    assert "cost model 40,000/s" in bench.rate_row("t", run, 1000, None, "games", model=40_000).detail
    assert "cost model" not in bench.rate_row("t", run, 1000, None, "games").detail


def test_a_versus_row_compares_two_tables_of_one_run(monkeypatch):
    """A table declared ``versus`` another gets a row with its rate as a share of the
    other table's, both from the same run, against its target (Lemminge's default
    table against its random table). The subprocesses are stubbed: no game is played."""
    seconds = {"random": 1.0}  # random bots 4x faster a game than the default table

    def fake_simulation(bots, count, *extra, game=None, warm=bench.WARM_RACES):
        return bench.Run(["analyzer"], seconds.get(bots, 4.0) * count / 1000, 0, 2.0, 0, "", "")

    monkeypatch.setattr(bench, "timed_simulation", fake_simulation)
    rows = bench.measure_throughput(quick=True, only_game="lemminge")
    shares = [r for r in rows if " vs " in r.name]
    assert [r.name for r in shares] == ["lemminge default table vs random bots"]
    assert shares[0].figure == "25.0% per game" and shares[0].target == ">= 25% per game" and shares[0].ok
    assert shares[0].detail.startswith("250 against 1,000 games/s")
    seconds["random"] = 0.9
    assert not [r for r in bench.measure_throughput(quick=True, only_game="lemminge") if " vs " in r.name][0].ok


def test_every_versus_names_another_table_of_its_game():
    for info in infos():
        labels = [t.label for t in info.bench]
        for table in info.bench:
            assert table.versus is None or (table.versus in labels and table.versus != table.label), \
                (info.name, table.label)


def test_a_versus_row_compares_per_item_and_per_side_turn():
    """A table declared against another of its game (``BenchTable.versus``) gets a row:
    its items/s as a share of the other's, and its cost per side turn as a multiple of
    the other's, side turns read from each summary; either target met passes."""
    from analyzer.games import BenchTable

    def run(seconds, turns):
        return bench.Run(["analyzer"], seconds, 0, 2 * seconds, 0, f"game length: 5.0 calendar turns (sd 1.0), "
                         f"{turns} side turns\nspeed: 1 games/s (1.00 s on 2 threads)\n", "")

    table = BenchTable("heuristic", "h", (1000, 100), versus="random", share_target=0.25, turn_target=4.0)
    # 1,000 games in 10 s against 10,000 in 5 s: 5% per game; 160 against 20 side turns: 2.5x per side turn
    row = bench.versus_row("g", table, (run(10.0, "160.0"), 1000), (run(5.0, "20.0"), 10_000), "games")
    assert row.figure == "5.0% per game, 2.50x per side turn" and row.ok
    assert row.target == ">= 25% per game or <= 4.0x per side turn"
    # 80 side turns against 20: 5x per side turn, and 5% per game: both missed
    row = bench.versus_row("g", table, (run(10.0, "80.0"), 1000), (run(5.0, "20.0"), 10_000), "games")
    assert row.figure == "5.0% per game, 5.00x per side turn" and row.ok is False
    # a summary without side turns: per game only
    plain = bench.Run(["analyzer"], 1.0, 0, 2.0, 0, "speed: 1 games/s (1.00 s on 2 threads)\n", "")
    row = bench.versus_row("g", table, (plain, 300), (plain, 1000), "games")
    assert row.figure == "30.0% per game" and row.ok


def test_mafia_compares_its_four_player_tables():
    """Mafia's four-player heuristic table is measured against its four-player random table."""
    tables = {t.label: t for t in game_info("mafia").bench}
    heuristic = tables["heuristic table, 4 players"]
    assert heuristic.bots == "expander,raider,expander,raider" and heuristic.players == 4
    assert tables[heuristic.versus].bots == "random" and tables[heuristic.versus].players == 4


COMPARE_OUT = """lookahead (A) against contractor (B); field: favourite,timer,random; 4 players
                     A         B   A - B (95% CI, paired)
win rate        56.28%    41.23%   +15.05 pp (+13.73 to +16.37)
mean score       7.655     6.501   +1.154 (+1.058 to +1.250)
"""


def test_the_strength_row_reads_compare_and_fails_a_weaker_bot():
    """The look-ahead strength row reads compare's paired win-rate difference and
    passes unless it is significantly below the recorded reference."""
    assert bench.parse_win_difference(COMPARE_OUT) == (15.05, 13.73, 16.37)
    assert bench.parse_win_difference("no table") is None
    strength = game_info("lemming-mafia").bench_strength
    assert strength.reference == (15.05, 13.73, 16.37)

    def row(measured):
        return bench.strength_row(measured, 10_000, "lemming-mafia", "lookahead", strength)

    assert row((15.05, 13.73, 16.37)).ok
    assert row((17.0, 15.7, 18.3)).ok  # stronger passes
    # 32 rollouts measured +7.67 pp (+6.35 to +8.99): that far below fails
    assert not row((7.67, 6.35, 8.99)).ok
    assert row((15.05, 13.73, 16.37)).name == "lemming-mafia lookahead strength, 10,000 races per arm"


def test_the_ladder_rows_come_from_each_games_search_bot(monkeypatch):
    """``--only ladder``: per game with a search bot (``GameInfo.search``), a row per
    budget (half to five times its default) with compare's paired difference against
    the game's best heuristic, its run size and the cost per decision; a game
    without one gets one line. The subprocesses are stubbed: no game is played."""
    assert bench.ladder_budgets(8) == [4, 8, 16, 40]
    assert bench.ladder_budgets(1) == [1, 2, 5]
    played = []

    def fake_compare(warm, args):
        played.append(args)
        return bench.Run(args, 3.0, 0, 3.0, 0, COMPARE_OUT, "")

    monkeypatch.setattr(bench, "warm_then_time", fake_compare)
    monkeypatch.setattr(bench, "measure_decision_cost",
                        lambda game, bot, players, count, warm: [bench.Row("cost", "123 us", detail=f"{count}")])
    rows = bench.measure_ladder(quick=True)
    for info in infos():
        mine = [r for r in rows if r.name.startswith(f"{info.name} ladder")]
        if info.search is None:
            assert len(mine) == 1 and "no search bot" in mine[0].detail
            continue
        budgets = bench.ladder_budgets(search_budget(info))
        assert len(mine) == len(budgets) >= 3
        assert sum("(default)" in r.name for r in mine) == 1
        diff, lo, hi = bench.parse_win_difference(COMPARE_OUT)  # what the stubbed compare printed
        assert all(r.figure == f"{diff:+.2f} pp ({lo:+.2f} to {hi:+.2f})" and "123 us a decision" in r.detail
                   and f"{info.search.counts[True]:,} {info.unit} per arm" in r.detail for r in mine)
        assert [a[a.index("--vs") + 1] for a in played if a[1] == info.name] == [info.search.best] * len(budgets)
