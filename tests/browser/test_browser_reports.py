"""Each game's balance report and the tournament page, rendered in a real
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
    return out


@pytest.mark.parametrize("page", [*names(), "tournament"])
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


@pytest.mark.parametrize("page", [*names(), "tournament"])
def test_the_scorecard_is_on_the_first_screen(browser, pages, page):
    """Issue 35: at 1400 px wide the scorecard (``id="scorecard"``, before the table
    of contents) lies within the first 900 px, with at least one evidence word
    (the tournament's: its ratings)."""
    visit = browser.visit(pages[page].resolve().as_uri(), width=1400)
    card = visit.scorecard
    assert card is not None, "no scorecard"
    assert card["before_toc"]
    assert 0 <= card["top"] and card["bottom"] <= 900, card
    assert card["words"] >= 1


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
