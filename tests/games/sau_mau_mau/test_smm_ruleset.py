"""Sau Mau Mau's rule numbers as data (ruleset.py): each key changes play as its
words say, read off the engine's own records and event traces with fixed seeds;
the bots (heuristic, search, user) play the variant's numbers; a variant compiles
no kernel again; and the match refuses a hand the deck cannot deal."""
import numpy as np
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.engine.trace import open_trace, read_trace, region_size
from analyzer.errors import AnalyzerError
from analyzer.games.sau_mau_mau import kernel as K
from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau import rules as R
from analyzer.games.sau_mau_mau.match import SauMauMauMatch
from analyzer.games.sau_mau_mau.registry import BUILTIN
from analyzer.games.sau_mau_mau.ruleset import RULES
from tests.games.sau_mau_mau.smm_support import BLACK, BROWN, PINK, Table, card

SEED = 29


def match_of(players=4, bots=("random",), **rules):
    bots = [BotSpec(bots[i % len(bots)]) for i in range(players)]
    return SauMauMauMatch(None, players, bots, RULES.rules(rules))


def records(match, games=300, seed=SEED):
    """(races, players, bets, games) of ``games`` games, cut to the games' races."""
    c = match.play(seed, 0, games).view()
    return c.races, c.players, c.bets, c.games


def events(match, seed=SEED, games=60):
    """Every game's event trace (engine/trace.py: kind, seat, a, b, c, payload), as
    the replay records it, from the match's own kernel."""
    out = []
    for index in range(games):
        game = match.game_array.copy()
        game[L.G_TRACE_AT] = L.H_LEN
        hidden = np.zeros(L.H_LEN + region_size(), np.int64)
        open_trace(hidden, L.H_LEN)
        state = np.zeros(L.S_LEN, np.int64)
        chunk = match._new_chunk(1)
        status = K.play_game(game, state, hidden, K.working_rows(game, match.params), seed, index,
                             chunk.races[0], chunk.players[0], chunk.bets[0], chunk.games[0], chunk.events[0])
        assert status == 0
        out.append(read_trace(hidden, L.H_LEN))
    return out


def positions(ev):
    return [int(x) for x in ev[5 + L.PUB_POS:5 + L.PUB_POS + L.N_PIGS]]


# ------------------------------------------------------------------ each key, as its words say

@pytest.mark.parametrize("payouts", [(1, 0, 0, 0, 0), (5, 3, 2, 1, 1), (9,), (0, 7)])
def test_bet_payouts_pay_the_winning_bets_in_queue_order(payouts):
    """The r-th bet on a winning pig in queue order scores the r-th number, 0
    past the list; bets on a losing pig score nothing. ``[1, 0, 0, 0, 0]`` pays
    only the first winning bet."""
    races, players, bets, _ = records(match_of(bet_payouts=list(payouts)))
    paid = np.zeros(len(payouts) + 1)
    for g in range(races.shape[0]):
        for r in range(races.shape[1]):
            mask = races[g, r, L.RACE_WINNING]
            queue = sorted((b[L.BET_QUEUE_POS], b[L.BET_PIG], b[L.BET_POINTS], seat)
                           for seat, b in enumerate(bets[g, r]) if b[L.BET_PIG] >= 0)
            rank = 0
            for _, pig, points, seat in queue:
                if mask >> pig & 1:
                    assert points == (payouts[rank] if rank < len(payouts) else 0)
                    paid[min(rank, len(payouts))] += 1
                    rank += 1
                else:
                    assert points == 0
                assert players[g, r, seat, L.PL_BET_POINTS] == points
    assert paid[0] > 100 and paid[1] > 30  # the first and a later winning bet, often


def test_bet_payouts_one_zero_pays_only_the_first_winning_bet():
    """The issue's example, in the players' race points: no race pays bet points to
    more than one player, and then exactly 1."""
    _, players, _, _ = records(match_of(bet_payouts=[1, 0, 0, 0, 0]))
    bet_points = players[..., L.PL_BET_POINTS]
    assert set(np.unique(bet_points)) == {0, 1}
    assert (bet_points.sum(axis=-1) <= 1).all()


