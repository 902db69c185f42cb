"""Each game's balance report, the tournament page and a sweep report, rendered in a real
headless Chromium: no console errors, every image loaded (natural width > 0),
no request leaves the page (figures are embedded), and a screenshot of each
saved beside the test output (``test-output/browser/``, or
``$ANALYZER_TEST_OUTPUT/browser/``) for a human to look at.

Needs Debian's ``chromium`` (``.ci/run`` installs it). Without it the test
skips on a developer's machine and fails under ``CI=true``."""
import os
from pathlib import Path

import pytest

import analyzer
from analyzer.games import names
from tests.browser.cdp import Browser, find_chromium

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = Path(os.environ.get("ANALYZER_TEST_OUTPUT", ROOT / "test-output")) / "browser"


@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        message = "chromium is not installed (apt-get install -y chromium; .ci/run does it)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    with Browser() as b:
        yield b


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """One small report of each game and one tournament page."""
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for game in names():
        run = analyzer.simulate(game, 600, seed=2, threads=1, tables=False, report=folder / f"{game}.html",
                                progress=False)
        out[game] = Path(run.text.rsplit("report: ", 1)[1].strip())
    cup = analyzer.tournament("lemming-mafia", ["random", "favourite", "timer"], races=240, threads=1,
                              report=folder / "tournament.html", progress=False)
    out["tournament"] = Path(str(cup).rsplit("report: ", 1)[1].strip())
    out["sweep"] = _sweep_page(folder)
    return out


def _sweep_page(folder: Path) -> Path:
    """A sweep of Sau Mau Mau over 3 and 4 players, one bot per cell, 150 games a cell."""
    from analyzer.sweep import load_sweep, run_sweep

    path = folder / "sweep.toml"
    path.write_text('title = "players"\ngame = "sau-mau-mau"\ngames = 150\nseed = 1\nout = "sweep"\n'
                    'report = "sweep.html"\n[grid]\nplayers = [3, 4]\nbots = ["backer", "random"]\n')
    run_sweep(load_sweep(path), threads=1, progress=False)
    return folder / "sweep.html"


PAGES = [*names(), "tournament", "sweep"]


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_cleanly_offline(browser, pages, page):
    url = pages[page].resolve().as_uri()
    shot = OUTPUT / f"{page}.png"
    visit = browser.visit(url, screenshot=shot)
    assert visit.console_errors == []
    assert visit.failed == []
    outside = [r for r in visit.requests if r != url and not r.startswith("data:")]
    assert outside == []  # self-contained: nothing fetched, not even a file beside it
    assert visit.images, "the page has no figures"
    broken = [i for i in visit.images if not (i["complete"] and i["naturalWidth"] > 0)]
    assert broken == []
    assert shot.stat().st_size > 10_000  # a rendered page, not a blank one


@pytest.mark.parametrize("page", PAGES)
def test_the_scorecard_is_on_the_first_screen(browser, pages, page):
    """At 1400 px wide the scorecard (``id="scorecard"``, before the table
    of contents) lies within the first 900 px, with at least one evidence word
    (the tournament's: its ratings)."""
    visit = browser.visit(pages[page].resolve().as_uri(), width=1400)
    card = visit.scorecard
    assert card is not None, "no scorecard"
    assert card["before_toc"]
    assert 0 <= card["top"] and card["bottom"] <= 900, card
    assert card["words"] >= 1


# the layout at a width: the page's own width, the tables whose box reaches past the
# viewport, each figure's width and the page's height (CSS pixels)
LAYOUT = """(() => {
  const width = document.documentElement.clientWidth;
  const past = Array.from(document.querySelectorAll('table')).filter(t => {
    const box = (t.closest('div.scroll') || t).getBoundingClientRect();
    return box.right > width + 1 || box.left < -1; }).length;
  return {width, page: document.documentElement.scrollWidth, past,
          figures: Array.from(document.querySelectorAll('figure img')).map(i => i.getBoundingClientRect().width),
          height: document.documentElement.scrollHeight};
})()"""
WIDTHS = (1400, 390)  # a laptop and a phone


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page", PAGES)
def test_no_table_overflows_and_figures_fill_a_phone(browser, pages, page, width):
    """Wide tables scroll inside their own box; the page never scrolls sideways; on a
    phone every figure spans the screen (at least 95% of it)."""
    visit = browser.visit(pages[page].resolve().as_uri(), width=width, evaluate=LAYOUT,
                          screenshot=OUTPUT / f"{page}-{width}.png" if width < 600 else None)
    layout = visit.value
    assert layout["width"] == width
    assert layout["past"] == 0 and layout["page"] <= width, layout
    assert layout["figures"]
    if width < 600:
        assert min(layout["figures"]) >= 0.95 * width, layout["figures"]


