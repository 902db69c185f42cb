"""The rulebook's examples and the rules page, checked turn by turn on hand-made
tables whose players answer from a script (``smm_support.Table``)."""
import sys
from pathlib import Path

import pytest

from tests.games.sau_mau_mau.smm_support import BEIGE, BLACK, BROWN, PINK, Table, card  # noqa: E402

from analyzer.games.sau_mau_mau import layout as L  # noqa: E402
from analyzer.games.sau_mau_mau import rules as R  # noqa: E402


# ------------------------------------------------------------------ the cards

def test_the_39_cards():
    kinds = [int(R.card_kind(c)) for c in range(L.N_CARDS)]
    assert [kinds.count(k) for k in range(5)] == [24, 4, 4, 4, 3]
    numbered = {(int(R.card_color(c)), int(R.card_number(c))) for c in range(24)}
    assert numbered == {(c, n) for c in range(4) for n in range(1, 7)}
    for kind in (L.SKIP, L.PLUS2, L.FLAPI):  # one per colour
        assert sorted(int(R.card_color(c)) for c in range(39) if kinds[c] == kind) == [0, 1, 2, 3]
    assert [int(R.card_color(c)) for c in range(36, 39)] == [-1, -1, -1]
    assert L.card_name(card("number", BROWN, 5)) == "5 brown"
    assert L.card_name(card("Flapi", BEIGE)) == "Flapi beige"


def valid_cards(t):
    return [c for c in range(L.N_CARDS) if R.is_valid(t.state, c)]


def test_five_brown_example():
    """On the 5 brown: any brown card, any 5, any green special."""
    t = Table()
    t.arrange([[], [], []], top=card("number", BROWN, 5))
    brown = [c for c in range(36) if R.card_color(c) == BROWN and R.card_kind(c) != L.FLAPI]
    fives = [card("number", c, 5) for c in range(4)]
    green = list(range(32, 39))
    assert valid_cards(t) == sorted(set(brown + fives + green))
    assert len(valid_cards(t)) == 8 + 3 + 7


def test_symbols_match_and_flapi_asks_its_colour():
    t = Table()
    t.arrange([[], [], []], top=card("X", PINK))
    assert card("X", BEIGE) in valid_cards(t) and card("+2", BEIGE) not in valid_cards(t)
    t.arrange([[], [], []], top=card("+2", BLACK))
    assert card("+2", PINK) in valid_cards(t) and card("X", PINK) not in valid_cards(t)
    t.arrange([[], [], []], top=card("Flapi", BLACK))  # a turned-up Flapi: its colour only
    assert valid_cards(t) == sorted([c for c in range(36) if R.card_color(c) == BLACK
                                     and R.card_kind(c) != L.FLAPI] + list(range(32, 39)))


def test_a_first_x_or_plus2_counts_by_its_colour_alone():
    """Rulebook: « s'il s'agit d'un "+2", d'un "X" ou d'un "Flapi", on ne tiendra compte
    que de la couleur de la carte »: on a turned-up X or +2 the next card must have its
    colour (or be green); another X or +2 does not match it by symbol."""
    colour_only = lambda color: sorted([c for c in range(36) if R.card_color(c) == color  # noqa: E731
                                        and R.card_kind(c) != L.FLAPI] + list(range(32, 39)))
    t = Table()
    for top, color in ((card("X", PINK), PINK), (card("+2", BLACK), BLACK)):
        t.arrange([[], [], []], top=top, first=True)
        assert valid_cards(t) == colour_only(color)
    # a first number card matches its number as any number card does
    t.arrange([[], [], []], top=card("number", BROWN, 5), first=True)
    assert card("number", PINK, 5) in valid_cards(t)
    # dealt by the race's own setup: every seed that turns up an X or a +2
    seen = set()
    for seed in range(400):
        t = Table(seed=seed)
        top = int(t.state[L.PUB_TOP])
        if R.card_kind(top) in (L.SKIP, L.PLUS2):
            seen.add(int(R.card_kind(top)))
            assert valid_cards(t) == colour_only(R.card_color(top)), top
    assert seen == {L.SKIP, L.PLUS2}


def test_a_played_x_or_plus2_still_matches_by_symbol():
    """Only the card turned up to start the race loses its symbol: once an X of
    the first colour is played on it, an X of any colour may follow."""
    t = Table()
    x_pink, x_beige = card("X", PINK), card("X", BEIGE)
    t.arrange([[x_pink, 0], [x_beige, 1], []], top=card("X", BROWN), first=True)
    assert x_pink not in valid_cards(t)
    t.arrange([[x_pink, 0], [x_beige, 1], []], top=card("number", PINK, 3), first=True)
    t.script(t.play(0, x_pink))
    t.turn()
    assert x_beige in valid_cards(t)


