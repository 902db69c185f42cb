"""Helpers for the Mafia tests: a table whose pieces, markers and hands are set
by hand, whose dice and decisions come from a script (bot kind SCRIPTED: the
script, then the first option / "no"). No tests here."""
import numpy as np

from analyzer.games.mafia import activities
from analyzer.games.mafia import kernel as K
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.board import load_map, pack_game
from analyzer.games.mafia.ruleset import RULES

RED, BLACK, ORANGE, GREEN, STATE = range(5)
PALERMO, BAGHERIA, TERMINI, CEFALU, SANT_AGATA, PATTI, MILAZZO, MESSINA, TAORMINA, ACIREALE, CATANIA, \
    AUGUSTA, SIRACUSA, NOTO, RAGUSA, GELA, LICATA, AGRIGENTO, SCIACCA, MAZARA, MARSALA, TRAPANI, \
    CALTAVUTURO, ENNA, CALTANISSETTA, CANICATTI = range(26)


def boss(f):
    return 3 * f


def picciotto(f, k=1):
    return 3 * f + k


CC1, CC2, CC3 = L.CC1, L.CC1 + 1, L.CC1 + 2
SISDE_RED = L.FIRST_SISDE  # clues of family f: FIRST_SISDE + 2f, + 2f + 1


class Table:
    """A game after setup (bases: red Palermo, black Catania, orange Palermo,
    green Catania unless given), every side scripted, under the box's rules or
    ``rules`` (a table of rule keys, as ``--rule`` gives them)."""

    def __init__(self, players=5, bases=(PALERMO, CATANIA, PALERMO, CATANIA), seed=0, board=None, rules=None):
        self.map = load_map(board)
        self.players = players
        self.rules = RULES.rules(rules or {})
        self.game = pack_game(self.map, players, [L.SCRIPTED] * L.N_SIDES, check=True, rules=self.rules)
        self.paths = self.map.path_table()
        self.s = np.zeros(L.S_LEN, np.int64)
        self.spaces = np.zeros((self.map.n_spaces, L.SP_LEN), np.int64)
        self.cards = np.zeros((64, L.CR_LEN), np.int64)
        self.trace = np.zeros(0, np.int64)
        K.start_game(self.game, self.s, seed, 0)
        opts = [[x for x in self.map.bases_of(f)] for f in range(4)]
        self.answers(*[opts[f].index(bases[f]) for f in range(4)])
        K.setup(self.game, self.s, self.spaces, self.trace)
        assert self.script_done()
        self.s[L.S_PASS] = 0

    # -------------------------------------------------------------- arranging
    def put(self, piece, where):
        self.s[L.S_LOC + piece] = where
        return self

    def where(self, piece):
        return int(self.s[L.S_LOC + piece])

    def box_all(self, box=L.CONTINENT, keep=()):
        """Every piece but ``keep`` into a box (out of the way)."""
        for p in range(L.N_PIECES):
            if p not in keep and self.s[L.S_LOC + p] >= 0:
                self.s[L.S_LOC + p] = box
        return self

    def mark(self, space, family, n):
        at = L.S_MARK + 4 * space + family
        self.s[L.S_SUPPLY + family] -= n - self.s[at]
        self.s[L.S_CONTROLLED + family] += int(n > 0) - int(self.s[at] > 0)  # the kernel's count
        self.s[at] = n
        return self

    def markers(self, space, family):
        return int(self.s[L.S_MARK + 4 * space + family])

    def supply(self, family):
        return int(self.s[L.S_SUPPLY + family])

    def give(self, side, *cards):
        for c in cards:
            self.s[L.S_HOLDER + c] = side
        return self

    def holder(self, card):
        return int(self.s[L.S_HOLDER + card])

    def hand(self, side):
        return [c for c in range(L.N_CARDS) if self.s[L.S_HOLDER + c] == side]

    def dice(self, *faces):
        self.s[L.S_DIE_N] = len(faces)
        self.s[L.S_DIE_I] = 0
        self.s[L.S_DIE_SCRIPT:L.S_DIE_SCRIPT + len(faces)] = faces
        return self

    def answers(self, *answers):
        self.s[L.S_SCRIPT_N] = len(answers)
        self.s[L.S_SCRIPT_I] = 0
        self.s[L.S_SCRIPT:L.S_SCRIPT + len(answers)] = answers
        return self

    def script_done(self):
        return self.s[L.S_SCRIPT_I] == self.s[L.S_SCRIPT_N] and self.s[L.S_DIE_I] == self.s[L.S_DIE_N]

    def counter(self, name):
        return int(self.s[L.S_GM + L.GM_COLUMNS.index(name)])

    def side_counter(self, side, name):
        return int(self.s[L.S_SD + side * L.SD_LEN + L.SD_COLUMNS.index(name)])

    def plays(self):
        """(side, card code) of every card play so far."""
        n = int(self.s[L.S_CARD_AT])
        return [(int(r[L.CR_SIDE]), int(r[L.CR_CARD])) for r in self.cards[:n]]

    # -------------------------------------------------------------- acting
    def resolve(self, piece, side=None):
        """(d) for ``piece`` standing where it is, as if it had just moved there,
        in the turn of ``side`` (default: its owner)."""
        self.s[L.S_SIDE] = (piece // 3 if piece < 12 else STATE) if side is None else side
        activities.resolve(self.game, self.s, self.spaces, self.cards, self.trace, piece)
        assert K.check_invariants(self.game, self.s)
        return self

    def turn(self, side):
        K.take_turn(self.game, self.s, self.paths, self.spaces, self.cards, self.trace, side)
        assert K.check_invariants(self.game, self.s)
        return self

    def move_option(self, side, d1, d2, *moves):
        """The kernel's option index of a move: ``moves`` is ((piece, end space, steps), ...)
        with one piece (steps = d1 + d2) or two (in resolution order)."""
        first, last = (L.PREFECT, L.N_PIECES) if side == STATE else (3 * side, 3 * side + 3)
        on_map = [p for p in range(first, last) if self.where(p) >= 0]

        def paths(p, steps):
            air = (p % 3 == 0 and p < 12 or p == L.PREFECT) and self.s[L.S_NO_AIR] == 0
            return [seq[-1] for seq, _ in self.map.paths_from(self.where(p), steps, air)]

        options = [((p, end, d1 + d2),) for p in on_map for end in paths(p, d1 + d2)]
        if len(on_map) >= 2:
            for a in on_map:
                for b in on_map:
                    if a == b:
                        continue
                    for x, y in ([(d1, d2), (d2, d1)] if d1 != d2 else [(d1, d2)]):
                        options += [((a, ea, x), (b, eb, y)) for ea in paths(a, x) for eb in paths(b, y)]
        return options.index(tuple(moves))
