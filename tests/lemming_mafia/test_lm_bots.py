"""The built-in bots: each heuristic beats the reference random bot, and no bot
decision depends on what its player cannot see (other players' hidden rows)."""
import inspect
import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_lm_support as S  # noqa: E402

from analyzer.engine.botspec import BotSpec  # noqa: E402
from analyzer.engine.rng import below  # noqa: E402
from analyzer.errors import BotError  # noqa: E402
from analyzer.games.lemming_mafia import bots, kernel, rules  # noqa: E402
from analyzer.games.lemming_mafia import layout as L  # noqa: E402
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch  # noqa: E402
from analyzer.games.lemming_mafia.registry import BUILTIN, USER_KIND_BASE  # noqa: E402

HEURISTICS = ["favourite", "timer", "contractor"]
RACES = 20_000


# ------------------------------------------------------------ strength

@pytest.mark.parametrize("bot", HEURISTICS)
def test_heuristic_beats_three_random_bots(bot):
    match = LemmingMafiaMatch(None, 4, [BotSpec(bot)] + [BotSpec("random")] * 3)
    c = match.play(31337, 0, RACES).view()
    won = np.asarray(c.players[:, :, L.PL_WON], np.float64)
    p = won[:, 0].mean()
    se = np.sqrt(p * (1 - p) / RACES)
    assert (p - 0.25) / se > 10, f"{bot}: win rate {p:.4f} (se {se:.4f})"
    # and it does so by scoring more than each random seat
    score = np.asarray(c.players[:, :, L.PL_SCORE], np.float64)
    for seat in (1, 2, 3):
        d = score[:, 0] - score[:, seat]
        assert d.mean() / (d.std(ddof=1) / np.sqrt(RACES)) > 10, (bot, seat)


def test_random_bots_are_even_across_seats():
    """Control: four random bots win about equally often (shared wins count
    for each, so the rates sum to a little over 1)."""
    match = LemmingMafiaMatch(None, 4, [BotSpec("random")] * 4)
    c = match.play(31337, 0, RACES).view()
    won = np.asarray(c.players[:, :, L.PL_WON], np.float64)
    mean = won.mean()
    for seat in range(4):
        p = won[:, seat].mean()
        assert abs(p - mean) / np.sqrt(mean * (1 - mean) / RACES) < 4, (seat, p)


def test_bot_parameters_reach_the_kernel():
    fam = BUILTIN["timer"]
    row = fam.param_row(BotSpec("timer", (("late_bets", 5.0),)))
    assert row[bots.P_LATE_BETS] == 5.0
    assert row[bots.P_BLOCK_WEIGHT] == fam.defaults()["block_weight"]
    with pytest.raises(BotError):
        fam.param_row(BotSpec("timer", (("push", 1.0),)))  # a favourite parameter
    # a timer that holds every card back until the end bets later than the default
    late = LemmingMafiaMatch(None, 4, [BotSpec("timer", (("late_bets", 6.0), ("urgency", 1.0)))]
                             + [BotSpec("random")] * 3)
    base = LemmingMafiaMatch(None, 4, [BotSpec("timer")] + [BotSpec("random")] * 3)
    turn = []
    for m in (late, base):
        c = m.play(5, 0, 3000).view()
        b = np.asarray(c.bets[:, 0, :, :], np.int64)
        placed = b[:, :, L.BET_COLOR] >= 0
        turn.append((b[:, :, L.BET_TURN] - np.asarray(c.races[:, L.RACE_TURNS])[:, None])[placed].mean())
    assert turn[0] > turn[1] + 1


# ------------------------------------------------------- hidden information

def test_bots_are_given_state_not_hidden():
    """decide takes (what, seat, kind, game, state, params, n_options): no hidden."""
    names = list(inspect.signature(bots.decide_builtin.py_func).parameters)
    assert names == ["what", "seat", "kind", "game", "state", "params", "n_options"]
    # and the kernel calls it with state, never with hidden
    src = inspect.getsource(kernel.ask.py_func)
    calls = re.findall(r"\bdecide\(([^)]*)\)", src)
    assert calls, src
    for args in calls:
        names = [a.strip() for a in args.split(",")]
        assert "state" in names and "hidden" not in names, args


KINDS = (bots.FAVOURITE, bots.TIMER, bots.CONTRACTOR, bots.RANDOM)
NAMES = {bots.RANDOM: "random", bots.FAVOURITE: "favourite", bots.TIMER: "timer",
         bots.CONTRACTOR: "contractor"}


def params_for(kinds):
    return np.stack([BUILTIN[NAMES[k]].param_row(BotSpec(NAMES[k])) for k in kinds])


