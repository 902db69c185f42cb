"""Helpers for the Sau Mau Mau tests: a table whose state is set by hand and
whose players answer from a script (bot kind SCRIPTED). No tests here."""
import numpy as np

from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau import kernel as K
from analyzer.games.sau_mau_mau import rules as R
from analyzer.engine.rng import seed_stream

PINK, BROWN, BLACK, BEIGE = range(4)


def card(kind, color=None, number=0):
    return L.card_id(kind, None if color is None else L.PIGS[color], number)


class Table:
    def __init__(self, players=3, crown=15, seed=0, kinds=None, check=True, params=None, rules=None):
        """``rules``: a table of rule values (ruleset.RULES' keys; None: the box's)."""
        kinds = [L.SCRIPTED] * players if kinds is None else kinds
        from analyzer.games.sau_mau_mau.ruleset import RULES

        self.game = K.pack_game(crown, kinds, check=check, rules=RULES.rules(rules or {}))
        self.params = K.new_params(players) if params is None else np.asarray(params, np.float64)
        self.state, self.hidden = K.new_arrays()
        seed_stream(self.hidden, L.H_RNG, seed, 0, 0)
        for seat in range(players):
            seed_stream(self.hidden, seat * L.OWN_LEN + L.OWN_RNG, seed, 0, 1 + seat)
        R.setup_race(self.game, self.state, self.hidden, 1)
        self.players = players

    # -------------------------------------------------------------- arranging
    def arrange(self, hands, top, pos=(0, 0, 0, 0), need=None, discard=(), first=False):
        """Hands as card-id lists, the top card (under it ``discard``), the rest
        in the draw pile (in id order; the last id is drawn first). The top card
        was played, or with ``first`` turned up to start the race (an X or +2
        there counts by its colour alone)."""
        s, h = self.state, self.hidden
        used = [c for hand in hands for c in hand] + list(discard) + [top]
        assert len(set(used)) == len(used)
        for seat, hand in enumerate(hands):
            at = seat * L.OWN_LEN
            h[at + L.OWN_HAND:at + L.OWN_HAND + L.N_CARDS] = 0
            h[at + L.OWN_HAND:at + L.OWN_HAND + len(hand)] = hand
            h[at + L.OWN_HAND_N] = len(hand)
            s[L.PUB_HAND_N + seat] = len(hand)
        pile = [c for c in range(L.N_CARDS) if c not in used]
        self.set_pile(pile)
        d = list(discard) + [top]
        h[L.H_DISCARD:L.H_DISCARD + L.N_CARDS] = 0
        h[L.H_DISCARD:L.H_DISCARD + len(d)] = d
        s[L.PUB_DISCARD_N] = len(d)
        s[L.PUB_TOP] = top
        s[L.PUB_NEED] = R.card_color(top) if need is None else need
        s[L.PUB_FACE] = R.card_number(top) if first else R.card_face(top)
        s[L.PUB_POS:L.PUB_POS + 4] = pos
        assert R.check_invariants(self.game, s, h)

    def set_pile(self, pile):
        self.hidden[L.H_PILE:L.H_PILE + L.N_CARDS] = 0
        self.hidden[L.H_PILE:L.H_PILE + len(pile)] = pile
        self.state[L.PUB_PILE_N] = len(pile)

    def script(self, *answers):
        h = self.hidden
        h[L.H_SCRIPT_I] = 0
        h[L.H_SCRIPT_N] = len(answers)
        h[L.H_SCRIPT:L.H_SCRIPT + len(answers)] = answers

    @property
    def unused_answers(self):
        return int(self.hidden[L.H_SCRIPT_N] - self.hidden[L.H_SCRIPT_I])

    # -------------------------------------------------------------- playing
    def turn(self):
        return K.one_turn(self.game, self.state, self.hidden, self.params)

    def options(self, seat):
        n = R.valid_options(self.state, self.hidden, seat, L.S_OPTIONS)
        return [int(c) for c in self.state[L.S_OPTIONS:L.S_OPTIONS + n]]

    def play(self, seat, c):
        """Script index of card ``c`` among the seat's valid cards."""
        return self.options(seat).index(c)

    # -------------------------------------------------------------- reading
    def hand(self, seat):
        at = seat * L.OWN_LEN
        return sorted(int(c) for c in self.hidden[at + L.OWN_HAND:at + L.OWN_HAND + self.hidden[at + L.OWN_HAND_N]])

    @property
    def pos(self):
        return [int(p) for p in self.state[L.PUB_POS:L.PUB_POS + 4]]

    @property
    def queue(self):
        """(seat, pig) in queue order."""
        n = self.state[L.PUB_QUEUE_N]
        return [(int(seat), int(self.hidden[seat * L.OWN_LEN + L.OWN_BET_PIG]))
                for seat in self.state[L.PUB_QUEUE:L.PUB_QUEUE + n]]

    def score(self, ends):
        race = np.zeros(L.RACE_LEN, np.int64)
        players = np.zeros((self.players, L.PL_LEN), np.int64)
        bets = np.zeros((self.players, L.BET_LEN), np.int64)
        R.score_race(self.game, self.state, self.hidden, ends, race, players, bets)
        return race, players, bets
