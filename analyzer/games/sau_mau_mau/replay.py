"""One Sau Mau Mau game (four races), turn by turn (``analyzer replay sau-mau-mau``).

The game is played by the same jitted ``play_game`` every run uses, with the
same streams (seed, game index), and with an event trace switched on
(``engine/trace.py``; the events are listed in ``layout.py``, ``EV_*``). The
events are put into the rulebook's words here; the replay ends with the rows
the run's tables hold for that game."""
from __future__ import annotations

import numpy as np

from analyzer.engine.trace import open_trace, read_trace, region_size
from analyzer.games.protocol import Replay, ReplayStep
from analyzer.games.sau_mau_mau import kernel
from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau.bots import CACHED_WIDTH, fill_cache
from analyzer.games.sau_mau_mau.rules import ENDS_CROWN, ENDS_HAND


def replay(match, seed: int, index: int) -> Replay:
    """Game ``index`` of the run ``simulate`` plays with ``seed`` (see the module)."""
    game = match.game_array.copy()
    game[L.G_TRACE_AT] = L.H_LEN
    hidden = np.zeros(L.H_LEN + region_size(), np.int64)
    open_trace(hidden, L.H_LEN)
    state = np.zeros(L.S_LEN, np.int64)
    # as play_games makes it: a working row after the seats' (a user bot's copy,
    # the search bot's table), each row as wide as a heuristic's cache, filled
    params = np.zeros((L.MAX_PLAYERS + 1, CACHED_WIDTH), np.float64)
    params[:match.players, :L.PARAMS_WIDTH] = match.params
    for seat in range(match.players):
        kind = game[L.G_KINDS + seat]
        if L.FIRST_HEURISTIC <= kind <= L.LAST_HEURISTIC or kind == L.LOOKAHEAD:
            fill_cache(params[seat], game[L.G_CROWN])
    chunk = match._new_chunk(1)
    play_game = kernel.play_game
    status = play_game(game, state, hidden, params, seed, index, chunk.races[0], chunk.players[0],
                       chunk.bets[0], chunk.games[0], chunk.events[0])
    if status != 0:
        match._bot_failed((int(status) << 32) + index)
    chunk.first, chunk.count = index, 1
    tables = match.tables_of(chunk)
    steps = _steps(match, read_trace(hidden, L.H_LEN))
    for r in tables["games"].itertuples():
        steps.append(ReplayStep("score", f"seat {r.seat} ({r.bot}): {r.total} points after four races"
                                         + (" — wins the game" if r.won else ""), int(r.seat)))
    return Replay(match.game, match.unit, index, seed, match.setup_lines(), steps, tables)


def _pig(i: int) -> str:
    return L.PIGS[int(i)]


def _board(pub) -> str:
    return ", ".join(f"{_pig(i)} {int(pub[L.PUB_POS + i])}" for i in range(L.N_PIGS))


def _steps(match, events: np.ndarray) -> list[ReplayStep]:
    steps = []
    who = lambda seat: f"seat {seat + 1} ({match.labels[seat]})"  # noqa: E731
    for ev in events:
        kind, seat, a, b, c = (int(x) for x in ev[:5])
        data = ev[5:]
        if kind == L.EV_RACE:
            steps.append(ReplayStep("deal", f"race {a}: five cards each, {L.card_name(int(data[L.PUB_TOP]))} turned "
                                            f"up; {who(b)} starts; the pigs at the start"))
        elif kind == L.EV_PLAY:
            options = tuple(L.card_name(int(x)) for x in data[:min(b, len(data))])
            under = f" (a +2 penalty of {c} waits)" if c else ""
            if a < 0:
                text = f"{who(seat)} draws{under}"
                chosen = -1
            else:
                text = f"{who(seat)} plays {L.card_name(a)}{under}"
                chosen = [int(x) for x in data[:b]].index(a)
            steps.append(ReplayStep("card", text + (f" (could play: {', '.join(options)})" if options else
                                                   " (no card to play)"), seat + 1, options, chosen))
        elif kind == L.EV_DRAW:
            steps.append(ReplayStep("card", f"{who(seat)} draws {a} card{'s' if a != 1 else ''}"
                                            + (" for the +2 penalty" if b else ""), seat + 1))
        elif kind == L.EV_STEP:
            steps.append(ReplayStep("decision", f"{who(seat)} steps {_pig(a)} one space back", seat + 1))
        elif kind == L.EV_BET:
            text = f"{who(seat)} bets on {_pig(a)} (face down, at the back of the queue)" if a >= 0 else \
                f"{who(seat)} does not bet"
            steps.append(ReplayStep("bet", text, seat + 1))
        elif kind == L.EV_FLAPI:
            steps.append(ReplayStep("decision", f"Flapi: {who(seat)} moves the last pig {_pig(a)} three spaces",
                                    seat + 1))
        elif kind == L.EV_FARMER:
            steps.append(ReplayStep("decision", f"Farmer: {who(seat)} names {_pig(a)}", seat + 1))
        elif kind == L.EV_TURN:
            if b:
                text = f"{who(seat)} is skipped (an X)"
            else:
                hands = ", ".join(str(int(data[L.PUB_HAND_N + s])) for s in range(match.players))
                text = f"pigs: {_board(data)}; cards in hand: {hands}"
                if a & ENDS_CROWN:
                    text += "; a pig reaches the crown"
                if a & ENDS_HAND:
                    text += f"; {who(seat)} has played its last card"
            steps.append(ReplayStep("turn", text, seat + 1))
        elif kind == L.EV_RACE_END:
            steps.append(ReplayStep("end", "the race ends" if a else "the race is stopped (turn limit)"))
    return steps
