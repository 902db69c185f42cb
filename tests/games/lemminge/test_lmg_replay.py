"""``replay(seed, index)`` plays the same game a run plays (the same streams),
step by step in the rulebook's words, ending with that game's table rows."""
import numpy as np
import pandas as pd

from analyzer.engine.botspec import BotSpec
from analyzer.games.lemminge import kernel
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.match import LemmingeMatch, describe_events
from analyzer.report.replay import render_text


def test_replay_is_the_game_of_the_run():
    match = LemmingeMatch(None, 3, [BotSpec("random", ()), BotSpec("racer", ()), BotSpec("random", ())])
    chunk = match.play(9, 0, 12)
    run = match.tables_of(chunk)
    r = match.replay(9, 7)
    assert r.index == 7 and r.unit == "games" and "ASSUMED" in r.setup[0]
    for name in ("games", "players", "moves"):
        mine = run[name][run[name]["game"] == 7].reset_index(drop=True)
        assert mine.equals(r.tables[name].reset_index(drop=True)), name
    kinds = [s.kind for s in r.steps]
    assert kinds[-1] == "end" and "wins" in r.steps[-1].text
    assert sum(s.kind == "turn" for s in r.steps) == int(r.tables["games"]["turns"].iloc[0])
    plays = [s for s in r.steps if s.kind == "card" and " plays " in s.text]
    assert len(plays) == len(r.tables["moves"])
    moves = [s for s in r.steps if s.kind == "move" and " steps from " in s.text]
    assert len(moves) == r.tables["players"]["steps"].sum()
    decisions = [s for s in r.steps if s.kind == "decision"]
    assert decisions and all(-1 <= s.chosen < len(s.options) for s in decisions)
    assert any("pushed" in s.text for s in r.steps) == (r.tables["players"]["pushed"].sum() > 0)
    assert isinstance(r.tables["hexes"], pd.DataFrame)


# ---------------------------------------------------------------------- the text against the game

BOTS = ("racer", "random", "blocker", "convoy")
# two games of seed 5 that hold between them every event kind but the turn cap (no
# game of these bots reaches 3,000 turns: its line is checked on a trace of its own)
GAMES = (2, 16)
EVENT_KINDS = {k: v for k, v in vars(L).items() if k.startswith("EV_")}


def trace_of(match, seed, index):
    """The raw trace of the game, as ``replay`` records it."""
    trace = np.zeros(1 << 20, np.int64)
    trace[0] = 1
    games, players, moves, counts, hexes = kernel.new_records(1, match.players, match.n_cells, 4 * L.MAX_TURNS)
    assert match._play(match.game_array, match.params, seed, index, 1, games, players, moves, counts, hexes,
                       trace) == 0
    assert trace[0] + L.TR_WIDTH <= trace.shape[0]
    return trace[1:trace[0]].reshape(-1, L.TR_WIDTH)