@pytest.mark.parametrize("players, hand", [(4, 1), (4, 9), (5, 7), (2, 10), (3, 3)])
def test_hand_size_deals_that_many_cards(players, hand):
    """Every player holds ``hand_size`` cards at the start: what it had at the end
    less what it drew plus what it played; the draw pile starts with the rest."""
    m = match_of(players, hand_size=hand)
    _, pl, _, _ = records(m, 200)
    dealt = pl[..., L.PL_CARDS_LEFT] - pl[..., L.PL_CARDS_DRAWN] + pl[..., L.PL_CARDS_PLAYED]
    assert (dealt == hand).all()
    t = Table(players=players, rules={"hand_size": hand})
    assert [len(t.hand(s)) for s in range(players)] == [hand] * players
    assert t.state[L.PUB_PILE_N] == L.N_CARDS - players * hand - 1


@pytest.mark.parametrize("points", [0, 11])
def test_crown_points_go_to_the_player_whose_card_moved_the_pig(points):
    races, players, _, _ = records(match_of(crown_points=points))
    crown = races[..., L.RACE_END] == L.END_CROWN
    assert crown.sum() > 500
    for g, r in zip(*np.nonzero(crown)):
        ender = races[g, r, L.RACE_ENDER]
        assert players[g, r, ender, L.PL_CROWN_POINTS] == points
        assert (np.delete(players[g, r, :, L.PL_CROWN_POINTS], ender) == 0).all()
    assert (players[~crown][..., L.PL_CROWN_POINTS] == 0).all()
    assert (players[..., L.PL_RACE_POINTS] == players[..., L.PL_BET_POINTS] + players[..., L.PL_CROWN_POINTS]
            + players[..., L.PL_HAND_POINTS]).all()


@pytest.mark.parametrize("points", [0, 13])
def test_last_card_points_go_to_the_player_who_goes_out(points):
    races, players, _, _ = records(match_of(last_card_points=points, hand_size=2))
    out = (races[..., L.RACE_END] == L.END_HAND) | (races[..., L.RACE_BOTH] == 1)
    assert out.sum() > 100
    for g, r in zip(*np.nonzero(out)):
        ender = races[g, r, L.RACE_ENDER]
        assert players[g, r, ender, L.PL_CARDS_LEFT] == 0
        assert players[g, r, ender, L.PL_HAND_POINTS] == points
    assert (players[~out][..., L.PL_HAND_POINTS] == 0).all()


@pytest.mark.parametrize("races_per_game", [1, 6, 8])
def test_races_per_game_plays_that_many_races_the_first_player_passing_left(races_per_game):
    m = match_of(3, races_per_game=races_per_game)
    c = m.play(SEED, 0, 50)
    races, players, games = c.view().races, c.view().players, c.view().games
    assert races.shape[1] == races_per_game
    assert (races[..., L.RACE_TURNS] > 0).all()  # every race played
    assert (c.races[:50, races_per_game:] == 0).all()  # the bound's other rows untouched
    assert (races[..., L.RACE_FIRST_SEAT] == np.arange(races_per_game) % 3).all()
    assert (games[..., L.GM_TOTAL] == players[..., L.PL_RACE_POINTS].sum(axis=1)).all()
    tables = m.tables_of(c)
    assert sorted(tables["races"]["race"].unique()) == list(range(1, races_per_game + 1))
    assert len(tables["players"]) == 50 * races_per_game * 3


@pytest.mark.parametrize("step", [3, 0])
def test_plus_two_step_sets_the_penalty(step):
    """A +2 adds ``plus_two_step`` cards to the penalty: every penalty waiting and
    every penalty drawn is a multiple of it (a draw short only when the piles run
    out); 0: a +2 sets no penalty, nobody draws one."""
    waiting, drawn = set(), []
    for trace in events(match_of(plus_two_step=step)):
        for ev in trace:
            kind, _, a, b, c = (int(x) for x in ev[:5])
            if kind == L.EV_PLAY and c:
                waiting.add(c)
            if kind == L.EV_DRAW and b:
                drawn.append(a)
    if step == 0:
        assert not waiting and not drawn
        return
    assert waiting and all(w % step == 0 for w in waiting)
    assert {step, 2 * step} <= waiting
    assert sum(d % step == 0 for d in drawn) >= 0.95 * len(drawn) and len(drawn) > 50


