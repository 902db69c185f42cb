"""Statistical cross-check of the engine against the independent reference
implementation (tests/reference/sau_mau_mau_ref.py, written from the rules page
and docs/sau-mau-mau.md without seeing the engine), both with the reference
random bot in every seat, on the assumed track for 2, 4 and 5 players, on two
crowns no shipped file has (a short race, a long one), and under three variants
of the rules (docs/sau-mau-mau.md, "Rules a designer can change"): the issue's
example (bets paying 5-3-2-1-1, six cards dealt), a longer game (six races, more
cards, a +2 of 3 with two steps back a card, a Flapi of 5, an X skipping two) and other scoring (no
crown points, 9 for the last card, a second winning bet paying more than the
first, two races).

For each setup the reference plays a few thousand games and the engine 100,000;
every compared figure is a two-sample z-test with standard errors from the data
(pooled under the null for proportions) or a chi-square homogeneity test of a
distribution (rare categories merged). The thresholds (|z| < 4, p > 1e-4) keep
a false alarm over all the comparisons here (about 380) near 1%; the power test
at the end shows that a shift of half a turn in the mean race length would be
caught.

Breaking the reference on purpose shows the check catches rule errors: see
``test_a_broken_reference_is_caught``.
"""
import functools
import importlib.util
import tempfile
from pathlib import Path

import numpy as np
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau.match import SauMauMauMatch
from analyzer.games.sau_mau_mau.ruleset import RULES
from tests.stat_support import chi2_homogeneity, z_means, z_props

pytestmark = pytest.mark.slow  # the fast tier (make test runs it first) leaves it out

REFERENCE = Path(__file__).resolve().parents[2] / "reference" / "sau_mau_mau_ref.py"
Z_MAX = 4.0
P_MIN = 1e-4
ENGINE_GAMES = 100_000

SETUPS = {
    # name: (players, crown or None for the assumed track's, reference games, rules: the box's but these)
    "default-4": (4, None, 3000, {}),
    "two-players": (2, None, 3000, {}),
    "five-players": (5, None, 2000, {}),
    "short-race": (3, 6, 3000, {}),
    "long-race": (4, 40, 1500, {}),
    "variant-payouts-hand": (4, None, 3000, {"bet_payouts": [5, 3, 2, 1, 1], "hand_size": 6}),
    "variant-long-game": (3, None, 1500, {"races_per_game": 6, "hand_size": 8, "plus_two_step": 3,
                                          "steps_back_per_card": 2, "flapi_move": 5, "x_skips": 2}),
    "variant-scoring": (5, None, 2500, {"crown_points": 0, "last_card_points": 9, "bet_payouts": [2, 7],
                                        "races_per_game": 2}),
}
ENDS = {"crown": 0, "hand": 1, "cap": 2}


