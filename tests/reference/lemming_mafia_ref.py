"""Independent reference implementation of Lemming Mafia (one race, random bots).

Written from the rules page /work/shared/rules/lemming-mafia.md only ("the rules"
below), without looking at the simulator under test.  It is deliberately plain and
slow: it exists to cross-check the fast simulator statistically.

Standard library only.  Public API:

    load(path) -> (sections, deck)
        sections: list[list[str]]           action names, section by section
        deck:     list[tuple[str, tuple[int, ...], int]]
                  (kind, colour indices, points)

    play_race(sections, deck, n_players, rng, rules=None) -> dict   (keys documented there)
    simulate(path, n_players, n_races, seed, rules=None) -> list[dict]

``rules``: a dict of the rule numbers a designer may change (the analyzer's
``--rule`` keys, listed in ``rules_of``); a key left out keeps the rulebook's value.

Colour indices follow the rules' fixed order:
    0 blue, 1 grey, 2 green, 3 purple, 4 pink, 5 red
"""

from __future__ import annotations

import random
import sys
import tomllib
from collections import Counter

# Rules, "Components": six lemmings in this fixed order.
COLORS = ("blue", "grey", "green", "purple", "pink", "red")
N_LEMMINGS = 6

# Rules, "The board": the six actions.
ACTIONS = ("empty", "concrete", "jackhammer", "getaway", "bookmaker", "boss")

# Rules, "The contract deck": the six kinds and how many colours each names.
KIND_N_COLORS = {
    "eliminated": 2,
    "before": 2,
    "top3": 1,
    "at_most_one_eliminated": 0,
    "at_least_three_eliminated": 0,
    "winner_clean": 0,
}

CONTRACTS_PER_PLAYER = 3   # Rules, "Components": 3 dealt to each player.
UNFULFILLED_PENALTY = -2   # Rules, "Scoring": an unfulfilled held card costs 2.
BLOCKS_TO_ELIMINATE = 3    # Rules, "Actions/concrete": the third block eliminates.
GETAWAY_DIE = 6            # Rules, "Components": one number die, 1-6.


def rules_of(rules=None):
    """The rule numbers a race plays: the rulebook's (the constants above, read
    when called), with the designer's changes in ``rules`` on top.

      contracts_dealt       contracts dealt to each player
      unfulfilled_contract  points of each contract still held and not fulfilled
      blocks_to_eliminate   the block that eliminates a lemming
      bet_points            points of the winner's card by its placing order,
                            first placed first; a card past the list scores the
                            list's last entry
      getaway_die           sides of the number die (1 .. sides)
      bets_per_bookmaker    bet cards a player may place at one bookmaker
      discards_per_boss     contracts a player may discard at one boss
      jackhammer_removes    blocks a jackhammer removes (at most those carried)
    """
    out = {
        "contracts_dealt": CONTRACTS_PER_PLAYER,
        "unfulfilled_contract": UNFULFILLED_PENALTY,
        "blocks_to_eliminate": BLOCKS_TO_ELIMINATE,
        "bet_points": list(range(1, N_LEMMINGS + 1)),  # Rules, "Scoring": 1st placed = 1 ... 6th = 6
        "getaway_die": GETAWAY_DIE,
        "bets_per_bookmaker": 1,   # Rules, "Actions/bookmaker": one bet card
        "discards_per_boss": 1,    # Rules, "Actions/boss": one contract
        "jackhammer_removes": 1,   # Rules, "Actions/jackhammer": one block
    }
    for key, value in (rules or {}).items():
        if key not in out:
            raise ValueError(f"unknown rule {key!r}")
        out[key] = list(value) if isinstance(value, (list, tuple)) else int(value)
    return out

START = -1                 # position of a lemming still in the start area
OUT = None                 # position of an eliminated lemming (off the track)


