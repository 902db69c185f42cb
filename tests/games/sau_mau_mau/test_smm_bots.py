"""The heuristic bots: they beat the random bot, their parameters change what
they do, they see nothing but their own row, the rules hold with them at the
table, and the choices that name them are made (hand-made tables)."""
import ast
import inspect
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.games.sau_mau_mau.smm_support import BEIGE, BLACK, BROWN, PINK, Table, card  # noqa: E402

from analyzer.engine.botspec import BotSpec  # noqa: E402
from analyzer.errors import BotError  # noqa: E402
from analyzer.games.sau_mau_mau import bots as B  # noqa: E402
from analyzer.games.sau_mau_mau import kernel as K  # noqa: E402
from analyzer.games.sau_mau_mau import layout as L  # noqa: E402
from analyzer.games.sau_mau_mau import rules as R  # noqa: E402
from analyzer.games.sau_mau_mau.board import load_track  # noqa: E402
from analyzer.games.sau_mau_mau.registry import BUILTIN, resolve  # noqa: E402

HEURISTIC = ("backer", "tempo", "switcher")
SEED = 20261127


def row(name, **params):
    return BUILTIN[name].param_row(BotSpec(name, tuple(sorted(params.items()))))


def table_of(names, rows=None):
    """``game`` and ``params`` for bots named by family (default parameters
    unless ``rows`` gives a seat's row), crown of the assumed track."""
    kinds = [BUILTIN[n].kind for n in names]
    params = np.array([row(n) for n in names])
    for seat, r in (rows or {}).items():
        params[seat] = r
    return K.pack_game(load_track().crown_for(len(names)), kinds), params


# ------------------------------------------------------------------ strength

@pytest.mark.parametrize("name", HEURISTIC)
def test_beats_the_random_bot(name):
    """One bot and three random bots, the bot in each seat in turn; against the
    random bot in the same seat of the same games (same deals): its win rate is
    higher by more than 5 standard errors of the paired difference."""
    per_seat = 1500
    diffs = []
    for seat in range(4):
        names = ["random"] * 4
        names[seat] = name
        first = seat * per_seat
        game, params = table_of(names)
        bot = K.run(game, SEED, first, per_seat, params)[3][:, seat, L.GM_WON]
        game, params = table_of(["random"] * 4)
        rnd = K.run(game, SEED, first, per_seat, params)[3][:, seat, L.GM_WON]
        diffs.append(bot - rnd)
    d = np.concatenate(diffs).astype(float)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() > 5 * se


# ------------------------------------------------------------------ one decision

def ask(t, seat, name, what, **params):
    """The answer of bot family ``name`` (with ``params``) in seat ``seat`` of
    table ``t``, on copies: the table is left as it was."""
    state, hidden = t.state.copy(), t.hidden.copy()
    rows = np.zeros((t.players, L.PARAMS_WIDTH))
    rows[seat] = row(name, **params)
    n = 0
    if what == L.DECIDE_PLAY:
        n = R.valid_options(state, hidden, seat, L.S_OPTIONS)
    elif what == L.DECIDE_STEP:
        n = R.pigs_off_start(state, L.S_OPTIONS)
    elif what == L.DECIDE_FLAPI:
        n = R.last_pigs(state, L.S_OPTIONS)
    answer = K.ask_bot(what, seat, BUILTIN[name].kind, t.game, state, hidden, rows, n)
    if what == L.DECIDE_PLAY and answer >= 0:
        return int(state[L.S_OPTIONS + answer])  # the card rather than its index
    return int(answer)


def bet(t, seat, pig):
    R.place_bet(t.state, t.hidden, seat, pig)


def heuristic_table(name, players=3):
    kinds = [BUILTIN[name].kind] + [L.SCRIPTED] * (players - 1)
    params = np.zeros((players, L.PARAMS_WIDTH))
    params[0] = row(name)
    return Table(players=players, kinds=kinds, params=params)