@pytest.mark.parametrize("steps", [2, 0])
def test_steps_back_per_card_gives_that_many_steps_per_penalty_card(steps):
    """The random bot takes every step it is offered: after a penalty of n cards
    drawn it steps pigs back n * steps_back_per_card times, one space each, or
    until every pig is on the start space."""
    checked = 0
    for trace in events(match_of(steps_back_per_card=steps)):
        before = None
        for i, ev in enumerate(trace):
            kind, _, a, b, _ = (int(x) for x in ev[:5])
            if kind in (L.EV_RACE, L.EV_TURN):
                before = positions(ev)
            if kind == L.EV_DRAW and b:
                taken = 0
                for later in trace[i + 1:]:
                    if int(later[0]) == L.EV_STEP:
                        taken += 1
                    elif int(later[0]) == L.EV_TURN:
                        after = positions(later)
                        break
                assert sum(before) - sum(after) == taken
                assert taken == a * steps or (taken < a * steps and sum(after) == 0)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("move", [5, 0])
def test_flapi_move_moves_the_last_pig_that_many_spaces(move):
    seen = 0
    for trace in events(match_of(flapi_move=move)):
        before = None
        for i, ev in enumerate(trace):
            kind, _, a, _, _ = (int(x) for x in ev[:5])
            if kind in (L.EV_RACE, L.EV_TURN):
                before = positions(ev)
            if kind == L.EV_FLAPI:
                assert before[a] == min(before)  # the last pig
                after = positions(next(e for e in trace[i + 1:] if int(e[0]) == L.EV_TURN))
                assert [y - x for x, y in zip(before, after)] == [move if p == a else 0 for p in range(4)]
                seen += 1
    assert seen > 30


@pytest.mark.parametrize("skips", [2, 0])
def test_x_skips_skips_that_many_turns(skips):
    """An X (not the last card) skips the next ``x_skips`` turns, the next players'
    in turn order; 0: it skips no one."""
    seen = 0
    for trace in events(match_of(x_skips=skips)):
        turns = [(i, ev) for i, ev in enumerate(trace) if int(ev[0]) == L.EV_TURN]
        for k, (i, ev) in enumerate(turns):
            skipped = int(ev[3])
            x_played = any(int(e[0]) == L.EV_PLAY and int(e[2]) >= 0 and R.card_kind(int(e[2])) == L.SKIP
                           for e in trace[turns[k - 1][0] if k else 0:i])
            if x_played and not int(ev[2]) & R.ENDS_HAND:
                following = [int(t[3]) for _, t in turns[k + 1:k + 1 + skips + 1]]
                if len(following) == skips + 1 and not any(int(t[0]) == L.EV_RACE_END
                                                          for t in trace[i:turns[k + skips + 1][0]]):
                    assert following == [1] * skips + [0]
                    seen += 1
            if skips == 0:
                assert not skipped
    assert seen > 30


def test_the_game_array_carries_the_rules_and_each_race_shows_them():
    rules = {"bet_payouts": [5, 3], "hand_size": 6, "crown_points": 7, "last_card_points": 8,
             "races_per_game": 2, "plus_two_step": 4, "steps_back_per_card": 3, "flapi_move": 1, "x_skips": 2}
    t = Table(players=3, rules=rules)
    block = [6, 2, 4, 3, 1, 7, 8, 2, 5, 3, 0, 0, 0]
    assert list(t.game[L.G_RULES:L.G_RULES + L.RULES_LEN]) == block
    assert list(t.state[L.PUB_RULES:L.PUB_RULES + L.RULES_LEN]) == block
    box = K.pack_game(15, [L.RANDOM] * 3)
    assert list(box[L.G_RULES:L.G_RULES + L.RULES_LEN]) == [5, 4, 2, 1, 3, 3, 5, 1, 6, 4, 3, 2, 1]


# ------------------------------------------------------------------ the bots play the variant

def crown_table(kind, rules=None, params=None):
    """Seat 0 holds a 6 pink that moves pink onto the crown (15), a 1 brown and two
    other cards; its bet (first in the queue) is on brown, seat 1's (second) on pink."""
    t = Table(players=3, kinds=[kind, L.SCRIPTED, L.SCRIPTED], params=params, rules=rules)
    hand = [card("number", PINK, 6), card("number", BROWN, 1), card("number", BLACK, 2), card("number", BLACK, 5)]
    t.arrange([hand, [card("number", BLACK, 3)], [card("number", BLACK, 4)]], top=card("number", PINK, 1),
              pos=(9, 8, 2, 1))
    R.place_bet(t.state, t.hidden, 0, BROWN)
    R.place_bet(t.state, t.hidden, 1, PINK)
    return t


