"""The fast path of a table of random bots (``random_race.play_races``) plays
the same races as the general kernel (``kernel.play_races``) with ``random``
in every seat: every record, draw for draw, on boards with getaway chains,
sections of one to eight fields, early eliminations, and two to six players.
The general kernel is the one the rulebook tests and the replay step through;
the cross-check reaches the fast path (a random table's match plays on it)."""
import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S
from analyzer.engine.botspec import BotSpec
from analyzer.games.lemming_mafia import kernel, random_race
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.board import pack_game
from analyzer.games.lemming_mafia.bots import PARAMS_WIDTH, RANDOM
from analyzer.games.lemming_mafia.match import Chunk, LemmingMafiaMatch
from tests.games.lemming_mafia.test_lm_crosscheck import CONCRETE_START_BOARD, GETAWAY_BOARD, ODD_BOARD

# Sections of 8 fields (every bit of a section's mask) and of one, full often.
WIDE_BOARD = [
    ["empty"] * 3 + ["getaway"] + ["bookmaker"] * 2 + ["concrete", "boss"],
    ["concrete"], ["getaway", "jackhammer"],
    ["bookmaker", "empty", "boss", "concrete", "getaway", "empty", "jackhammer", "bookmaker"],
    ["boss"], ["getaway"], ["concrete", "empty", "getaway", "bookmaker", "empty"],
]

BOARDS = {"default": None, "getaways": GETAWAY_BOARD, "odd": ODD_BOARD,
          "concrete-start": CONCRETE_START_BOARD, "wide": WIDE_BOARD}


def play(play_races, game, players, seed, first, count):
    chunk = Chunk.empty(count, players, game[L.G_N_FIELDS])
    params = np.zeros((players, PARAMS_WIDTH))
    status = play_races(game, params, seed, first, count, chunk.races, chunk.players,
                        chunk.contracts, chunk.bets, chunk.fields)
    assert status == 0
    return chunk


@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_fast_path_plays_the_kernels_races(name, players):
    sections = BOARDS[name]
    board = S.DEFAULT_BOARD if sections is None else S.make_board(sections)
    game = pack_game(board, S.DEFAULT_DECK, [RANDOM] * players)
    for seed, first in ((7, 0), (2**40 + 3, 10**9)):
        general = play(kernel.play_races, game, players, seed, first, 1500)
        fast = play(random_race.play_races, game, players, seed, first, 1500)
        for part in ("races", "players", "contracts", "bets", "fields"):
            np.testing.assert_array_equal(getattr(fast, part), getattr(general, part), err_msg=part)
    # the boards reach what the fast path does apart: a lemming out, a full
    # section ahead (several sections crossed at once), a getaway chain, the water
    assert (general.races[:, L.RACE_N_ELIM] > 0).any()
    assert (general.races[:, L.RACE_FINISH] == L.FINISH_WATER).any()


def test_a_random_table_plays_on_the_fast_path():
    table = [BotSpec("random")] * 4
    assert LemmingMafiaMatch(None, 4, table)._play is random_race.play_races
    mixed = [BotSpec("favourite")] + table[1:]
    assert LemmingMafiaMatch(None, 4, mixed)._play is kernel.play_races


def test_the_look_ahead_answers_a_playouts_rounds_as_the_random_bot_would():
    """The look-ahead's playouts only log their rounds; each seat answers them
    after the race (``lookahead.random_rounds_after``): to a current round
    first, then to each logged one, from its own stream continued. Those are
    the reference random bot's answers, draw for draw: ``decide_random`` asked
    the same rounds in turn from the same stream leaves the same stack, the
    same held contracts and the stream at the same place."""
    from analyzer.games.lemming_mafia.lookahead import random_rounds_after
    from analyzer.games.lemming_mafia.random_bot import decide_random

    rng = np.random.default_rng(5)
    at = L.OWN_LEN  # the second seat's row: offsets are honoured
    for _ in range(300):
        row = np.zeros(2 * L.OWN_LEN, np.int64)
        colors = rng.permutation(L.N_LEMMINGS)
        n_stack = int(rng.integers(0, L.N_LEMMINGS + 1))
        row[at + L.OWN_STACK:at + L.OWN_STACK + n_stack] = colors[:n_stack]
        row[at + L.OWN_STACK_N] = n_stack
        row[at + L.OWN_HAND + colors[n_stack:]] = 1
        row[at + L.OWN_HELD:at + L.OWN_HELD + L.N_CONTRACTS_EACH] = rng.integers(0, 2, L.N_CONTRACTS_EACH)
        row[at + L.OWN_RNG] = rng.integers(-2**63, 2**63 - 1)
        kinds = rng.choice([L.DECIDE_BET, L.DECIDE_DISCARD], int(rng.integers(0, 10)))
        log = np.zeros(16, np.int64)
        log[0] = len(kinds)
        log[1:1 + len(kinds)] = kinds
        current = int(rng.choice([-1, L.DECIDE_BET, L.DECIDE_DISCARD]))

        expected = row.copy()
        for kind in ([current] if current >= 0 else []) + [int(k) for k in kinds]:
            answer = decide_random(kind, expected, at, expected, 0)
            if answer < 0:
                continue
            if kind == L.DECIDE_BET:
                n = expected[at + L.OWN_STACK_N]
                expected[at + L.OWN_HAND + answer] = 0
                expected[at + L.OWN_STACK + n] = answer
                expected[at + L.OWN_STACK_N] = n + 1
            else:
                expected[at + L.OWN_HELD + answer] = 0

        random_rounds_after(row, at, current, log)
        n = expected[at + L.OWN_STACK_N]
        assert row[at + L.OWN_STACK_N] == n
        assert list(row[at + L.OWN_STACK:at + L.OWN_STACK + n]) == list(expected[at + L.OWN_STACK:at + L.OWN_STACK + n])
        held = slice(at + L.OWN_HELD, at + L.OWN_HELD + L.N_CONTRACTS_EACH)
        assert list(row[held]) == list(expected[held])
        assert row[at + L.OWN_RNG] == expected[at + L.OWN_RNG]
