"""The text replay reads true: walked line by line against the game's trace events
(every event kind, in games chosen to hold them all), each decision shows what it is
about, its options and the answer taken, every card is named by what it is (a drawn
red clue is a red clue, not the SISDE pair), and every die rolled (the turn's roll,
triggers, shootouts, marker and return rolls) is printed with what it did."""
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.match import MafiaMatch
from analyzer.games.mafia.replay import card_name, describe_events
from analyzer.report.replay import render_text

# (players, bots, seed, games): together every trace event kind and every card play
GAMES = [
    (5, "random", 1, (0, 1, 3, 13, 17, 19, 34, 35, 43, 48, 110, 170)),
    (4, "random", 1, (0, 5)),
    (3, "random", 1, (91,)),
    (4, "raider,expander,raider,expander", 200, (0,)),
]
EVENT_KINDS = {v for k, v in vars(L).items() if k.startswith("T_") and isinstance(v, int)}


def replays():
    for players, bots, seed, indices in GAMES:
        match = MafiaMatch(None, players, [BotSpec(b) for b in bots.split(",")] * (players if "," not in bots else 1))
        for index in indices:
            events, _ = match.trace(seed, index)
            yield match, events, describe_events(match, events)[0]


def walk(match, events, steps):
    """Each event but T_ABOUT is one step, in order, but the moves a roll's decision
    made, which that decision names; check each step's text against it. Returns the
    event kinds seen."""
    names = [s.name for s in match.map.spaces]
    triggers = [set(s.trigger) for s in match.map.spaces]
    rows = events.tolist()
    seen = set()
    i = 0
    about = (-1, -1, -1)
    duel = (-1, -1)
    told = set()
    for k, (code, a, b, c) in enumerate(rows):
        seen.add(code)
        if k in told:
            continue
        if code == L.T_ABOUT:
            about = (a, b, c)
            continue
        step = steps[i]
        i += 1
        text = step.text
        if code == L.T_ASK and divmod(b, 10000)[0] in (L.D_MOVE, L.D_STATE_MOVE):
            # the decision is the move(s) it made: each named with where it went, by how much
            assert step.kind == "decision" and step.chosen == c and step.options == (), text
            assert text.endswith(f"its choice of {b % 10000} ways to use the roll") or b % 10000 == 1, text
            j = k + 1
            while rows[j][0] in (L.T_MOVE, L.T_STATE_MOVE):
                if rows[j][0] == L.T_MOVE:
                    p, to, by = rows[j][1:]
                    assert f"the {L.PIECE_NAMES[p]} from " in text, text
                    assert f" to {names[to]} ({by % 100} step" in text, text
                    seen.add(L.T_MOVE)
                else:
                    seen.add(L.T_STATE_MOVE)
                told.add(j)
                j += 1
            assert j > k + 1, "a roll's decision names the move it made"
        elif code == L.T_ASK:
            what, n = divmod(b, 10000)
            assert step.kind == "decision" and step.chosen == c and len(step.options) == n, text
            assert text.endswith(step.options[c]), text
            if what in L.YES_NO:
                assert step.options == ("no", "yes")
                for p in about[:2]:
                    if p >= 0:
                        assert L.PIECE_NAMES[p] in text, text
            elif what == L.D_CARD:
                card = about[2]
                named = (f"the two SISDE clues ({L.FAMILIES[(card - L.FIRST_SISDE) // 2]})"
                         if card >= L.FIRST_SISDE else card_name(card))
                assert f"play {named}" in text and step.options == ("keep it", "play it"), text
            elif what == L.D_BASE:
                assert rows[k + 1][0] == L.T_BASE and step.options[c] == names[rows[k + 1][2]]
            elif what == L.D_HELI_DIE:
                assert step.options[0] == str(about[0])
            elif what == L.D_ANTI_MAFIA_SPACE:
                assert rows[k + 1][0] == L.T_TRIGGER and step.options[c] == names[rows[k + 1][2]]
            elif what == L.D_VISIT_SPACE:
                assert rows[k + 1][0] == L.T_MARKER_ON and step.options[c] == names[rows[k + 1][2]]
            about = (-1, -1, -1)
        elif code == L.T_DICE:
            assert step.kind == "dice" and text.endswith(f"rolls {b} and {c}"), text
        elif code == L.T_HELI:
            assert text.endswith(f"become {b} and {c}"), text
        elif code == L.T_TRIGGER_ROLL:
            hit = c in triggers[b]
            assert names[b] in text and f"rolls {c} against the {L.PIECE_NAMES[a]}" in text, text
            assert text.endswith("it goes off" if hit else "nothing"), text
            # it goes off exactly when the next event says so
            assert (rows[k + 1][0] == L.T_TRIGGER and rows[k + 1][1] == a) == hit, text
        elif code == L.T_TRIGGER:
            if a < 0:
                triggers[b] = {f for f in range(1, 7) if (L.ANTI_MAFIA_TRIGGER >> f) & 1}
                assert text.startswith("Anti-mafia operation") and names[b] in text
            else:
                assert names[b] in text and "goes off" in text
        elif code == L.T_MARKER_ROLL:
            assert f"the {L.PIECE_NAMES[a]} rolls {c} on {names[b]}" in text, text
            assert ("even" if c % 2 == 0 else "odd") in text, text
        elif code == L.T_RETURN_ROLL:
            faces = match.map.returns[(L.CONTINENT, L.PRISON, L.BARRACKS).index(b)]
            assert f"{L.PIECE_NAMES[a]} rolls {c} to return from the {L.BOX_NAMES[b]}" in text, text
            assert text.endswith("success" if c in faces else "it stays"), text
            if c not in faces:
                assert not (rows[k + 1][0] == L.T_RETURN and rows[k + 1][1] == a)
        elif code == L.T_SHOOTOUT:
            duel = (a, b)
            assert text == f"{L.PIECE_NAMES[a]} starts a shootout with {L.PIECE_NAMES[b]}"
        elif code == L.T_SHOOT_DICE:
            parts = text.removeprefix("shootout dice: ").split("; ")
            for p, d, hit, sure in ((duel[0], a, c & L.SHOT_HIT_A, c & L.SHOT_SURE_A),
                                    (duel[1], b, c & L.SHOT_HIT_B, c & L.SHOT_SURE_B)):
                part = parts.pop(0)
                assert part.startswith(f"the {L.PIECE_NAMES[p]} "), text
                if sure:
                    assert "without rolling" in part and hit
                else:
                    assert f"rolls {d} " in part and part.endswith("hits" if hit else "misses"), text
            # a hit sends the other to the Continent, in the events that follow, and the step says who falls
            after = rows[k + 1:k + 3]
            fell = []
            for p, hit in ((duel[1], c & L.SHOT_HIT_A), (duel[0], c & L.SHOT_HIT_B)):
                assert bool(hit) == any(e[0] == L.T_BOX and e[1] == p and e[2] == L.CONTINENT for e in after)
                fell += [p] if hit else []
            assert parts == [{0: "nobody falls", 2: "both fall"}.get(len(fell))
                             or f"the {L.PIECE_NAMES[fell[0]]} falls"], text
        elif code == L.T_DRAW:
            assert text == f"{L.SIDE_NAMES[a]} draws {card_name(b)}", text
            if b >= L.FIRST_SISDE:
                assert f"a SISDE clue ({L.FAMILIES[(b - L.FIRST_SISDE) // 2]})" in text and "two" not in text
        elif code == L.T_GIVE_UP:
            assert text == f"{L.SIDE_NAMES[a]} gives up {card_name(b)} at the leak", text
        elif code == L.T_CARD:
            if b == L.PLAY_SISDE_PAIR:
                assert f"the two SISDE clues ({L.FAMILIES[c // 3]}) on the {L.PIECE_NAMES[c]}" in text
            elif b == L.PLAY_SISDE_4P:
                assert f"the matching SISDE clue ({L.FAMILIES[c // 3]}) on the {L.PIECE_NAMES[c]}" in text
            else:
                assert text == f"{L.SIDE_NAMES[a]} plays {card_name(b)}", text
        elif code == L.T_MOVE:
            assert f"moves the {L.PIECE_NAMES[a]}" in text and f" to {names[b]} ({c % 100} step" in text, text
        elif code == L.T_STATE_MOVE:
            assert text == f"{L.SIDE_NAMES[a]} moves the {L.PIECE_NAMES[b]} by {c}"
        elif code == L.T_BOX:
            assert text.startswith(f"{L.PIECE_NAMES[a]} goes to the {L.BOX_NAMES[b]}"), text
        elif code == L.T_RETURN:
            assert text == f"{L.PIECE_NAMES[a]} returns from the {L.BOX_NAMES[b]} to {names[c]}"
        elif code == L.T_MARKER_ON:
            assert text == f"{L.FAMILIES[a]} places a marker on {names[b]}"
        elif code == L.T_MARKER_OFF:
            assert text == f"a {L.FAMILIES[a]} marker is taken off {names[b]}"
        elif code == L.T_FORBID:
            assert text == f"{L.PIECE_NAMES[a]} forbids {L.PIECE_NAMES[b]} every activity"
        elif code == L.T_BASE:
            assert text == f"{L.FAMILIES[a]} takes {names[b]} as base"
        elif code == L.T_TURN:
            assert text.startswith(f"calendar turn {b + 1}: {L.SIDE_NAMES[a]} (seat "), text
        elif code == L.T_FROZEN:
            assert L.SIDE_NAMES[a] in text and "may not move" in text
        elif code == L.T_AIR_CLOSED:
            assert text == "the air link is closed this turn"
        elif code == L.T_PASS_MOVE:
            assert text == f"{L.SIDE_NAMES[a]} has no piece on the map and passes"
        elif code == L.T_END:
            assert text.startswith(f"the game ends after {b} calendar turns. "), text
            assert ("draw" if a == L.OUT_DRAW else "loses" if a == L.OUT_ALL_LOSE else "wins because") in text
        else:
            pytest.fail(f"event kind {code} not walked")
    assert i == len(steps)
    return seen


