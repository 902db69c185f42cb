"""An independent plain-Python implementation of Mafia as ``shared/rules/mafia.md``
states it (with the readings of ``docs/mafia.md`` where the page is open),
played by the page's reference random bot in every seat. Written from the page
for the statistical cross-check of the engine; it shares no code with
``analyzer/games/mafia`` (it reads the map file itself).

``simulate(players, map_path, games, seed, rules=None)`` returns one dict per
game. Module-level constants are the rules' numbers in the box, so a test can
break one on purpose; ``rules`` plays a variant: a dict of the rule keys the
engine takes (``--rule``), as the rules page's numbers read them (a table by
player count may name some counts only; a key left out keeps the box's number).
"""
from __future__ import annotations

import random
import tomllib

FAMILIES = ["red", "black", "orange", "green"]
STATE = "state"
CALENDAR = ["red", "black", STATE, "orange", "green", STATE]
MARKERS_PER_FAMILY = 8
PURGE_TO_WIN = 4.0
WIN_SPACES = {3: 5, 4: 4, 5: 4}
CAP = 600
# purge points of a piece in a box: a Boss in Prison, a Boss in the Barracks, a Picciotto in Prison
PURGE_BOSS_PRISON, PURGE_BOSS_BARRACKS, PURGE_PICCIOTTO_PRISON = 2.0, 1.0, 0.5
MARKER_FACES = (2, 4, 6)  # a Picciotto places a marker on an even die
REMOVAL_FACES = (2, 4, 6)  # a CC removes a marker on an even die
P_OPTIONAL = 0.5  # the random bot's optional activities and State actions
P_CARD = 0.25  # the random bot plays a held card when its window opens
SHOT_HITS = (1, 3, 5)  # an odd die hits
WEAPON_HITS = (2, 3, 4, 5, 6)
ANTI_MAFIA_TRIGGER = (1, 2)
USA_CARDS = ["government_protection", "notables_protection", "american_boss_visit", "las_vegas_killer",
             "special_weapons", "spy_at_prefecture", "airport_bomb", "your_wife_cheats"]
ROME_CARDS = ["judiciary_support", "anti_gang_brigade", "hideout_found", "wiretap", "heliborne_operation",
              "anti_mafia_operation", "ati_strike", "the_government_falls"]
SISDE_CARDS = [f"clue_{c}_{i}" for c in FAMILIES for i in (1, 2)]


class Piece:
    def __init__(self, side, kind, name):
        self.side = side  # a family colour or "state"
        self.kind = kind  # boss, picciotto, prefect, sisde, cc
        self.name = name
        self.where = None  # a space id, or "continent", "prison", "barracks", "out"

    @property
    def on_map(self):
        return isinstance(self.where, int)

    def __repr__(self):
        return f"{self.name}@{self.where}"


class Rules:
    """The numbers a game plays: the box's (the module's constants, read when a game
    starts) and the variant's keys over them."""

    def __init__(self, players, variant=None):
        v = dict(variant or {})
        wins = dict(WIN_SPACES)
        wins.update({int(n): k for n, k in v.pop("spaces_to_win", {}).items()})
        self.win_spaces = wins[players]
        self.purge_to_win = float(v.pop("purge_points_to_end", PURGE_TO_WIN))
        self.markers = v.pop("markers_per_family", MARKERS_PER_FAMILY)
        self.cap = v.pop("safety_cap", CAP)
        halves = v.pop("purge_half_points", None)
        self.purge = ((PURGE_BOSS_PRISON, PURGE_BOSS_BARRACKS, PURGE_PICCIOTTO_PRISON) if halves is None
                      else tuple(h / 2 for h in halves))
        self.shot_hits = tuple(v.pop("shootout_hit_faces", SHOT_HITS))
        self.weapon_hits = tuple(v.pop("weapons_hit_faces", WEAPON_HITS))
        self.marker_faces = tuple(v.pop("picciotto_marker_faces", MARKER_FACES))
        self.removal_faces = tuple(v.pop("cc_removal_faces", REMOVAL_FACES))
        assert not v, f"unknown rules {sorted(v)}"


