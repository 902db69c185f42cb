"""Statistical cross-check of the engine against the independent reference
implementation (tests/reference/lemminge_ref.py, written from the rules page
and docs/lemminge.md), both with the reference random bot in every seat, on the
assumed map and on a map the engine does not ship
(tests/reference/lemminge_ring.toml: another shape, other card values, fewer
tiles).

The engine plays 20,000 games per setup, the reference 2,000 (it is slow:
about 15 ms a game): enough that the rule of no backward push, which changes
the random bot's games only a little on the assumed map, shows (a reference
allowing those pushes departs by about 6 standard errors there, by far more on
the ring map). Every compared figure is a two-sample z-test with standard errors from
the data (pooled under the null for proportions) or a chi-square homogeneity
test of a distribution; the thresholds (|z| < 4, p > 1e-4) keep a false alarm
over all the comparisons (about 90) well under 1%. The figures are the ones a
rule error moves: game length, wins by seat, refills, reshuffles, steps,
pushes, new columns, tiles, per move its movement, steps and pushes.

``test_a_broken_reference_is_caught``: a reference whose pushes cost 1 whatever
the line fails the check, and so does one that lets a lemming be pushed back.
"""
import functools
import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

from analyzer.games.lemminge import kernel as K
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.board import load_map
from tests.stat_support import chi2_homogeneity, z_means, z_props

pytestmark = pytest.mark.slow  # the fast tier (make test runs it first) leaves it out

REFERENCE = Path(__file__).resolve().parents[2] / "reference" / "lemminge_ref.py"
RING = Path(__file__).resolve().parents[2] / "reference" / "lemminge_ring.toml"
Z_MAX = 4.0
P_MIN = 1e-4
ENGINE_GAMES = 20_000

SETUPS = {  # name: (map file or None, players, reference games)
    "default-4": (None, 4, 2000),
    "ring-3": (RING, 3, 2000),
}
PER_SEAT = ("refills", "moves", "steps", "pushes_made", "pushed", "new_columns", "tiles_placed", "finished",
            "pushed_distance")
PL_COLS = {"refills": L.PL_REFILLS, "moves": L.PL_MOVES, "steps": L.PL_STEPS, "pushes_made": L.PL_PUSHES_MADE,
           "pushed": L.PL_PUSHED, "new_columns": L.PL_NEW_COLUMNS, "tiles_placed": L.PL_TILES_PLACED,
           "finished": L.PL_FINISHED, "pushed_distance": L.PL_PUSHED_DIST}


def load_reference(broken=()):
    spec = importlib.util.spec_from_file_location(f"lemminge_ref_{'_'.join(broken) or 'ok'}", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.BROKEN = set(broken)
    return module


def from_reference(path, players, n, broken=()):
    ref = load_reference(broken)
    m = load_map(path)
    games = [ref.play_game(m.rows, m.values, m.tiles_per_terrain, m.meadow_tiles, players, random.Random(1000 + i))
             for i in range(n)]
    moves = [mv for g in games for mv in g["moves"]]
    return {
        "turns": np.array([g["turns"] for g in games]),
        "winner": np.array([g["winner"] for g in games]),
        "reshuffles": np.array([g["reshuffles"] for g in games]),
        **{k: np.array([[p[k] for p in g["players"]] for g in games]) for k in PER_SEAT},
        "mv_new": np.array([mv["new_column"] for mv in moves]),
        "mv_steps": np.array([mv["steps"] for mv in moves]),
        "mv_pushes": np.array([mv["pushes"] for mv in moves]),
        "mv_colsum": np.array([mv["column_sum_before"] for mv in moves]),
        "mv_value": np.array([mv["value"] for mv in moves]),
        "mv_setback": np.array([mv["setback"] for mv in moves]),
    }


@functools.cache
def from_engine(path, players):
    m = load_map(path)
    games, pl, moves, _ = K.run(K.pack_game(m, [L.RANDOM] * players), m.n_cells, 77, 0, ENGINE_GAMES)
    return {
        "turns": games[:, L.GM_TURNS],
        "winner": games[:, L.GM_WINNER],
        "reshuffles": games[:, L.GM_RESHUFFLES],
        **{k: pl[:, :, col] for k, col in PL_COLS.items()},
        "mv_new": moves[:, L.MV_NEW_COLUMN],
        "mv_steps": moves[:, L.MV_STEPS],
        "mv_pushes": moves[:, L.MV_PUSHES],
        "mv_colsum": moves[:, L.MV_COLSUM],
        "mv_value": moves[:, L.MV_VALUE],
        "mv_setback": moves[:, L.MV_SETBACK],
    }


def chi2_p(a, b):
    return chi2_homogeneity(a, b)[2]


def compare(eng, ref, players):
    """Failures as strings (empty: the engine agrees with the reference)."""
    bad = []

    def z(name, value):
        if abs(value) >= Z_MAX:
            bad.append(f"{name}: z = {value:.1f}")

    def p(name, value):
        if value <= P_MIN:
            bad.append(f"{name}: p = {value:.2g}")

    z("turns", z_means(eng["turns"], ref["turns"]))
    edges = np.unique(np.quantile(eng["turns"], np.linspace(0, 1, 9)))
    edges[-1] = max(edges[-1], ref["turns"].max()) + 1
    edges[0] = min(edges[0], ref["turns"].min())
    p("turns distribution", chi2_p(np.histogram(eng["turns"], edges)[0], np.histogram(ref["turns"], edges)[0]))
    wins = [[np.sum(x["winner"] == s) for s in range(-1, players)] for x in (eng, ref)]
    p("winner seat", chi2_p(*wins))
    z("reshuffles", z_means(eng["reshuffles"], ref["reshuffles"]))
    for k in PER_SEAT:
        for s in range(players):
            z(f"{k} seat {s + 1}", z_means(eng[k][:, s], ref[k][:, s]))
    z("moves starting a new column", z_props(eng["mv_new"].sum(), len(eng["mv_new"]), ref["mv_new"].sum(),
                                              len(ref["mv_new"])))
    for k in ("mv_steps", "mv_pushes", "mv_colsum", "mv_value", "mv_setback"):
        z(k, z_means(eng[k], ref[k]))
    return bad


@pytest.mark.parametrize("setup", list(SETUPS))
def test_engine_agrees_with_the_reference(setup):
    path, players, n = SETUPS[setup]
    bad = compare(from_engine(path, players), from_reference(path, players, n), players)
    assert not bad, bad


@pytest.mark.parametrize("setup, broken, n", [("default-4", "push_cost", 300), ("ring-3", "backward_push", 600)])
def test_a_broken_reference_is_caught(setup, broken, n):
    path, players, _ = SETUPS[setup]
    bad = compare(from_engine(path, players), from_reference(path, players, n, broken=(broken,)), players)
    assert bad