def test_first_farmer_lets_any_card_be_played():
    for seed in range(500):
        t = Table(seed=seed)
        if t.state[L.PUB_TOP] >= L.FIRST_FARMER:
            break
    else:
        pytest.fail("no seed turned up a Farmer")
    assert t.state[L.PUB_NEED] == -1
    assert valid_cards(t) == list(range(L.N_CARDS))


def test_first_card_triggers_no_action():
    for seed in range(500):
        t = Table(seed=seed)
        top = t.state[L.PUB_TOP]
        assert t.state[L.PUB_PENALTY] == 0 and t.state[L.PUB_SKIP] == 0
        assert t.state[L.PUB_POS:L.PUB_POS + 4].tolist() == [0, 0, 0, 0]
        assert t.state[L.PUB_NEED] == R.card_color(top)
        assert [len(t.hand(s)) for s in range(3)] == [5, 5, 5]
        assert t.state[L.PUB_PILE_N] == 39 - 15 - 1


def test_farmer_names_the_colour():
    t = Table()
    farmer = 37
    t.arrange([[farmer, card("number", PINK, 1)], [], []], top=card("number", BROWN, 2))
    t.script(t.play(0, farmer), BEIGE)
    assert t.turn() == R.RACE_ON
    assert t.state[L.PUB_NEED] == BEIGE and t.pos == [0, 0, 0, 0]
    assert card("number", BEIGE, 3) in valid_cards(t)
    assert card("number", BROWN, 3) not in valid_cards(t)
    assert set(range(32, 39)) - {farmer} <= set(valid_cards(t))


# ------------------------------------------------------------------ moves

def test_number_moves_its_pig_exactly():
    t = Table()
    four_black = card("number", BLACK, 4)
    t.arrange([[four_black, 0], [], []], top=card("number", BLACK, 1), pos=(3, 0, 2, 0))
    t.script(t.play(0, four_black))
    assert t.turn() == R.RACE_ON
    assert t.pos == [3, 0, 6, 0]
    assert t.state[L.PUB_TOP] == four_black and t.state[L.PUB_MOVER] == 1


def test_flapi_moves_the_last_pig_chosen_among_tied():
    t = Table()
    flapi = card("Flapi", PINK)
    t.arrange([[flapi, 0], [], []], top=card("number", BLACK, 1), pos=(2, 0, 0, 5))
    t.script(t.play(0, flapi), 1)  # last pigs: brown, black; take black
    t.turn()
    assert t.pos == [2, 0, 3, 5]
    assert t.state[L.PUB_NEED] == PINK and t.unused_answers == 0
    t2 = Table()
    t2.arrange([[flapi, 0], [], []], top=card("number", BLACK, 1), pos=(2, 1, 4, 5))
    t2.script(t2.play(0, flapi))  # one last pig: no question
    t2.turn()
    assert t2.pos == [2, 4, 4, 5] and t2.unused_answers == 0


def test_x_skips_the_next_player_and_the_turn_counts():
    t = Table()
    x = card("X", PINK)
    t.arrange([[x, 0], [1, 2], [3, 4]], top=card("number", PINK, 6))
    t.script(t.play(0, x), t.play(2, 3))
    t.turn()
    assert t.turn() == R.RACE_ON  # seat 1 skipped: asked nothing
    assert t.hand(1) == [1, 2] and t.state[L.PUB_TURN] == 2
    assert t.state[L.PUB_MOVER] == 2
    t.turn()
    assert t.hand(2) == [4] and t.state[L.PUB_TURN] == 3 and t.unused_answers == 0


def test_drawing_is_allowed_with_a_valid_card_and_offers_a_bet():
    t = Table()
    t.arrange([[0, 1], [], []], top=card("number", PINK, 6))
    t.script(-1, BLACK)
    t.turn()
    assert len(t.hand(0)) == 3 and t.queue == [(0, BLACK)]


def test_no_bet_without_a_draw():
    t = Table()
    t.arrange([[0, 1], [], []], top=card("number", PINK, 6))
    t.script(0, BLACK)
    t.turn()
    assert t.queue == [] and t.unused_answers == 1


