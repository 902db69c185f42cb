"""The look-ahead bot's playouts only log their bookmaker and boss rounds; after
the race every seat's answers to them are drawn as the reference random bot
would answer them in turn (``lookahead.random_points``: two coin counts and a
few uniform draws, not one draw a round). Here the points this gives are
checked against their exact law, computed from the rules page's random bot
round by round, and the same samples must reject the law of one round more;
under the box's rules and under a variant (``--rule``)."""
from fractions import Fraction
from functools import lru_cache

import numpy as np
from scipy.stats import chi2

import tests.games.lemming_mafia.lm_support as S
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.board import pack_game
from analyzer.games.lemming_mafia.bots import RANDOM
from analyzer.games.lemming_mafia.lookahead import random_points
from analyzer.games.lemming_mafia.rules import card_entry, contract_fulfilled
from analyzer.games.lemming_mafia.ruleset import RULES

SAMPLES = 3000


def exact_points(stack, hand, held, worth, rounds, winner, table=(1, 2, 3, 4, 5, 6)):
    """The law of the final points of a random seat: ``rounds`` in turn, each
    (kind, most cards); in a round, again and again while it may, a pass with
    chance 1/2 (which ends its part of the round), else each card held
    (bookmaker: a bet card onto the stack; boss: a contract discarded) with
    chance 1/(2 x cards held). The winner's card pays ``table`` by its stack
    position (the last entry past the list)."""
    @lru_cache(maxsize=None)
    def law(i, k, stack, hand, held):
        if i == len(rounds):
            points = sum(table[min(j, len(table) - 1)] for j, color in enumerate(stack) if color == winner)
            return {points + sum(worth[slot] for slot in held): Fraction(1)}
        kind, most = rounds[i]
        cards = hand if kind == L.DECIDE_BET else held
        if not cards or k == most:
            return law(i + 1, 0, stack, hand, held)
        out = {}
        branches = [(Fraction(1, 2), i + 1, 0, (stack, hand, held))]
        for card in cards:
            after = ((stack + (card,), hand - {card}, held) if kind == L.DECIDE_BET
                     else (stack, hand, held - {card}))
            branches.append((Fraction(1, 2 * len(cards)), i, k + 1, after))
        for chance, j, taken, after in branches:
            for points, p in law(j, taken, *after).items():
                out[points] = out.get(points, 0) + chance * p
        return out
    return law(0, 0, tuple(stack), frozenset(hand), frozenset(held))


def chi_square_p(counts, law):
    support = sorted(law)
    assert set(counts) <= set(support), f"points outside the law: {set(counts) - set(support)}"
    n = sum(counts.values())
    stat = sum((counts.get(v, 0) - n * float(law[v])) ** 2 / (n * float(law[v])) for v in support)
    return chi2.sf(stat, max(1, len(support) - 1))