# --------------------------------------------------------------------------- load
def load(path):
    """Read a board file in the rules page format.

    Returns (sections, deck):
      sections -- list of lists of action names (strings), in track order;
      deck     -- list of (kind, colours, points), colours a tuple of colour
                  indices 0-5 (empty tuple for the kinds that name no colour).
    """
    with open(path, "rb") as fh:
        data = tomllib.load(fh)

    raw_sections = data["board"]["sections"]
    sections = []
    for sec in raw_sections:
        sec = [str(a) for a in sec]
        if not sec:
            raise ValueError("a section must hold at least one field")
        for a in sec:
            if a not in ACTIONS:
                raise ValueError(f"unknown action {a!r}")
        sections.append(sec)
    if not sections:
        raise ValueError("board has no sections")

    deck = []
    for card in data.get("contracts", []):
        kind = card["kind"]
        if kind not in KIND_N_COLORS:
            raise ValueError(f"unknown contract kind {kind!r}")
        names = card.get("colors", []) or []
        colors = tuple(COLORS.index(c) for c in names)
        if len(colors) != KIND_N_COLORS[kind]:
            raise ValueError(f"contract {kind!r} needs {KIND_N_COLORS[kind]} colours")
        deck.append((kind, colors, int(card["points"])))
    return sections, deck


# --------------------------------------------------------------------- one race
class _RaceOver(Exception):
    """Raised the moment the race ends (rules, "End of the race": 'at once')."""


