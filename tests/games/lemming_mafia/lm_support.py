"""Shared helpers of the Lemming Mafia tests (no tests in here).

Imported by the ``test_lm_*`` modules as ``import tests.games.lemming_mafia.lm_support as S``. It builds
``game`` / ``state`` / ``hidden`` arrays by hand, places lemmings, predicts the
race's random stream and steps races move by move with the jitted rule and
kernel functions, so that tests can check single rules without a whole race.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from analyzer.engine.rng import below, seed_stream
from analyzer.games.lemming_mafia import bots, kernel, rules
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.board import Board, Deck, load_setup, pack_game

HERE = Path(__file__).resolve().parent
TESTS = HERE.parents[1]
REFERENCE = TESTS / "reference" / "lemming_mafia_ref.py"
EXAMPLE_BOARD = TESTS / "reference" / "example_board.toml"

DEFAULT_BOARD, DEFAULT_DECK = load_setup(None)
C = {name: i for i, name in enumerate(L.COLORS)}
BLUE, GREY, GREEN, PURPLE, PINK, RED = range(6)


def load_reference():
    """The independent reference implementation, imported from its file."""
    name = "lm_reference_impl"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REFERENCE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def make_board(sections, name="test-board") -> Board:
    return Board(name, tuple(tuple(s) for s in sections), False, name)


def card_index(kind: str, colors=(), deck: Deck = DEFAULT_DECK) -> int:
    """Index of the first card of that kind and colours in the deck."""
    for i, (k, cs, _) in enumerate(deck.cards):
        if k == kind and tuple(cs) == tuple(colors):
            return i
    raise KeyError((kind, colors))


def deck_toml(deck: Deck = DEFAULT_DECK) -> str:
    out = []
    for kind, colors, points in deck.cards:
        cs = ", ".join(f'"{c}"' for c in colors)
        out.append(f'[[contracts]]\nkind = "{kind}"\ncolors = [{cs}]\npoints = {points}\n')
    return "\n".join(out)


def board_toml(sections, name="test-board", with_deck=True) -> str:
    rows = ",\n".join("  [" + ", ".join(f'"{a}"' for a in s) + "]" for s in sections)
    text = f'[board]\nname = "{name}"\nsections = [\n{rows},\n]\n'
    if with_deck:
        text += "\n" + deck_toml()
    return text


def seed_dice(state, seed, index):
    """The race's own stream (dice, deal, getaway rolls) as kernel.play_race seeds it."""
    seed_stream(state, L.PUB_RNG, seed, index, 0)


def seed_seats(hidden, seed, index, players):
    """Each player's private stream (its bot's random choices), kept in its own
    hidden row, as kernel.play_race seeds them after the deal."""
    for seat in range(players):
        seed_stream(hidden, seat * L.OWN_LEN + L.OWN_RNG, seed, index, 1 + seat)


def start_race(game, state, hidden, seed, index, players):
    """What kernel.play_race does before the first move of race ``index``."""
    seed_dice(state, seed, index)
    rules.deal(game, state, hidden)
    seed_seats(hidden, seed, index, players)


def with_work_row(params):
    """``params`` as the kernel holds it: one row per seat, then the working row
    that kernel.ask hands the deciding bot."""
    params = np.asarray(params, np.float64)
    return np.vstack([params, np.zeros((1, params.shape[1]))])


def peek_draws(state, *ns):
    """The next draws ``below(n)`` of the race's stream, without advancing it."""
    tmp = state.copy()
    return [int(below(tmp, L.PUB_RNG, n)) for n in ns]


