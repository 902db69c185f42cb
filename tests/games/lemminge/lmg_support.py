"""Helpers for the Lemminge tests: a table on a map of the test's own (a grid
string), whose state is set by hand and whose players answer from a script
(bot kind SCRIPTED). No tests here."""
import numpy as np

from analyzer.engine.rng import seed_stream
from analyzer.games.lemminge import kernel as K
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge import rules as R
from analyzer.games.lemminge.board import load_map, parse_map
from analyzer.games.lemminge.ruleset import RULES

FOREST, DESERT, MOUNTAIN, WATER, SWAMP = range(5)
VALUES = (4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0)


def make_map(grid: str, values=VALUES, per_terrain=3, meadow=6):
    return parse_map({"map": {"name": "test", "grid": grid}, "cards": {"values": list(values)},
                      "tiles": {"per_terrain": per_terrain, "meadow": meadow}}, "test.toml")


def card(terrain, value, nth=0, values=VALUES):
    """The id of the ``nth`` card of that value (0: the first; the opening 2 is the first 2)."""
    idx = [i for i, v in enumerate(values) if v == value][nth]
    return terrain * len(values) + idx


class Table:
    def __init__(self, board=None, players=2, seed=0, kinds=None, check=True, deal=False, rules=None):
        """``rules``: a ``[rules]`` table (ruleset.RULES' keys; None: the box's)."""
        self.map = load_map() if board is None else board
        kinds = [L.SCRIPTED] * players if kinds is None else kinds
        self.rules = RULES.rules(rules or {})
        self.game = K.pack_game(self.map, kinds, check=check, rules=self.rules)
        self.params = K.new_params(players)
        self.state = np.zeros(L.S_LEN, np.int64)
        self.hidden = np.zeros(L.H_LEN, np.int64)
        self.trace = np.zeros(0, np.int64)
        K.new_game(self.game, self.state, self.hidden, seed, 0, self.trace)
        self.players = players
        self.rows = np.zeros((players, L.PL_LEN), np.int64)
        self.moves = np.zeros((64, L.MV_LEN), np.int32)
        self.counts = np.zeros(2, np.int64)
        self.hexes = np.zeros((self.map.n_cells, L.HX_LEN), np.int64)
        if not deal:  # the dealt hands go back on top of the pile: tests set hands themselves
            for seat in range(players):
                at = seat * L.OWN_LEN
                for c in self.hidden[at + L.OWN_HAND:at + L.OWN_HAND + self.hidden[at + L.OWN_HAND_N]]:
                    self.hidden[L.H_PILE + self.state[L.PUB_PILE_N]] = c
                    self.state[L.PUB_PILE_N] += 1
                self.hidden[at + L.OWN_HAND_N] = 0
                self.state[L.PUB_HAND_N + seat] = 0

    def cell(self, x, y):
        return y * self.map.width + x

    # -------------------------------------------------------------- arranging
    def place(self, lemming, x, y):
        s = self.state
        old = s[L.PUB_POS + lemming]
        if old >= 0:
            s[L.PUB_OCC + old] = -1
        c = self.cell(x, y)
        s[L.PUB_POS + lemming] = c
        s[L.PUB_OCC + c] = lemming

    def column(self, terrain, cards):
        """Set a column (bottom first); the cards come out of hands, pile or discards."""
        s, h = self.state, self.hidden
        for c in s[L.PUB_COL + terrain * L.MAX_VALUES:L.PUB_COL + terrain * L.MAX_VALUES + s[L.PUB_COL_N + terrain]]:
            self._put_discard(int(c))
        for c in cards:
            self._take(c)
        s[L.PUB_COL + terrain * L.MAX_VALUES:L.PUB_COL + terrain * L.MAX_VALUES + len(cards)] = cards
        s[L.PUB_COL_N + terrain] = len(cards)
        s[L.PUB_COL_SUM + terrain] = sum(VALUES[c % len(VALUES)] for c in cards)

    def hand(self, seat, cards):
        s, h = self.state, self.hidden
        at = seat * L.OWN_LEN
        for c in h[at + L.OWN_HAND:at + L.OWN_HAND + h[at + L.OWN_HAND_N]]:
            self._put_discard(int(c))
        for c in cards:
            self._take(c)
        h[at + L.OWN_HAND:at + L.OWN_HAND + len(cards)] = cards
        h[at + L.OWN_HAND_N] = len(cards)
        s[L.PUB_HAND_N + seat] = len(cards)
        assert self.ok()

    def _put_discard(self, c):
        s, h = self.state, self.hidden
        h[L.H_DISCARD + s[L.PUB_DISCARD_N]] = c
        s[L.PUB_DISCARD_N] += 1

    def _take(self, c):
        """Remove card c from the pile or the discards."""
        s, h = self.state, self.hidden
        for base, key in ((L.H_PILE, L.PUB_PILE_N), (L.H_DISCARD, L.PUB_DISCARD_N)):
            cards = list(h[base:base + s[key]])
            if c in cards:
                cards.remove(c)
                h[base:base + len(cards)] = cards
                s[key] = len(cards)
                return
        raise AssertionError(f"card {c} is not in the pile or the discards")

    def script(self, *answers):
        h = self.hidden
        h[L.H_SCRIPT_I] = 0
        h[L.H_SCRIPT_N] = len(answers)
        h[L.H_SCRIPT:L.H_SCRIPT + len(answers)] = answers

    def ok(self):
        return R.check_invariants(self.game, self.state, self.hidden)

    # -------------------------------------------------------------- reading
    def pos(self, lemming):
        c = int(self.state[L.PUB_POS + lemming])
        return c if c < 0 else (c % self.map.width, c // self.map.width)

    def steps(self, lemming, terrain, movement):
        """The legal steps as (target (x, y), direction name, cost)."""
        n = R.list_steps(self.game, self.state, lemming, terrain, movement, L.S_OPTIONS)
        out = []
        for i in range(n):
            o = L.S_OPTIONS + i * L.OPT_WIDTH
            t = int(self.state[o + L.OPT_TARGET])
            out.append(((t % self.map.width, t // self.map.width), L.DIRECTIONS[self.state[o + L.OPT_DIR]],
                        int(self.state[o + L.OPT_COST])))
        return out

    def step_index(self, lemming, terrain, movement, target, direction):
        for i, (t, d, _) in enumerate(self.steps(lemming, terrain, movement)):
            if t == target and d == direction:
                return i
        raise AssertionError(f"no step to {target} {direction}")

    def turn(self, seat):
        return K.one_turn(self.game, self.state, self.hidden, self.params, seat, self.rows, self.moves,
                          self.counts, self.hexes, self.trace)

    def last_move(self):
        row = self.moves[self.counts[0] - 1]
        return {k: int(row[getattr(L, "MV_" + k.upper())]) for k in
                ("seat", "terrain", "value", "colsum", "new_column", "movement", "steps", "pushes", "lemming",
                 "dist_before", "dist_after")}