def test_reshuffle_keeps_the_top_card():
    t = Table()
    under = [5, 6, 7]
    top = card("number", PINK, 3)
    t.arrange([[0], [], []], top=top, discard=under)
    others = [c for c in range(39) if c not in under + [top, 0]]
    # every other card into seat 1's and 2's hands: the pile is empty
    s, h = t.state, t.hidden
    for seat, cards in ((1, others[:17]), (2, others[17:])):
        at = seat * L.OWN_LEN
        h[at + L.OWN_HAND:at + L.OWN_HAND + len(cards)] = cards
        h[at + L.OWN_HAND_N] = len(cards)
        s[L.PUB_HAND_N + seat] = len(cards)
    t.set_pile([])
    assert R.check_invariants(t.game, s, h)
    t.script(-1, -1)
    t.turn()
    assert s[L.PUB_DISCARD_N] == 1 and s[L.PUB_TOP] == top and h[L.H_DISCARD] == top
    assert s[L.PUB_PILE_N] == 2 and len(t.hand(0)) == 2 and s[L.PUB_RESHUFFLES] == 1
    assert set(t.hand(0)) - {0} <= set(under)


# ------------------------------------------------------------------ +2

def plus2_chain(steps, pos=(5, 3, 0, 1)):
    """Anna plays a +2, Bernd passes it on, Christiane draws 4 and steps back."""
    t = Table()
    anna = [card("+2", PINK), card("number", PINK, 1), card("number", PINK, 2)]
    bernd = [card("+2", BROWN), card("number", BROWN, 3)]
    christiane = [card("number", BLACK, 4), card("number", BLACK, 5)]
    t.arrange([anna, bernd, christiane], top=card("number", PINK, 6), pos=pos)
    assert t.options(0) == anna
    t.script(0)
    t.turn()
    assert t.state[L.PUB_PENALTY] == 2
    assert t.options(1) == [card("+2", BROWN)]  # only a +2 stops the penalty
    t.script(0)
    t.turn()
    assert t.state[L.PUB_PENALTY] == 4 and t.options(2) == []
    t.script(-1, *steps, -1)
    return t, t.turn()


def test_plus2_chain_four_cards_all_steps_on_one_pig():
    t, result = plus2_chain([0, 0, 0, 0])  # options: pink, brown, beige (black at start)
    assert result == R.RACE_ON
    assert len(t.hand(2)) == 6 and t.state[L.PUB_PENALTY] == 0
    assert t.state[L.PUB_DRAWN] == 4
    assert t.pos == [1, 3, 0, 1] and t.unused_answers == 0  # and it was offered a bet


def test_plus2_chain_four_steps_split():
    t, _ = plus2_chain([0, 0, 1, 2])
    assert t.pos == [3, 2, 0, 0] and t.unused_answers == 0


def test_plus2_steps_may_stop_early():
    t = plus2_chain([1, -1])[0]
    assert t.pos == [5, 2, 0, 1]
    assert t.unused_answers == 0  # draw, one step, stop (-1), then the bet (-1)
    assert t.queue == []


def test_plus2_steps_never_behind_start():
    t, _ = plus2_chain([1, 0, 0, 0], pos=(5, 0, 0, 1))  # options pink, beige; then only pink
    assert t.pos == [2, 0, 0, 0]
    t, result = plus2_chain([1, 1], pos=(5, 0, 0, 1))  # second step: index 1 is no pig now
    assert result == R.BOT_ERROR and t.state[L.PUB_ERROR] == L.ERROR_STEP * 8 + 2


def test_plus2_with_every_pig_on_start_asks_no_step():
    t, _ = plus2_chain([], pos=(0, 0, 0, 0))
    assert t.unused_answers == 0 and t.pos == [0, 0, 0, 0]


def test_plus2_as_last_card_ends_the_race_without_draw():
    t = Table()
    t.arrange([[card("+2", PINK)], [1, 2], []], top=card("number", PINK, 6), pos=(4, 2, 4, 0))
    t.script(0)
    assert t.turn() == R.ENDS_HAND
    assert t.hand(1) == [1, 2]
    race, players, _ = t.score(R.ENDS_HAND)
    assert players[0, L.PL_HAND_POINTS] == 5 and players[0, L.PL_RACE_POINTS] == 5
    assert race[L.RACE_END] == L.END_HAND and race[L.RACE_WINNING] == 0b0101  # pink, black tied


# ------------------------------------------------------------------ bets

