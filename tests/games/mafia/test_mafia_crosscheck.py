"""Statistical cross-check of the engine against the independent reference
implementation (tests/reference/mafia_ref.py, written from the rules page and
docs/mafia.md, sharing no code with the engine), both with the reference random
bot in every seat, at 3, 4 and 5 players on the assumed map and at 5 and 4
players on a map the engine does not ship (tests/reference/mafia_test_map.toml),
and under variants of the rule numbers (``--rule``), which the reference reads
from the same keys: one that lengthens the game (a family needs 5 spaces, the
State 5 purge points), one that changes who wins (the State's purge counts more
and ends the game sooner, shootouts hit more often), and one at four players that
caps the game at 7 calendar turns with 4 markers a family and its own marker and
removal dice; between them every key differs from the box.

For each setup the reference plays a few thousand games and the engine tens of
thousands; every compared figure (outcome shares, game length, every counter of
games.parquet, every column of sides.parquet per side, the base chosen, and the
play count of every card) is a two-sample z-test whose standard error comes
from the pooled sample (under the null both samples come from one law, and a
pooled variance stays sound for rare counts where one sample may hold none), or
a chi-square homogeneity test of the game-length distribution. The thresholds
(|z| < 4, p > 1e-4) keep a false alarm over the ~500 comparisons here near 3%.

A reference broken on purpose fails: ``test_a_broken_reference_is_caught``.
"""
import functools
import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.board import default_map_path
from analyzer.games.mafia.match import MafiaMatch
from analyzer.games.mafia.ruleset import RULES
from tests.stat_support import chi2_homogeneity

REFERENCE = Path(__file__).resolve().parents[2] / "reference" / "mafia_ref.py"
TEST_MAP = Path(__file__).resolve().parents[2] / "reference" / "mafia_test_map.toml"
Z_MAX = 4.0
P_MIN = 1e-4
ENGINE_GAMES = 40_000
BROKEN_GAMES = 1200  # each broken reference is caught with fewer games than the checks use

SETUPS = {
    # name: (players, map or None for the assumed default, reference games)
    "default-5": (5, None, 2500),
    "default-4": (4, None, 2500),
    "default-3": (3, None, 2000),
    "test-map-5": (5, TEST_MAP, 2000),
    "test-map-4": (4, TEST_MAP, 2000),
}
# variants of the rules: name: (players, the rule keys as --rule gives them, reference games)
VARIANTS = {
    "longer-5": (5, {"spaces_to_win": {5: 5}, "purge_points_to_end": 5}, 2000),
    "state-5": (5, {"purge_points_to_end": 3, "purge_half_points": [4, 3, 2], "shootout_hit_faces": [1, 2, 3, 4],
                    "weapons_hit_faces": [4, 5, 6]}, 2000),
    "capped-4": (4, {"markers_per_family": 4, "safety_cap": 7, "picciotto_marker_faces": [3, 4, 5, 6],
                     "cc_removal_faces": [1, 2, 3, 4, 5, 6], "purge_points_to_end": 5}, 2000),
}
COUNTERS = ("side_turns", "shootouts", "arrests", "holds", "holds_roadblock", "eliminations",
            "commission_freezes", "restaurant_explosions", "air_moves", "drawn_usa", "drawn_rome", "drawn_sisde",
            "played_usa", "played_rome", "played_sisde", "given_up", "markers_placed", "markers_removed",
            "side_turns_frozen", "markers_on_map")
SIDE_COLUMNS = ("won", "side_turns", "pieces_lost", "cards_drawn", "cards_played", "markers_end", "spaces_end")


