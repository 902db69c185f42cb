"""An independent plain-Python implementation of Lemminge as the rules page
(``shared/rules/lemminge.md``) and ``docs/lemminge.md`` state it, with the
reference random bot in every seat. Written from those pages only, for the
statistical cross-check of the engine (tests/games/lemminge/test_lm_crosscheck.py):
slow, obvious, no shared code with the analyzer.

``play_game(map_rows, values, per_terrain, meadow_tiles, players, rng, rules)`` plays
one game and returns a dict of what the engine's tables hold. ``rules`` is a
``[rules]`` table as a designer writes it (docs/lemminge.md, "Rules a designer can
change"): the keys it leaves out keep the box's values (``BOX``). ``BROKEN`` names a
rule to get wrong on purpose (the check must notice).
"""
from __future__ import annotations

import random
from collections import deque

TERRAIN_LETTERS = "FDRWS"  # forest, desert, mountain, water, swamp: the card terrains
TURN_CAP = 3000
# the box's rules (the rules page): hand refilled to 6; starting hands by seat, first player first;
# a push costs 1 per pushed lemming; no push backwards; the double-zero cut at a reshuffle
BOX = {"hand_limit": 6, "start_hands": {2: [5, 6], 3: [4, 5, 6], 4: [3, 4, 5, 6], 5: [2, 3, 4, 5, 6]},
       "push_cost": 1, "backward_push": False, "double_zero": True}
BROKEN: set[str] = set()  # e.g. {"push_cost"}: pushes cost 1 whatever the line; {"backward_push"}:
#                           pushes that set a lemming back are allowed; {"push_cost_rule"}, {"hand_limit_rule"},
#                           {"start_hands_rule"}, {"backward_push_rule"}: that key is ignored (the box's value
#                           played); see the cross-check


def rule(rules, key):
    """The value of a rule key: the table's, else the box's (unless BROKEN ignores the key)."""
    if key in rules and f"{key}_rule" not in BROKEN:
        return rules[key]
    return BOX[key]


def starting_hands(rules, players):
    """Cards dealt to each seat. A player count the table does not give keeps the box's deal, which
    gives the last seat a full hand and each seat before it one card fewer: with another hand limit,
    the box's deal follows it (never below 0 cards)."""
    limit = rule(rules, "hand_limit")
    given = rule(rules, "start_hands") if "start_hands" in rules else {}
    given = {int(k): v for k, v in given.items()}
    if players in given and list(given[players]) != BOX["start_hands"][players]:
        return list(given[players])
    return [max(0, limit - (players - 1 - s)) for s in range(players)]


def neighbours(x, y):
    """Direction name -> neighbour on the odd-r grid (odd rows shifted right)."""
    if y % 2 == 0:
        return {"E": (x + 1, y), "W": (x - 1, y), "NE": (x, y - 1), "NW": (x - 1, y - 1),
                "SE": (x, y + 1), "SW": (x - 1, y + 1)}
    return {"E": (x + 1, y), "W": (x - 1, y), "NE": (x + 1, y - 1), "NW": (x, y - 1),
            "SE": (x + 1, y + 1), "SW": (x, y + 1)}


class Board:
    def __init__(self, rows):
        self.rows = rows
        self.hexes = {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "."}
        self.starts = [h for h, ch in self.hexes.items() if ch == "A"]
        # distance to the finish over any hex but '.', terrain and lemmings ignored
        self.dist = {}
        todo = deque()
        for h, ch in self.hexes.items():
            if ch == "Z":
                self.dist[h] = 0
                todo.append(h)
        while todo:
            h = todo.popleft()
            for n in neighbours(*h).values():
                if n in self.hexes and n not in self.dist:
                    self.dist[n] = self.dist[h] + 1
                    todo.append(n)
        self.start_dist = min(self.dist[h] for h in self.starts if h in self.dist)
        self.nb = {(h, d): n for h in self.hexes for d, n in neighbours(*h).items() if n in self.hexes}
        self.tile_hexes = sorted((h for h, ch in self.hexes.items() if ch not in "AZ"), key=lambda h: (h[1], h[0]))

    def next_hex(self, h, d):
        return self.nb.get((h, d))