class Game:
    def __init__(self, players, board, rng, walk_cache=None, variant=None):
        self.walk_cache = {} if walk_cache is None else walk_cache
        self.players = players
        self.rng = rng
        self.m = board
        self.rules = Rules(players, variant)
        self.win_spaces = self.rules.win_spaces
        self.type = {s["id"]: s["type"] for s in board["spaces"]}
        self.trigger = {s["id"]: tuple(s.get("trigger", ())) for s in board["spaces"]}
        self.airport = {s["id"] for s in board["spaces"] if s.get("airport")}
        self.ring = board["map"]["ring"]
        self.bar = board["map"]["bar"]
        self.returns = {"continent": tuple(board["returns"]["continent"]),
                        "prison": tuple(board["returns"]["prison"]),
                        "barracks": tuple(board["returns"]["barracks"])}
        self.markers = {x: {} for x in self.type}  # space -> {family: count}
        self.supply = {f: self.rules.markers for f in FAMILIES}
        self.decks = {"usa": list(USA_CARDS), "rome": list(ROME_CARDS), "sisde": list(SISDE_CARDS)}
        self.hands = {side: [] for side in FAMILIES + [STATE]}
        self.frozen = set()
        self.no_state_move_next = False
        self.pieces = []
        self.base = {}
        self.stats = {k: 0 for k in (
            "shootouts", "arrests", "holds", "holds_roadblock", "eliminations", "commission_freezes",
            "restaurant_explosions", "air_moves", "drawn_usa", "drawn_rome", "drawn_sisde", "played_usa",
            "played_rome", "played_sisde", "given_up", "markers_placed", "markers_removed",
            "side_turns_frozen", "side_turns")}
        self.side_stats = {side: {"side_turns": 0, "pieces_lost": 0, "cards_drawn": 0, "cards_played": 0}
                           for side in FAMILIES + [STATE]}
        self.card_plays = {}
        self.turn_side = None
        self.moved_state_piece = None  # four players: the State piece the family moved
        self.temp_cards = []

    # -------------------------------------------------------------- helpers
    def coin(self, p):
        return self.rng.random() < p

    def d6(self):
        return self.rng.randint(1, 6)

    def family_pieces(self, f):
        return [p for p in self.pieces if p.side == f]

    def boss(self, f):
        return self.pieces[FAMILIES.index(f) * 3]

    def picciotti(self, f):
        i = FAMILIES.index(f) * 3
        return [self.pieces[i + 1], self.pieces[i + 2]]

    def prefect(self):
        return self.pieces[12]

    def ccs(self):
        return self.pieces[14:17]

    def at(self, x):
        return [p for p in self.pieces if p.where == x]

    def controls(self, f):
        return sum(1 for x in self.markers if self.markers[x].get(f, 0) > 0)

    def purge(self):
        boss_prison, boss_barracks, picciotto_prison = self.rules.purge
        pts = 0.0
        for f in FAMILIES:
            b = self.boss(f)
            pts += boss_prison if b.where == "prison" else (boss_barracks if b.where == "barracks" else 0)
            pts += sum(picciotto_prison for q in self.picciotti(f) if q.where == "prison")
        return pts

    def state_player(self):
        """Who takes the State's decisions and holds its cards."""
        return self.turn_side if self.players == 4 else STATE

    # -------------------------------------------------------------- cards
    def draw(self, side, deck):
        cards = self.decks[deck]
        if not cards:
            return None
        c = cards.pop(self.rng.randrange(len(cards)))  # a reshuffled deck: its top card is uniform
        self.hands[side].append(c)
        self.stats["drawn_" + deck] += 1
        self.side_stats[side]["cards_drawn"] += 1
        return c

    @staticmethod
    def deck_of(card):
        if card in USA_CARDS:
            return "usa"
        if card in ROME_CARDS:
            return "rome"
        return "sisde"

    def give_back(self, side, card):
        self.hands[side].remove(card)
        self.decks[self.deck_of(card)].append(card)

    def play(self, side, card, label=None, count=1):
        self.give_back(side, card)
        deck = self.deck_of(card)
        self.stats["played_" + deck] += count
        self.side_stats[side]["cards_played"] += count
        label = label or card
        self.card_plays[label] = self.card_plays.get(label, 0) + 1

    def may_play(self, side, card):
        """The window of ``card`` is open: its holder plays it with probability 1/4."""
        if card in self.hands[side] and self.coin(P_CARD):
            self.play(side, card)
            return True
        return False

    # -------------------------------------------------------------- boxes
    def to_box(self, p, box):
        p.where = box
        if box == "continent":
            self.stats["eliminations"] += 1
            self.side_stats[p.side]["pieces_lost"] += 1
            if p.kind == "boss":
                for c in [c for c in self.hands[p.side] if c in USA_CARDS]:
                    self.give_back(p.side, c)
            if p.kind == "prefect":
                for side in self.hands:
                    for c in [c for c in self.hands[side] if c in ROME_CARDS or c in SISDE_CARDS]:
                        self.give_back(side, c)
        elif box == "prison":
            self.stats["arrests"] += 1
        elif box == "barracks":
            self.stats["holds"] += 1

    def state_did(self, piece):
        """Four players: the moved State piece did something: a ROME card for the family."""
        if self.players == 4 and piece is not None and piece is self.moved_state_piece:
            self.draw(self.turn_side, "rome")

    def boss_to_barracks(self, b, by):
        self.to_box(b, "barracks")
        if self.players == 4:
            if by is not None and by.kind == "prefect" and by is self.moved_state_piece:
                c = self.draw(self.turn_side, "sisde")
                if c is not None and c.startswith(f"clue_{b.side}_"):
                    self.play(self.turn_side, c, "sisde_4p")
                    self.to_box(b, "prison")
            self.state_did(by)
        else:
            self.sisde_pair_window(b)

    def sisde_pair_window(self, b):
        pair = [f"clue_{b.side}_1", f"clue_{b.side}_2"]
        hand = self.hands[STATE]
        if all(c in hand for c in pair) and self.coin(P_CARD):
            self.give_back(STATE, pair[1])
            self.play(STATE, pair[0], "sisde_pair", count=2)
            self.to_box(b, "prison")

    # -------------------------------------------------------------- markers
    def place_marker(self, f, x):
        if self.type[x] == "city":
            return
        others = [h for h, n in self.markers[x].items() if h != f and n > 0]
        if others:
            h = others[0]
            self.markers[x][h] -= 1
            self.supply[h] += 1
            self.stats["markers_removed"] += 1
        if any(n > 0 for h, n in self.markers[x].items() if h != f):
            return
        if self.supply[f] > 0:
            self.supply[f] -= 1
            self.markers[x][f] = self.markers[x].get(f, 0) + 1
            self.stats["markers_placed"] += 1

    def state_removes_marker(self, x):
        for h, n in self.markers[x].items():
            if n > 0:
                self.markers[x][h] -= 1
                self.supply[h] += 1
                self.stats["markers_removed"] += 1
                return True
        return False

    # -------------------------------------------------------------- shootouts
    def shootout(self, a, b):
        self.stats["shootouts"] += 1
        mods = {}
        for p in (a, b):
            if p.side == STATE:
                mods[p.name] = "sure" if self.may_play(self.state_player(), "anti_gang_brigade") else ""
            else:
                mods[p.name] = "weapons" if self.may_play(p.side, "special_weapons") else ""

        def hits(p):
            if mods[p.name] == "sure":
                return True
            roll = self.d6()
            return roll in (self.rules.weapon_hits if mods[p.name] == "weapons" else self.rules.shot_hits)

        a_hits, b_hits = hits(a), hits(b)
        if a_hits:
            self.to_box(b, "continent")
        if b_hits:
            self.to_box(a, "continent")

    # -------------------------------------------------------------- State actions
    def cc_may_arrest(self, cc, q):
        x = cc.where
        if not self.coin(P_OPTIONAL):
            return
        if self.coin(P_OPTIONAL):  # the Picciotto resists
            self.shootout(q, cc)
            if q.where != x or cc.where != x:
                return
        self.to_box(q, "prison")
        self.state_did(cc)

    def state_holds(self, by, b):
        """The Prefect holds a Boss; a CC may; in the Boss's own base only with Hideout found."""
        x = b.where
        home = x == self.base[b.side]
        sp = self.state_player()
        if by.kind == "cc":
            if home and "hideout_found" not in self.hands[sp]:
                return
            if not self.coin(P_OPTIONAL):
                return
        if home and not self.may_play(sp, "hideout_found"):
            return
        self.boss_to_barracks(b, by)

    # -------------------------------------------------------------- (d)
    def space_acts(self, p, x):
        t = self.type[x]
        trig = self.trigger[x]
        if t == "roadblock":
            if p.kind in ("boss", "picciotto") and self.d6() in trig:
                self.stats["holds_roadblock"] += 1
                if p.kind == "boss":
                    self.boss_to_barracks(p, None)
                else:
                    self.to_box(p, "barracks")
        elif t == "ambush":
            if self.d6() in trig:
                self.to_box(p, "continent")
        elif t == "restaurant":
            if self.d6() in trig:
                self.stats["restaurant_explosions"] += 1
                for q in self.at(x):
                    self.to_box(q, "continent")
        elif t == "bomb":
            if p.kind in ("boss", "prefect") and self.d6() in trig:
                self.to_box(p, "continent")
        elif t == "commission":
            if p.kind in ("boss", "prefect") and self.d6() in trig:
                self.stats["commission_freezes"] += 1
                if self.players == 4 and p.kind == "prefect":
                    self.no_state_move_next = True
                else:
                    self.frozen.add(p.side)
        elif t == "leak":
            if p.side == STATE and self.players == 4:
                return
            hand = self.hands[p.side]
            if hand:
                self.give_back(p.side, self.rng.choice(hand))
                self.stats["given_up"] += 1

    def encounter(self, p, x):
        """(d) 2: the pieces already in X act on P."""
        if p.kind == "picciotto":
            pref = self.prefect()
            if pref.where == x:
                if self.may_play(p.side, "las_vegas_killer"):
                    self.shootout(p, pref)
                    if p.where != x:
                        return
                if pref.where == x:
                    self.to_box(p, "prison")
                    return
            for cc in self.ccs():
                if p.where != x:
                    return
                if cc.where == x:
                    self.cc_may_arrest(cc, p)
            for f in FAMILIES:
                if f != p.side and self.boss(f).where == x and not p.forbidden and p.where == x:
                    if self.coin(P_OPTIONAL):
                        p.forbidden = True
            for f in FAMILIES:
                if f == p.side:
                    continue
                for q in self.picciotti(f):
                    if p.where != x:
                        return
                    if q.where == x and self.coin(P_OPTIONAL):
                        self.shootout(q, p)
        elif p.kind == "boss":
            if self.prefect().where == x:
                self.state_holds(self.prefect(), p)
            for cc in self.ccs():
                if p.where != x:
                    return
                if cc.where == x:
                    self.state_holds(cc, p)
            for f in FAMILIES:
                if p.where != x:
                    return
                if f != p.side and self.boss(f).where == x and self.coin(P_OPTIONAL):
                    self.shootout(self.boss(f), p)
        elif p.kind == "prefect":
            for f in FAMILIES:
                mine = [q for q in self.picciotti(f) if q.where == x]
                if mine and self.may_play(f, "las_vegas_killer"):
                    self.shootout(self.rng.choice(mine), p)
                    return

    def act(self, p, x):
        """(d) 3: P acts."""
        if p.kind == "prefect":
            for f in FAMILIES:
                for q in self.picciotti(f):
                    if p.where != x:
                        return
                    if q.where == x:
                        if self.may_play(f, "las_vegas_killer"):
                            self.shootout(q, p)
                            if p.where != x:
                                return
                        if q.where == x:
                            self.to_box(q, "prison")
                            self.state_did(p)
            for f in FAMILIES:
                if self.boss(f).where == x:
                    self.state_holds(p, self.boss(f))
            if self.state_removes_marker(x):
                self.state_did(p)
            if self.type[x] == "telephone":
                if self.players == 4:
                    self.state_did(p)
                else:
                    self.draw(STATE, "rome")
        elif p.kind == "cc":
            for f in FAMILIES:
                for q in self.picciotti(f):
                    if p.where != x:
                        return
                    if q.where == x:
                        self.cc_may_arrest(p, q)
            for f in FAMILIES:
                if p.where != x:
                    return
                if self.boss(f).where == x:
                    self.state_holds(p, self.boss(f))
            if any(n > 0 for n in self.markers[x].values()) and self.d6() in self.rules.removal_faces:
                self.state_removes_marker(x)
                self.state_did(p)
        elif p.kind == "sisde":
            n = sum(1 for q in self.at(x) if q.kind in ("boss", "picciotto"))
            for _ in range(n):
                if self.draw(STATE, "sisde") is None:
                    break
        elif p.kind == "boss":
            for f in FAMILIES:
                b = self.boss(f)
                if f != p.side and b.where == x and self.coin(P_OPTIONAL):
                    self.shootout(p, b)
                    if p.where != x:
                        return
            if self.type[x] == "telephone" and self.decks["usa"]:
                if not (self.players != 4 and self.may_play(STATE, "wiretap")):
                    self.draw(p.side, "usa")
            self.place_marker(p.side, x)
        elif p.kind == "picciotto":
            for f in FAMILIES:
                if f == p.side:
                    continue
                for q in self.picciotti(f):
                    if q.where == x and self.coin(P_OPTIONAL):
                        self.shootout(p, q)
                        if p.where != x:
                            return
            if self.d6() in self.rules.marker_faces:
                self.place_marker(p.side, x)

    def activities(self, p):
        if not p.on_map:
            return
        x = p.where
        p.forbidden = False
        self.space_acts(p, x)
        if p.where != x:
            return
        self.encounter(p, x)
        if p.where != x or p.forbidden:
            return
        self.act(p, x)

    # -------------------------------------------------------------- movement
    def walks(self, start, steps, can_fly):
        """Every path (tuple of spaces) of exactly ``steps`` steps, with whether it flew
        (remembered per board: the walks do not change during a game)."""
        key = (start, steps, can_fly)
        if key not in self.walk_cache:
            self.walk_cache[key] = self.find_walks(start, steps, can_fly)
        return self.walk_cache[key]

    def find_walks(self, start, steps, can_fly):
        ring, bar = self.ring, self.bar
        central = bar[1:-1]
        found = []

        def clockwise(x):
            return ring[(ring.index(x) + 1) % len(ring)]

        def go(x, how, left, path, flew):
            # how: "ring" (may turn into the bar at a junction), "exit" (just left the bar),
            # "fwd"/"back" (in the bar)
            if left == 0:
                found.append((tuple(path), flew))
                return
            if x in central:
                i = bar.index(x)
                nxt = bar[i + 1] if how == "fwd" else bar[i - 1]
                go(nxt, "exit" if nxt in (bar[0], bar[-1]) else how, left - 1, path + [nxt], flew)
                return
            go(clockwise(x), "ring", left - 1, path + [clockwise(x)], flew)
            if how == "ring" and x == bar[0]:
                go(bar[1], "fwd", left - 1, path + [bar[1]], flew)
            if how == "ring" and x == bar[-1]:
                go(bar[-2], "back", left - 1, path + [bar[-2]], flew)

        if start in central:
            i = bar.index(start)
            for how, j in (("fwd", i + 1), ("back", i - 1)):
                nxt = bar[j]
                go(nxt, "exit" if nxt in (bar[0], bar[-1]) else how, steps - 1, [nxt], False)
        else:
            go(start, "ring", steps, [], False)
        if can_fly and start in self.airport:
            for other in self.airport - {start}:
                go(other, "ring", steps - 1, [other], True)
        return found

    def can_fly(self, p, air_closed):
        return p.kind in ("boss", "prefect") and not air_closed

    def move_and_resolve(self, moves):
        for p, (path, flew) in moves:
            p.where = path[-1]
            self.stats["air_moves"] += int(flew)
        for p, _ in moves:
            self.activities(p)

    def own_move(self, side, d1, d2, air_closed):
        mine = [p for p in self.pieces if p.side == side and p.on_map]
        options = []
        for p in mine:
            for w in self.walks(p.where, d1 + d2, self.can_fly(p, air_closed)):
                options.append([(p, w)])
        if len(mine) >= 2:
            dice = [(d1, d2)] if d1 == d2 else [(d1, d2), (d2, d1)]
            for a in mine:
                for b in mine:
                    if a is b:
                        continue
                    for x, y in dice:
                        for wa in self.walks(a.where, x, self.can_fly(a, air_closed)):
                            for wb in self.walks(b.where, y, self.can_fly(b, air_closed)):
                                options.append([(a, wa), (b, wb)])
        if options:
            self.move_and_resolve(self.rng.choice(options))

    # -------------------------------------------------------------- turns
    def home(self, p):
        return self.base[p.side] if p.side != STATE else self.m["map"]["state_return"]

    def try_return(self, p, box):
        freed = False
        if box == "prison" and p.side != STATE:
            freed = self.may_play(p.side, "government_protection")
        elif box == "barracks" and p.side != STATE:
            freed = self.may_play(p.side, "notables_protection")
        if not freed:
            freed = self.d6() in self.returns[box]
            if freed and box == "prison" and self.players != 4 and self.may_play(STATE, "judiciary_support"):
                freed = False
        if freed:
            p.where = self.home(p)

    def turn(self, side):
        self.turn_side = side
        self.stats["side_turns"] += 1
        self.side_stats[side]["side_turns"] += 1
        frozen = side in self.frozen
        self.frozen.discard(side)
        skip_state_move = False
        if self.players == 4:
            skip_state_move = self.no_state_move_next
            self.no_state_move_next = False
        mine = [p for p in self.pieces if p.side == side]
        for box in ("continent", "prison", "barracks"):
            for p in mine:
                if p.where == box:
                    self.try_return(p, box)
        if self.players == 4:
            for p in self.pieces[12:]:
                if p.where == "continent":
                    self.try_return(p, "continent")
        if frozen:
            self.stats["side_turns_frozen"] += 1
            return
        if side == STATE:
            for f in FAMILIES:
                if self.boss(f).where == "barracks":
                    self.sisde_pair_window(self.boss(f))
        elif self.players != 4 and self.hands[STATE]:
            self.may_play(side, "spy_at_prefecture")
        d1, d2 = self.d6(), self.d6()
        air_closed = False
        if side == STATE:
            if any(p.on_map for p in mine) and self.may_play(STATE, "heliborne_operation"):
                d1 = self.rng.randint(max(1, d1 - 2), min(6, d1 + 2))
                d2 = self.rng.randint(max(1, d2 - 2), min(6, d2 + 2))
            if self.prefect().where in self.airport:
                for f in FAMILIES:
                    if "airport_bomb" in self.hands[f]:
                        air_closed = self.may_play(f, "airport_bomb")
        elif self.players != 4 and self.boss(side).where in self.airport:
            air_closed = self.may_play(STATE, "ati_strike")
        self.own_move(side, d1, d2, air_closed)
        if side == STATE:
            self.anti_mafia(STATE)
            return
        self.boss_visit(side)
        if self.players == 4:
            if not skip_state_move:
                self.state_piece_move(side, d1, d2)
            for c in [c for c in self.hands[side] if c not in USA_CARDS]:
                self.give_back(side, c)

    def anti_mafia(self, side):
        if "anti_mafia_operation" in self.hands[side] and self.may_play(side, "anti_mafia_operation"):
            x = self.rng.choice([x for x in sorted(self.type) if self.type[x] != "city"])
            self.type[x] = "roadblock"
            self.trigger[x] = ANTI_MAFIA_TRIGGER

    def boss_visit(self, f):
        mine = [x for x in sorted(self.markers) if self.markers[x].get(f, 0) > 0]
        if mine and self.supply[f] > 0 and self.may_play(f, "american_boss_visit"):
            x = self.rng.choice(mine)
            self.supply[f] -= 1
            self.markers[x][f] += 1
            self.stats["markers_placed"] += 1

    def state_piece_move(self, f, d1, d2):
        options = []
        for v in ([d1] if d1 == d2 else [d1, d2]):
            for p in [self.prefect()] + self.ccs():
                if p.on_map:
                    for w in self.walks(p.where, v, p.kind == "prefect"):
                        options.append((p, w))
        if not options:
            return
        p, (path, flew) = self.rng.choice(options)
        p.where = path[-1]
        self.stats["air_moves"] += int(flew)
        self.moved_state_piece = p
        self.activities(p)
        self.moved_state_piece = None
        self.anti_mafia(f)

    def play_game(self):
        for i, f in enumerate(FAMILIES):
            for kind, name in (("boss", "Boss"), ("picciotto", "P1"), ("picciotto", "P2")):
                self.pieces.append(Piece(f, kind, f"{f} {name}"))
        for kind, name in (("prefect", "Prefect"), ("sisde", "SISDE"), ("cc", "CC1"), ("cc", "CC2"),
                           ("cc", "CC3")):
            self.pieces.append(Piece(STATE, kind, name))
        for p in self.pieces:
            p.forbidden = False
        for f in FAMILIES:
            open_cities = [s["id"] for s in self.m["spaces"] if s["type"] == "city" and f in s["open_to"]]
            self.base[f] = self.rng.choice(open_cities)
            for p in self.family_pieces(f):
                p.where = self.base[f]
        mp = self.m["map"]
        self.prefect().where = mp["prefect_start"]
        self.pieces[13].where = mp["sisde_start"] if self.players != 4 else "out"
        roadblocks = sorted(s["id"] for s in self.m["spaces"] if s["type"] == "roadblock")
        for cc, x in zip(self.ccs(), roadblocks):
            cc.where = x
        outcome, winner_spaces = "draw", None
        passes = self.rules.cap
        for k in range(self.rules.cap):
            for side in CALENDAR:
                if side == STATE:
                    if self.players == 4:
                        continue
                    if self.purge() >= self.rules.purge_to_win:
                        outcome = STATE
                else:
                    n = self.controls(side)
                    if n >= self.win_spaces:
                        outcome, winner_spaces = side, n
                    elif self.players == 4 and self.purge() >= self.rules.purge_to_win:
                        outcome = "all_lose"
                if outcome != "draw":
                    break
                self.turn(side)
                self.check()
            if outcome != "draw":
                passes = k + 1
                break
        return {
            "outcome": outcome,
            "calendar_turns": passes,
            "winner_spaces": winner_spaces,
            "purge_points": self.purge(),
            "markers_on_map": sum(self.rules.markers - self.supply[f] for f in FAMILIES),
            **self.stats,
            "sides": {side: {**self.side_stats[side],
                             "won": outcome == side,
                             "base": self.base.get(side),
                             "markers_end": self.rules.markers - self.supply[side] if side != STATE else 0,
                             "spaces_end": self.controls(side) if side != STATE else 0}
                      for side in FAMILIES + [STATE]},
            "card_plays": dict(self.card_plays),
        }

    def check(self):
        for f in FAMILIES:
            assert self.supply[f] + sum(self.markers[x].get(f, 0) for x in self.markers) == self.rules.markers
        for x in self.markers:
            assert sum(1 for n in self.markers[x].values() if n > 0) <= 1
        assert sum(len(h) for h in self.hands.values()) + sum(len(d) for d in self.decks.values()) == 24


def load_board(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def simulate(players, map_path, games, seed, rules=None):
    rng = random.Random(seed)
    board = load_board(map_path)
    cache = {}
    return [Game(players, board, rng, cache, rules).play_game() for _ in range(games)]