class _Race:
    def __init__(self, sections, deck, n_players, rng, rules=None):
        self.rng = rng
        self.n_players = n_players
        self.rules = rules_of(rules)

        # Rules, "The board": fields read section by section form one linear
        # order, the field index.  Remember each field's section and action.
        self.field_action = []
        self.field_section = []
        self.section_fields = []          # section -> list of field indices
        for s, sec in enumerate(sections):
            idxs = []
            for action in sec:
                idxs.append(len(self.field_action))
                self.field_action.append(action)
                self.field_section.append(s)
            self.section_fields.append(idxs)
        self.n_fields = len(self.field_action)
        self.n_sections = len(sections)

        # Lemming state: all six start in the start area with no blocks
        # (German rulebook: all six figures always play, whatever the player count).
        self.pos = [START] * N_LEMMINGS   # START, field index, or OUT
        self.blocks = [0] * N_LEMMINGS
        self.elim_order = []              # colours in order of elimination

        # Player state.  Rules, "Components": six bet cards per player, one per
        # colour.  Rules, "Components"/"Setup": 18 contracts shuffled, 3 dealt
        # to each player (the rule contracts_dealt), the rest unused.
        self.hand = [list(range(N_LEMMINGS)) for _ in range(n_players)]
        self.stack = [[] for _ in range(n_players)]   # in placing order
        cards = list(deck)
        each = self.rules["contracts_dealt"]
        if len(cards) < each * n_players:
            raise ValueError("deck too small for this many players")
        rng.shuffle(cards)
        self.contracts = []   # per seat: list of [card, held]
        for p in range(n_players):
            dealt = cards[p * each:(p + 1) * each]
            self.contracts.append([[c, True] for c in dealt])

        self.winner = None
        self.finish = None
        self.turns = 0

    # ---------------------------------------------------------------- helpers
    def alive(self):
        return [c for c in range(N_LEMMINGS) if self.pos[c] is not OUT]

    def occupied(self, field):
        # Rules, "Turn": two lemmings never share a field (start area excepted).
        return any(self.pos[c] == field for c in range(N_LEMMINGS))

    def win(self, lemming, how):
        self.winner = lemming
        self.finish = how
        raise _RaceOver

    def add_block(self, lemming):
        # Rules, "Actions/concrete": a lemming with 2 blocks that gets a third is
        # eliminated and leaves the track at once (its field becomes free);
        # the rule blocks_to_eliminate says which block does it.
        self.blocks[lemming] += 1
        if self.blocks[lemming] >= self.rules["blocks_to_eliminate"]:
            self.pos[lemming] = OUT
            self.elim_order.append(lemming)
            # Rules, "End of the race": the race ends at once when only one
            # lemming is left; it wins wherever it stands (start area included).
            left = self.alive()
            if len(left) == 1:
                self.win(left[0], "last_standing")

    # ------------------------------------------------------------------ turn
    def candidates(self):
        """Rules, "Turn" 1-2, and "The reference random bot / move".

        Roll both lemming dice.  A die showing a live colour stands for that
        lemming; a die showing an eliminated colour stands for the last-placed
        lemming(s): lowest field index, start-area lemmings behind all track
        lemmings and tied with each other; every tied lemming is a candidate.
        Candidates are the distinct lemmings the dice stand for.
        """
        d1 = self.rng.randrange(N_LEMMINGS)
        d2 = self.rng.randrange(N_LEMMINGS)
        alive = self.alive()
        last_pos = min(self.pos[c] for c in alive)          # START (-1) is lowest
        last_placed = [c for c in alive if self.pos[c] == last_pos]
        cands = set()
        for d in (d1, d2):
            if self.pos[d] is OUT:
                cands.update(last_placed)
            else:
                cands.add(d)
        return sorted(cands)

    def move(self, lemming):
        """Rules, "Turn" 3: move to a free field of the next section; if that
        section is full, the one after, and so on; past the last section: water.
        Random bot: uniform among the free fields of the section it goes to."""
        here = self.pos[lemming]
        s = -1 if here == START else self.field_section[here]
        s += 1
        while s < self.n_sections:
            free = [f for f in self.section_fields[s] if not self.occupied(f)]
            if free:
                self.land(lemming, self.rng.choice(free))
                return
            s += 1
        # Moved past the last section: reaches the water and wins.
        self.win(lemming, "water")

    def land(self, lemming, field):
        """Place the lemming on a free field; its action happens at once
        (rules, "Turn" 4 and "Actions")."""
        self.pos[lemming] = field
        action = self.field_action[field]
        if action == "empty":
            pass
        elif action == "concrete":
            self.add_block(lemming)
        elif action == "jackhammer":
            # one block removed, if it has any (the rule jackhammer_removes:
            # that many, as many as it has at most)
            self.blocks[lemming] -= min(self.blocks[lemming], self.rules["jackhammer_removes"])
        elif action == "getaway":
            # roll 1-6 (the rule getaway_die: 1 .. its sides), move that many
            # FIELDS (field index + roll)
            roll = self.rng.randint(1, self.rules["getaway_die"])
            target = field + roll
            if target >= self.n_fields:
                self.win(lemming, "water")        # past the last field: water
            elif self.occupied(target):
                self.add_block(lemming)           # stays, gets a block instead
            else:
                self.land(lemming, target)        # that field's action (chains)
        elif action == "bookmaker":
            # Random bot: each player independently, prob 1/2, places one card
            # chosen uniformly among the cards in hand on top of their stack.
            # Where the rule bets_per_bookmaker allows more cards, it decides
            # so again after each card placed (a pass ends its turn there).
            for p in range(self.n_players):
                for _ in range(self.rules["bets_per_bookmaker"]):
                    if not (self.rng.random() < 0.5 and self.hand[p]):
                        break
                    card = self.hand[p].pop(self.rng.randrange(len(self.hand[p])))
                    self.stack[p].append(card)
        elif action == "boss":
            # Random bot: each player independently, prob 1/2, discards one
            # contract chosen uniformly among those held (again after each
            # discard, up to the rule discards_per_boss).
            for p in range(self.n_players):
                for _ in range(self.rules["discards_per_boss"]):
                    held = [e for e in self.contracts[p] if e[1]]
                    if not (self.rng.random() < 0.5 and held):
                        break
                    self.rng.choice(held)[1] = False
        else:  # pragma: no cover - load() validates actions
            raise ValueError(action)

    def run(self):
        """Rules, "Turn": seat 0 first, then seats in order, cycling."""
        seat = 0
        try:
            while True:
                self.turns += 1
                cands = self.candidates()
                lemming = self.rng.choice(cands)   # random bot: uniform
                self.move(lemming)
                seat = (seat + 1) % self.n_players  # dice pass to the left
        except _RaceOver:
            pass

    # --------------------------------------------------------------- scoring
    def places(self):
        """Rules, "End of the race": winner 1st; other track lemmings by field
        index, furthest first; start-area lemmings next, sharing one place
        (competition ranking); eliminated last, first eliminated = 6th."""
        places = [None] * N_LEMMINGS
        places[self.winner] = 1
        nxt = 2
        on_track = [c for c in self.alive()
                    if c != self.winner and self.pos[c] != START]
        on_track.sort(key=lambda c: self.pos[c], reverse=True)
        for c in on_track:
            places[c] = nxt
            nxt += 1
        in_start = [c for c in self.alive()
                    if c != self.winner and self.pos[c] == START]
        for c in in_start:
            places[c] = nxt                       # all share the best place
        nxt += len(in_start)
        for k, c in enumerate(self.elim_order):
            places[c] = N_LEMMINGS - k           # 1st eliminated -> 6th, ...
        return places

    def fulfilled(self, kind, colors, places):
        """Rules, "The contract deck" and "Scoring"."""
        n_elim = len(self.elim_order)
        eliminated = set(self.elim_order)
        if kind == "eliminated":                  # X and/or Y eliminated
            return any(c in eliminated for c in colors)
        if kind == "before":                      # X strictly better than Y
            x, y = colors
            return places[x] < places[y]
        if kind == "top3":                        # place 1, 2 or 3
            return places[colors[0]] <= 3
        if kind == "at_most_one_eliminated":
            return n_elim <= 1
        if kind == "at_least_three_eliminated":
            return n_elim >= 3
        if kind == "winner_clean":                # winner carries no block
            return self.blocks[self.winner] == 0
        raise ValueError(kind)

    def result(self):
        n = self.n_players
        places = self.places()

        # Bet points (rules, "Scoring"): 1-based position of the winner's card in
        # placing order; 0 if never placed.  Cards still in hand are lost.  The
        # rule bet_points: the points of each position, the last for any later.
        table = self.rules["bet_points"]
        bet_points = []
        for p in range(n):
            st = self.stack[p]
            position = st.index(self.winner) if self.winner in st else None
            bet_points.append(0 if position is None else table[min(position, len(table) - 1)])

        # Contract points: held -> points if fulfilled else -2 (the rule
        # unfulfilled_contract); discarded -> 0.
        contract_points, contracts_out, discarded = [], [], []
        for p in range(n):
            total, rows = 0, []
            for (kind, colors, pts), held in self.contracts[p]:
                ok = self.fulfilled(kind, colors, places)
                pay = (pts if ok else self.rules["unfulfilled_contract"]) if held else 0
                total += pay
                rows.append((kind, colors, pts, held, ok, pay))
            contract_points.append(total)
            contracts_out.append(rows)
            discarded.append(sum(1 for _, held in self.contracts[p] if not held))

        score = [bet_points[p] + contract_points[p] for p in range(n)]

        # Winner(s): highest total, tie broken by contract points, remaining
        # tie shared (each tied player counts as a winner).
        best = max((score[p], contract_points[p]) for p in range(n))
        won = [(score[p], contract_points[p]) == best for p in range(n)]

        return {
            "winner": self.winner,
            "turns": self.turns,
            "eliminated": len(self.elim_order),
            "finish": self.finish,
            "winner_blocks": self.blocks[self.winner],
            "places": places,
            "bet_points": bet_points,
            "contract_points": contract_points,
            "score": score,
            "won": won,
            "bets_placed": [len(s) for s in self.stack],
            "discarded": discarded,
            "contracts": contracts_out,
        }

    def check_invariants(self):
        on = [self.pos[c] for c in self.alive() if self.pos[c] != START]
        assert len(on) == len(set(on)), "two lemmings share a field"
        assert all(0 <= b < self.rules["blocks_to_eliminate"] for c, b in enumerate(self.blocks)
                   if self.pos[c] is not OUT)
        assert self.winner is not None and self.pos[self.winner] is not OUT
        assert len(self.elim_order) <= N_LEMMINGS - 1
        if self.finish == "last_standing":
            assert len(self.elim_order) == N_LEMMINGS - 1
        for p in range(self.n_players):
            assert sorted(self.hand[p] + self.stack[p]) == list(range(N_LEMMINGS))


