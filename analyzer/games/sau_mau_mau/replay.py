"""One Sau Mau Mau game (the rules' races, four in the box), turn by turn
(``analyzer replay sau-mau-mau``).

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
from analyzer.games.sau_mau_mau.rules import ENDS_CROWN, ENDS_HAND
from analyzer.report.replay import points_outcome


def replay(match, seed: int, index: int) -> Replay:
    """Game ``index`` of the run ``simulate`` plays with ``seed`` (see the module)."""
    game = match.game_array.copy()
    game[L.G_TRACE_AT] = L.H_LEN
    hidden = np.zeros(L.H_LEN + region_size(), np.int64)
    open_trace(hidden, L.H_LEN)
    state = np.zeros(L.S_LEN, np.int64)
    params = kernel.working_rows(game, match.params)  # as play_games makes them
    chunk = match._new_chunk(1)
    play_game = kernel.play_game
    status = play_game(game, state, hidden, params, seed, index, chunk.races[0], chunk.players[0],
                       chunk.bets[0], chunk.games[0], chunk.events[0])
    if status != 0:
        match._bot_failed((int(status) << 32) + index, index)
    chunk.first, chunk.count = index, 1
    tables = match.tables_of(chunk)
    steps = _steps(match, read_trace(hidden, L.H_LEN), tables)
    after = _after_races(match.races_per_game)
    for r in tables["games"].itertuples():
        steps.append(ReplayStep("score", f"seat {r.seat} ({r.bot}): {r.total} points {after}"
                                         + (" — wins the game" if r.won else ""), int(r.seat)))
    return Replay(match.game, match.unit, index, seed, match.setup_lines(), steps, tables,
                  outcome=_outcome(tables, after), sections=("deal",))


def _after_races(races: int) -> str:
    return "after the race" if races == 1 else f"after {_NUMBER_WORDS.get(races, str(races))} races"


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _outcome(tables, after: str) -> str:
    """Who wins the game and why: the most points after its races, with each race's share."""
    players = tables["players"]

    def races(winner) -> str:
        return ", ".join(f"race {r.race}: {r.race_points}"
                         for r in players[players["seat"] == winner["seat"]].itertuples())

    return points_outcome(tables["games"], "total", races, after)


def race_result(tables, race: int, rules) -> str:
    """How race ``race`` ended, in the rulebook's words: why (with the points of
    the crown and the last card under ``rules``, the match's), the winning
    pig(s), the bet queue in order with what each bet scored, and each seat's
    race points."""
    r = tables["races"].set_index("race").loc[race]
    players = tables["players"][tables["players"]["race"] == race]
    bets = tables["bets"][tables["bets"]["race"] == race].sort_values("queue_position")
    ender = players[players["seat"] == r["ender_seat"]]
    by = f"seat {r['ender_seat']} ({ender.iloc[0]['bot']})" if len(ender) else "nobody"
    crown_points, last_card_points = rules["crown_points"], rules["last_card_points"]
    if r["end"] == "crown":
        why = f"{r['crown_pig']} reaches the crown, moved by {by} (+{crown_points}" + (
            f", and it was the last card: +{last_card_points}" if r["both_ends"] else "") + ")"
    elif r["end"] == "hand":
        why = f"{by} plays its last card (+{last_card_points})"
    else:
        why = "the turn limit stops it (a safety cap)"
    queue = "; ".join(f"{b.queue_position}. seat {b.seat} ({b.bot}) on {b.pig}: "
                      + (f"+{b.points}" if b.won else "returned") for b in bets.itertuples()) or "empty"
    points = ", ".join(f"seat {p.seat} {p.race_points}" for p in players.itertuples())
    return (f"race {race} ends: {why}; winning pig{'s' if ',' in str(r['winning_pigs']) else ''}: "
            f"{r['winning_pigs']}; bet queue: {queue}; race points: {points}")


def _pig(i: int) -> str:
    return L.PIGS[int(i)]


def _board(pub) -> str:
    return ", ".join(f"{_pig(i)} {int(pub[L.PUB_POS + i])}" for i in range(L.N_PIGS))


def _steps(match, events: np.ndarray, tables) -> list[ReplayStep]:
    steps = []
    who = lambda seat: f"seat {seat + 1} ({match.labels[seat]})"  # noqa: E731
    could = None  # a seat that draws instead of playing: what it could have played, told with its draw
    race = 0
    for ev in events:
        kind, seat, a, b, c = (int(x) for x in ev[:5])
        data = ev[5:]
        if kind == L.EV_RACE:
            race = a
            dealt = match.rules["hand_size"]
            steps.append(ReplayStep("deal", f"race {a}: {_NUMBER_WORDS.get(dealt, str(dealt))} card"
                                            f"{'s' if dealt != 1 else ''} each, {L.card_name(int(data[L.PUB_TOP]))} "
                                            f"turned up; {who(b)} starts; the pigs at the start"))
        elif kind == L.EV_PLAY:
            options = tuple(L.card_name(int(x)) for x in data[:min(b, len(data))])
            could_play = f" (could play: {', '.join(options)})" if options else " (no card to play)"
            if a < 0:
                could = (seat, options, could_play)  # told with the draw that follows
                continue
            under = f" (a +2 penalty of {c} waits)" if c else ""
            chosen = [int(x) for x in data[:b]].index(a)
            steps.append(ReplayStep("card", f"{who(seat)} plays {L.card_name(a)}{under}{could_play}", seat + 1,
                                    options, chosen))
        elif kind == L.EV_DRAW:
            options, could_play = ((), "")
            if could is not None and could[0] == seat:
                options, could_play = could[1], could[2]
            could = None
            steps.append(ReplayStep("card", f"{who(seat)} draws {a} card{'s' if a != 1 else ''}"
                                            + (" for the +2 penalty" if b else "") + could_play, seat + 1, options))
        elif kind == L.EV_STEP:
            steps.append(ReplayStep("decision", f"{who(seat)} steps {_pig(a)} one space back", seat + 1))
        elif kind == L.EV_BET:
            text = f"{who(seat)} bets on {_pig(a)} (face down, at the back of the queue)" if a >= 0 else \
                f"{who(seat)} does not bet"
            steps.append(ReplayStep("bet", text, seat + 1))
        elif kind == L.EV_FLAPI:
            move = match.rules["flapi_move"]
            spaces = f"{_NUMBER_WORDS.get(move, str(move))} space{'s' if move != 1 else ''}"
            steps.append(ReplayStep("decision", f"Flapi: {who(seat)} moves the last pig {_pig(a)} {spaces}",
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
            steps.append(ReplayStep("end", race_result(tables, race, match.rules)))
    return steps