def test_backer_bets_the_colour_its_hand_can_push():
    t = heuristic_table("backer")
    hand = [card("number", BROWN, 6), card("number", BROWN, 5), card("number", PINK, 1),
            card("X", BLACK), card("number", BEIGE, 2)]
    t.arrange([hand, [], []], top=card("number", BLACK, 3))
    assert ask(t, 0, "backer", L.DECIDE_BET) == BROWN


def test_bet_rush_draws_for_a_first_bet():
    """Parameters take effect: with its rush the backer draws at once to bet
    first in the queue; without it, it plays a card."""
    t = heuristic_table("backer")
    hand = [card("number", BROWN, 6), card("number", BROWN, 2), card("number", PINK, 1)]
    t.arrange([hand, [], []], top=card("number", BROWN, 3))
    assert ask(t, 0, "backer", L.DECIDE_PLAY) == -1
    assert ask(t, 0, "backer", L.DECIDE_PLAY, bet_rush=0) >= 0


def test_switcher_changes_to_a_pig_pulling_ahead():
    t = heuristic_table("switcher")
    t.arrange([[card("number", PINK, 1)], [], []], top=card("number", BLACK, 3), pos=(1, 9, 2, 0))
    bet(t, 1, BEIGE)
    bet(t, 0, PINK)
    assert ask(t, 0, "switcher", L.DECIDE_BET) == BROWN
    assert ask(t, 0, "switcher", L.DECIDE_BET, switch_margin=100) == -1
    assert ask(t, 0, "switcher", L.DECIDE_BET, lag=9) == -1  # brown leads pink by 8


def test_switch_margin_takes_effect_over_games():
    game, params = table_of(["switcher", "random", "random", "random"])
    changes = K.run(game, SEED, 0, 300, params)[1][:, :, 0, L.PL_BETS_CHANGED]
    game, params = table_of(["switcher", "random", "random", "random"],
                            {0: row("switcher", switch_margin=100)})
    loyal = K.run(game, SEED, 0, 300, params)[1][:, :, 0, L.PL_BETS_CHANGED]
    assert changes.sum() > 100 and loyal.sum() == 0


def test_tempo_answers_a_plus2_with_a_plus2():
    t = heuristic_table("tempo")
    hand = [card("+2", BROWN), card("number", PINK, 3), card("number", BLACK, 5)]
    t.arrange([hand, [], []], top=card("+2", PINK))
    t.state[L.PUB_PENALTY] = 2
    bet(t, 0, BLACK)
    assert ask(t, 0, "tempo", L.DECIDE_PLAY) == card("+2", BROWN)


def test_tempo_stops_a_player_about_to_go_out():
    t = heuristic_table("tempo")
    hand = [card("X", PINK), card("number", PINK, 2), card("number", BROWN, 4)]
    t.arrange([hand, [card("number", BEIGE, 1)], [card("Farmer")]], top=card("number", PINK, 3))
    bet(t, 0, BLACK)
    assert ask(t, 0, "tempo", L.DECIDE_PLAY) == card("X", PINK)
    assert ask(t, 0, "tempo", L.DECIDE_PLAY, block=0) != card("X", PINK)


def test_steps_back_the_rival_and_stops_before_its_own_pig():
    t = heuristic_table("tempo")
    t.arrange([[card("number", BLACK, 1)], [], []], top=card("number", BLACK, 3), pos=(5, 3, 0, 0))
    bet(t, 0, BROWN)
    t.state[L.PUB_STEPS] = 2
    assert ask(t, 0, "tempo", L.DECIDE_STEP) == 0  # option 0: pink, the rival ahead
    t.state[L.PUB_POS:L.PUB_POS + 4] = (0, 3, 0, 0)
    assert ask(t, 0, "tempo", L.DECIDE_STEP) == -1  # only its own pig is off start


def test_names_the_colour_of_its_pig_and_pushes_the_last_one():
    t = heuristic_table("backer")
    t.arrange([[card("number", PINK, 2)], [], []], top=card("number", BLACK, 3), pos=(4, 0, 2, 0))
    bet(t, 0, BEIGE)
    assert ask(t, 0, "backer", L.DECIDE_COLOR) == BEIGE
    # brown and beige are last: the Flapi moves its own pig
    assert ask(t, 0, "backer", L.DECIDE_FLAPI) == 1  # options: brown, beige


