"""Statistical cross-check of the engine against the independent reference
implementation (tests/reference/lemming_mafia_ref.py), both with the reference
random bot in every seat, on the rules page's default board and three invented
ones (more getaways, sections of 1-4 fields with another deck, concrete right
after the start), and under two variants of the rules (``--rule``): one that
lengthens the race (five blocks to eliminate, a three-sided getaway die, a
jackhammer taking two blocks, four contracts each) and one that changes the
scoring (bet points 5, 3, 2 by placing order, -4 for an unfulfilled contract,
two contracts each, up to three bets at a bookmaker and two discards at a boss).

For each board the reference plays 16,000 races and the engine 200,000; every
compared figure is a two-sample z-test with standard errors estimated from the
data (pooled under the null for proportions), or a chi-square homogeneity test
for a distribution (rare categories merged). The thresholds (|z| < 4,
p > 1e-4) keep a false alarm over all the comparisons here (about 230) near
1%, while a real difference of a few percent of a figure's spread is caught:
with 16,000 reference races the standard error of a mean is under 1% of its
standard deviation.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S  # noqa: E402

from analyzer.engine.botspec import BotSpec  # noqa: E402
from analyzer.games.lemming_mafia import layout as L  # noqa: E402
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch  # noqa: E402
from analyzer.games.lemming_mafia.ruleset import RULES  # noqa: E402

pytestmark = pytest.mark.slow  # the fast tier (make test runs it first) leaves it out

Z_MAX = 4.0
P_MIN = 1e-4
ENGINE_RACES = 200_000

# Ten sections with ten getaway cars among 25 fields: long chains and blocked jumps.
GETAWAY_BOARD = [
    ["getaway", "bookmaker", "empty"], ["concrete", "getaway"],
    ["getaway", "concrete", "boss"], ["bookmaker", "getaway"],
    ["concrete", "jackhammer", "getaway"], ["getaway", "bookmaker"],
    ["concrete", "getaway", "concrete"], ["boss", "getaway"],
    ["getaway", "concrete", "bookmaker"], ["jackhammer", "getaway"],
]
# Sections of 1 to 4 fields.
ODD_BOARD = [
    ["concrete"], ["bookmaker", "getaway"], ["empty", "concrete", "jackhammer", "boss"],
    ["getaway"], ["concrete", "bookmaker", "empty"], ["boss", "concrete", "getaway", "jackhammer"],
    ["bookmaker"], ["concrete", "empty"], ["getaway", "concrete", "bookmaker", "empty"],
    ["jackhammer", "concrete", "boss"], ["bookmaker", "getaway"], ["concrete"],
]
# Concrete right after the start: lemmings are eliminated while others still
# wait in the start area, so dice of eliminated colours often stand for several
# lemmings tied for last place.
CONCRETE_START_BOARD = [
    ["concrete"], ["concrete"], ["concrete"], ["jackhammer", "empty"], ["bookmaker", "jackhammer"],
    ["boss", "empty", "concrete"], ["getaway", "bookmaker"], ["concrete", "empty"],
    ["bookmaker", "empty", "jackhammer"], ["empty", "boss"],
]
# A deck of 15 cards with other printed points than the default.
ODD_DECK = """
[[contracts]]
kind = "eliminated"
colors = ["grey", "pink"]
points = 2
[[contracts]]
kind = "eliminated"
colors = ["blue", "red"]
points = 2
[[contracts]]
kind = "before"
colors = ["green", "red"]
points = 3
[[contracts]]
kind = "before"
colors = ["red", "green"]
points = 3
[[contracts]]
kind = "before"
colors = ["purple", "pink"]
points = 1
[[contracts]]
kind = "top3"
colors = ["blue"]
points = 2
[[contracts]]
kind = "top3"
colors = ["grey"]
points = 2
[[contracts]]
kind = "top3"
colors = ["green"]
points = 4
[[contracts]]
kind = "top3"
colors = ["red"]
points = 4
[[contracts]]
kind = "at_most_one_eliminated"
points = 6
[[contracts]]
kind = "at_most_one_eliminated"
points = 6
[[contracts]]
kind = "at_least_three_eliminated"
points = 3
[[contracts]]
kind = "at_least_three_eliminated"
colors = []
points = 3
[[contracts]]
kind = "winner_clean"
points = 5
[[contracts]]
kind = "winner_clean"
points = 7
"""

# the rules of the variants (the same keys for the engine's --rule and the reference)
LONGER_RACE = {"blocks_to_eliminate": 5, "getaway_die": 3, "jackhammer_removes": 2, "contracts_dealt": 4}
OTHER_SCORING = {"bet_points": [5, 3, 2], "unfulfilled_contract": -4, "contracts_dealt": 2,
                 "bets_per_bookmaker": 3, "discards_per_boss": 2}

SETUPS = {
    # name: (sections or None for the rules page's default, deck TOML or None, players, reference races,
    # rules or None for the box's)
    "default": (None, None, 4, 16000, None),
    "getaways": (GETAWAY_BOARD, None, 5, 16000, None),
    "odd-sections": (ODD_BOARD, ODD_DECK, 3, 16000, None),
    "concrete-start": (CONCRETE_START_BOARD, None, 4, 16000, None),
    "longer-race": (None, None, 4, 16000, LONGER_RACE),
    "other-scoring": (GETAWAY_BOARD, None, 5, 16000, OTHER_SCORING),
}


def board_file(tmp, name, sections, deck):
    if sections is None:
        return S.EXAMPLE_BOARD  # the rules page's default, as the reference reads it
    path = tmp / f"{name}.toml"
    text = S.board_toml(sections, name=name, with_deck=deck is None)
    if deck is not None:
        text += "\n" + deck
    path.write_text(text)
    return path


def from_reference(results, players, rules=None):
    n = len(results)
    col = lambda key: np.array([r[key] for r in results])  # noqa: E731
    rows = [(kind, bool(held), bool(ok)) for r in results for seat in r["contracts"]
            for kind, _, _, held, ok, _ in seat]
    return {
        "n": n,
        "turns": col("turns"),
        "eliminated": col("eliminated"),
        "water": col("finish") == "water",
        "winner": col("winner"),
        "winner_blocks": col("winner_blocks"),
        "places": col("places"),
        "bet": col("bet_points"),
        "contract": col("contract_points"),
        "score": col("score"),
        "won": col("won").astype(int),
        "bets_placed": col("bets_placed"),
        "discarded": col("discarded"),
        "ct_kind": np.array([L.CONTRACT_KINDS.index(k) for k, _, _ in rows]),
        "ct_held": np.array([h for _, h, _ in rows]),
        "ct_ok": np.array([o for _, _, o in rows]),
        "blocks_to_eliminate": S.load_reference().rules_of(rules)["blocks_to_eliminate"],
    }


def from_engine(match, chunk):
    c = chunk.view()
    r = np.asarray(c.races, np.int64)
    p = np.asarray(c.players, np.int64)
    ct = np.asarray(c.contracts, np.int64)
    deck = match.deck.array
    return {
        "n": c.count,
        "turns": r[:, L.RACE_TURNS],
        "eliminated": r[:, L.RACE_N_ELIM],
        "water": r[:, L.RACE_FINISH] == L.FINISH_WATER,
        "winner": r[:, L.RACE_WINNER],
        "winner_blocks": r[:, L.RACE_WINNER_BLOCKS],
        "places": r[:, L.RACE_PLACE:L.RACE_PLACE + 6],
        "bet": p[:, :, L.PL_BET_POINTS],
        "contract": p[:, :, L.PL_CONTRACT_POINTS],
        "score": p[:, :, L.PL_SCORE],
        "won": p[:, :, L.PL_WON],
        "bets_placed": p[:, :, L.PL_BETS_PLACED],
        "discarded": p[:, :, L.PL_DISCARDED],
        "ct_kind": deck[ct[:, :, :, L.CT_CARD].ravel(), L.DECK_KIND],
        "ct_held": ct[:, :, :, L.CT_DISCARDED].ravel() == 0,
        "ct_ok": ct[:, :, :, L.CT_FULFILLED].ravel() == 1,
        "blocks_to_eliminate": match.rules["blocks_to_eliminate"],
    }


@pytest.fixture(scope="module", params=list(SETUPS))
def both(request, tmp_path_factory):
    name = request.param
    sections, deck, players, ref_races, rules = SETUPS[name]
    path = board_file(tmp_path_factory.mktemp(name), name, sections, deck)
    ref_impl = S.load_reference()
    ref = from_reference(ref_impl.simulate(str(path), players, ref_races, 4242, rules), players, rules)
    match = LemmingMafiaMatch(None if sections is None else str(path), players,
                              [BotSpec("random")] * players, rules=RULES.rules(rules))
    if sections is None:  # the engine's shipped default is the reference's board
        ref_sections, ref_deck = ref_impl.load(str(S.EXAMPLE_BOARD))
        assert [tuple(s) for s in ref_sections] == list(match.board.sections)
        assert [(k, tuple(L.COLORS[i] for i in cs), pts) for k, cs, pts in ref_deck] == \
            list(match.deck.cards)
    eng = from_engine(match, match.play(97, 0, ENGINE_RACES))
    return name, ref, eng, players


def check(failures, label, z):
    if not abs(z) < Z_MAX:
        failures.append(f"{label}: z = {z:.2f}")


def check_p(failures, label, test):
    stat, df, p = test
    if not p > P_MIN:
        failures.append(f"{label}: chi2 = {stat:.1f} (df {df}), p = {p:.2g}")


def counts(values, k):
    return np.bincount(np.asarray(values).ravel(), minlength=k)[:k]


def race_failures(ref, eng, players) -> list[str]:
    failures = []
    check(failures, "mean turns", S.z_means(ref["turns"], eng["turns"]))
    check(failures, "mean eliminated", S.z_means(ref["eliminated"], eng["eliminated"]))
    check_p(failures, "eliminated distribution",
            S.chi2_homogeneity(counts(ref["eliminated"], 6), counts(eng["eliminated"], 6)))
    check(failures, "water finish share",
          S.z_props(ref["water"].sum(), ref["n"], eng["water"].sum(), eng["n"]))
    check(failures, "last standing iff 5 out (reference)",
          0 if np.array_equal(~ref["water"], ref["eliminated"] == 5) else 99)
    check(failures, "mean winner blocks", S.z_means(ref["winner_blocks"], eng["winner_blocks"]))
    most = max(ref["blocks_to_eliminate"], eng["blocks_to_eliminate"])  # a winner carries one block fewer at most
    check_p(failures, "winner blocks distribution",
            S.chi2_homogeneity(counts(ref["winner_blocks"], most), counts(eng["winner_blocks"], most)))
    check_p(failures, "winning colour",
            S.chi2_homogeneity(counts(ref["winner"], 6), counts(eng["winner"], 6)))
    for lem, color in enumerate(L.COLORS):
        check_p(failures, f"final place of {color}",
                S.chi2_homogeneity(counts(ref["places"][:, lem], 7), counts(eng["places"][:, lem], 7)))
    # lemmings that never left the start area share a place: how often that happens
    tie = lambda places: (np.sort(places, axis=1)[:, 1:] == np.sort(places, axis=1)[:, :-1]).any(axis=1)  # noqa: E731
    check(failures, "races with a start-area tie",
          S.z_props(tie(ref["places"]).sum(), ref["n"], tie(eng["places"]).sum(), eng["n"]))
    return failures


def seat_failures(ref, eng, players) -> list[str]:
    failures = []
    for seat in range(players):
        for key in ("bet", "contract", "score", "bets_placed", "discarded"):
            check(failures, f"seat {seat + 1} mean {key}",
                  S.z_means(ref[key][:, seat], eng[key][:, seat]))
        check(failures, f"seat {seat + 1} win rate",
              S.z_props(ref["won"][:, seat].sum(), ref["n"], eng["won"][:, seat].sum(), eng["n"]))
    shared_ref = (ref["won"].sum(axis=1) > 1).sum()
    shared_eng = (eng["won"].sum(axis=1) > 1).sum()
    check(failures, "shared win share", S.z_props(shared_ref, ref["n"], shared_eng, eng["n"]))
    return failures


def contract_failures(ref, eng, players) -> list[str]:
    failures = []
    for kind, kind_name in enumerate(L.CONTRACT_KINDS):
        rk, ek = ref["ct_kind"] == kind, eng["ct_kind"] == kind
        if rk.sum() == 0 and ek.sum() == 0:
            continue
        assert rk.sum() > 0 and ek.sum() > 0, kind_name
        check(failures, f"{kind_name} dealt share",
              S.z_props(rk.sum(), len(rk), ek.sum(), len(ek)))
        check(failures, f"{kind_name} fulfilled share",
              S.z_props(ref["ct_ok"][rk].sum(), rk.sum(), eng["ct_ok"][ek].sum(), ek.sum()))
        check(failures, f"{kind_name} held share",
              S.z_props(ref["ct_held"][rk].sum(), rk.sum(), eng["ct_held"][ek].sum(), ek.sum()))
    return failures


@pytest.mark.parametrize("figures", [race_failures, seat_failures, contract_failures])
def test_engine_agrees_with_the_reference(both, figures):
    name, ref, eng, players = both
    failures = figures(ref, eng, players)
    assert not failures, f"{name}: " + "; ".join(failures)


@pytest.mark.parametrize("constant, broken", [
    ("UNFULFILLED_PENALTY", -1),  # an unfulfilled contract costing 1, not 2
    ("BLOCKS_TO_ELIMINATE", 2),  # the second block eliminating, not the third
])
def test_a_broken_reference_is_caught(monkeypatch, tmp_path, constant, broken):
    """The same checks fail against a reference with one rule changed."""
    _, _, players, ref_races, _ = SETUPS["default"]
    module = S.load_reference()
    monkeypatch.setattr(module, constant, broken)
    ref = from_reference(module.simulate(str(S.EXAMPLE_BOARD), players, ref_races, 4242), players)
    match = LemmingMafiaMatch(None, players, [BotSpec("random")] * players)
    eng = from_engine(match, match.play(97, 0, ENGINE_RACES))
    failures = sum((f(ref, eng, players) for f in (race_failures, seat_failures, contract_failures)), [])
    assert failures, f"breaking {constant} went unnoticed"


def test_the_comparison_has_power(both):
    """The engine's sample is large and the reference's not tiny: a shift of the
    mean race length by one move would show as |z| > 10."""
    name, ref, eng, _ = both
    se = np.sqrt(ref["turns"].var() / ref["n"] + eng["turns"].var() / eng["n"])
    assert 1.0 / se > 10, (name, se)
    assert eng["n"] == ENGINE_RACES