def load_reference():
    spec = importlib.util.spec_from_file_location("sau_mau_mau_ref", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def from_reference(games, players):
    races = [r for g in games for r in g["races"]]
    per_game = len(games[0]["races"])
    pl = lambda key: np.array([[p[key] for p in r["players"]] for r in races])  # noqa: E731
    bets = [b for r in races for b in r["bets"]]
    return {
        "games": len(games),
        "races": len(races),
        "race_no": np.tile(np.arange(1, per_game + 1), len(games)),
        "turns": np.array([r["turns"] for r in races]),
        "end": np.array([ENDS[r["end"]] for r in races]),
        "both": np.array([r["both_ends"] for r in races]),
        "winning": np.array([sum(1 << p for p in r["winning_pigs"]) for r in races]),
        "queue": np.array([r["queue_length"] for r in races]),
        "reshuffles": np.array([r["reshuffles"] for r in races]),
        "pos": np.array([r["positions"] for r in races]),
        "ender": np.array([-1 if r["ender"] is None else r["ender"] for r in races]),
        **{key: pl(key) for key in ("race_points", "bet_points", "crown_points", "hand_points", "bets_placed",
                                    "bets_changed", "cards_left", "cards_drawn", "cards_played")},
        "bet_pos": np.array([b["queue_position"] for b in bets]),
        "bet_points_each": np.array([b["points"] for b in bets]),
        "bet_turn": np.array([b["turn_placed"] for b in bets]),
        "bet_changed": np.array([b["changed"] for b in bets]),
        "total": np.array([g["totals"] for g in games]),
        "won": np.array([g["won"] for g in games]).astype(int),
    }


def from_engine(chunk, players):
    c = chunk.view()
    r = np.asarray(c.races, np.int64).reshape(-1, L.RACE_LEN)
    p = np.asarray(c.players, np.int64).reshape(-1, players, L.PL_LEN)
    b = np.asarray(c.bets, np.int64).reshape(-1, L.BET_LEN)
    b = b[b[:, L.BET_PIG] >= 0]
    col = {"race_points": L.PL_RACE_POINTS, "bet_points": L.PL_BET_POINTS, "crown_points": L.PL_CROWN_POINTS,
           "hand_points": L.PL_HAND_POINTS, "bets_placed": L.PL_BETS_PLACED, "bets_changed": L.PL_BETS_CHANGED,
           "cards_left": L.PL_CARDS_LEFT, "cards_drawn": L.PL_CARDS_DRAWN, "cards_played": L.PL_CARDS_PLAYED}
    return {
        "games": c.count,
        "races": len(r),
        "race_no": np.tile(np.arange(1, c.races_per_game + 1), c.count),
        "turns": r[:, L.RACE_TURNS],
        "end": r[:, L.RACE_END],
        "both": r[:, L.RACE_BOTH],
        "winning": r[:, L.RACE_WINNING],
        "queue": r[:, L.RACE_QUEUE_LEN],
        "reshuffles": r[:, L.RACE_RESHUFFLES],
        "pos": r[:, L.RACE_POS:L.RACE_POS + L.N_PIGS],
        "ender": r[:, L.RACE_ENDER],
        **{key: p[:, :, i] for key, i in col.items()},
        "bet_pos": b[:, L.BET_QUEUE_POS],
        "bet_points_each": b[:, L.BET_POINTS],
        "bet_turn": b[:, L.BET_TURN],
        "bet_changed": b[:, L.BET_CHANGED],
        "total": np.asarray(c.games, np.int64)[:, :, L.GM_TOTAL],
        "won": np.asarray(c.games, np.int64)[:, :, L.GM_WON],
    }


@functools.cache
def engine_sample(name):
    """(match, engine figures) of a setup, played once per test session."""
    players, crown, _, rules = SETUPS[name]
    board = None
    if crown is not None:
        board = Path(tempfile.mkdtemp(prefix="smm-track-")) / f"{name}.toml"
        board.write_text(f'[track]\nname = "{name}"\n[track.crown]\n'
                         + "".join(f"{n} = {crown}\n" for n in range(2, 6)))
    match = SauMauMauMatch(None if board is None else str(board), players, [BotSpec("random")] * players,
                           RULES.rules(rules))
    return match, from_engine(match.play(97, 0, ENGINE_GAMES), players)


@pytest.fixture(scope="module", params=list(SETUPS))
def both(request):
    name = request.param
    players, _, ref_games, rules = SETUPS[name]
    match, eng = engine_sample(name)
    ref = from_reference(load_reference().simulate(players, match.crown, ref_games, 4242, rules=rules), players)
    return name, ref, eng, players


def counts(values, k):
    return np.bincount(np.asarray(values).ravel(), minlength=k)[:k]


class Checks:
    def __init__(self):
        self.failures = []

    def z(self, label, z):
        if not abs(z) < Z_MAX:
            self.failures.append(f"{label}: z = {z:.2f}")

    def means(self, label, a, b):
        self.z(f"mean {label}", z_means(a, b))

    def share(self, label, a, b):
        a, b = np.asarray(a).astype(bool), np.asarray(b).astype(bool)
        self.z(f"share {label}", z_props(a.sum(), len(a), b.sum(), len(b)))

    def dist(self, label, a, b, k):
        stat, df, p = chi2_homogeneity(counts(a, k), counts(b, k))
        if not p > P_MIN:
            self.failures.append(f"{label}: chi2 = {stat:.1f} (df {df}), p = {p:.2g}")

    def done(self, name):
        assert not self.failures, f"{name}: " + "; ".join(self.failures)


def race_checks(c, ref, eng, players):
    c.means("turns", ref["turns"], eng["turns"])
    c.dist("turns (binned by 5)", ref["turns"] // 5, eng["turns"] // 5, 400)
    for end, k in ENDS.items():
        c.share(f"races ending by {end}", ref["end"] == k, eng["end"] == k)
    c.share("both ends at once", ref["both"], eng["both"])
    c.dist("queue length", ref["queue"], eng["queue"], L.MAX_PLAYERS + 1)
    # rare in short races: a pooled test of the share (a mean's z with a standard
    # error from the data breaks down when one sample has none)
    c.share("races with a reshuffle", ref["reshuffles"] > 0, eng["reshuffles"] > 0)
    c.dist("reshuffles", ref["reshuffles"], eng["reshuffles"], 20)
    for pig, pig_name in enumerate(L.PIGS):
        c.share(f"races {pig_name} wins", ref["winning"] >> pig & 1, eng["winning"] >> pig & 1)
        c.means(f"final space of {pig_name}", ref["pos"][:, pig], eng["pos"][:, pig])
    shared = lambda w: np.array([bin(int(x)).count("1") > 1 for x in w])  # noqa: E731
    c.share("races won by several pigs", shared(ref["winning"]), shared(eng["winning"]))


def seat_checks(c, ref, eng, players):
    for seat in range(players):
        for key in ("race_points", "bet_points", "crown_points", "hand_points", "bets_placed", "bets_changed",
                    "cards_left", "cards_drawn", "cards_played"):
            c.means(f"seat {seat + 1} {key}", ref[key][:, seat], eng[key][:, seat])
        c.share(f"seat {seat + 1} ends the race", ref["ender"] == seat, eng["ender"] == seat)
        c.means(f"seat {seat + 1} game total", ref["total"][:, seat], eng["total"][:, seat])
        c.share(f"seat {seat + 1} wins the game", ref["won"][:, seat], eng["won"][:, seat])
    # the first player passes left: seat r starts race r, so its points depend on the race number
    for race in range(1, int(eng["race_no"].max()) + 1):
        pick_r, pick_e = ref["race_no"] == race, eng["race_no"] == race
        c.means(f"race {race} points of seat {(race - 1) % players + 1}",
                ref["race_points"][pick_r, (race - 1) % players], eng["race_points"][pick_e, (race - 1) % players])


def bet_checks(c, ref, eng, players):
    c.dist("queue position of the bets", ref["bet_pos"], eng["bet_pos"], L.MAX_PLAYERS + 1)
    c.dist("points of the bets", ref["bet_points_each"], eng["bet_points_each"],
           int(max(ref["bet_points_each"].max(initial=0), eng["bet_points_each"].max(initial=0))) + 1)
    c.share("changed bets in the final queue", ref["bet_changed"], eng["bet_changed"])
    c.means("turn a final bet was laid", ref["bet_turn"], eng["bet_turn"])
    for pos in range(1, min(players, 3) + 1):
        c.means(f"points of a bet in queue place {pos}", ref["bet_points_each"][ref["bet_pos"] == pos],
                eng["bet_points_each"][eng["bet_pos"] == pos])


@pytest.mark.parametrize("checks", [race_checks, seat_checks, bet_checks])
def test_engine_agrees_with_the_reference(both, checks):
    name, ref, eng, players = both
    c = Checks()
    checks(c, ref, eng, players)
    c.done(name)


@pytest.mark.parametrize("constant, broken", [
    ("BET_POINTS", (5, 4, 3, 2, 1)),  # a first winning bet paying 5, not 6
    ("P_CHANGE", 0.15),  # the random bot changing its bet a little more often
    ("HAND_POINTS", 4),  # playing out paying 4, not 5
])
def test_a_broken_reference_is_caught(monkeypatch, constant, broken):
    """The same checks fail against a reference with one rule changed."""
    players, _, games, _ = SETUPS["default-4"]
    match, eng = engine_sample("default-4")
    module = load_reference()
    monkeypatch.setattr(module, constant, broken)
    ref = from_reference(module.simulate(players, match.crown, games, 4242), players)
    c = Checks()
    for checks in (race_checks, seat_checks, bet_checks):
        checks(c, ref, eng, players)
    assert c.failures, f"breaking {constant} went unnoticed"


@pytest.mark.parametrize("setup, key", [
    ("variant-payouts-hand", "bet_payouts"),  # the reference paying the box's 6-4-3-2-1
    ("variant-payouts-hand", "hand_size"),  # dealing the box's five cards
    ("variant-long-game", "steps_back_per_card"),  # one step back a penalty card
    ("variant-long-game", "flapi_move"),  # a Flapi of 3
    ("variant-long-game", "plus_two_step"),  # a +2 of 2
    ("variant-long-game", "x_skips"),  # an X skipping one player
    ("variant-scoring", "last_card_points"),  # 5 for the last card
])
def test_a_reference_playing_the_box_number_is_caught(monkeypatch, setup, key):
    """The same checks fail when the reference plays one key of a variant at the box's value."""
    players, _, games, rules = SETUPS[setup]
    match, eng = engine_sample(setup)
    module = load_reference()
    own = module._rules
    monkeypatch.setattr(module, "_rules", lambda r: {**own(r), key: module.box_rules()[key]})
    ref = from_reference(module.simulate(players, match.crown, games, 4242, rules=rules), players)
    c = Checks()
    for checks in (race_checks, seat_checks, bet_checks):
        checks(c, ref, eng, players)
    assert c.failures, f"the box's {key} in {setup} went unnoticed"


def test_the_comparison_has_power(both):
    """A shift of the mean race length by a tenth of its standard deviation
    would show as |z| > 4: the samples are large enough to see small errors."""
    name, ref, eng, _ = both
    sd = eng["turns"].std()
    se = np.sqrt(ref["turns"].var() / ref["races"] + eng["turns"].var() / eng["races"])
    assert 0.1 * sd / se > 4, (name, sd, se)
    assert eng["games"] == ENGINE_GAMES
