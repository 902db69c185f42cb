"""Independent reference implementation of Sau Mau Mau (random bots, whole games).

Written only from the rules page /work/shared/rules/sau-mau-mau.md ("the rules"),
the rulebook it resolves (/work/shared/seeds/001_fe629394dc86d2c3.txt) and the
project's numbered decisions /work/main/docs/sau-mau-mau.md ("decision N"),
without looking at the simulator under test.  It exists to cross-check the fast
simulator statistically: only distributions are meant to agree, not random streams
(decision 11's per-race / per-player lanes are deliberately NOT reproduced; one
`random.Random` drives everything here).

Standard library only.  Public API:

    play_game(n_players, crown, rng, debug=False, rules=None) -> dict
    simulate(n_players, crown, n_games, seed, debug=False, rules=None) -> list[dict]

``rules``: a dict of the rule numbers a designer may change (docs/sau-mau-mau.md,
"Rules a designer can change"; the keys of the project's --rule), each read here
from the rules page's own words; a key left out keeps the box value (RULE_KEYS):
    hand_size            cards dealt to each player at a race's start (5)
    bet_payouts          points of the bets on winning pigs in queue order; a winning
                         bet past the list scores 0 ((6, 4, 3, 2, 1))
    crown_points         points for the player whose card moved a pig onto the crown (3)
    last_card_points     points for playing the last card of one's hand (5)
    races_per_game       races in a game, the first player passing left each race (4)
    plus_two_step        cards a +2 adds to the penalty (2)
    steps_back_per_card  for each card drawn as a penalty, that many steps back, each
                         one space for any pig off the start (1)
    flapi_move           spaces a Flapi moves the last pig (3)
    x_skips              turns an X skips: the next players', one each in turn order (1)

Pig indices follow the rules' fixed order: 0 pink, 1 brown, 2 black, 3 beige.
Seats are 0-based; the first player of race r (1-4) is seat (r - 1) mod n_players and
play passes to seat + 1 (decision 11).

Game dict:
    "races":  list of 4 race dicts (below)
    "totals": list of game point totals per seat
    "won":    list of bools, every seat with the top total (ties share)

Race dict:
    "first_seat", "turns" (player turns, skipped turns counted: decision 9),
    "end" ("crown" | "hand" | "cap"; "crown" also when both ends coincide: decision 7),
    "both_ends", "winning_pigs" (frozenset), "queue_length", "ender" (seat or None
    for "cap"), "crown_pig" (pig or None), "positions" (tuple of 4 final spaces),
    "reshuffles", "players" (per seat: race_points, bet_points, crown_points,
    hand_points, bets_placed, bets_changed, cards_left, cards_drawn, cards_played),
    "bets" (final queue in order: seat, pig, queue_position (1-based), turn_placed,
    changed, points).

Interpretations (points where the spec needed reading; everything else is literal):

 1. Deck: 24 numbered (1-6 x 4 colours), 4 X and 4 +2 (one per colour), 4 Flapi (one
    per printed colour), 3 Farmer = 39 cards.  X, +2 and Flapi carry a colour; the
    Farmer has none.  A Flapi's "colour" only matters as the colour it asks for next
    (as a card to be played it is green and valid on anything unless a penalty is
    pending).
 2. Validity with no penalty pending: green specials (Flapi, Farmer) always; otherwise
    the card's colour equals the "asked" colour (top card's colour for numbered/X/+2,
    the printed colour for a Flapi, the named colour after a played Farmer), or the
    card has the same symbol as the top card (same number for numbered cards, X on X,
    +2 on +2).  A first-discard Farmer makes every card valid (rules page); on a
    first-discard Flapi, X or +2 only its colour counts (rules page, quoting the
    rulebook): the next card must have that colour or be green, no symbol matches
    it, and it skips no one / imposes no penalty (decision 1).  A first-discard
    number card matches by colour and number as any number card does.  After a +2
    penalty has been drawn, the +2 stays on top and is matched normally (same colour
    or another +2, which then starts a new penalty of 2).
 3. Penalty pending: only +2s (any colour) are valid (decision 2).  The random bot
    plays a uniformly chosen +2 with probability 3/4 if it holds one, otherwise it
    "draws", i.e. takes the whole penalty (decision 3).
 4. Reshuffle timing: the draw pile is rebuilt lazily, at the moment a card must be
    drawn from an empty pile (this is what decision 4 presupposes: "the draw pile is
    empty and the discard pile holds only its top card").  The rebuild takes the
    discard pile but its top card and shuffles it.  "reshuffles" counts only rebuilds
    that actually moved at least one card; when the discard pile holds only its top
    card, nothing is rebuilt and the draw gives nothing (decision 4).  Penalty draws
    are taken one card at a time, so a reshuffle can happen in the middle of one.
 5. Penalty steps back: one per card actually drawn, each on a uniformly chosen pig
    not on start; the random bot takes every step it can, steps stop once all pigs
    stand on start (decision 5).  They are taken after the draw and before the bet
    (the order does not matter for the random bot).
 6. Betting: offered after a turn in which the player actually drew >= 1 card (normal
    or penalty draw); never after playing a card, never after a skipped turn or a draw
    that produced nothing (decisions 4, 9).  No bet: bet on a uniform pig with p=1/2.
    Has a bet: with p=1/10 change it to a uniformly chosen OTHER pig (decision 10):
    the old card leaves the queue (the gap closes) and the new card goes to the end.
    bets_placed counts first bets and changes; bets_changed the changes (decision 13).
 7. Flapi: moves the last pig (minimum space) 3 forward; among tied last pigs one is
    chosen uniformly.  It can end the race by the crown (decision 6).
 8. Crown: a pig whose space becomes >= crown ends the race at once; spaces past the
    crown are recorded as is (decision 7).  The player whose card moved it scores 3;
    if that card was also the last of their hand, +5 more and both_ends=True, end
    "crown", the crown pig the only winner (decision 7).
 9. Last card (hand end): the action is carried out first (a numbered card or Flapi
    moves its pig, a Farmer still names a colour - irrelevant), except that an X or
    +2 played as the last card imposes no skip / penalty (decision 8; rules page).
    The player scores 5; every pig on the furthest-ahead space wins.
10. Turn counting: "turns" counts every player turn of the race, skipped ones included
    (decision 9); "turn_placed" is the counter value of the turn in which a bet card
    was laid (first turn = 1).  The cap: when "turns" reaches MAX_TURNS with no end,
    the race ends "cap": no crown or hand points, ender None, the pigs furthest ahead
    win the bets (decision 12).
11. Bets on winning pigs score 6, 4, 3, 2, 1 in queue order; at most 5 bets can be in
    the queue (at most one per player, <= 5 players), so the list never runs out.
12. Uniform choices are drawn as int(rng.random() * k) (bias ~2**-53, irrelevant for
    statistics) and the 3/4, 1/2, 1/10 probabilities as rng.random() < p.
13. Game winners: every seat with the top total over the game's races (four in the box).
14. Variants (``rules``): the numbers above are the box's; a variant changes only the
    number (a deal of ``hand_size`` cards, a penalty growing by ``plus_two_step``, ...),
    never the procedure.  A penalty of n cards actually drawn gives n *
    ``steps_back_per_card`` steps, one space each.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter

PIGS = ("pink", "brown", "black", "beige")
N_PIGS = 4
N_RACES = 4
HAND_SIZE = 5
MAX_TURNS = 100_000

CROWN_POINTS = 3
HAND_POINTS = 5
BET_POINTS = (6, 4, 3, 2, 1)
PLUS2_STEP = 2     # cards a +2 adds to the penalty
STEPS_BACK = 1     # steps back per penalty card drawn
FLAPI_MOVE = 3     # spaces a Flapi moves the last pig
X_SKIPS = 1        # turns an X skips

P_PLAY = 0.75      # random bot: play a valid card with this probability
P_BET = 0.5        # random bot: place a first bet
P_CHANGE = 0.1     # random bot: change an existing bet

# Assumed crown spaces (rules page, "Track"); data, not used by the API itself.
DEFAULT_CROWN = {2: 12, 3: 15, 4: 18, 5: 21}

# ------------------------------------------------------------------------ deck
NUM, XCARD, PLUS2, FLAPI, FARMER = range(5)
KIND_NAMES = ("num", "X", "+2", "Flapi", "Farmer")


def _build_deck():
    deck = []
    for c in range(4):
        for n in range(1, 7):
            deck.append((NUM, c, n))
    for c in range(4):
        deck.append((XCARD, c, 0))
    for c in range(4):
        deck.append((PLUS2, c, 0))
    for c in range(4):
        deck.append((FLAPI, c, 0))          # c = the colour printed in its circle
    for _ in range(3):
        deck.append((FARMER, -1, 0))
    return tuple(deck)


DECK = _build_deck()
N_CARDS = len(DECK)
assert N_CARDS == 39
KIND = tuple(k for k, _, _ in DECK)
COLOUR = tuple(c for _, c, _ in DECK)
NUMBER = tuple(n for _, _, n in DECK)


def _symbol(card):
    """Matching key beyond colour: number for numbered cards, 'X', '+2'; None else."""
    k = KIND[card]
    if k == NUM:
        return ("n", NUMBER[card])
    if k == XCARD:
        return "X"
    if k == PLUS2:
        return "+2"
    return None


# Top-of-discard "states": 0..38 = that card on top (a Farmer never uses this),
# 39..42 = a played Farmer that named colour 0..3, 43 = first-discard Farmer (wild),
# 44..47 = a first-discard X or +2 of colour 0..3 (its colour alone counts).
STATE_FARMER = N_CARDS
STATE_WILD = N_CARDS + 4
STATE_COLOUR_ONLY = N_CARDS + 5
N_STATES = N_CARDS + 9


def _build_valid():
    table = []
    for s in range(N_STATES):
        row = []
        for card in range(N_CARDS):
            k = KIND[card]
            if k in (FLAPI, FARMER) or s == STATE_WILD:
                ok = True
            elif s >= STATE_COLOUR_ONLY:
                ok = COLOUR[card] == s - STATE_COLOUR_ONLY
            elif s >= STATE_FARMER:
                ok = COLOUR[card] == s - STATE_FARMER
            else:
                top = s
                asked = COLOUR[top]            # Flapi: its printed colour
                tsym = _symbol(top)
                ok = COLOUR[card] == asked or (tsym is not None and _symbol(card) == tsym)
            row.append(ok)
        table.append(tuple(row))
    return tuple(table)


VALID = _build_valid()
IS_PLUS2 = tuple(k == PLUS2 for k in KIND)


# -------------------------------------------------------------------- one race
def _check_cards(draw, discard, hands):
    allc = list(draw) + list(discard)
    for h in hands:
        allc.extend(h)
    assert sorted(allc) == list(range(N_CARDS)), "card conservation violated"
    assert discard, "discard pile must never be empty"


RULE_KEYS = ("hand_size", "bet_payouts", "crown_points", "last_card_points", "races_per_game",
             "plus_two_step", "steps_back_per_card", "flapi_move", "x_skips")


def box_rules():
    """The box's rule numbers (read from the module's constants at call time)."""
    return {"hand_size": HAND_SIZE, "bet_payouts": tuple(BET_POINTS), "crown_points": CROWN_POINTS,
            "last_card_points": HAND_POINTS, "races_per_game": N_RACES, "plus_two_step": PLUS2_STEP,
            "steps_back_per_card": STEPS_BACK, "flapi_move": FLAPI_MOVE, "x_skips": X_SKIPS}


def _rules(rules):
    out = box_rules()
    for key, value in (rules or {}).items():
        if key not in out:
            raise ValueError(f"unknown rule {key!r}")
        out[key] = tuple(value) if key == "bet_payouts" else int(value)
    return out


def _play_race(n_players, crown, first_seat, rng, debug=False, rules=None):
    rules = _rules(rules)
    rnd = rng.random
    shuffle = rng.shuffle
    payouts = rules["bet_payouts"]

    # Setup: shuffle, deal hand_size one at a time from the first player, turn up next card.
    draw = list(range(N_CARDS))
    shuffle(draw)
    hands = [[] for _ in range(n_players)]
    for _ in range(rules["hand_size"]):
        for i in range(n_players):
            hands[(first_seat + i) % n_players].append(draw.pop())
    top = draw.pop()
    discard = [top]
    if KIND[top] == FARMER:                               # decision 1
        state = STATE_WILD
    elif KIND[top] in (XCARD, PLUS2):                     # its colour alone counts
        state = STATE_COLOUR_ONLY + COLOUR[top]
    else:
        state = top

    pos = [0, 0, 0, 0]
    queue = []                        # entries: [seat, pig, turn_placed, changed]
    bets_placed = [0] * n_players
    bets_changed = [0] * n_players
    drawn_cnt = [0] * n_players
    played_cnt = [0] * n_players
    crown_pts = [0] * n_players
    hand_pts = [0] * n_players

    penalty = 0
    skip = 0                                      # turns still to skip
    reshuffles = 0
    turns = 0
    seat = first_seat
    end = None
    both = False
    ender = None
    crown_pig = None

    if debug:
        _check_cards(draw, discard, hands)

    while turns < MAX_TURNS:
        turns += 1
        if skip:                                  # decision 9: counted, nothing asked
            skip -= 1
            seat = (seat + 1) % n_players
            continue

        hand = hands[seat]
        if penalty:
            playable = [c for c in hand if IS_PLUS2[c]]
        else:
            v = VALID[state]
            playable = [c for c in hand if v[c]]

        if playable and rnd() < P_PLAY:
            card = playable[int(rnd() * len(playable))] if len(playable) > 1 else playable[0]
            hand.remove(card)
            discard.append(card)
            played_cnt[seat] += 1
            last = not hand
            k = KIND[card]
            moved = -1
            if k == NUM:
                moved = COLOUR[card]
                pos[moved] += NUMBER[card]
                state = card
            elif k == FLAPI:
                m = min(pos)
                tied = [i for i in range(N_PIGS) if pos[i] == m]
                moved = tied[int(rnd() * len(tied))] if len(tied) > 1 else tied[0]
                pos[moved] += rules["flapi_move"]
                state = card
            elif k == FARMER:
                state = STATE_FARMER + int(rnd() * 4)
            elif k == XCARD:
                state = card
                if not last:
                    skip = rules["x_skips"]
            else:  # PLUS2
                state = card
                if not last:
                    penalty += rules["plus_two_step"]
                else:
                    penalty = 0                   # decision 8: the penalty lapses
            if debug:
                _check_cards(draw, discard, hands)
                assert min(pos) >= 0
            if moved >= 0 and pos[moved] >= crown:
                end = "crown"
                crown_pig = moved
                ender = seat
                crown_pts[seat] += rules["crown_points"]
                if last:
                    both = True
                    hand_pts[seat] += rules["last_card_points"]
                break
            if last:
                end = "hand"
                ender = seat
                hand_pts[seat] += rules["last_card_points"]
                break
        else:
            was_penalty = penalty > 0
            want = penalty if was_penalty else 1
            penalty = 0
            got = 0
            for _ in range(want):
                if not draw:
                    if len(discard) > 1:          # rebuild: discard pile but its top
                        draw = discard[:-1]
                        discard = discard[-1:]
                        shuffle(draw)
                        reshuffles += 1
                    else:
                        break                     # decision 4: draw what there is
                hand.append(draw.pop())
                got += 1
            drawn_cnt[seat] += got
            if was_penalty:
                for _ in range(got * rules["steps_back_per_card"]):  # decision 5
                    cand = [i for i in range(N_PIGS) if pos[i] > 0]
                    if not cand:
                        break
                    p = cand[int(rnd() * len(cand))] if len(cand) > 1 else cand[0]
                    pos[p] -= 1
            if got:                               # betting chance
                mine = -1
                for qi in range(len(queue)):
                    if queue[qi][0] == seat:
                        mine = qi
                        break
                if mine < 0:
                    if rnd() < P_BET:
                        queue.append([seat, int(rnd() * N_PIGS), turns, False])
                        bets_placed[seat] += 1
                else:
                    if rnd() < P_CHANGE:
                        old = queue.pop(mine)[1]
                        new = (old + 1 + int(rnd() * 3)) % N_PIGS
                        queue.append([seat, new, turns, True])
                        bets_placed[seat] += 1
                        bets_changed[seat] += 1
            if debug:
                _check_cards(draw, discard, hands)
                assert min(pos) >= 0
                seats = [e[0] for e in queue]
                assert len(seats) == len(set(seats)) <= n_players
        seat = (seat + 1) % n_players

    if end is None:
        end = "cap"                               # decision 12

    if end == "crown":
        winning = frozenset((crown_pig,))
    else:
        m = max(pos)
        winning = frozenset(i for i in range(N_PIGS) if pos[i] == m)

    bet_pts = [0] * n_players
    bets = []
    k = 0
    for qi, (s, pig, tp, ch) in enumerate(queue):
        pts = 0
        if pig in winning:
            pts = payouts[k] if k < len(payouts) else 0
            k += 1
            bet_pts[s] += pts
        bets.append({"seat": s, "pig": pig, "queue_position": qi + 1,
                     "turn_placed": tp, "changed": ch, "points": pts})

    if debug:
        _check_cards(draw, discard, hands)
        seats = [e[0] for e in queue]
        assert len(seats) == len(set(seats)) <= n_players
        assert min(pos) >= 0
        if end == "crown":
            assert pos[crown_pig] >= crown
            assert sum(1 for p in pos if p >= crown) == 1
        else:
            assert max(pos) < crown

    players = []
    for s in range(n_players):
        players.append({
            "race_points": bet_pts[s] + crown_pts[s] + hand_pts[s],
            "bet_points": bet_pts[s],
            "crown_points": crown_pts[s],
            "hand_points": hand_pts[s],
            "bets_placed": bets_placed[s],
            "bets_changed": bets_changed[s],
            "cards_left": len(hands[s]),
            "cards_drawn": drawn_cnt[s],
            "cards_played": played_cnt[s],
        })
    return {
        "first_seat": first_seat,
        "turns": turns,
        "end": end,
        "both_ends": both,
        "winning_pigs": winning,
        "queue_length": len(queue),
        "ender": ender,
        "crown_pig": crown_pig,
        "positions": tuple(pos),
        "reshuffles": reshuffles,
        "players": players,
        "bets": bets,
    }


# -------------------------------------------------------------------- a game
def play_game(n_players: int, crown: int, rng: random.Random, debug: bool = False, rules=None) -> dict:
    """Play one game (``races_per_game`` races, four in the box) with reference
    random bots in every seat."""
    if not 2 <= n_players <= 5:
        raise ValueError("Sau Mau Mau is for 2-5 players")
    if crown < 1:
        raise ValueError("crown must be a positive whole number")
    rules = _rules(rules)
    if n_players * rules["hand_size"] + 1 > N_CARDS:
        raise ValueError("the deck cannot deal that many cards")
    races = []
    totals = [0] * n_players
    for r in range(1, rules["races_per_game"] + 1):
        race = _play_race(n_players, crown, (r - 1) % n_players, rng, debug, rules)
        for s in range(n_players):
            totals[s] += race["players"][s]["race_points"]
        races.append(race)
    best = max(totals)
    return {"races": races, "totals": totals, "won": [t == best for t in totals]}


def simulate(n_players: int, crown: int, n_games: int, seed: int,
             debug: bool = False, rules=None) -> list[dict]:
    rng = random.Random(seed)
    return [play_game(n_players, crown, rng, debug, rules) for _ in range(n_games)]


# ------------------------------------------------------------------ __main__
def _summary(games, n_players, crown):
    n = len(games)
    races = [r for g in games for r in g["races"]]
    nr = len(races)
    fmt = lambda xs: "  ".join(f"{x:.4f}" for x in xs)
    print(f"games: {n}  races: {nr}  players: {n_players}  crown: {crown}")
    ends = Counter(r["end"] for r in races)
    print("end shares: " + "  ".join(f"{k}:{ends[k] / nr:.4f}" for k in ("crown", "hand", "cap"))
          + f"   both_ends: {sum(r['both_ends'] for r in races) / nr:.4f}")
    print(f"mean turns/race: {sum(r['turns'] for r in races) / nr:.3f}"
          f"   max: {max(r['turns'] for r in races)}")
    print(f"mean queue length: {sum(r['queue_length'] for r in races) / nr:.4f}")
    print(f"mean reshuffles/race: {sum(r['reshuffles'] for r in races) / nr:.4f}")
    print("pig win shares (ties count for each): "
          + "  ".join(f"{PIGS[p]}:{sum(p in r['winning_pigs'] for r in races) / nr:.4f}"
                      for p in range(N_PIGS)))
    print(f"shared win (>1 winning pig): {sum(len(r['winning_pigs']) > 1 for r in races) / nr:.4f}")
    for key in ("bet_points", "crown_points", "hand_points", "race_points",
                "bets_placed", "bets_changed", "cards_drawn", "cards_played", "cards_left"):
        tot = sum(pl[key] for r in races for pl in r["players"]) / nr
        print(f"mean {key} per race (all seats): {tot:.4f}   per seat-race: {tot / n_players:.4f}")
    print(f"mean total per seat: {fmt([sum(g['totals'][s] for g in games) / n for s in range(n_players)])}")
    print(f"win rate per seat:   {fmt([sum(g['won'][s] for g in games) / n for s in range(n_players)])}")


def _check_invariants(games, n_players, crown, rules=None):
    rules = _rules(rules)
    payouts = rules["bet_payouts"]
    for g in games:
        assert len(g["races"]) == rules["races_per_game"]
        for ri, r in enumerate(g["races"]):
            assert r["first_seat"] == ri % n_players
            assert min(r["positions"]) >= 0
            assert r["queue_length"] == len(r["bets"]) <= n_players
            seats = [b["seat"] for b in r["bets"]]
            assert len(seats) == len(set(seats))
            assert [b["queue_position"] for b in r["bets"]] == list(range(1, len(seats) + 1))
            held = sum(pl["cards_left"] for pl in r["players"])
            assert held <= N_CARDS - 1
            for s, pl in enumerate(r["players"]):
                assert pl["cards_left"] == rules["hand_size"] + pl["cards_drawn"] - pl["cards_played"]
                assert pl["race_points"] == pl["bet_points"] + pl["crown_points"] + pl["hand_points"]
                assert pl["bet_points"] == sum(b["points"] for b in r["bets"] if b["seat"] == s)
                assert pl["bets_changed"] <= pl["bets_placed"]
            if r["end"] == "crown":
                assert r["crown_pig"] is not None and r["winning_pigs"] == {r["crown_pig"]}
                assert r["positions"][r["crown_pig"]] >= crown
                assert r["players"][r["ender"]]["crown_points"] == rules["crown_points"]
                if r["both_ends"]:
                    assert r["players"][r["ender"]]["cards_left"] == 0
                    assert r["players"][r["ender"]]["hand_points"] == rules["last_card_points"]
            elif r["end"] == "hand":
                assert not r["both_ends"] and r["crown_pig"] is None
                assert r["players"][r["ender"]]["cards_left"] == 0
                assert r["players"][r["ender"]]["hand_points"] == rules["last_card_points"]
            ws = [b["points"] for b in r["bets"] if b["pig"] in r["winning_pigs"]]
            assert ws == [payouts[k] if k < len(payouts) else 0 for k in range(len(ws))]
        assert g["totals"] == [sum(r["players"][s]["race_points"] for r in g["races"])
                               for s in range(n_players)]
        assert any(g["won"])


if __name__ == "__main__":
    n_players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    n_games = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 12345
    crown = int(sys.argv[4]) if len(sys.argv) > 4 else DEFAULT_CROWN[n_players]
    print(f"crown {crown} (ASSUMED reconstruction of the track)")

    # Debug run: card conservation etc. asserted after every action.
    t0 = time.perf_counter()
    games = simulate(n_players, crown, n_games, seed, debug=True)
    t_dbg = time.perf_counter() - t0
    _check_invariants(games, n_players, crown)
    for npl in (2, 3, 5):
        small = simulate(npl, DEFAULT_CROWN[npl], 300, seed + npl, debug=True)
        _check_invariants(small, npl, DEFAULT_CROWN[npl])
    _summary(games, n_players, crown)

    # Speed run: same seed, no debug checks -> must give identical results.
    t0 = time.perf_counter()
    fast = simulate(n_players, crown, n_games, seed)
    t_fast = time.perf_counter() - t0
    assert fast == games, "debug mode changed the random stream"
    print(f"invariants OK (debug run {n_games / t_dbg:.0f} games/s); "
          f"speed: {n_games / t_fast:.0f} games/s ({n_games} games in {t_fast:.2f}s)")