def play_race(sections, deck, n_players, rng, rules=None):
    """Play ONE race, every seat using the reference random bot, under ``rules``
    (``rules_of``: None, the rulebook's).

    Returns a dict:
      winner          colour index 0-5 of the winning lemming
      turns           moves made, the last (race-ending) one included
      eliminated      number of eliminated lemmings
      finish          'water' or 'last_standing'
      winner_blocks   blocks the winning lemming carries
      places          list of 6 final places indexed by colour
      bet_points      list per seat
      contract_points list per seat
      score           list per seat (bet + contract points)
      won             list of bools per seat (shared wins possible)
      bets_placed     list per seat: bet cards placed on the stack
      discarded       list per seat: contracts discarded at the boss
      contracts       list per seat of (kind, colours tuple, points, held,
                      fulfilled, payoff) tuples, in dealing order
    """
    race = _Race(sections, deck, n_players, rng, rules)
    race.run()
    race.check_invariants()
    return race.result()


def simulate(path, n_players, n_races, seed, rules=None):
    """Play n_races independent races on the board file at `path` with one
    random.Random(seed) stream, under ``rules``; return the list of play_race dicts."""
    sections, deck = load(path)
    rng = random.Random(seed)
    return [play_race(sections, deck, n_players, rng, rules) for _ in range(n_races)]