def play_of(t, seat=0):
    """The card seat 0's bot plays (-1: it draws), asked on copies as the kernel asks."""
    state, hidden = t.state.copy(), t.hidden.copy()
    rows = K.working_rows(t.game, t.params)
    n = R.valid_options(state, hidden, seat, L.S_OPTIONS)
    answer = K.ask_bot(L.DECIDE_PLAY, seat, int(t.game[L.G_KINDS + seat]), t.game, state, hidden, rows, n)
    return int(state[L.S_OPTIONS + answer]) if answer >= 0 else -1


def heuristic_params(name):
    params = np.zeros((3, L.PARAMS_WIDTH))
    params[0] = BUILTIN[name].param_row(BotSpec(name))
    return params


CROWN_CARD = card("number", PINK, 6)


@pytest.mark.parametrize("name", ["backer", "tempo", "switcher"])
def test_heuristic_bots_weigh_the_variants_points(name):
    """Moving pink onto the crown scores the crown's points at once and loses the
    bet on brown; playing the 1 brown keeps the race going (the bet's worth, the
    hand's). At 20 crown points every heuristic takes the crown, at 0 none does;
    with bets paying nothing the box's 3 crown points win, with bets paying 30 for
    a first winning bet the bet on brown does."""
    kind, params = BUILTIN[name].kind, heuristic_params(name)
    assert play_of(crown_table(kind, {"crown_points": 20}, params)) == CROWN_CARD
    assert play_of(crown_table(kind, {"crown_points": 0}, params)) != CROWN_CARD
    assert play_of(crown_table(kind, {"bet_payouts": [0]}, params)) == CROWN_CARD
    assert play_of(crown_table(kind, {"bet_payouts": [30, 20, 10, 5, 1]}, params)) != CROWN_CARD


def test_tempo_weighs_the_variants_last_card_points():
    """Tempo counts on going out (its hand's worth is the last card's points): with
    bets paying nothing, the crown's 3 points beat a hand worth the box's 5, not a
    hand worth 20."""
    kind, params = BUILTIN["tempo"].kind, heuristic_params("tempo")
    assert play_of(crown_table(kind, {"bet_payouts": [0]}, params)) == CROWN_CARD
    assert play_of(crown_table(kind, {"bet_payouts": [0], "last_card_points": 20}, params)) != CROWN_CARD


@pytest.mark.parametrize("rule, card_kind", [("x_skips", "X"), ("plus_two_step", "+2")])
def test_heuristic_bots_block_only_with_a_card_that_stops_the_next_player(rule, card_kind):
    """Tempo gives ``block`` points for an X or a +2 on a player about to go out:
    not when the rules make the card stop no one (an X skipping none, a +2 of 0)."""
    from analyzer.games.sau_mau_mau import bots as B

    params = heuristic_params("tempo")
    values = []
    for rules in ({}, {rule: 0}):
        t = Table(players=3, kinds=[BUILTIN["tempo"].kind, L.SCRIPTED, L.SCRIPTED], params=params, rules=rules)
        blocker = card(card_kind, PINK)
        t.arrange([[blocker, card("number", BLACK, 2), card("number", BLACK, 5)], [card("number", BLACK, 3)],
                   [card("number", BROWN, 4)] * 1], top=card("number", PINK, 1), pos=(3, 2, 1, 0))
        state = t.state.copy()
        for i, c in enumerate(t.hand(0)):
            state[L.S_VIEW + L.OWN_HAND + i] = c
        state[L.S_VIEW + L.OWN_HAND_N] = 3
        state[L.S_VIEW + L.OWN_BET_PIG] = -1
        rows = K.working_rows(t.game, t.params)
        race = B.read_race(state, rows[0], 0)
        values.append(B.play_value(race, B.steer_table(race, state, rows[0]), state, rows[0], 0, blocker, 3)[0])
    assert values[0] - values[1] == pytest.approx(params[0, L.P_BLOCK])