def random_row(rng, n_cards):
    """A valid own row: a hand, the rest of the cards stacked, three contracts."""
    row = np.zeros(L.OWN_LEN, np.int64)
    order = rng.permutation(6)
    n_stack = rng.integers(0, 7)
    row[L.OWN_HAND:L.OWN_HAND + 6] = 1
    for k, color in enumerate(order[:n_stack]):
        row[L.OWN_STACK + k] = color
        row[L.OWN_HAND + color] = 0
        row[L.OWN_STACK_TURN + k] = k + 1
        row[L.OWN_STACK_PLACE + k] = rng.integers(1, 7)
    row[L.OWN_STACK_N] = n_stack
    row[L.OWN_CONTRACT:L.OWN_CONTRACT + 3] = rng.choice(n_cards, 3, replace=False)
    row[L.OWN_HELD:L.OWN_HELD + 3] = rng.integers(0, 2, 3)
    return row


def scramble_others(hidden, seat, players, n_cards, rng):
    """Other players' rows replaced by random valid ones; the rest of the
    kernel's private part (discard turns, answers, deck order) randomised too."""
    out = hidden.copy()
    for other in range(players):
        if other != seat:
            out[other * L.OWN_LEN:(other + 1) * L.OWN_LEN] = random_row(rng, n_cards)
    rest = players * L.OWN_LEN
    out[rest:] = rng.integers(0, 30, len(out) - rest)
    return out


def decision_contexts(n_races=12, turns=(3, 9, 16, 24)):
    """Mid-race (game, state, hidden) snapshots of a race of heuristic bots."""
    r = S.Race(kinds=KINDS, params=params_for(KINDS))
    out = []
    for i in range(n_races):
        S.seed_race(r.state, 555, i, len(KINDS))
        rules.deal(r.game, r.state, r.hidden)
        seat, result = 0, rules.NO_WINNER
        while result == rules.NO_WINNER and r.state[L.PUB_TURN] < max(turns):
            result = r.step(seat)
            seat = (seat + 1) % len(KINDS)
            if result == rules.NO_WINNER and r.state[L.PUB_TURN] in turns:
                out.append((r.state.copy(), r.hidden.copy()))
    return r, out


def prepare(r, state, what):
    """Options for a decision: candidates (MOVE) or free fields (FIELD)."""
    st = state.copy()
    if what == L.DECIDE_MOVE:
        alive = [lem for lem in range(6) if st[L.PUB_OUT + lem] == 0]
        st[L.S_OPTIONS:L.S_OPTIONS + 3] = (alive * 3)[:3]
        return st, min(3, len(alive))
    if what == L.DECIDE_FIELD:
        for lem in range(6):
            if st[L.PUB_OUT + lem] == 0:
                n = rules.target_fields(r.game, st, lem, L.S_OPTIONS)
                if n > 1:
                    st[L.PUB_MOVING] = lem
                    return st, int(n)
        return None, 0
    return st, 0


@pytest.fixture(scope="module")
def contexts():
    return decision_contexts()


@pytest.mark.parametrize("what", [L.DECIDE_MOVE, L.DECIDE_FIELD, L.DECIDE_BET, L.DECIDE_DISCARD])
def test_decisions_do_not_depend_on_other_players_hidden_rows(contexts, what):
    r, snaps = contexts
    assert len(snaps) >= 30
    params = params_for(KINDS)
    rng = np.random.default_rng(8)
    n_cards = len(r.deck.cards)
    asked = sensitive = 0
    for state, hidden in snaps:
        base, n = prepare(r, state, what)
        if base is None:
            continue
        for seat in range(len(KINDS)):
            st_a = base.copy()
            a = kernel.ask(what, seat, r.game, st_a, hidden, params.copy(), n)
            for _ in range(3):
                other = scramble_others(hidden, seat, len(KINDS), n_cards, rng)
                assert np.array_equal(other[seat * L.OWN_LEN:(seat + 1) * L.OWN_LEN],
                                      hidden[seat * L.OWN_LEN:(seat + 1) * L.OWN_LEN])
                st_b = base.copy()
                b = kernel.ask(what, seat, r.game, st_b, other, params.copy(), n)
                assert a == b, (what, seat)
                # the same view, the same draws from the seat's stream
                assert np.array_equal(st_a, st_b)
            asked += 1
            if KINDS[seat] == bots.RANDOM:
                continue
            # the bot was shown its own row, and decide_builtin answers from state alone
            view = st_a[L.S_VIEW:L.S_VIEW + L.OWN_LEN]
            assert np.array_equal(view, hidden[seat * L.OWN_LEN:(seat + 1) * L.OWN_LEN])
            st_c = base.copy()
            st_c[L.S_VIEW:L.S_VIEW + L.OWN_LEN] = view
            assert bots.decide_builtin(what, seat, KINDS[seat], r.game, st_c, params.copy(), n) == a
            # control: the bot's own row does matter somewhere
            mine = hidden.copy()
            mine[seat * L.OWN_LEN:(seat + 1) * L.OWN_LEN] = random_row(rng, n_cards)
            st_d = base.copy()
            if kernel.ask(what, seat, r.game, st_d, mine, params.copy(), n) != a:
                sensitive += 1
    assert asked >= 30
    if what in (L.DECIDE_BET, L.DECIDE_DISCARD, L.DECIDE_MOVE):
        assert sensitive > 0, "no decision depended on the bot's own cards: the check is blind"


# ------------------------------------------------ the private random streams