# ------------------------------------------------------------------ __main__
def _summary(results, n_players):
    n = len(results)
    print(f"races: {n}   players: {n_players}")
    print(f"mean turns: {sum(r['turns'] for r in results) / n:.4f}")
    elim = Counter(r["eliminated"] for r in results)
    print("eliminated distribution: "
          + "  ".join(f"{k}:{elim[k] / n:.4f}" for k in range(N_LEMMINGS)))
    print(f"mean eliminated: {sum(r['eliminated'] for r in results) / n:.4f}")
    fin = Counter(r["finish"] for r in results)
    print("finish shares: "
          + "  ".join(f"{k}:{fin[k] / n:.4f}" for k in ("water", "last_standing")))
    win = Counter(r["winner"] for r in results)
    print("winner colour shares: "
          + "  ".join(f"{COLORS[c]}:{win[c] / n:.4f}" for c in range(N_LEMMINGS)))
    print(f"mean winner blocks: {sum(r['winner_blocks'] for r in results) / n:.4f}")
    wb = Counter(r["winner_blocks"] for r in results)
    print("winner blocks distribution: "
          + "  ".join(f"{k}:{wb[k] / n:.4f}" for k in range(3)))
    per_seat = lambda key: [sum(r[key][p] for r in results) / n
                            for p in range(n_players)]
    fmt = lambda xs: "  ".join(f"{x:.4f}" for x in xs)
    all_mean = lambda key: sum(sum(r[key]) for r in results) / (n * n_players)
    print(f"mean bet points: {all_mean('bet_points'):.4f}   per seat: {fmt(per_seat('bet_points'))}")
    print(f"mean contract points: {all_mean('contract_points'):.4f}   per seat: {fmt(per_seat('contract_points'))}")
    print(f"mean score: {all_mean('score'):.4f}   per seat: {fmt(per_seat('score'))}")
    print(f"mean bets placed: {all_mean('bets_placed'):.4f}")
    print(f"mean contracts discarded: {all_mean('discarded'):.4f}")
    print(f"seat win rates (shared wins count for each): {fmt(per_seat('won'))}")
    shared = sum(1 for r in results if sum(r["won"]) > 1) / n
    print(f"share of races with a shared win: {shared:.4f}")


if __name__ == "__main__":
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    board = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "example_board.toml")
    n_races = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    n_players = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 12345
    print(f"board: {board} (ASSUMED default layout and deck)")
    _summary(simulate(board, n_players, n_races, seed), n_players)