def test_the_search_bot_plays_out_the_variants_points():
    """Its playouts score by the game's rules: ending the race on the crown gives
    seat 1's bet on pink the first winning bet's points; at the box's 3 crown
    points against 6 it does not end it, at 20 it does; with bets paying nothing
    the box's 3 crown points win the race's margin."""
    params = np.zeros((3, L.PARAMS_WIDTH))
    params[0] = BUILTIN["lookahead"].param_row(BotSpec("lookahead", (("rollouts", 64.0),)))
    kind = BUILTIN["lookahead"].kind
    assert play_of(crown_table(kind, {"crown_points": 20}, params)) == CROWN_CARD
    assert play_of(crown_table(kind, {"crown_points": 0}, params)) != CROWN_CARD
    assert play_of(crown_table(kind, {"bet_payouts": [0]}, params)) == CROWN_CARD


def test_a_user_bot_reads_the_variants_rules():
    from analyzer.games.sau_mau_mau import view as V

    t = Table(players=3, rules={"bet_payouts": [5, 3, 2], "hand_size": 6, "crown_points": 7, "last_card_points": 8,
                                "races_per_game": 2, "plus_two_step": 4, "steps_back_per_card": 3, "flapi_move": 1,
                                "x_skips": 3})
    view = V.View(L.DECIDE_PLAY, 0, 0, t.game, t.state, np.zeros(L.PARAMS_WIDTH))
    assert (V.deal_size(view), V.races_per_game(view), V.plus_two_step(view), V.steps_back_per_card(view),
            V.flapi_move(view), V.crown_points(view), V.last_card_points(view), V.x_skips(view)) \
        == (6, 2, 4, 3, 1, 7, 8, 3)
    assert [V.bet_payouts(view, i) for i in range(5)] == [5, 3, 2, 0, 0]
    assert [V.bet_value(view, r) for r in range(7)] == [5, 3, 2, 0, 0, 0, 0]


# ------------------------------------------------------------------ data, not code

def test_a_variant_compiles_nothing_again():
    """Two variants (and the box) in one process: the kernels' dispatchers gain no
    signature (the rules are numbers in the game array)."""
    dispatchers = (K.play_games, K.play_game, K.working_rows, R.setup_race, R.score_race)
    match_of(bots=("backer", "random")).play(1, 0, 5)
    before = [len(d.signatures) for d in dispatchers[:2]] + [len(K.play_games.overloads)]
    for rules in ({"bet_payouts": [5, 3, 2, 1, 1], "hand_size": 6},
                  {"races_per_game": 7, "flapi_move": 6, "plus_two_step": 1, "steps_back_per_card": 3}):
        match_of(bots=("backer", "random"), **rules).play(1, 0, 5)
    assert [len(d.signatures) for d in dispatchers[:2]] + [len(K.play_games.overloads)] == before


def test_a_hand_the_deck_cannot_deal_is_refused_in_one_line():
    with pytest.raises(AnalyzerError, match=r"rule hand_size 8 is too many for 5 players: 1 to 7"):
        match_of(5, hand_size=8)
    with pytest.raises(AnalyzerError, match=r"rule hand_size 10 is too many for 4 players: 1 to 9"):
        match_of(4, hand_size=10)
    match_of(3, hand_size=10)  # 31 of 39 cards
    # the kernel's own array is never packed with a deal past the deck (the match said so first)
    with pytest.raises(ValueError, match="5 players are dealt 1 to 7 cards each, not 8"):
        K.pack_game(21, [L.RANDOM] * 5, rules=RULES.rules({"hand_size": 8}))


def test_the_replay_tells_the_variants_numbers():
    m = match_of(3, bots=("random",), hand_size=6, flapi_move=5, crown_points=7, last_card_points=9,
                 races_per_game=2)
    texts = []
    for index in range(6):
        texts += [s.text for s in m.replay(SEED, index).steps]
    joined = "\n".join(texts)
    assert "race 1: six cards each" in joined and "race 3" not in joined
    assert "three spaces" not in joined and "moves the last pig" in joined and "five spaces" in joined
    assert "points after two races" in joined
    assert "(+7" in joined and "(+3" not in joined
    assert "rules: hand_size 6; crown_points 7; last_card_points 9; races_per_game 2; flapi_move 5 (box otherwise)" \
        in m.replay(SEED, 0).setup


def test_the_summary_counts_the_variants_races():
    m = match_of(3, races_per_game=6)
    s = m.new_summary()
    s.add(m.play(SEED, 0, 20))
    assert s.races == 120 and "(20 games of 6)" in s.render()