class Race:
    """A hand-built race: ``game``, ``state``, ``hidden`` and ``params``.

    ``sections=None`` uses the assumed default board; ``kinds`` are the bot ids of
    the seats (random by default); ``params`` one row per seat (the kernel's
    working row is added). The race is dealt as race 0 of ``seed``,
    so every lemming starts in the start area and every player holds six bet cards
    and three contracts.
    """

    def __init__(self, sections=None, kinds=(0, 0, 0, 0), seed=0, deck=None, params=None, variant=None):
        self.board = DEFAULT_BOARD if sections is None else make_board(sections)
        self.deck = deck or DEFAULT_DECK
        # variant: the rules played (ruleset.RULES' values; None: the box's)
        self.game = pack_game(self.board, self.deck, list(kinds), variant)
        self.players = len(kinds)
        self.state, self.hidden = rules.new_arrays(self.game)
        self.params = with_work_row(np.zeros((self.players, bots.PARAMS_WIDTH)) if params is None
                                    else params)
        self.start(seed)

    # ---------------------------------------------------------------- views
    @property
    def n_fields(self) -> int:
        return self.board.n_fields

    def pos(self, lem) -> int:
        return int(self.state[L.PUB_POS + lem])

    def blocks(self, lem) -> int:
        return int(self.state[L.PUB_BLOCKS + lem])

    def out(self, lem) -> int:
        return int(self.state[L.PUB_OUT + lem])

    def occupant(self, field) -> int:
        return int(self.state[L.S_OCCUPANT + field])

    def n_elim(self) -> int:
        return int(self.state[L.PUB_N_ELIM])

    def own(self, seat) -> np.ndarray:
        return self.hidden[seat * L.OWN_LEN:(seat + 1) * L.OWN_LEN]

    # ------------------------------------------------------------- scripting
    def start(self, seed, index=0):
        """Deal race ``index`` of ``seed`` as kernel.play_race does."""
        start_race(self.game, self.state, self.hidden, seed, index, self.players)

    def reseed(self, seed, index=0):
        """New random streams (dice and players'), the race left as it is."""
        seed_dice(self.state, seed, index)
        seed_seats(self.hidden, seed, index, self.players)

    def put(self, lem, field, blocks=None):
        """Stand ``lem`` on ``field`` (-1: back in the start area)."""
        old = self.pos(lem)
        if 0 <= old < self.n_fields:
            self.state[L.S_OCCUPANT + old] = -1
            self.state[self._mask_at(old)] &= ~self._bit(old)
        if field >= 0:
            assert self.occupant(field) < 0, f"field {field} is taken"
            self.state[L.S_OCCUPANT + field] = lem
            self.state[self._mask_at(field)] |= self._bit(field)
        self.state[L.PUB_POS + lem] = field
        if blocks is not None:
            self.state[L.PUB_BLOCKS + lem] = blocks

    def _mask_at(self, field) -> int:
        """Where the occupancy mask of ``field``'s section is in ``state`` (layout.py)."""
        return int(self.game[L.G_S_SECTIONS_AT] + 1 + self.board.field_section[field])

    def _bit(self, field) -> int:
        return 1 << int(field - self.board.section_start[self.board.field_section[field]])

    def eliminate(self, lem) -> int:
        """Blocks until ``lem`` is out (rules.give_block); its return value."""
        last = rules.NO_WINNER
        while self.out(lem) == 0:
            last = rules.give_block(self.game, self.state, lem)
        return int(last)

    def set_contracts(self, seat, cards, held=(1, 1, 1)):
        at = seat * L.OWN_LEN
        for slot, (card, h) in enumerate(zip(cards, held)):
            self.hidden[at + L.OWN_CONTRACT + slot] = card
            self.hidden[at + L.OWN_HELD + slot] = h
        self.state[L.PUB_HELD_COUNT + seat] = sum(held)

    def discard_all(self, seat):
        self.set_contracts(seat, self.own(seat)[L.OWN_CONTRACT:L.OWN_CONTRACT + 3].copy(), (0, 0, 0))

    def bet(self, seat, *colors):
        for color in colors:
            rules.place_bet(self.game, self.state, self.hidden, seat, color)

    def move(self, lem, mover=0) -> int:
        """kernel.move_lemming for ``lem`` with ``mover`` deciding the field."""
        self.state[L.PUB_MOVER] = mover
        return int(kernel.move_lemming(self.game, self.state, self.hidden, self.params, lem))

    def candidates(self, face1, face2) -> list[int]:
        n = rules.dice_candidates(self.state, face1, face2, L.S_OPTIONS)
        return [int(x) for x in self.state[L.S_OPTIONS:L.S_OPTIONS + n]]

    def score(self, winner):
        """rules.score_race: (race_row, player_rows, contract_rows, bet_rows)."""
        p = self.players
        race = np.zeros(L.RACE_LEN, np.int64)
        players = np.zeros((p, L.PL_LEN), np.int64)
        contracts = np.zeros((p, int(self.game[L.G_CONTRACTS_DEALT]), L.CT_LEN), np.int64)
        bets_ = np.zeros((p, L.N_LEMMINGS, L.BET_LEN), np.int64)
        rules.score_race(self.game, self.state, self.hidden, winner, race, players, contracts, bets_, True)
        return race, players, contracts, bets_

    def places(self) -> list[int]:
        return [int(rules.track_place(self.state, lem)) for lem in range(L.N_LEMMINGS)]

    # ------------------------------------------------------------- stepping
    def step(self, seat):
        """One turn as kernel.play_race plays it; returns move_lemming's result."""
        self.state[L.PUB_TURN] += 1
        self.state[L.PUB_MOVER] = seat
        n = int(rules.roll_candidates(self.state, L.S_OPTIONS))
        pick = 0
        if n > 1:
            pick = int(kernel.ask(L.DECIDE_MOVE, seat, self.game, self.state, self.hidden,
                                  self.params, n))
            assert 0 <= pick < n
        lem = int(self.state[L.S_OPTIONS + pick])
        return int(kernel.move_lemming(self.game, self.state, self.hidden, self.params, lem))

    def check_consistent(self):
        """Public state, occupancy and cards agree; two lemmings never share a field."""
        nf = self.n_fields
        occ = self.state[L.S_OCCUPANT:L.S_OCCUPANT + nf]
        on_field = [self.pos(lem) for lem in range(6) if 0 <= self.pos(lem) < nf]
        assert len(on_field) == len(set(on_field)), f"two lemmings share a field: {on_field}"
        for f in range(nf):
            o = int(occ[f])
            if o >= 0:
                assert self.pos(o) == f, (f, o, self.pos(o))
            else:
                assert o == -1
        masks = self.state[self.game[L.G_S_SECTIONS_AT]:][:len(self.board.sections) + 2]
        expected = np.zeros_like(masks)
        for f in range(nf):
            if occ[f] >= 0:
                expected[self._mask_at(f) - self.game[L.G_S_SECTIONS_AT]] |= self._bit(f)
        assert masks.tolist() == expected.tolist(), "section masks disagree with the occupants"
        for lem in range(6):
            p = self.pos(lem)
            if self.out(lem):
                assert p == L.ELIMINATED_POS and self.blocks(lem) == 3
            else:
                assert p == L.START or 0 <= p <= nf
                assert 0 <= self.blocks(lem) <= 2
                if 0 <= p < nf:
                    assert occ[p] == lem
        outs = sorted(self.out(lem) for lem in range(6) if self.out(lem))
        assert outs == list(range(1, self.n_elim() + 1))
        for seat in range(self.players):
            own = self.own(seat)
            hand = own[L.OWN_HAND:L.OWN_HAND + 6]
            n_stack = int(own[L.OWN_STACK_N])
            stack = list(own[L.OWN_STACK:L.OWN_STACK + n_stack])
            assert len(set(stack)) == n_stack
            assert all(hand[c] == 0 for c in stack)
            assert int(hand.sum()) + n_stack == 6
            assert self.state[L.PUB_HAND_COUNT + seat] == hand.sum()
            assert self.state[L.PUB_STACK_COUNT + seat] == n_stack
            assert self.state[L.PUB_HELD_COUNT + seat] == own[L.OWN_HELD:L.OWN_HELD + 3].sum()


# the two-sample tests of the cross-checks, shared by every game
from tests.stat_support import chi2_homogeneity, chi2_sf, z_means, z_props  # noqa: E402,F401