@pytest.mark.parametrize("name", HEURISTIC)
def test_goes_out_with_its_last_card(name):
    t = heuristic_table(name)
    t.arrange([[card("number", BLACK, 5)], [], []], top=card("number", BLACK, 2))
    assert t.turn() & R.ENDS_HAND


# ------------------------------------------------------------------ what a bot sees

def test_bots_are_given_no_hidden_array():
    """Structurally: the bots' module names no ``hidden`` array, no offset into
    it (``H_*``) and calls no rule that takes one."""
    tree = ast.parse(inspect.getsource(B))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arg) for a in [n]}
    assert "hidden" not in names
    imported = {a.name: node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                for a in node.names}
    assert not [n for n in imported if n.startswith("H_")]
    for name, module in imported.items():
        if module == R.__name__:
            assert "hidden" not in inspect.signature(getattr(R, name).py_func).parameters
    assert list(inspect.signature(B.decide_heuristic.py_func).parameters) == [
        "what", "seat", "kind", "game", "state", "params", "n_options"]


def shuffle_others(t, seat, rng):
    """Deal the other players' hands and the draw pile anew (same counts) and
    turn their bet cards into other pigs: all a player cannot see."""
    h = t.hidden
    others = [s for s in range(t.players) if s != seat]
    cards = [int(c) for s in others
             for c in h[s * L.OWN_LEN + L.OWN_HAND:s * L.OWN_LEN + L.OWN_HAND + h[s * L.OWN_LEN + L.OWN_HAND_N]]]
    pile = [int(c) for c in h[L.H_PILE:L.H_PILE + t.state[L.PUB_PILE_N]]]
    mixed = list(rng.permutation(cards + pile))
    for s in others:
        at = s * L.OWN_LEN
        n = h[at + L.OWN_HAND_N]
        h[at + L.OWN_HAND:at + L.OWN_HAND + n] = mixed[:n]
        del mixed[:n]
        if h[at + L.OWN_BET_PIG] >= 0:
            h[at + L.OWN_BET_PIG] = rng.integers(4)
    h[L.H_PILE:L.H_PILE + len(mixed)] = mixed
    assert R.check_invariants(t.game, t.state, h)


def answers_and_stream(t, seat, kind, rows, decisions):
    """``seat``'s answer to each of ``decisions`` on copies of the table's arrays
    (each shown its own options in S_OPTIONS), then the state of its stream."""
    state, hidden = t.state.copy(), t.hidden.copy()
    options = {L.DECIDE_PLAY: lambda: R.valid_options(state, hidden, seat, L.S_OPTIONS),
               L.DECIDE_STEP: lambda: R.pigs_off_start(state, L.S_OPTIONS),
               L.DECIDE_FLAPI: lambda: R.last_pigs(state, L.S_OPTIONS)}
    answers = []
    for what in decisions:
        n = options[what]() if what in options else 0
        answers.append(int(K.ask_bot(what, seat, kind, t.game, state, hidden, rows, n)))
    return answers + [int(hidden[seat * L.OWN_LEN + L.OWN_RNG])]


@pytest.mark.parametrize("name", HEURISTIC)
def test_a_bot_reads_only_its_own_row(name):
    """Along random games: each decision is the same (its random stream too)
    whatever the other hands, the draw pile, the others' bet pigs and the others'
    parameter rows."""
    rng = np.random.default_rng(5)
    kind = BUILTIN[name].kind
    asked = 0
    for game_index in range(20):
        t = Table(players=4, crown=18, seed=game_index, kinds=[L.RANDOM] * 4, check=False)
        while t.turn() == R.RACE_ON:
            seat = int(t.state[L.PUB_MOVER])
            answers = []
            for variant in range(2):
                if variant:
                    shuffle_others(t, seat, rng)
                rows = rng.normal(size=(4, L.PARAMS_WIDTH))
                rows[seat] = row(name)
                answers += answers_and_stream(t, seat, kind, rows, (L.DECIDE_PLAY, L.DECIDE_BET, L.DECIDE_COLOR,
                                                                   L.DECIDE_STEP))
            assert answers[:5] == answers[5:]
            asked += 1
    assert asked > 300


