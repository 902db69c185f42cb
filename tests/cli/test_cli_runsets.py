"""Runs are sets of races: ``report`` of two
runs holding the same races (same seed and setup: a copied run directory, two
runs left at the default seed) refuses in one line naming both, or with
``--drop-duplicates`` counts each race once and says so; runs of different
seeds merge as before."""
import json
import re
import shutil

import pytest

import analyzer
from analyzer.errors import AnalyzerError
from tests.cli_support import assert_usage_error, run

RACES = 20


def sim(out, *extra, races=RACES):
    return ["simulate", "lemming-mafia", "--races", races, "--no-progress", "--threads", 1,
            "--bots", "random", "--out", out, *extra]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """a: seed 1; copy: a copied; again: the default seed again; seed2: seed 2;
    big: seed 1 with more races (holds a's races and more)."""
    root = tmp_path_factory.mktemp("runsets")
    assert run(sim(root / "a")) == 0
    shutil.copytree(root / "a", root / "copy")
    assert run(sim(root / "again")) == 0
    assert run(sim(root / "seed2", "--seed", 2)) == 0
    assert run(sim(root / "big", races=2 * RACES)) == 0
    return root


def races_row(page: str) -> int:
    return int(re.search(r"<th>Races</th><td>([\d,]+)</td>", page).group(1).replace(",", ""))


def test_the_manifest_records_the_races_it_holds(runs):
    items = json.loads((runs / "a" / "manifest.json").read_text())["items"]
    assert items["seed"] == 1 and items["first"] == 0 and items["count"] == RACES
    assert re.fullmatch(r"[0-9a-f]{16}", items["setup"])
    again = json.loads((runs / "again" / "manifest.json").read_text())["items"]
    assert again == items  # another process, the same races
    seed2 = json.loads((runs / "seed2" / "manifest.json").read_text())["items"]
    assert seed2["seed"] == 2 and seed2["setup"] == items["setup"]


@pytest.mark.parametrize("other", ["copy", "again", "big"])
def test_a_report_refuses_runs_holding_the_same_races(runs, tmp_path, capsys, other):
    out = tmp_path / "r.html"
    line = assert_usage_error(capsys, ["report", runs / "a", runs / other, "--report", out],
                              str(runs / "a"), str(runs / other), "seed 1", "--drop-duplicates")
    assert "twice" in line
    assert list(tmp_path.iterdir()) == []  # no report, no folder


def test_a_run_of_an_older_version_without_items_is_checked_too(runs, tmp_path, capsys):
    old = tmp_path / "old"
    shutil.copytree(runs / "a", old)
    manifest = json.loads((old / "manifest.json").read_text())
    del manifest["items"]
    (old / "manifest.json").write_text(json.dumps(manifest))
    assert_usage_error(capsys, ["report", runs / "a", old, "--report", tmp_path / "r.html"], "twice")


def test_drop_duplicates_counts_each_race_once_and_says_so(runs, tmp_path, capsys):
    single = tmp_path / "single.html"
    assert run(["report", runs / "big", "--report", single]) == 0
    merged = tmp_path / "merged.html"
    assert run(["report", runs / "a", runs / "copy", runs / "big", "--drop-duplicates",
                "--report", merged]) == 0
    page = merged.read_text()
    assert races_row(page) == 2 * RACES  # big's races, once: a and its copy lie within them
    assert "Duplicates dropped" in page
    assert page.count("left out") == 2 and "a left out" in page and "copy left out" in page
    # the answers are those of big alone
    strip = lambda text: re.sub(r"report \d{4}-[\d:T+-]+|<tr><th>Duplicates dropped.*?</tr>", "", text)
    assert strip(page.replace("merged_files", "X")) == strip(single.read_text().replace("single_files", "X"))


def test_runs_of_different_seeds_still_merge(runs, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert run(["report", runs / "a", runs / "seed2", "--report", out]) == 0
    page = out.read_text()
    assert races_row(page) == 2 * RACES and "2 merged" in page and "Duplicates dropped" not in page


def test_the_api_refuses_them_too(runs, tmp_path):
    with pytest.raises(AnalyzerError, match="hold the same races"):
        analyzer.report_runs([runs / "a", runs / "copy"], tmp_path / "r.html")
    html = analyzer.report_runs([runs / "a", runs / "copy"], tmp_path / "r.html", drop_duplicates=True)
    assert races_row(html.read_text()) == RACES