def spying_kernel():
    """The kernel module compiled around a user ``decide`` (as
    ``kernel.with_decide`` does) whose bet decision copies what it is shown of
    every seat's random stream into the bot scratch part of ``state``."""
    from numba import njit

    seat_rng, scratch, bet = L.PUB_SEAT_RNG, L.S_SCRATCH, L.DECIDE_BET

    @njit(nogil=True)
    def spy(what, seat, kind, game, state, params, n_options):
        if what == bet:
            for j in range(6):
                state[scratch + j] = state[seat_rng + j]
        return -1 if what >= bet else 0

    namespace = {"__name__": "lm_spying_kernel", "__file__": kernel.__file__, "_USER_DECIDE": spy}
    exec(compile(Path(kernel.__file__).read_text(), kernel.__file__, "exec"), namespace)
    return namespace


@pytest.mark.skipif(not hasattr(L, "PUB_SEAT_RNG"), reason="no per-seat streams")
def test_ENGINE_BUG_bots_see_other_players_random_streams():
    """ENGINE BUG (hidden information): every seat's private random stream
    (``PUB_SEAT_RNG + seat``) is part of the ``state`` that every bot is given.
    A user bot that copies those slots during its own bet decision can replay a
    random opponent's draws and reconstruct its face-down bet stack exactly.
    A player's own stream belongs in ``hidden`` and in the view only during that
    player's own decisions (as its own row is)."""
    ns = spying_kernel()
    players = 4
    r = S.Race(kinds=(USER_KIND_BASE, 0, 0, 0))  # seat 0: the user bot
    exact = total = 0
    for race_index in range(60):
        S.seed_race(r.state, 99, race_index, players)
        rules.deal(r.game, r.state, r.hidden)
        model = {seat: list(range(6)) for seat in (1, 2, 3)}  # the spy's idea of their hands
        stacks = {seat: [] for seat in (1, 2, 3)}
        for _ in range(6):  # six bookmaker rounds
            hands = r.state[L.PUB_HAND_COUNT:L.PUB_HAND_COUNT + players].copy()  # public
            r.state[L.S_SCRATCH:L.S_SCRATCH + 6] = 0
            ns["betting_round"](r.game, r.state, r.hidden, r.params)
            seen = r.state[L.S_SCRATCH:L.S_SCRATCH + 6].copy()  # what the spy was shown
            for seat in (1, 2, 3):
                buf = seen.copy()
                n_hand = int(hands[seat])
                if n_hand == 0 or below(buf, seat, 2) == 0:
                    continue
                stacks[seat].append(model[seat].pop(int(below(buf, seat, n_hand))))
        for seat in (1, 2, 3):
            own = r.own(seat)
            actual = list(own[L.OWN_STACK:L.OWN_STACK + int(own[L.OWN_STACK_N])])
            total += 1
            exact += stacks[seat] == actual
    # with nothing to go on, a whole stack of random cards in placing order is
    # guessed right rarely (about 1 in 64 stacks is empty, the easy case)
    assert exact / total < 0.5, (
        f"a bot reconstructed {exact} of {total} random opponents' hidden bet stacks "
        "exactly from what it was shown")


def test_ENGINE_BUG_params_scratch_keeps_a_players_hidden_stack():
    """ENGINE BUG (hidden information): a heuristic bot's move decision leaves
    values derived from its own face-down stack in ``params[seat, N_PARAMS:]``
    (SC_STAKE: its bet points per lemming; SC_FAVOURITE), and the kernel hands
    the whole ``params`` array to every other seat's ``decide``
    (kernel.ask -> ``decide(..., state, params, ...)``). A user bot deciding next
    reads another player's stack from it. Scratch should be per decision (cleared
    after it) or each bot should get only its own row."""
    kinds = (bots.TIMER, USER_KIND_BASE, 0, 0)
    r = S.Race(kinds=kinds)
    params = params_for((bots.TIMER, 0, 0, 0))
    left = []
    for stack in ((S.BLUE, S.GREY, S.RED), (S.RED, S.GREY, S.BLUE)):  # same hand, other order
        hidden = r.hidden.copy()
        at = 0
        hidden[at + L.OWN_HAND:at + L.OWN_HAND + 6] = 1
        for k, color in enumerate(stack):
            hidden[at + L.OWN_STACK + k] = color
            hidden[at + L.OWN_HAND + color] = 0
        hidden[at + L.OWN_STACK_N] = len(stack)
        st = r.state.copy()
        st[L.S_OPTIONS:L.S_OPTIONS + 2] = (S.GREEN, S.PINK)
        p = params.copy()
        kernel.ask(L.DECIDE_MOVE, 0, r.game, st, hidden, p, 2)
        left.append(p.copy())  # what the next bot to decide is handed
    assert np.array_equal(left[0], left[1]), (
        "after the seat-0 bot's move decision, params[0, N_PARAMS:] differs with the order of its "
        f"face-down stack: {left[0][0, bots.N_PARAMS:bots.N_PARAMS + 6]} vs "
        f"{left[1][0, bots.N_PARAMS:bots.N_PARAMS + 6]}")