def test_the_replay_text_walks_with_its_events_for_every_event_kind():
    seen = set()
    plays = set()
    for match, events, steps in replays():
        seen |= walk(match, events, steps)
        plays |= set(events[events[:, 0] == L.T_CARD][:, 2].tolist())
    assert seen == EVENT_KINDS
    played = set(range(L.PLAY_SISDE_4P + 1)) - {L.WIFE_CHEATS, L.GOVERNMENT_FALLS}  # never played
    assert plays == played


def test_a_drawn_red_clue_is_named_a_red_clue():
    """``analyzer replay mafia --players 5 --bots random --seed 1 --game 0`` named
    the State's draw of card 16 (a red clue) "the two SISDE clues"."""
    match = MafiaMatch(None, 5, [BotSpec("random")] * 5)
    replay = match.replay(1, 0)
    text = render_text(replay)
    assert "state draws a SISDE clue (red)" in text
    assert "draws the two SISDE clues" not in text and "draws the matching" not in text
    decisions = [s for s in replay.steps if s.kind == "decision" and s.options]
    assert decisions and all(s.text in text and s.text.endswith(s.options[s.chosen]) for s in decisions)


# (players, seed, games): family wins at 5 and 3 players, State wins, four-player losses for all
ENDINGS = [(5, 1, (0, 1, 3, 13, 17)), (4, 1, (0, 5)), (3, 1, (91, 2))]


