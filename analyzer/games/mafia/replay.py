"""One Mafia game told in the rulebook's words (``analyzer replay mafia``).

``MafiaMatch.trace`` plays the game with the trace switched on (the events are
listed in ``layout.py``, ``T_*``); ``describe_events`` puts them into steps: a
roll's decision is the move it made ("red moves its Boss from Palermo to
Sant'Agata, 4 steps"), cards by their names on the rules page, every die with
what it did, shootouts from challenge to fall, and the end says who wins and
why (the spaces controlled, or the purge count and the pieces that make it)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from analyzer.games.mafia import layout as L

YES_NO = ("no", "yes")
PLAY_OR_KEEP = ("keep it", "play it")
DUEL_CARDS = (L.LAS_VEGAS, L.SPECIAL_WEAPONS, L.ANTI_GANG)
EVEN, ODD = (2, 4, 6), (1, 3, 5)


def purge_weights(rules) -> dict[tuple[int, int], float]:
    """What each piece in a box counts towards the purge under ``rules`` (rules page,
    "Turn order and the end"; the ``purge_half_points`` rule): (kind, box) -> points."""
    boss_prison, boss_barracks, picciotto_prison = rules["purge_half_points"]
    return {(L.BOSS, L.PRISON): boss_prison / 2, (L.BOSS, L.BARRACKS): boss_barracks / 2,
            (L.PICCIOTTO, L.PRISON): picciotto_prison / 2}


def die_rule(faces) -> str:
    """When a die succeeds, in words: "an odd die", "an even die", "2-6"."""
    faces = tuple(sorted(faces))
    return "an even die" if faces == EVEN else "an odd die" if faces == ODD else faces_text(faces)


def faces_text(faces) -> str:
    """Die faces as the rules page writes them: 1-2, 6, 1 3 5."""
    faces = sorted(faces)
    if not faces:
        return "never"
    if faces == list(range(faces[0], faces[-1] + 1)) and len(faces) > 1:
        return f"{faces[0]}-{faces[-1]}"
    return " ".join(map(str, faces))


def card_name(c: int) -> str:
    """A card by its id (0-23: USA, ROME, then the SISDE clues, two per family)."""
    if c >= L.FIRST_SISDE:
        return f"a SISDE clue ({L.FAMILIES[(c - L.FIRST_SISDE) // 2]})"
    return L.CARD_TITLES[c]


def played_name(code: int, piece: int) -> str:
    """What a T_CARD event played: a card id 0-15, or the SISDE pair / the four-player
    SISDE draw (``piece``: the Boss it arrests)."""
    if code == L.PLAY_SISDE_PAIR:
        return f"the two SISDE clues ({L.FAMILIES[piece // 3]}) on the {L.PIECE_NAMES[piece]}"
    if code == L.PLAY_SISDE_4P:
        return f"the matching SISDE clue ({L.FAMILIES[piece // 3]}) on the {L.PIECE_NAMES[piece]}"
    return card_name(code)


def owner(p: int) -> int:
    """The side a piece belongs to."""
    return p // 3 if p < 12 else L.STATE


def start_places(match) -> dict[int, int]:
    """Where the State's pieces stand before the first turn (the families' pieces
    start on their bases, which the trace names)."""
    m = match.map
    places = {L.PREFECT: m.prefect_start, L.SISDE: m.sisde_start if match.players != 4 else L.OUT}
    places.update({L.CC1 + i: x for i, x in enumerate(m.roadblocks)})
    return places


def purge_pieces(places: dict[int, int], weights: dict[tuple[int, int], float]) -> tuple[float, list[str]]:
    """The purge count of the pieces' places (``weights``: ``purge_weights`` of the rules)
    and the pieces that make it, in words."""
    total, parts = 0.0, []
    for p in range(12):
        weight = weights.get((L.BOSS if p % 3 == 0 else L.PICCIOTTO, places.get(p, 0)), 0.0)
        if weight:
            total += weight
            parts.append(f"the {L.PIECE_NAMES[p]} in the {L.BOX_NAMES[places[p]]} ({weight:g})")
    return total, parts


def describe_events(match, events: np.ndarray) -> tuple[list, str]:
    """ReplaySteps of a ``MafiaMatch``'s game trace events (layout ``T_*``) and the sentence saying
    who wins and why. Every event but T_ABOUT is one step, except the moves a
    roll's decision made: that decision's step names them. Every die rolled (the
    turn's two, triggers, shootouts, marker and return rolls) is printed."""
    from analyzer.games.protocol import ReplayStep

    m = match.map
    rules = match.rules
    shot_rule, weapons_rule = die_rule(rules["shootout_hit_faces"]), die_rule(rules["weapons_hit_faces"])
    marker_faces, removal_faces = rules["picciotto_marker_faces"], rules["cc_removal_faces"]
    names = [s.name for s in m.spaces]
    types = [s.type for s in m.spaces]  # current types and triggers (Anti-mafia operation changes them)
    triggers = [tuple(s.trigger) for s in m.spaces]
    not_cities = [s.id for s in m.spaces if s.type != L.CITY]  # cities never change type
    marks = np.zeros((m.n_spaces, L.N_FAMILIES), np.int64)  # markers, followed from the marker events
    places = start_places(match)  # piece -> space (>= 0) or box, followed from the events

    def seat(side):
        return match.side_seat[side] + 1 if 0 <= side < L.N_SIDES else 0

    def side_name(side):
        """A side with its seat and bot: "red (seat 1, random)"."""
        k = seat(side)
        return f"{L.SIDE_NAMES[side]} (seat {k}, {match.labels[k - 1]})" if k else L.SIDE_NAMES[side]

    def piece(p):
        return L.PIECE_NAMES[p] if 0 <= p < L.N_PIECES else "no piece"

    def where(x):
        return names[x] if x >= 0 else f"the {L.BOX_NAMES.get(x, '?')}"

    def moved(p, to, steps):
        """A piece's move in words, its place followed."""
        came = places.get(p)
        places[p] = to
        flew = ", by air" if steps >= 100 else ""
        start = f" from {where(came)}" if came is not None else ""
        return f"{piece(p)}{start} to {names[to]} ({steps % 100} step{'s' if steps % 100 != 1 else ''}{flew})"

    def decision(side, what, n, about):
        """(text, options) of a decision of ``side``."""
        ask_piece, ask_other, ask_card = about
        who = L.SIDE_NAMES[side]
        for_state = "" if side == L.STATE else " for the State"
        indices = tuple(f"option {i + 1} of {n}" for i in range(n))
        if what == L.D_BASE:
            return f"{who} decides its base", tuple(names[x] for x in m.bases_of(side))
        if what == L.D_ARREST:
            return f"{who} decides{for_state}: does the {piece(ask_other)} arrest the {piece(ask_piece)}?", YES_NO
        if what == L.D_HOLD:
            return f"{who} decides{for_state}: does the {piece(ask_other)} hold the {piece(ask_piece)}?", YES_NO
        if what == L.D_FORBID:
            return (f"{who} decides: does the {piece(ask_other)} forbid the {piece(ask_piece)} every "
                    f"activity?", YES_NO)
        if what == L.D_SHOOT:
            return f"{who} decides: does the {piece(ask_other)} start a shootout with the {piece(ask_piece)}?", YES_NO
        if what == L.D_RESIST:
            return f"{who} decides: does the {piece(ask_piece)} resist the {piece(ask_other)}?", YES_NO
        if what == L.D_CARD:
            if ask_card >= L.FIRST_SISDE:
                offered = f"the two SISDE clues ({L.FAMILIES[(ask_card - L.FIRST_SISDE) // 2]})"
            else:
                offered = card_name(ask_card)
            on = ""
            if ask_card in DUEL_CARDS and 0 <= ask_other < L.N_PIECES and ask_piece >= 0:
                on = f" ({piece(ask_piece)} against {piece(ask_other)})"
            elif ask_card == L.HELIBORNE or ask_card == L.SPY:
                on = ""
            elif 0 <= ask_piece < L.N_PIECES:
                on = f" (on the {piece(ask_piece)})"
            return f"{who} decides: play {offered}{on}?", PLAY_OR_KEEP
        if what == L.D_GIVE_UP:
            return f"{who} decides which card of its hand to give up at the leak", indices
        if what == L.D_VISIT_SPACE:
            opts = tuple(names[x] for x in range(m.n_spaces) if marks[x, side] > 0)
            if len(opts) != n:
                opts = indices
            return f"{who} decides the space of the American boss visit", opts
        if what == L.D_ANTI_MAFIA_SPACE:
            return f"{who} decides the space the Anti-mafia operation makes a roadblock", \
                tuple(names[x] for x in not_cities)
        if what == L.D_HELI_DIE:
            return (f"{who} decides what die {ask_other + 1} becomes (Heliborne operation)",
                    tuple(str(ask_piece + i) for i in range(n)))
        return f"{who} decides: {L.DECISIONS[what]}", indices

    def shooters_dice(a, b, da, db, flags):
        def one(p, d, hit, weapons, sure):
            if sure:
                return f"the {piece(p)} hits without rolling (Anti-gang brigade)"
            rule = f"hits on {weapons_rule}, Special weapons" if weapons else f"hits on {shot_rule}"
            return f"the {piece(p)} rolls {d} ({rule}): {'hits' if hit else 'misses'}"
        fallen = [piece(p) for p, hit in ((b, flags & L.SHOT_HIT_A), (a, flags & L.SHOT_HIT_B)) if hit]
        result = {0: "nobody falls", 1: f"the {fallen[0]} falls" if fallen else "", 2: "both fall"}[len(fallen)]
        return ("shootout dice: " + one(a, da, flags & L.SHOT_HIT_A, flags & L.SHOT_WEAPONS_A, flags & L.SHOT_SURE_A)
                + "; " + one(b, db, flags & L.SHOT_HIT_B, flags & L.SHOT_WEAPONS_B, flags & L.SHOT_SURE_B)
                + f"; {result}")

    def marker_roll(face, faces, yes, no):
        """A marker die in words: ": even, it does" (the box's even faces), else with the faces."""
        hit = face in faces
        if tuple(sorted(faces)) == EVEN:
            return f": {'even' if face % 2 == 0 else 'odd'}, {yes if hit else no}"
        return f" (on {faces_text(faces)}): {yes if hit else no}"

    def ending(outcome, passes):
        """Who wins and why, from the places and markers followed up to the end."""
        if outcome == L.OUT_DRAW:
            return f"A draw: {passes} calendar turns passed without a winner (the safety cap)."
        if outcome in (L.OUT_STATE, L.OUT_ALL_LOSE):
            total, parts = purge_pieces(places, purge_weights(rules))
            pieces = ", ".join(parts) or "no piece"
            goal = rules["purge_points_to_end"]
            if outcome == L.OUT_STATE:
                return (f"The {side_name(L.STATE)} wins because the purge count reaches {total:g} "
                        f"({goal} needed) at the start of a State turn: {pieces}.")
            return (f"Everyone loses because the purge count reaches {total:g} ({goal} needed, "
                    f"no State player) at the start of a family's turn: {pieces}.")
        family = outcome - L.OUT_RED
        held = [names[x] for x in range(m.n_spaces) if marks[x, family] > 0]
        need = rules.at("spaces_to_win", match.players)
        return (f"{side_name(family)} wins because at the start of its turn it controls "
                f"{len(held)} spaces ({need} needed with {match.players} players): {', '.join(held)}.")

    steps, outcome = [], ""
    turn_at = -1  # the step of the turn under way: its line also names the moves made (the timeline's summary)
    about = (-1, -1, -1)
    duel = (-1, -1)
    rows = events.tolist()
    told = set()  # indices of the move events a roll's decision already named
    for k, (code, a, b, c) in enumerate(rows):
        if k in told:
            continue
        if code == L.T_BASE:
            for p in range(3 * a, 3 * a + 3):
                places[p] = b
            steps.append(ReplayStep("setup", f"{L.FAMILIES[a]} takes {names[b]} as base", seat(a)))
        elif code == L.T_TURN:
            turn_at = len(steps)
            steps.append(ReplayStep("turn", f"calendar turn {b + 1}: {side_name(a)}", seat(a)))
        elif code == L.T_FROZEN:
            steps.append(ReplayStep("frozen", f"{L.SIDE_NAMES[a]} may not move this turn (commission)", seat(a)))
        elif code == L.T_RETURN:
            places[a] = c
            steps.append(ReplayStep("return", f"{L.PIECE_NAMES[a]} returns from the {L.BOX_NAMES[b]} to "
                                              f"{names[c]}", seat(owner(a))))
        elif code == L.T_RETURN_ROLL:
            faces = m.returns[(L.CONTINENT, L.PRISON, L.BARRACKS).index(b)]
            ok = "success" if c in faces else "it stays"
            steps.append(ReplayStep("dice", f"{L.PIECE_NAMES[a]} rolls {c} to return from the {L.BOX_NAMES[b]} "
                                            f"({faces_text(faces)}): {ok}", seat(owner(a))))
        elif code == L.T_DICE:
            steps.append(ReplayStep("dice", f"{L.SIDE_NAMES[a]} rolls {b} and {c}", seat(a)))
        elif code == L.T_HELI:
            steps.append(ReplayStep("dice", f"Heliborne operation: the dice become {b} and {c}", seat(a)))
        elif code == L.T_AIR_CLOSED:
            steps.append(ReplayStep("card", "the air link is closed this turn", seat(a)))
        elif code == L.T_MOVE:
            steps.append(ReplayStep("move", f"{L.SIDE_NAMES[owner(a)]} moves the {moved(a, b, c)}",
                                    seat(owner(a))))
        elif code == L.T_STATE_MOVE:
            steps.append(ReplayStep("move", f"{L.SIDE_NAMES[a]} moves the {L.PIECE_NAMES[b]} by {c}", seat(a)))
        elif code == L.T_PASS_MOVE:
            steps.append(ReplayStep("move", f"{L.SIDE_NAMES[a]} has no piece on the map and passes", seat(a)))
        elif code == L.T_TRIGGER_ROLL:
            hit = c in triggers[b]
            steps.append(ReplayStep("dice", f"{names[b]} ({L.SPACE_TYPES[types[b]]}, goes off on "
                                            f"{faces_text(triggers[b])}) rolls {c} against the {L.PIECE_NAMES[a]}: "
                                            f"{'it goes off' if hit else 'nothing'}", seat(owner(a))))
        elif code == L.T_TRIGGER:
            if a < 0:
                types[b] = L.ROADBLOCK
                triggers[b] = tuple(f for f in range(1, 7) if (L.ANTI_MAFIA_TRIGGER >> f) & 1)
                steps.append(ReplayStep("card", f"Anti-mafia operation: {names[b]} becomes a roadblock "
                                                f"({faces_text(triggers[b])})"))
            else:
                steps.append(ReplayStep("field", f"{names[b]} ({L.SPACE_TYPES[c]}) goes off on "
                                                 f"{L.PIECE_NAMES[a]}"))
        elif code == L.T_MARKER_ROLL:
            if a >= L.CC1:
                what = "to remove a marker" + marker_roll(c, removal_faces, "it does", "it does not")
            else:
                what = "for a marker" + marker_roll(c, marker_faces, "it places one", "none")
            steps.append(ReplayStep("dice", f"the {L.PIECE_NAMES[a]} rolls {c} on {names[b]} {what}",
                                    seat(owner(a))))
        elif code == L.T_BOX:
            places[a] = b
            steps.append(ReplayStep("box", f"{L.PIECE_NAMES[a]} goes to the {L.BOX_NAMES[b]}"
                                           + (f" from {names[c]}" if c >= 0 else "")))
        elif code == L.T_MARKER_ON:
            marks[b, a] += 1
            steps.append(ReplayStep("marker", f"{L.FAMILIES[a]} places a marker on "
                                              f"{names[b]}", seat(a)))
        elif code == L.T_MARKER_OFF:
            marks[b, a] -= 1
            steps.append(ReplayStep("marker", f"a {L.FAMILIES[a]} marker is taken off {names[b]}", seat(a)))
        elif code == L.T_CARD:
            steps.append(ReplayStep("card", f"{L.SIDE_NAMES[a]} plays {played_name(b, c)}", seat(a)))
        elif code == L.T_DRAW:
            steps.append(ReplayStep("card", f"{L.SIDE_NAMES[a]} draws {card_name(b)}", seat(a)))
        elif code == L.T_GIVE_UP:
            steps.append(ReplayStep("card", f"{L.SIDE_NAMES[a]} gives up {card_name(b)} at the leak", seat(a)))
        elif code == L.T_SHOOTOUT:
            duel = (a, b)
            steps.append(ReplayStep("shootout", f"{L.PIECE_NAMES[a]} starts a shootout with {L.PIECE_NAMES[b]}"))
        elif code == L.T_SHOOT_DICE:
            steps.append(ReplayStep("dice", shooters_dice(duel[0], duel[1], a, b, c)))
        elif code == L.T_FORBID:
            steps.append(ReplayStep("decision", f"{L.PIECE_NAMES[a]} forbids {L.PIECE_NAMES[b]} every activity"))
        elif code == L.T_ABOUT:
            about = (a, b, c)
        elif code == L.T_ASK:
            what, n = divmod(b, 10000)
            if what in (L.D_MOVE, L.D_STATE_MOVE):
                # the roll's decision is the move(s) it made: the move events right after it
                made = []
                for j in range(k + 1, len(rows)):
                    if rows[j][0] == L.T_MOVE:
                        made.append(moved(*rows[j][1:]))
                    elif rows[j][0] != L.T_STATE_MOVE:
                        break
                    told.add(j)
                verb = "moves the " + " and the ".join(made) if made else "does not move"
                if made and turn_at >= 0:  # the turn's collapsed line names its moves
                    turn = steps[turn_at]
                    line = turn.summary or turn.text
                    steps[turn_at] = replace(turn, summary=line + ("; " if " → " in line else " → ") + "; ".join(made))
                steps.append(ReplayStep("decision", f"{L.SIDE_NAMES[a]} {verb} — its choice of {n} "
                                                    f"way{'s' if n != 1 else ''} to use the roll", seat(a),
                                        (), c))
            else:
                text, options = decision(a, what, n, about)
                sep = " " if text.endswith("?") else ": "
                steps.append(ReplayStep("decision", f"{text}{sep}{options[c]}", seat(a), options, c))
            about = (-1, -1, -1)
        elif code == L.T_END:
            outcome = ending(a, b)
            steps.append(ReplayStep("end", f"the game ends after {b} calendar turns. {outcome}"))
    return steps, outcome