def check_the_law(game, seed, leads=False):
    """24 random seats of ``game`` (its rules: contracts dealt, bet points, what
    an unfulfilled contract scores, cards a round): the p-values of
    ``random_points``' samples against the exact law, and against the law of one
    bookmaker round more. ``leads``: with a part of a round still to play first."""
    rng = np.random.default_rng(seed)
    at = L.OWN_LEN  # the second seat's row: offsets are honoured
    dealt = int(game[L.G_CONTRACTS_DEALT])
    table = tuple(int(x) for x in game[L.G_BET_POINTS:L.G_BET_POINTS + 6])
    per = {L.DECIDE_BET: int(game[L.G_BETS_PER_BOOKMAKER]), L.DECIDE_DISCARD: int(game[L.G_DISCARDS_PER_BOSS])}
    p_values, p_one_more = [], []
    for _ in range(24):
        sim = np.zeros(game[L.G_S_LEN], np.int64)
        sim[L.PUB_BLOCKS:L.PUB_BLOCKS + L.N_LEMMINGS] = rng.integers(0, 3, L.N_LEMMINGS)
        places = rng.permutation(L.N_LEMMINGS) + 1
        winner = int(np.argmin(places))
        row = np.zeros(2 * L.OWN_LEN, np.int64)
        colors = [int(c) for c in rng.permutation(L.N_LEMMINGS)]
        colors.remove(winner)
        colors.insert(int(rng.integers(0, L.N_LEMMINGS)), winner)  # in hand, or on the stack (1 in 2)
        n_stack = int(rng.integers(0, 4))
        stack, hand = colors[:n_stack], colors[n_stack:]
        row[at + L.OWN_STACK:at + L.OWN_STACK + n_stack] = stack
        row[at + L.OWN_STACK_N] = n_stack
        row[at + L.OWN_HAND + np.array(hand)] = 1
        held = [slot for slot in range(dealt) if rng.random() < 0.8]
        row[at + L.OWN_HELD + np.array(held, int)] = 1
        cards = rng.choice(game[L.G_N_CARDS], dealt, replace=False)
        row[at + L.OWN_CONTRACT:at + L.OWN_CONTRACT + dealt] = cards
        worth = [card_entry(game, c, L.DECK_POINTS) if contract_fulfilled(game, sim, c, places, winner)
                 else int(game[L.G_UNFULFILLED]) for c in cards]
        bets, boss = int(rng.integers(1, 6)), int(rng.integers(0, 4))
        rounds = [(L.DECIDE_BET, per[L.DECIDE_BET])] * bets + [(L.DECIDE_DISCARD, per[L.DECIDE_DISCARD])] * boss
        rng.shuffle(rounds)  # the answers do not depend on the order of the rounds
        lead_bets = int(rng.integers(0, per[L.DECIDE_BET])) if leads else 0
        lead_boss = int(rng.integers(0, per[L.DECIDE_DISCARD])) if leads else 0
        rounds = [(L.DECIDE_BET, lead_bets)] * (lead_bets > 0) + [(L.DECIDE_DISCARD, lead_boss)] * (lead_boss > 0) \
            + rounds
        row[at + L.OWN_RNG] = rng.integers(-2**63, 2**63 - 1)

        counts = {}
        for _ in range(SAMPLES):  # the stream continues from call to call
            v = int(random_points(game, sim, row, at, bets, boss, places, winner, lead_bets, lead_boss))
            counts[v] = counts.get(v, 0) + 1
        hand_set = set(hand)
        p_values.append(chi_square_p(counts, exact_points(stack, hand_set, held, worth, rounds, winner, table)))
        one_more = exact_points(stack, hand_set, held, worth, rounds + [(L.DECIDE_BET, per[L.DECIDE_BET])],
                                winner, table)
        if set(counts) <= set(one_more):
            p_one_more.append(chi_square_p(counts, one_more))
        else:
            p_one_more.append(0.0)
    return p_values, p_one_more


def test_answers_after_the_race_follow_the_random_bots_law():
    p_values, p_one_more = check_the_law(pack_game(S.DEFAULT_BOARD, S.DEFAULT_DECK, [RANDOM] * 4), 3)
    # 24 tests at 1 in 10,000 each: a false alarm has a chance below 1 in 400
    assert min(p_values) > 1e-4, p_values
    # the same samples tell one bookmaker round more apart in most configurations
    assert sum(p < 1e-4 for p in p_one_more) >= 12, p_one_more


def test_the_law_holds_under_a_variant_of_the_rules():
    """The same under other rules: five contracts dealt, bet points 4, 1, 7 (7 on
    from the third card), -3 for an unfulfilled contract, up to three bets at a
    bookmaker and two discards at a boss, a part of a round first (the bot's own
    further cards in the round of its decision)."""
    rules = RULES.rules({"contracts_dealt": 5, "bet_points": [4, 1, 7], "unfulfilled_contract": -3,
                         "bets_per_bookmaker": 3, "discards_per_boss": 2})
    game = pack_game(S.DEFAULT_BOARD, S.DEFAULT_DECK, [RANDOM] * 3, rules)
    p_values, p_one_more = check_the_law(game, 5, leads=True)
    assert min(p_values) > 1e-4, p_values
    assert sum(p < 1e-4 for p in p_one_more) >= 12, p_one_more


def test_an_option_is_worth_twice_its_margin_plus_the_win_points():
    """The look-ahead's objective in half points (``lookahead.worth``): twice the
    score less the best other score, plus ``win_points`` (given doubled) for a
    score above every other and half of them for a tie; none for a loss."""
    from analyzer.games.lemming_mafia.lookahead import worth

    assert worth(7, 5, 0) == 4  # win_points=0: the margin alone (the bot before it had the option)
    assert worth(3, 5, 0) == -4
    assert worth(7, 5, 20) == 24  # win_points=10: a win adds 20 half points
    assert worth(5, 5, 20) == 10  # a tie, half of them
    assert worth(4, 5, 20) == -2  # a loss, none
