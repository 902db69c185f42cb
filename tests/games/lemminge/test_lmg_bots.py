"""The heuristic bots: each beats the random bot, their parameters change what
they do, they answer the decisions the rules page names (a hand-made table),
and the registry refuses what it does not know."""
import numpy as np
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.errors import BotError
from analyzer.games.lemminge import kernel as K
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.board import load_map
from analyzer.games.lemminge.registry import BUILTIN, resolve
from tests.games.lemminge.lmg_support import FOREST, WATER, Table, card, make_map

HEURISTIC = ("racer", "convoy", "blocker")
SEED = 20261127
MAP = load_map()


def row(name, **params):
    return BUILTIN[name].param_row(BotSpec(name, tuple(sorted(params.items()))))


def play(names, first, count, rows=None):
    kinds = [BUILTIN[n].kind for n in names]
    params = np.array([row(n) for n in names])
    for seat, r in (rows or {}).items():
        params[seat] = r
    return K.run(K.pack_game(MAP, kinds), MAP.n_cells, SEED, first, count, params)


@pytest.mark.parametrize("name", HEURISTIC)
def test_beats_the_random_bot(name):
    """The bot and three random bots, the bot in each seat in turn; against the
    random bot in the same seat of the same games (same deals): its win rate is
    higher by more than 5 standard errors of the paired difference."""
    per_seat = 100
    diffs = []
    for seat in range(4):
        names = ["random"] * 4
        names[seat] = name
        bot = play(names, seat * per_seat, per_seat)[1][:, seat, L.PL_WON]
        rnd = play(["random"] * 4, seat * per_seat, per_seat)[1][:, seat, L.PL_WON]
        diffs.append(bot - rnd)
    d = np.concatenate(diffs).astype(float)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() > 5 * se, (d.mean(), se)


def test_parameters_change_the_play():
    """A racer that never refills for small gains refills less; a blocker
    without the push cost (a push may not set a rival back, only on or
    sideways) no longer shies away from pushing rivals on: it pushes more, by
    more than 3 standard errors of the paired difference (the same games)."""
    names = ["racer", "random", "blocker", "random"]
    base = play(names, 0, 150)[1]
    eager = play(names, 0, 150, rows={0: row("racer", refill_below=0, keep=0),
                                      2: row("blocker", push=0, block=0)})[1]
    assert eager[:, 0, L.PL_REFILLS].mean() < base[:, 0, L.PL_REFILLS].mean()
    d = (eager[:, 2, L.PL_PUSHES_MADE] - base[:, 2, L.PL_PUSHES_MADE]).astype(float)
    assert d.mean() > 3 * d.std(ddof=1) / np.sqrt(len(d)), d.mean()


def test_a_heuristic_takes_the_long_card_and_walks_to_the_finish():
    board = make_map("""
..........
AMMMMMWWMZ
..........
""")
    t = Table(board, kinds=[L.RACER, L.RANDOM])
    t.params[0] = row("racer")
    t.column(WATER, [card(WATER, 2), card(WATER, 2, 1)])
    t.hand(0, [card(FOREST, 1), card(WATER, 1)])  # forest: 3 movement; water on 2 + 2: 5, through meadow
    assert t.turn(0) == -1
    m = t.last_move()
    assert m["terrain"] == WATER and m["movement"] == 5 and m["steps"] == 5 and t.pos(0) == (5, 1)
    assert m["new_column"] == 0


def test_registry():
    assert set(BUILTIN) == {"random", "lookahead", *HEURISTIC}  # the search bot: test_lmg_search.py
    with pytest.raises(BotError, match="no parameter"):
        BUILTIN["racer"].param_row(BotSpec("racer", (("nope", 1.0),)))
    with pytest.raises(BotError, match="unknown bot"):
        resolve(BotSpec("nobody", ()))
    assert BUILTIN["convoy"].defaults()["lead"] < 0 < BUILTIN["racer"].defaults()["lead"]