def test_the_replay_names_the_winner_and_why_as_the_tables_record_it():
    """The last step and ``Replay.outcome`` say who wins and why: the spaces the family
    controls (as many as ``winner_spaces``), or the purge count (``purge_points``)
    with the pieces that make it."""
    kinds = set()
    for players, seed, indices in ENDINGS:
        match = MafiaMatch(None, players, [BotSpec("random")] * players)
        for index in indices:
            r = match.replay(seed, index)
            game = r.tables["games"].iloc[0]
            outcome = str(game["outcome"])
            kinds.add(outcome if outcome in ("state", "all_lose", "draw") else "family")
            assert r.steps[-1].kind == "end" and r.steps[-1].text.endswith(r.outcome)
            assert r.outcome in render_text(r)
            if outcome in L.FAMILIES:
                side = L.FAMILIES.index(outcome)
                need = 5 if players == 3 else 4
                assert r.outcome.startswith(f"{outcome} (seat {match.side_seat[side] + 1}, random) "
                                            f"wins because at the start of its turn it controls "
                                            f"{game['winner_spaces']} spaces ({need} needed"), r.outcome
                held = r.outcome.rsplit(": ", 1)[1].rstrip(".").split(", ")
                assert len(held) == game["winner_spaces"] and set(held) <= {s.name for s in match.map.spaces}
            elif outcome in ("state", "all_lose"):
                assert f"the purge count reaches {game['purge_points']:g} " in r.outcome, r.outcome
                assert ("The state" if outcome == "state" else "Everyone loses") in r.outcome
    assert {"family", "state", "all_lose"} <= kinds, kinds


def test_a_turns_folded_line_names_the_moves_it_made():
    """The timeline shows a turn folded to one line: its ``summary`` names the moves the
    turn's roll made, as its decision step says them (the text replay keeps them once)."""
    from html import escape

    from analyzer.report.replay import render_html

    match = MafiaMatch(None, 5, [BotSpec("random")] * 5)
    r = match.replay(1, 0)
    turn, checked = None, 0
    for s in r.steps:
        if s.kind == "turn" and s.text.startswith("calendar turn"):
            turn = s
        elif s.kind == "decision" and " moves the " in s.text:
            moves = s.text.split(" moves the ", 1)[1].split(" — ")[0].split(" and the ")
            assert turn.summary.startswith(turn.text + " → ") and all(m in turn.summary for m in moves), turn
            checked += 1
    assert checked >= 30
    assert render_text(r).count(" from Palermo to ") == sum(s.text.count(" from Palermo to ") for s in r.steps)
    page = render_html(r)
    assert all(escape(s.summary) in page for s in r.steps if s.summary)