def load_reference():
    spec = importlib.util.spec_from_file_location("mafia_ref", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def from_reference(games, players):
    sides = [s for s in range(L.N_SIDES) if not (players == 4 and s == L.STATE)]
    out = {
        "games": len(games),
        "outcome": np.array([L.OUTCOMES.index(g["outcome"]) for g in games]),
        "calendar_turns": np.array([g["calendar_turns"] for g in games]),
        "purge_halves": np.array([round(2 * g["purge_points"]) for g in games]),
        "winner_spaces": np.array([g["winner_spaces"] or 0 for g in games]),
        "sides": sides,
    }
    for k in COUNTERS:
        out[k] = np.array([g[k] for g in games])
    for s in sides:
        name = L.SIDE_NAMES[s]
        for k in SIDE_COLUMNS:
            out[f"{name} {k}"] = np.array([int(g["sides"][name][k]) for g in games])
        if s != L.STATE:
            out[f"{name} base"] = np.array([g["sides"][name]["base"] for g in games])
    for code, card in enumerate(L.CARD_CATEGORIES):
        out[f"card {card}"] = np.array([g["card_plays"].get(card, 0) for g in games])
    return out


def from_engine(chunk, players):
    c = chunk.view()
    g = c.games
    sides = [s for s in range(L.N_SIDES) if not (players == 4 and s == L.STATE)]
    out = {
        "games": c.count,
        "outcome": g[:, L.GM_OUTCOME],
        "calendar_turns": g[:, L.GM_CALENDAR_TURNS],
        "purge_halves": g[:, L.GM_PURGE_HALVES],
        "winner_spaces": g[:, L.GM_WINNER_SPACES],
        "sides": sides,
    }
    for k in COUNTERS:
        out[k] = g[:, L.GM_COLUMNS.index(k)]
    for s in sides:
        name = L.SIDE_NAMES[s]
        for k in SIDE_COLUMNS:
            out[f"{name} {k}"] = c.sides[:, s, L.SD_COLUMNS.index(k)]
        if s != L.STATE:
            out[f"{name} base"] = c.sides[:, s, L.SD_BASE]
    per_game = np.zeros((c.count, len(L.PLAYED_NAMES)), np.int64)
    np.add.at(per_game, (c.cards[:, L.CR_GAME], c.cards[:, L.CR_CARD]), 1)
    for card in L.CARD_CATEGORIES:
        out[f"card {card}"] = per_game[:, L.PLAYED_NAMES.index(card)]
    return out


@functools.cache
def engine_sample(name):
    if name in VARIANTS:
        players, rules, _ = VARIANTS[name]
        board, rules = None, RULES.rules(rules)
    else:
        (players, board, _), rules = SETUPS[name], None
    match = MafiaMatch(None if board is None else str(board), players, [BotSpec("random")] * players, rules=rules)
    return match, from_engine(match.play(2024, 0, ENGINE_GAMES), players)


@functools.cache
def reference_sample(name):
    if name in VARIANTS:
        players, rules, games = VARIANTS[name]
        board = None
    else:
        (players, board, games), rules = SETUPS[name], None
    ref = load_reference().simulate(players, board or default_map_path(), games, 4242, rules)
    return from_reference(ref, players)


def z_pooled(a, b) -> float:
    """Two-sample z of a difference of means with the pooled sample's variance."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    pooled = np.concatenate([a, b])
    var = pooled.var(ddof=1)
    diff = a.mean() - b.mean()
    if var == 0:
        return 0.0 if diff == 0 else math.inf
    return diff / math.sqrt(var * (1 / len(a) + 1 / len(b)))


class Checks:
    def __init__(self):
        self.failures = []

    def means(self, label, a, b):
        z = z_pooled(a, b)
        if not abs(z) < Z_MAX:
            self.failures.append(f"{label}: z = {z:.2f} (reference {np.mean(a):.4f}, engine {np.mean(b):.4f})")

    def dist(self, label, a, b, k):
        stat, df, p = chi2_homogeneity(np.bincount(a, minlength=k)[:k], np.bincount(b, minlength=k)[:k])
        if not p > P_MIN:
            self.failures.append(f"{label}: chi2 = {stat:.1f} (df {df}), p = {p:.2g}")

    def done(self, name):
        assert not self.failures, f"{name}: " + "; ".join(self.failures)


def game_checks(c, ref, eng):
    for k, outcome in enumerate(L.OUTCOMES):
        c.means(f"share {outcome}", ref["outcome"] == k, eng["outcome"] == k)
    c.means("calendar turns", ref["calendar_turns"], eng["calendar_turns"])
    c.dist("calendar turns", np.minimum(ref["calendar_turns"], 30), np.minimum(eng["calendar_turns"], 30), 31)
    c.means("purge points", ref["purge_halves"], eng["purge_halves"])
    c.means("winner spaces", ref["winner_spaces"], eng["winner_spaces"])
    for k in COUNTERS:
        c.means(k, ref[k], eng[k])


def side_checks(c, ref, eng):
    for s in ref["sides"]:
        name = L.SIDE_NAMES[s]
        for k in SIDE_COLUMNS:
            c.means(f"{name} {k}", ref[f"{name} {k}"], eng[f"{name} {k}"])
        if s != L.STATE:
            for base in np.unique(eng[f"{name} base"]):
                c.means(f"{name} base {base}", ref[f"{name} base"] == base, eng[f"{name} base"] == base)


def card_checks(c, ref, eng):
    for card in L.CARD_CATEGORIES:
        c.means(f"plays of {card}", ref[f"card {card}"], eng[f"card {card}"])


@pytest.mark.parametrize("name", list(SETUPS))
def test_engine_agrees_with_the_reference(name):
    players = SETUPS[name][0]
    _, eng = engine_sample(name)
    ref = reference_sample(name)
    c = Checks()
    for checks in (game_checks, side_checks, card_checks):
        checks(c, ref, eng)
    c.done(name)
    assert eng["games"] == ENGINE_GAMES
    # the setups exercise what they are for
    if players == 4:
        assert eng["card sisde_4p"].sum() > 0 and (eng["outcome"] == L.OUT_ALL_LOSE).any()
    else:
        assert eng["card sisde_pair"].sum() > 0 and (eng["outcome"] == L.OUT_STATE).any()


@pytest.mark.parametrize("name", list(VARIANTS))
def test_engine_agrees_with_the_reference_under_a_variant(name):
    """The same checks under each variant of the rules, and the variant plays as its
    keys say against the box's engine sample at that player count."""
    players, rules, _ = VARIANTS[name]
    match, eng = engine_sample(name)
    ref = reference_sample(name)
    assert match.rules.changed().keys() == rules.keys()
    c = Checks()
    for checks in (game_checks, side_checks, card_checks):
        checks(c, ref, eng)
    c.done(name)
    _, box = engine_sample(f"default-{players}")
    turns, box_turns = eng["calendar_turns"], box["calendar_turns"]
    if name == "longer-5":  # lengthens the game: both goals further off
        assert z_pooled(turns, box_turns) > Z_MAX
        won = eng["outcome"] >= L.OUT_RED
        assert won.any() and (eng["winner_spaces"][won] >= 5).all()
        assert (eng["purge_halves"][eng["outcome"] == L.OUT_STATE] >= 10).all()
    elif name == "state-5":  # changes who wins: the State, from a tenth of the games to most
        state, box_state = eng["outcome"] == L.OUT_STATE, box["outcome"] == L.OUT_STATE
        assert z_pooled(state, box_state) > Z_MAX and state.mean() > 0.5
        assert (eng["purge_halves"][state] >= 6).all()
    else:  # capped at 7 calendar turns: the draws end there; 4 markers a family
        draws = eng["outcome"] == L.OUT_DRAW
        assert turns.max() == 7 and draws.any() and (turns[draws] == 7).all()
        assert (eng["outcome"] == L.OUT_ALL_LOSE).any()
        assert eng["markers_on_map"].max() <= 16
        assert max(eng[f"{f} markers_end"].max() for f in L.FAMILIES) == 4


@pytest.mark.parametrize("constant, broken", [
    ("PURGE_TO_WIN", 3.5),  # the State winning with 3.5 purge points
    ("P_CARD", 0.35),  # the random bot playing its cards a little more often
    ("SHOT_HITS", (1, 3)),  # a shot hitting on 1 and 3 only
    ("P_OPTIONAL", 0.6),  # optional activities taken a little more often
])
def test_a_broken_reference_is_caught(monkeypatch, constant, broken):
    """The same checks fail against a reference with one rule changed."""
    name = "default-5"
    players, _, _ = SETUPS[name]
    games = BROKEN_GAMES
    _, eng = engine_sample(name)
    module = load_reference()
    monkeypatch.setattr(module, constant, broken)
    ref = from_reference(module.simulate(players, default_map_path(), games, 4242), players)
    c = Checks()
    for checks in (game_checks, side_checks, card_checks):
        checks(c, ref, eng)
    assert c.failures, f"breaking {constant} went unnoticed"


def test_the_comparison_has_power():
    """A shift of the State's win share by 2.5 points would show as |z| > 4."""
    ref, (_, eng) = reference_sample("default-5"), engine_sample("default-5")
    p = (eng["outcome"] == L.OUT_STATE).mean()
    se = math.sqrt(p * (1 - p) * (1 / ref["games"] + 1 / eng["games"]))
    assert 0.025 / se > 4, se


@pytest.mark.parametrize("name, key", [
    ("longer-5", "spaces_to_win"),  # the reference's families winning with 4 spaces again
    ("state-5", "shootout_hit_faces"),  # its shootouts hitting on an odd die again
    ("capped-4", "cc_removal_faces"),  # its CCs removing markers on an even die again
])
def test_a_reference_ignoring_a_rule_is_caught(name, key):
    """The checks under a variant fail against a reference that plays one of its keys
    as the box has it."""
    players, rules, _ = VARIANTS[name]
    _, eng = engine_sample(name)
    partial = {k: v for k, v in rules.items() if k != key}
    ref = from_reference(load_reference().simulate(players, default_map_path(), BROKEN_GAMES, 4242, partial),
                         players)
    c = Checks()
    for checks in (game_checks, side_checks, card_checks):
        checks(c, ref, eng)
    assert c.failures, f"a reference ignoring {key} under {name} went unnoticed"