def walk(events, steps, board, labels):
    """Walk the events and the replay's steps together, each step checked against the
    event it tells (the truth of the game: the tiles as laid, the card played, the
    finish distances). Returns the event kinds seen."""
    seen = set()
    tiles = {}  # cell -> the tile kind on it, from the tile events
    n_values = len(board.values)
    dist = board.distances()

    def card(c):
        return f"{L.TERRAINS[c // n_values]} {board.values[c % n_values]}"

    def where(cell):
        """The hex as the lemming finds it: the tile on it, else the printed terrain."""
        if cell == L.HOME:
            return "home", L.FINISH
        if cell < 0:
            return "the start area", L.START
        printed = L.TERRAIN_OF_LETTER[board.letter(cell)]
        name = f"({cell % board.width}, {cell // board.width}) {L.TERRAIN_NAMES[printed]}"
        if cell in tiles:
            kind = tiles[cell]
            return f"{L.TILE_KINDS[kind]} tile on {name}", (L.MEADOW if kind == L.N_TILE_KINDS - 1 else kind)
        return name, printed

    it = iter(steps)
    deals, drawn, dropped, options = {}, [], [], []
    played = -1  # terrain of the card played this turn
    for kind, seat, a, b, c, d in (tuple(int(v) for v in e) for e in events):
        seen.add(kind)
        who = f"seat {seat + 1}"
        if kind == L.EV_DEAL:
            deals.setdefault(seat, []).append(card(a))
            continue
        for s, cards in deals.items():
            assert next(it).text == f"seat {s + 1} ({labels[s]}) is dealt {len(cards)}: {', '.join(cards)}"
        deals = {}
        if kind == L.EV_DISCARD:
            dropped.append(card(a))
            continue
        if kind == L.EV_DRAW:
            drawn.append(card(a))
            continue
        if kind == L.EV_OPTION:
            options.append((b, c, d))
            continue
        if kind == L.EV_DECISION and (a in (L.DECIDE_TILE, L.DECIDE_DISCARD) or (a == L.DECIDE_ACTION and c < 0)):
            options = []
            continue  # the tile and refill lines tell these
        step = next(it)
        text = step.text
        if kind == L.EV_TURN:
            assert text == f"turn {a}: {who} ({labels[seat]})" and step.kind == "turn"
            played = -1
        elif kind == L.EV_RESHUFFLE:
            assert f"shuffled into a new pile of {a} cards" in text and ("double zero" in text) == (b != 0)
        elif kind == L.EV_REFILL:
            assert text == (f"{who} refills: discards {', '.join(dropped) or 'nothing'}, "
                            f"draws {', '.join(drawn) or 'nothing'}")
            assert (len(dropped), len(drawn)) == (a, b)
            dropped, drawn = [], []
        elif kind == L.EV_DECISION:
            assert step.kind == "decision" and len(step.options) == c == len(options) and step.chosen == b
            for (value, extra, pushed), said in zip(options, step.options):
                if a == L.DECIDE_ACTION:  # every card, those that allow no step said so
                    assert said == card(value) + ("" if extra else " (no step)")
                elif a == L.DECIDE_STEP:
                    name, ground = where(value // 8)
                    assert said.startswith(f"to {name} ({L.DIRECTIONS[value % 8]})")
                    assert ground in (L.MEADOW, L.FINISH, played), said  # a step the card allows
                    assert (", pushing" in said) == (pushed > 0) and extra == 1 + pushed  # the box's push cost
                elif a == L.DECIDE_LEMMING:
                    assert said == f"lemming {value % 2 + 1} of seat {value // 2 + 1}"
            answer = step.options[b] if b >= 0 else ("refill" if a == L.DECIDE_ACTION else "stop")
            assert text.startswith(f"{who} chooses ") and text.endswith(": " + answer)
            options = []
        elif kind == L.EV_PLAY:
            assert text.startswith(f"{who} plays {card(a)}") and text.endswith(f"movement {d}")
            assert ("starts a new column" in text) == (c == 1) and f"(sum {b})" in text
            played = a // n_values
        elif kind == L.EV_TILE:
            old = tiles.get(b, -1)
            assert c == old  # the tile the game sends back is the one the replay had there
            printed = L.TERRAIN_NAMES[L.TERRAIN_OF_LETTER[board.letter(b)]]
            assert text == (f"{who} places a {L.TILE_KINDS[a]} tile on ({b % board.width}, {b // board.width}) "
                            f"{printed}" + (f" (the {L.TILE_KINDS[old]} tile there goes back)" if old >= 0 else ""))
            tiles[b] = a
        elif kind == L.EV_NO_TILE:
            assert text == f"no {L.TERRAINS[a]} or meadow tile left: no bonus tile"
        elif kind == L.EV_STEP:
            (source, _), (target, ground) = where(b), where(c)
            assert text.startswith(f"lemming {a % 2 + 1} of seat {a // 2 + 1} steps from {source} to {target}")
            assert ground in (L.MEADOW, L.FINISH, played), text  # the terrain it enters reads legal
            assert (f"pushing {d} lemming" in text) == (d > 0)
        elif kind == L.EV_PUSHED:
            assert text == f"lemming {a % 2 + 1} of seat {a // 2 + 1} is pushed from {where(b)[0]} to {where(c)[0]}"
            assert (0 if c == L.HOME else dist[c]) <= dist[b], text  # never backwards
        elif kind == L.EV_HOME:
            assert text == f"lemming {a % 2 + 1} of seat {a // 2 + 1} crosses the finish line"
        elif kind == L.EV_STOP:
            assert text == f"lemming {a % 2 + 1} of seat {a // 2 + 1} stops ({b} movement unused)"
        elif kind == L.EV_NO_LEMMING:
            assert text == f"{who}: no lemming can step"
        elif kind == L.EV_WIN:
            assert text == f"{who} ({labels[seat]}) has both lemmings home and wins" and step.kind == "end"
        elif kind == L.EV_CAP:
            assert text == f"the game stops at the {a}-turn safety cap without a winner" and step.kind == "end"
        else:
            raise AssertionError(f"event kind {kind} has no check")
    assert next(it, None) is None  # no line the game does not hold
    return seen


def test_the_replay_text_tells_every_event_as_it_happened():
    """Every line of the replay (``Replay.steps``, the text ``analyzer replay``
    prints) against the event it tells, for every kind of event: in particular a
    hex is named by what a lemming stands on, a bonus tile as "forest tile on
    (4, 9) mountain", so that every step reads legal for the card played."""
    match = LemmingeMatch(None, 4, [BotSpec(b, ()) for b in BOTS])
    seen = set()
    for index in GAMES:
        r = match.replay(5, index)
        printed = render_text(r).splitlines()
        assert printed[printed.index(r.steps[0].text):][:len(r.steps)] == [s.text for s in r.steps]
        seen |= walk(trace_of(match, 5, index), r.steps, match.map, match.labels)
    cap = np.array([[L.EV_TURN, 0, 1, 0, 0, 0], [L.EV_CAP, -1, L.MAX_TURNS, 0, 0, 0]], np.int64)
    seen |= walk(cap, describe_events(cap, match.map, match.labels), match.map, match.labels)
    assert seen == set(EVENT_KINDS.values()), {k for k, v in EVENT_KINDS.items() if v not in seen}


def test_a_move_onto_a_tile_names_the_tile():
    """"places a forest tile on (4, 9) mountain", then a forest card
    "moves to (4, 9) mountain" read illegal; the lemming stands on the tile."""
    match = LemmingeMatch(None, 4, [BotSpec(b, ()) for b in BOTS])
    board = match.map
    cell = 9 * board.width + 4
    events = np.array([[L.EV_TILE, 0, 0, cell, -1, 0], [L.EV_STEP, 0, 0, cell - 1, cell, 0],
                       [L.EV_TILE, 1, L.N_TILE_KINDS - 1, cell, 0, 0]], np.int64)
    texts = [s.text for s in describe_events(events, board, match.labels)]
    assert texts == ["seat 1 places a forest tile on (4, 9) mountain",
                     "lemming 1 of seat 1 steps from (3, 9) meadow to forest tile on (4, 9) mountain",
                     "seat 2 places a meadow tile on (4, 9) mountain (the forest tile there goes back)"]
