"""One Lemming Mafia race, move by move (``analyzer replay lemming-mafia``).

The race is played by the same jitted ``play_race`` every run uses, with the
same streams (seed, race index), and with an event trace switched on
(``engine/trace.py``; the events are listed in ``layout.py``, ``EV_*``). The
events are put into the rulebook's words here; the replay ends with the rows
the run's tables hold for that race."""
from __future__ import annotations

import numpy as np

from analyzer.engine.trace import open_trace, read_trace, region_size
from analyzer.games.lemming_mafia import kernel
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.rules import NEEDS_BETS, NEEDS_DISCARDS
from analyzer.games.protocol import Replay, ReplayStep
from analyzer.report.replay import points_outcome


def _color(i: int) -> str:
    return L.COLORS[int(i)]


def _where(match, pos: int) -> str:
    board = match.board
    if pos == L.START:
        return "the start"
    if pos == L.ELIMINATED_POS:
        return "out of the race"
    if pos >= board.n_fields:
        return "the water"
    section = int(board.field_section[pos])
    action = L.ACTIONS[int(board.field_action[pos])]
    return f"field {pos} (section {section + 1}, {action})"


def _contract_words(kind: str, colors: str, points: int) -> str:
    c = colors.split(",") if colors else []
    words = {
        "eliminated": lambda: f"{c[0]} and {c[1]} eliminated" if len(c) == 2 else "eliminated",
        "before": lambda: f"{c[0]} before {c[1]}",
        "top3": lambda: f"{c[0]} in the first three",
        "at_most_one_eliminated": lambda: "at most one lemming eliminated",
        "at_least_three_eliminated": lambda: "at least three lemmings eliminated",
        "winner_clean": lambda: "the winner carries no concrete",
    }
    return f"{words.get(kind, lambda: kind)()} ({points})"


def traced_race(match, seed: int, index: int):
    """Race ``index`` of the run ``simulate`` plays with ``seed``, played with a trace:
    its events (``read_trace``) and its table rows."""
    game = match.game_array.copy()
    h_len = int(game[L.G_H_LEN])
    game[L.G_TRACE_AT] = h_len
    hidden = np.zeros(h_len + region_size(), np.int64)
    open_trace(hidden, h_len)
    state = np.zeros(int(game[L.G_S_LEN]), np.int64)
    params = np.zeros((match.params.shape[0] + 1, match.params.shape[1]), np.float64)
    params[:-1] = match.params  # a working row after the seats' rows, as play_races makes it
    chunk = match._new_chunk(1)
    status = kernel.play_race(game, state, hidden, params, seed, index, chunk.races, chunk.players,
                              chunk.contracts, chunk.bets, 0)
    if status != 0:
        match._bot_failed((int(status) << 32) + index, index)
    chunk.first, chunk.count = index, 1
    return read_trace(hidden, h_len), match.tables_of(chunk)


def replay(match, seed: int, index: int) -> Replay:
    """Race ``index`` of the run ``simulate`` plays with ``seed`` (see the module)."""
    events, tables = traced_race(match, seed, index)
    steps = _deal_steps(match, tables) + _steps(match, events)
    steps += _score_steps(match, tables)
    outcome = points_outcome(tables["players"], "score",
                             lambda w: f"bets {w['bet_points']}, contracts {w['contract_points']}",
                             "at the end of the race", tie_break="contract points")
    return Replay(match.game, match.unit, index, seed, match.setup_lines(), steps, tables, outcome,
                  sections=("move",))


def _deal_steps(match, tables) -> list[ReplayStep]:
    steps = [ReplayStep("deal", "all six lemmings in the start area; every player holds the six bet cards")]
    contracts = tables["contracts"]
    for seat in range(1, match.players + 1):
        rows = contracts[contracts.seat == seat]
        cards = "; ".join(_contract_words(r.kind, r.colors, r.points) for r in rows.itertuples())
        steps.append(ReplayStep("contract", f"seat {seat} ({match.labels[seat - 1]}) is dealt: {cards}", seat))
    return steps


