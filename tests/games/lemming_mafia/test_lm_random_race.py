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
    mixed = [BotSpec("lookahead")] + table[1:]
    assert LemmingMafiaMatch(None, 4, mixed)._play is kernel.play_races


# ------------------------------------------------ summary-only runs (detail off)

@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_summary_kernel_writes_the_races_and_players_of_the_full_one(name, players):
    """``play_race_summaries`` (simulate without tables, compare, tournament,
    tune) writes the races and players rows exactly as ``play_races`` does, and
    nothing of the contracts and bets rows or the field counts."""
    sections = BOARDS[name]
    board = S.DEFAULT_BOARD if sections is None else S.make_board(sections)
    game = pack_game(board, S.DEFAULT_DECK, [RANDOM] * players)
    for seed, first in ((7, 0), (2**40 + 3, 10**9)):
        full = play(random_race.play_races, game, players, seed, first, 1500)
        summary = Chunk.empty(1500, players, game[L.G_N_FIELDS])
        summary.contracts[:] = 77
        summary.bets[:] = 77
        summary.fields[:] = 77
        status = random_race.play_race_summaries(game, np.zeros((players, PARAMS_WIDTH)), seed, first, 1500,
                                                 summary.races, summary.players, summary.contracts,
                                                 summary.bets, summary.fields)
        assert status == 0
        for part in ("races", "players"):
            np.testing.assert_array_equal(getattr(summary, part), getattr(full, part), err_msg=part)
        assert (summary.contracts == 77).all() and (summary.bets == 77).all() and (summary.fields == 77).all()


def summary_and_outcomes(match, detail, seed=5, races=4000, pieces=3):
    s = match.new_summary()
    won, score = [], []
    bounds = np.linspace(0, races, pieces + 1).astype(int)
    for first, last in zip(bounds[:-1], bounds[1:]):
        c = match.play(seed, int(first), int(last - first), detail)
        s.add(c)
        w, p = match.outcomes(c)
        won.append(w.copy())
        score.append(p.copy())
        match.release([c])
    return s.as_dict(), np.concatenate(won), np.concatenate(score)


@pytest.mark.parametrize("table", [["random"] * 4, ["favourite", "random", "random", "random"]])
def test_a_summary_play_gives_the_full_plays_summary_and_outcomes(table):
    """``match.play(detail=False)`` (the fast path's summary kernel for a random
    table, the full kernel otherwise): the same summary and outcomes; a pooled
    buffer a summary play left behind is then filled in full again."""
    match = LemmingMafiaMatch(None, 4, [BotSpec(b) for b in table])
    full = summary_and_outcomes(match, True)
    fresh = match.play(5, 0, 1000).view()
    fresh = {part: getattr(fresh, part).copy() for part in ("races", "players", "contracts", "bets")}
    match.release([match.play(5, 2000, 1000, detail=False)])
    _equal(summary_and_outcomes(match, False), full)
    again = match.play(5, 0, 1000).view()  # a buffer reused from the summary plays
    for part, rows in fresh.items():
        np.testing.assert_array_equal(getattr(again, part), rows, err_msg=part)


def _equal(a, b):
    assert a[0] == b[0]
    np.testing.assert_array_equal(a[1], b[1])
    np.testing.assert_array_equal(a[2], b[2])
    return True


def test_simulate_without_tables_gives_the_summary_of_a_run_with_them(tmp_path):
    """A plain ``simulate`` (summary only) and one writing ``--out`` agree."""
    from analyzer.engine.simulate import simulate

    match = LemmingMafiaMatch(None, 4, [BotSpec("random")] * 4)
    plain = simulate(match, 3000, 11, threads=2, chunk_size=1000, progress=False)
    written = simulate(match, 3000, 11, threads=2, chunk_size=1000, out_dir=tmp_path / "out", progress=False)
    assert plain.manifest["summary"] == written.manifest["summary"]
    assert plain.summary.render() == written.summary.render()


def test_a_summary_chunk_has_no_tables_and_counts_no_fields():
    """What a summary-only play leaves out is not read by mistake: its chunk
    refuses ``tables_of`` and adds no field counts to the summary."""
    match = LemmingMafiaMatch(None, 4, [BotSpec("random")] * 4)
    chunk = match.play(3, 0, 200, detail=False)
    assert not chunk.detail
    with pytest.raises(ValueError):
        match.tables_of(chunk)
    s = match.new_summary()
    s.add(chunk)
    assert s.fields is None
    full = match.play(3, 0, 200)
    assert full.detail and full.fields.sum() > 0
    s.add(full)
    np.testing.assert_array_equal(s.fields, full.fields)
