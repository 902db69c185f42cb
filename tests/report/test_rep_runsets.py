"""``engine.raceset``: which runs share races, decided from their manifests."""
from pathlib import Path

import pytest

from analyzer.engine.raceset import items_entry, plan_merge, race_set, setup_digest
from analyzer.errors import AnalyzerError


def manifest(seed=1, races=100, first=None, threads=2, label="random", params=None, sha="aa"):
    m = {"game": "lemming-mafia", "unit": "races", "races": races, "seed": seed, "players": 4,
         "threads": threads, "variant": None, "created": f"t{threads}",
         "data": [{"part": "board", "name": "b", "sha256": sha}],
         "bots": [{"seat": 1, "bot": label, "family": "random", "source": "built-in", "params": params or {}}]}
    if first is not None:
        m["items"] = items_entry(m, first)
    return m


DIRS = [Path("runs/a"), Path("runs/b"), Path("runs/c")]


def test_the_setup_is_what_decides_the_races():
    base = setup_digest(manifest())
    assert setup_digest(manifest(threads=8)) == base  # threads, date: the same races
    assert setup_digest(manifest(label="rnd")) == base  # a seat's label alone plays nothing
    assert setup_digest(manifest(params={"x": 1.0})) != base
    assert setup_digest(manifest(sha="bb")) != base


def test_a_run_without_items_holds_items_0_to_count():
    assert race_set(manifest(races=7)) == race_set(manifest(races=7, first=0))
    assert race_set(manifest(races=7)).stop == 7


def test_disjoint_ranges_of_one_seed_merge():
    kept, notes = plan_merge([manifest(first=0), manifest(first=100)], DIRS[:2])
    assert kept == [0, 1] and notes == []


def test_overlapping_ranges_are_refused_naming_both_runs():
    with pytest.raises(AnalyzerError, match=r"runs runs/a and runs/b hold the same races \(seed 1, races 50 to 149"):
        plan_merge([manifest(first=0), manifest(first=50)], DIRS[:2])


def test_drop_duplicates_keeps_the_largest_run_and_names_the_others():
    ms = [manifest(races=100), manifest(races=300), manifest(races=100, seed=2)]
    kept, notes = plan_merge(ms, DIRS, drop_duplicates=True)
    assert kept == [1, 2]
    assert notes == ["a left out: its 100 races are the same as b's (seed 1, races 0 to 99, "
                     f"setup {setup_digest(ms[0])})"]


def test_a_run_sharing_part_of_its_races_cannot_be_cut():
    with pytest.raises(AnalyzerError, match="share only some of their races"):
        plan_merge([manifest(first=0), manifest(first=50)], DIRS[:2], drop_duplicates=True)