def _steps(match, events: np.ndarray) -> list[ReplayStep]:
    steps = []
    who = lambda seat: f"seat {seat + 1} ({match.labels[seat]})"  # noqa: E731
    before = {lem: L.START for lem in range(L.N_LEMMINGS)}
    for ev in events:
        kind, seat, a, b, c = (int(x) for x in ev[:5])
        data = ev[5:]
        if kind == L.EV_ROLL:
            cands = [_color(x) for x in data[:b]]
            chosen = cands[c]
            if b > 1:
                text = f"move {a}: {who(seat)} rolls {' and '.join(cands)} and chooses to move {chosen}"
            else:
                text = f"move {a}: {who(seat)} rolls {chosen}: {chosen} moves"
            steps.append(ReplayStep("move", text, seat + 1, tuple(cands), c))
        elif kind == L.EV_FIELD:
            options = [_where(match, int(f)) for f in data[:b]]
            steps.append(ReplayStep("decision", f"{who(seat)} puts {_color(a)} on {options[c]} "
                                                f"(free: {', '.join(options)})", seat + 1, tuple(options), c))
        elif kind == L.EV_LAND:
            pos, blocks, out = data[:6], data[6:12], data[12:18]
            lem = a
            text = f"{_color(lem)} lands on {_where(match, b)}"
            action = L.ACTIONS[int(match.board.field_action[b])]
            if int(pos[lem]) not in (b,) and int(pos[lem]) >= 0 and action == "getaway":
                text += f"; the getaway car takes it on to {_where(match, int(pos[lem]))}"
            elif int(pos[lem]) >= match.board.n_fields:
                text += "; the getaway car takes it into the water"
            changes = []
            for other in range(L.N_LEMMINGS):
                if int(out[other]) and before[other] != L.ELIMINATED_POS:
                    changes.append(f"{_color(other)} is eliminated ({int(out[other])}.)")
                    before[other] = L.ELIMINATED_POS
            text += f"; concrete: {', '.join(f'{_color(i)} {int(blocks[i])}' for i in range(L.N_LEMMINGS) if blocks[i])}" \
                if blocks.any() else ""
            if changes:
                text += "; " + "; ".join(changes)
            if c == NEEDS_BETS:
                text += "; the bookmaker opens"
            elif c == NEEDS_DISCARDS:
                text += "; the boss calls"
            steps.append(ReplayStep("field", text, seat + 1))
            before[lem] = int(pos[lem])
        elif kind == L.EV_WATER:
            steps.append(ReplayStep("field", f"no free field ahead: {_color(a)} jumps into the water", seat + 1))
        elif kind == L.EV_ROUND:
            # b: the sub-round, where the rules let a player put down (throw away) more than one card
            asked = [(s, int(x)) for s, x in enumerate(data[:match.players]) if int(x) != L.NOT_ASKED]
            again = f", card {b + 1} (those who went on)" if b > 0 else ""
            if a == L.DECIDE_BET:
                said = [f"seat {s + 1} {'bets ' + _color(x) if x >= 0 else 'passes'}" for s, x in asked]
                steps.append(ReplayStep("bet", f"bookmaker{again} (hidden, all at once): " + ", ".join(said)))
            else:
                keeps = "keeps the rest" if b > 0 else "keeps all"
                said = [f"seat {s + 1} {'discards contract ' + str(x + 1) if x >= 0 else keeps}" for s, x in asked]
                steps.append(ReplayStep("contract", f"boss{again} (hidden, all at once): " + ", ".join(said)))
        elif kind == L.EV_END:
            how = "reaches the water first" if b == L.FINISH_WATER else "is the last lemming standing"
            steps.append(ReplayStep("end", f"{_color(a)} {how}: the race ends"))
    return steps


def _score_steps(match, tables) -> list[ReplayStep]:
    steps = []
    bets, contracts = tables["bets"], tables["contracts"]
    for r in tables["players"].itertuples():
        stack = bets[bets.seat == r.seat].sort_values("order")
        paid = ", ".join(f"{b.color} {b.paid:+d}" for b in stack.itertuples()) or "no bets"
        held = contracts[(contracts.seat == r.seat) & ~contracts.discarded]
        deals = ", ".join(f"{_contract_words(c.kind, c.colors, c.points)} {c.payoff:+d}"
                          for c in held.itertuples()) or "none held"
        steps.append(ReplayStep("score", f"seat {r.seat} ({r.bot}): bets {paid} = {r.bet_points}; contracts "
                                         f"{deals} = {r.contract_points}; score {r.score}"
                                         + (" — wins" if r.won else ""), int(r.seat)))
    return steps