@pytest.fixture(scope="module")
def mafia_replay(tmp_path_factory):
    """A five-player game of random bots: seed 1, game 0 lasts 45 side turns, the 90th
    percentile of 300 such games (median 28.5)."""
    from analyzer.engine.botspec import BotSpec
    from analyzer.games.mafia.match import MafiaMatch
    from analyzer.report.replay import write_html

    replay = MafiaMatch(None, 5, [BotSpec("random")] * 5).replay(1, 0)
    assert replay.tables["games"]["side_turns"].iloc[0] == 45
    return replay, write_html(replay, tmp_path_factory.mktemp("replay") / "mafia.html")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_mafia_replay_fits_five_screens_and_names_its_winner(browser, mafia_replay, width):
    replay, page = mafia_replay
    visit = browser.visit(page.resolve().as_uri(), width=width, evaluate="""({
        height: document.documentElement.scrollHeight, page: document.documentElement.scrollWidth,
        outcome: (document.getElementById('outcome') || {}).textContent,
        turns: document.querySelectorAll('details.turn').length})""", screenshot=OUTPUT / f"mafia-replay-{width}.png")
    assert visit.console_errors == []
    layout = visit.value
    assert layout["height"] < 5000 and layout["page"] <= width, layout
    assert layout["turns"] == 45  # one block per side turn, folded
    winner = str(replay.tables["games"]["outcome"].iloc[0])
    assert layout["outcome"].startswith(f"{winner} (seat ") and " wins because " in layout["outcome"]


def test_the_checks_see_a_broken_page(browser, tmp_path):
    """The control: a console error, an image that does not load and a request
    to the network are each caught (so the checks above can fail)."""
    page = tmp_path / "broken.html"
    page.write_text('<html><body><img src="missing.png"><img src="http://192.0.2.1/x.png">'
                    '<script>console.error("boom")</script></body></html>')
    visit = browser.visit(page.resolve().as_uri())
    assert any("boom" in e for e in visit.console_errors)
    assert any(r.startswith("http://192.0.2.1") for r in visit.requests)
    assert [i["naturalWidth"] for i in visit.images] == [0, 0]
    assert visit.scorecard is None  # and a page without a scorecard
    below = tmp_path / "below.html"
    below.write_text('<html><body><nav class="toc">x</nav><div style="height:1200px"></div>'
                     '<section id="scorecard"><span class="ev">shown</span></section></body></html>')
    card = browser.visit(below.resolve().as_uri(), width=1400).scorecard
    assert card["top"] >= 1200 and not card["before_toc"]


def test_the_layout_check_sees_a_table_past_a_phone(browser, tmp_path):
    """The control of the layout check: a wide table outside a scrolling box is seen,
    the same table inside one is not."""
    row = "<tr>" + "<td>cell with some words</td>" * 30 + "</tr>"
    bare, boxed = tmp_path / "bare.html", tmp_path / "boxed.html"
    phone = '<html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body>'
    bare.write_text(f"{phone}<table>{row}</table></body></html>")
    boxed.write_text(f'{phone}<div class="scroll" style="overflow-x:auto"><table>{row}</table></div></body></html>')
    seen = browser.visit(bare.resolve().as_uri(), width=390, evaluate=LAYOUT).value
    assert seen["past"] == 1 and seen["page"] > 390
    seen = browser.visit(boxed.resolve().as_uri(), width=390, evaluate=LAYOUT).value
    assert seen["past"] == 0 and seen["page"] <= 390
