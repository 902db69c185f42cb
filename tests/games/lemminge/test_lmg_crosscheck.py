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

The same check plays two variants of the rules (``--rule``; the reference reads
the same ``[rules]`` keys, docs/lemminge.md): ``hand5-push2`` (a hand of 5, the box's
deal following it, and pushes costing 2 per lemming: games half as long again) and
``outcome`` on the ring map (start hands 0, 3, 6, pushes backwards allowed, no
double-zero cut: the first seat's win rate falls from about 38% to 28%).

``test_a_broken_reference_is_caught``: a reference whose pushes cost 1 whatever
the line fails the check, and so does one that lets a lemming be pushed back; under
the variants, so does a reference that ignores one of their keys (plays the box's
value).
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
from analyzer.games.lemminge.ruleset import RULES
from tests.stat_support import chi2_homogeneity, z_means, z_props

pytestmark = pytest.mark.slow  # the fast tier (make test runs it first) leaves it out

REFERENCE = Path(__file__).resolve().parents[2] / "reference" / "lemminge_ref.py"
RING = Path(__file__).resolve().parents[2] / "reference" / "lemminge_ring.toml"
Z_MAX = 4.0
P_MIN = 1e-4
ENGINE_GAMES = 20_000

SETUPS = {  # name: (map file or None, players, reference games, rules table)
    "default-4": (None, 4, 2000, {}),
    "ring-3": (RING, 3, 2000, {}),
    "hand5-push2": (None, 4, 2000, {"hand_limit": 5, "push_cost": 2}),
    "outcome": (RING, 3, 2000, {"start_hands": {"3": [0, 3, 6]}, "backward_push": True, "double_zero": False}),
}
PER_SEAT = ("refills", "moves", "steps", "pushes_made", "pushed", "new_columns", "tiles_placed", "finished",
            "pushed_distance", "hand_start")
PL_COLS = {"refills": L.PL_REFILLS, "moves": L.PL_MOVES, "steps": L.PL_STEPS, "pushes_made": L.PL_PUSHES_MADE,
           "pushed": L.PL_PUSHED, "new_columns": L.PL_NEW_COLUMNS, "tiles_placed": L.PL_TILES_PLACED,
           "finished": L.PL_FINISHED, "pushed_distance": L.PL_PUSHED_DIST, "hand_start": L.PL_HAND_START}


def load_reference(broken=()):
    spec = importlib.util.spec_from_file_location(f"lemminge_ref_{'_'.join(broken) or 'ok'}", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.BROKEN = set(broken)
    return module


def from_reference(path, players, n, broken=(), rules=None):
    ref = load_reference(broken)
    m = load_map(path)
    games = [ref.play_game(m.rows, m.values, m.tiles_per_terrain, m.meadow_tiles, players, random.Random(1000 + i),
                           rules)
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


def from_engine(setup):
    path, players, _, rules = SETUPS[setup]
    return _engine(path, players, setup)


@functools.cache
def _engine(path, players, setup):
    m = load_map(path)
    game = K.pack_game(m, [L.RANDOM] * players, rules=RULES.rules(SETUPS[setup][3]))
    games, pl, moves, _ = K.run(game, m.n_cells, 77, 0, ENGINE_GAMES)
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
    for s in range(players):  # the deal is no statistic: every game the same
        if set(eng["hand_start"][:, s]) != set(ref["hand_start"][:, s]):
            bad.append(f"hand_start seat {s + 1}: {sorted(set(eng['hand_start'][:, s]))} against "
                       f"{sorted(set(ref['hand_start'][:, s]))}")
    for k in PER_SEAT[:-1]:
        for s in range(players):
            z(f"{k} seat {s + 1}", z_means(eng[k][:, s], ref[k][:, s]))
    z("moves starting a new column", z_props(eng["mv_new"].sum(), len(eng["mv_new"]), ref["mv_new"].sum(),
                                              len(ref["mv_new"])))
    for k in ("mv_steps", "mv_pushes", "mv_colsum", "mv_value", "mv_setback"):
        z(k, z_means(eng[k], ref[k]))
    return bad


@pytest.mark.parametrize("setup", list(SETUPS))
def test_engine_agrees_with_the_reference(setup):
    path, players, n, rules = SETUPS[setup]
    bad = compare(from_engine(setup), from_reference(path, players, n, rules=rules), players)
    assert not bad, bad


def test_the_variants_differ_from_the_box():
    """The variants are worth checking: each moves what it says it moves (engine games)."""
    box, longer = from_engine("default-4"), from_engine("hand5-push2")
    assert z_means(longer["turns"], box["turns"]) > 20  # games half as long again (about 328 turns, not 217)
    box, outcome = from_engine("ring-3"), from_engine("outcome")
    assert z_props((outcome["winner"] == 0).sum(), ENGINE_GAMES, (box["winner"] == 0).sum(), ENGINE_GAMES) < -10
    # backward pushes allowed: on this map the random bot's walk never makes one (no move sets a lemming
    # back), but more cards allow a step (clarification 1), played for nothing: games about 10% longer
    assert z_means(outcome["turns"], box["turns"]) > 10


@pytest.mark.parametrize("setup, broken, n", [
    ("default-4", "push_cost", 300), ("ring-3", "backward_push", 600),
    # a reference that plays the box's value of a key the variant changes
    ("hand5-push2", "push_cost_rule", 300), ("hand5-push2", "hand_limit_rule", 300),
    ("outcome", "start_hands_rule", 300), ("outcome", "backward_push_rule", 600)])
def test_a_broken_reference_is_caught(setup, broken, n):
    path, players, _, rules = SETUPS[setup]
    bad = compare(from_engine(setup), from_reference(path, players, n, broken=(broken,), rules=rules), players)
    assert bad