@pytest.mark.parametrize("name", HEURISTIC)
def test_the_cache_changes_no_decision(name):
    """Along random games: a parameter row carrying the cache of weights and
    queue places (as play_games hands it over) gives every decision and every
    draw of the bot's stream that a plain row gives, and its entries are the
    plain computation's floats."""
    kind = BUILTIN[name].kind
    cached = np.zeros((4, B.CACHED_WIDTH))
    cached[:, :L.PARAMS_WIDTH] = row(name, hand_weight=0.3)  # a hand weight: both table axes matter
    plain = cached[:, :L.PARAMS_WIDTH].copy()
    for seat in range(4):
        B.fill_cache(cached[seat], K.pack_game(18, [L.RANDOM] * 4))
    assert cached[0, B.C_X_N] == 44
    assert cached[0, B.C_WEIGHTS + 7 * B.HAND_SPACES + 5] == B.pig_weight_of(plain[0], 3.5, 5.0)
    asked = 0
    for game_index in range(10):
        t = Table(players=4, crown=18, seed=game_index, kinds=[L.RANDOM] * 4, check=False)
        while t.turn() == R.RACE_ON:
            seat = int(t.state[L.PUB_MOVER])
            answers = []
            for rows in (plain, cached):
                answers += answers_and_stream(t, seat, kind, rows, (L.DECIDE_PLAY, L.DECIDE_BET, L.DECIDE_COLOR,
                                                                   L.DECIDE_STEP, L.DECIDE_FLAPI))
            assert answers[:6] == answers[6:]
            asked += 1
    assert asked > 150


# ------------------------------------------------------------------ the rules hold

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_invariants_with_heuristic_bots(players):
    """Every turn checked (G_CHECK) at mixed tables: cards, bet queue, pigs; and
    no race needs the safety stop."""
    names = [("backer", "tempo", "switcher", "random")[(players + i) % 4] for i in range(players)]
    kinds = [BUILTIN[n].kind for n in names]
    params = np.array([row(n) for n in names])
    game = K.pack_game(load_track().crown_for(players), kinds, check=True)
    races, _, _, _ = K.run(game, SEED + players, 0, 400, params)  # raises on a broken invariant
    assert (races[:, :, L.RACE_END] != L.END_CAP).all()
    for name in HEURISTIC:  # a table of one family only
        game = K.pack_game(load_track().crown_for(players), [BUILTIN[name].kind] * players, check=True)
        races, _, _, _ = K.run(game, SEED, 0, 200, np.array([row(name)] * players))
        assert (races[:, :, L.RACE_END] != L.END_CAP).all()


# ------------------------------------------------------------------ the registry

def test_registry():
    assert set(BUILTIN) == {"random", "lookahead", *HEURISTIC}  # the search bot: test_smm_search.py
    assert BUILTIN["random"].kind == L.RANDOM and BUILTIN["random"].params == {}
    kinds = {BUILTIN[n].kind for n in HEURISTIC}
    assert kinds == set(range(L.FIRST_HEURISTIC, L.LAST_HEURISTIC + 1))
    for name in HEURISTIC:
        slots = [slot for slot, _, _ in BUILTIN[name].params.values()]
        assert sorted(slots) == list(range(L.N_PARAMS))
        assert row(name).shape == (L.PARAMS_WIDTH,)
    assert row("switcher", lag=7.5)[L.P_LAG] == 7.5
    assert resolve(BotSpec("tempo")) is BUILTIN["tempo"]
    with pytest.raises(BotError):
        row("tempo", no_such_parameter=1)


def test_run_checks_the_parameter_rows():
    game = K.pack_game(18, [L.RANDOM] * 4)
    with pytest.raises(ValueError):
        K.run(game, 1, 0, 1, np.zeros((3, L.PARAMS_WIDTH)))