def test_bet_change_goes_to_the_back():
    t = Table(players=4)
    t.arrange([[], [], [], []], top=0)
    for seat, pig in ((0, PINK), (1, BROWN), (2, BLACK), (3, PINK)):
        R.place_bet(t.state, t.hidden, seat, pig)
    R.place_bet(t.state, t.hidden, 1, BEIGE)  # takes back brown; the gap closes
    assert t.queue == [(0, PINK), (2, BLACK), (3, PINK), (1, BEIGE)]
    assert R.check_invariants(t.game, t.state, t.hidden)
    t.state[L.PUB_POS:L.PUB_POS + 4] = (9, 2, 3, 9)
    race, players, bets = t.score(0)  # pink and beige tie ahead (no crown)
    assert race[L.RACE_WINNING] == 0b1001 and race[L.RACE_QUEUE_LEN] == 4
    assert players[:, L.PL_BET_POINTS].tolist() == [6, 3, 0, 4]
    assert bets[1].tolist() == [BEIGE, 4, 0, 1, 3]
    assert players[1, L.PL_BETS_PLACED] == 2 and players[1, L.PL_BETS_CHANGED] == 1


def test_bet_change_through_a_turn():
    t = Table()
    t.arrange([[0], [1], [2]], top=card("number", BEIGE, 6))
    t.script(-1, BROWN, -1, PINK, -1, BLACK)  # each draws and bets
    for _ in range(3):
        t.turn()
    assert t.queue == [(0, BROWN), (1, PINK), (2, BLACK)]
    t.script(-1, BEIGE)
    t.turn()
    assert t.queue == [(1, PINK), (2, BLACK), (0, BEIGE)]


def test_bets_score_6_4_3_2_1_in_queue_order():
    t = Table(players=5, crown=21)
    t.arrange([[]] * 5, top=0)
    for seat in range(5):
        R.place_bet(t.state, t.hidden, seat, BLACK)
    t.state[L.PUB_POS + BLACK] = 3
    _, players, _ = t.score(0)
    assert players[:, L.PL_BET_POINTS].tolist() == [6, 4, 3, 2, 1]


# ------------------------------------------------------------------ race end

def test_crown_and_last_card_score_3_plus_5():
    t = Table(crown=15)
    last = card("number", BLACK, 4)
    t.arrange([[last], [1], [2]], top=card("number", BLACK, 1), pos=(14, 0, 11, 3))
    R.place_bet(t.state, t.hidden, 1, BLACK)
    R.place_bet(t.state, t.hidden, 2, PINK)
    t.script(0)
    ends = t.turn()
    assert ends == R.ENDS_CROWN | R.ENDS_HAND
    race, players, bets = t.score(ends)
    assert players[0, L.PL_CROWN_POINTS] == 3 and players[0, L.PL_HAND_POINTS] == 5
    assert players[0, L.PL_RACE_POINTS] == 8
    assert race[L.RACE_END] == L.END_CROWN and race[L.RACE_BOTH] == 1
    assert race[L.RACE_WINNING] == 1 << BLACK and race[L.RACE_CROWN_PIG] == BLACK
    assert players[1, L.PL_BET_POINTS] == 6 and players[2, L.PL_BET_POINTS] == 0


def test_crown_passed_by_flapi_scores_3():
    t = Table(crown=12)
    flapi = card("Flapi", BROWN)
    t.arrange([[flapi, 0], [1], [2]], top=card("number", BLACK, 1), pos=(10, 9, 11, 11))
    t.script(0)
    ends = t.turn()
    assert ends == R.ENDS_CROWN and t.pos == [10, 12, 11, 11]
    race, players, _ = t.score(ends)
    assert race[L.RACE_WINNING] == 1 << BROWN and players[0, L.PL_RACE_POINTS] == 3


def test_last_card_winners_are_all_pigs_furthest_ahead():
    t = Table()
    last = card("number", PINK, 2)
    t.arrange([[last], [10], [11]], top=card("number", PINK, 1), pos=(4, 7, 7, 0))
    R.place_bet(t.state, t.hidden, 2, PINK)
    R.place_bet(t.state, t.hidden, 1, BLACK)
    t.script(0)
    ends = t.turn()
    assert ends == R.ENDS_HAND
    race, players, _ = t.score(ends)
    assert race[L.RACE_WINNING] == 0b0110
    assert players[:, L.PL_RACE_POINTS].tolist() == [5, 6, 0]


def test_a_stopped_race_scores_no_end_points():
    t = Table()
    t.arrange([[0], [1], [2]], top=3, pos=(2, 6, 6, 1))
    R.place_bet(t.state, t.hidden, 0, BLACK)
    race, players, _ = t.score(0)
    assert race[L.RACE_END] == L.END_CAP and race[L.RACE_ENDER] == -1
    assert race[L.RACE_WINNING] == 0b0110
    assert players[:, L.PL_RACE_POINTS].tolist() == [6, 0, 0]