class Game:
    def __init__(self, board, values, per_terrain, meadow_tiles, players, rng, rules=None):
        rules = rules or {}
        self.hand_limit = rule(rules, "hand_limit")
        self.push_cost = rule(rules, "push_cost")
        self.backward_push = rule(rules, "backward_push")
        self.double_zero = rule(rules, "double_zero")
        self.b = board
        self.values = values
        self.rng = rng
        self.players = players
        self.terrain = dict(board.hexes)  # letter now: tiles change it
        self.tile = {}  # hex -> tile letter ('M' for meadow)
        self.supply = {t: per_terrain for t in TERRAIN_LETTERS}
        self.supply["M"] = meadow_tiles
        self.where = {}  # lemming (seat, k) -> hex, "start" or "home"
        self.occ = {}  # hex -> lemming on it
        for s in range(players):
            for k in range(2):
                self.where[(s, k)] = "start"
        cards = [(t, v, i) for t in TERRAIN_LETTERS for i, v in enumerate(values)]
        first_two = values.index(2)
        self.columns = {t: [(t, values[first_two], first_two)] for t in TERRAIN_LETTERS}
        self.pile = [c for c in cards if c[2] != first_two]
        rng.shuffle(self.pile)
        self.discards = []
        self.hands = []
        for n in starting_hands(rules, players):  # the box's: 2-6 cards, the first player fewest
            self.hands.append([self.pile.pop() for _ in range(n)])
        self.hand_start = [len(h) for h in self.hands]
        z = sum(1 for v in values if v == 0)
        self.zeros = z
        self.reshuffles = 0
        self.stat = [dict(refills=0, moves=0, steps=0, pushes_made=0, pushed=0, new_columns=0, tiles_placed=0,
                          pushed_distance=0)
                     for _ in range(players)]
        self.move_rows = []
        self.winner = None

    # ---------------------------------------------------------------- cards
    def draw(self):
        if not self.pile:
            new = list(self.discards)
            self.discards = []
            if self.zeros >= 2 and self.double_zero:
                for t, col in self.columns.items():
                    zeros = [c for c in col if c[1] == 0]
                    if len(zeros) == self.zeros:
                        keep = zeros[0]
                        new += [c for c in col if c is not keep]
                        self.columns[t] = [keep]
            if new:
                self.rng.shuffle(new)
                self.pile = new
                self.reshuffles += 1
        if not self.pile:
            return None
        return self.pile.pop()

    def col_sum(self, t):
        return sum(c[1] for c in self.columns[t])

    def movement(self, card):
        t, v, _ = card
        if v <= self.columns[t][-1][1]:
            return self.col_sum(t) + v
        return v

    # ---------------------------------------------------------------- steps
    def occupant(self, h):
        return self.occ.get(h)

    def put(self, lem, w):
        old = self.where[lem]
        if self.occ.get(old) == lem:
            del self.occ[old]
        self.where[lem] = w
        if w not in ("home", "start"):
            self.occ[w] = lem

    def passable(self, h, t):
        return self.terrain[h] in ("M", "Z", t)

    def legal_steps(self, lem, t, movement):
        """(target, direction, cost) of every legal step."""
        w = self.where[lem]
        if w == "home":
            return []
        sources = self.b.starts if w == "start" else [w]
        out = []
        for src in sources:
            for d in ("E", "W", "NE", "NW", "SE", "SW"):
                target = self.b.next_hex(src, d)
                if target is None or self.b.hexes[target] == "A" or not self.passable(target, t):
                    continue
                line = []
                h = target
                ok = True
                while self.occupant(h) is not None:
                    line.append(h)
                    h = self.b.next_hex(h, d)
                    if h is None or self.b.hexes[h] == "A":
                        ok = False
                        break
                if not ok:
                    continue
                # « Il n'est pas permis de pousser un lemming vers l'arrière »: no lemming of the
                # line may land farther from the finish than the hex it leaves (sideways is fine)
                # (unless the rules allow backward pushes)
                if not self.backward_push and "backward_push" not in BROKEN and any(
                        self.b.dist[self.b.next_hex(x, d)] > self.b.dist[x] for x in line):
                    continue
                # the mover's step costs 1, and each lemming of the pushed line push_cost more
                cost = 1 + (0 if "push_cost" in BROKEN else self.push_cost * len(line))
                if cost <= movement:
                    out.append((target, d, cost))
        return out

    def dist_of(self, lem):
        w = self.where[lem]
        if w == "home":
            return 0
        if w == "start":
            return self.b.start_dist
        return self.b.dist[w]

    def step(self, seat, lem, target, d):
        """Returns the lemmings pushed; adds the finish distance they lose to self.setback."""
        line = []
        h = target
        while self.occupant(h) is not None:
            line.append(self.occupant(h))
            h = self.b.next_hex(h, d)
        for other in reversed(line):
            cur = self.where[other]
            nxt = self.b.next_hex(cur, d)
            lost = (0 if self.b.hexes[nxt] == "Z" else self.b.dist[nxt]) - self.b.dist[cur]
            self.stat[other[0]]["pushed_distance"] += lost
            self.setback += lost
            self.put(other, "home" if self.b.hexes[nxt] == "Z" else nxt)
            self.stat[other[0]]["pushed"] += 1
        self.stat[seat]["pushes_made"] += len(line)
        self.put(lem, "home" if self.b.hexes[target] == "Z" else target)
        return line

    def done(self, seat):
        return self.where[(seat, 0)] == "home" and self.where[(seat, 1)] == "home"

    # ---------------------------------------------------------------- the random bot's turn
    def turn(self, seat):
        rng = self.rng
        hand = self.hands[seat]
        st = self.stat[seat]
        playable = []
        refill = rng.randrange(5) == 0
        if not refill:
            for card in hand:
                m = self.movement(card)
                if any(self.legal_steps((seat, k), card[0], m) for k in range(2)):
                    playable.append(card)
            refill = not playable
        if refill:
            kept = []
            for card in hand:
                if rng.randrange(2) == 0:
                    self.discards.append(card)
                else:
                    kept.append(card)
            while len(kept) < self.hand_limit:
                c = self.draw()
                if c is None:
                    break
                kept.append(c)
            self.hands[seat] = kept
            st["refills"] += 1
            return
        card = rng.choice(playable)
        hand.remove(card)
        t, v, _ = card
        before = self.col_sum(t)
        if v <= self.columns[t][-1][1]:
            self.columns[t].append(card)
            movement = before + v
            new = False
        else:
            self.discards += self.columns[t]
            self.columns[t] = [card]
            movement = v
            new = True
            st["new_columns"] += 1
            kind = t if self.supply[t] > 0 else ("M" if self.supply["M"] > 0 else None)
            if kind is not None:
                self.supply[kind] -= 1
                h = rng.choice(self.b.tile_hexes)
                if h in self.tile:
                    self.supply[self.tile[h]] += 1
                self.tile[h] = kind
                self.terrain[h] = kind
                st["tiles_placed"] += 1
        st["moves"] += 1
        able = [(seat, k) for k in range(2) if self.legal_steps((seat, k), t, movement)]
        steps = pushes = 0
        self.setback = 0
        if able:
            lem = rng.choice(able)
            while movement > 0:
                here = self.dist_of(lem)
                options = [o for o in self.legal_steps(lem, t, movement) if self.b.dist[o[0]] < here]
                if not options:
                    break
                target, d, cost = rng.choice(options)
                pushed = self.step(seat, lem, target, d)
                movement -= cost
                steps += 1
                pushes += len(pushed)
                if self.done(seat):
                    self.winner = seat
                elif pushed and self.where[pushed[-1]] == "home" and self.done(pushed[-1][0]):
                    self.winner = pushed[-1][0]
                if self.winner is not None or self.where[lem] == "home":
                    break
        st["steps"] += steps
        self.move_rows.append(dict(seat=seat, value=v, column_sum_before=before, new_column=new,
                                   steps=steps, pushes=pushes, setback=self.setback))


def play_game(rows, values, per_terrain, meadow_tiles, players, rng: random.Random, rules=None):
    g = Game(Board(rows), list(values), per_terrain, meadow_tiles, players, rng, rules)
    turns = 0
    seat = 0
    while g.winner is None and turns < TURN_CAP:
        turns += 1
        g.turn(seat)
        seat = (seat + 1) % players
    return {
        "turns": turns,
        "winner": -1 if g.winner is None else g.winner,
        "reshuffles": g.reshuffles,
        "players": [dict(st, won=int(s == g.winner), hand_start=g.hand_start[s],
                         finished=sum(g.where[(s, k)] == "home" for k in range(2)))
                    for s, st in enumerate(g.stat)],
        "moves": g.move_rows,
    }
