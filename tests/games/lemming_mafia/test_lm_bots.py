"""The built-in bots: each heuristic beats the reference random bot, and no bot
decision depends on what its player cannot see (other players' hidden rows)."""
import functools
import inspect
import math
import re

import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S  # noqa: E402

from analyzer.engine.botspec import BotSpec  # noqa: E402
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
    # and the kernel calls it (and a user bot) with state, never with hidden
    src = inspect.getsource(kernel.ask.py_func)
    calls = re.findall(r"\b(?:decide_builtin|call_bot)\(([^)]*)\)", src)
    assert len(calls) == 2, src
    for args in calls:
        names = [a.strip() for a in args.split(",")]
        assert "state" in names and "hidden" not in names, args


KINDS = (bots.FAVOURITE, bots.TIMER, bots.CONTRACTOR, bots.RANDOM)
NAMES = {bots.RANDOM: "random", bots.FAVOURITE: "favourite", bots.TIMER: "timer",
         bots.CONTRACTOR: "contractor"}


def params_for(kinds):
    """Parameter rows of the seats, with the kernel's working row."""
    return S.with_work_row(np.stack([BUILTIN[NAMES[k]].param_row(BotSpec(NAMES[k])) for k in kinds]))


def random_row(rng, n_cards):
    """A valid own row: a hand, the rest of the cards stacked, three contracts,
    a random stream."""
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
    row[L.OWN_RNG] = rng.integers(-2**62, 2**62)
    return row


def own(hidden, seat):
    return hidden[seat * L.OWN_LEN:(seat + 1) * L.OWN_LEN]


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
    """Mid-race (state, hidden) snapshots of races of the heuristic bots."""
    r = S.Race(kinds=KINDS, params=params_for(KINDS)[:-1])
    out = []
    for i in range(n_races):
        r.start(555, i)
        seat, result = 0, rules.NO_WINNER
        while result == rules.NO_WINNER and r.state[L.PUB_TURN] < max(turns):
            result = r.step(seat)
            seat = (seat + 1) % len(KINDS)
            if result == rules.NO_WINNER and r.state[L.PUB_TURN] in turns:
                out.append((r.state.copy(), r.hidden.copy()))
    return r, out


def prepare(r, state, what):
    """The state of a decision: candidates (MOVE) or free fields (FIELD)."""
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


def ask(r, what, seat, state, hidden, params, n):
    """kernel.ask on copies: (answer, state, hidden, params) afterwards."""
    st, h, p = state.copy(), hidden.copy(), params.copy()
    answer = int(kernel.ask(what, seat, r.game, st, h, p, n))
    return answer, st, h, p


@pytest.fixture(scope="module")
def contexts():
    return decision_contexts()


@pytest.mark.parametrize("what", [L.DECIDE_MOVE, L.DECIDE_FIELD, L.DECIDE_BET, L.DECIDE_DISCARD])
def test_decisions_do_not_depend_on_other_players_hidden_rows(contexts, what):
    """kernel.ask for one seat: the same answer, the same view and the same draws
    whatever the other players hold; and decide_builtin, given only the state
    with the seat's own row in S_VIEW and the seat's parameter row, answers the
    same."""
    r, snaps = contexts
    assert len(snaps) >= 30
    params = params_for(KINDS)
    players = len(KINDS)
    rng = np.random.default_rng(8)
    n_cards = len(r.deck.cards)
    asked = sensitive = 0
    for state, hidden in snaps:
        base, n = prepare(r, state, what)
        if base is None:
            continue
        for seat in range(players):
            a, st_a, h_a, p_a = ask(r, what, seat, base, hidden, params, n)
            for _ in range(3):
                other = scramble_others(hidden, seat, players, n_cards, rng)
                assert np.array_equal(own(other, seat), own(hidden, seat))
                b, st_b, h_b, p_b = ask(r, what, seat, base, other, params, n)
                assert a == b, (what, seat)
                assert np.array_equal(st_a, st_b)  # the same view, the same draws
                assert np.array_equal(own(h_a, seat), own(h_b, seat))
                assert np.array_equal(p_a[seat], p_b[seat])
            asked += 1
            if KINDS[seat] == bots.RANDOM:
                continue
            # the bot was shown what it knows of its own row (as the kernel keeps
            # it after the decision: its stream advanced by the bot's draws)
            view = st_a[L.S_VIEW:L.S_VIEW + L.OWN_VIEW_LEN]
            mine = own(hidden, seat)
            assert np.array_equal(view, own(h_a, seat)[:L.OWN_VIEW_LEN])
            # decide_builtin answers from the state and the seat's own row alone
            st_c = base.copy()
            st_c[L.S_VIEW:L.S_VIEW + L.OWN_VIEW_LEN] = own(h_a, seat)[:L.OWN_VIEW_LEN]
            st_c[L.S_VIEW + L.OWN_RNG] = mine[L.OWN_RNG]  # the stream before its draws
            row = params[seat].copy()
            assert bots.decide_builtin(what, seat, KINDS[seat], r.game, st_c, row, n) == a
            # control: the bot's own cards do matter somewhere
            changed = hidden.copy()
            changed[seat * L.OWN_LEN:(seat + 1) * L.OWN_LEN] = random_row(rng, n_cards)
            changed[seat * L.OWN_LEN + L.OWN_RNG] = mine[L.OWN_RNG]
            if ask(r, what, seat, base, changed, params, n)[0] != a:
                sensitive += 1
    assert asked >= 30
    if what in (L.DECIDE_BET, L.DECIDE_DISCARD, L.DECIDE_MOVE):
        assert sensitive > 0, "no decision depended on the bot's own cards: the check is blind"


def test_the_view_holds_no_other_players_random_stream(contexts):
    """A bot's random choices come from its player's private stream: the view
    another bot is given must not contain it (else the other bot could replay
    them, e.g. a random opponent's face-down bets)."""
    r, snaps = contexts
    params = params_for(KINDS)
    players = len(KINDS)
    checked = 0
    for state, hidden in snaps:
        for seat in range(players):
            if KINDS[seat] == bots.RANDOM:
                continue
            streams = {int(own(hidden, j)[L.OWN_RNG]) for j in range(players) if j != seat}
            _, st, h, _ = ask(r, L.DECIDE_BET, seat, state, hidden, params, 0)
            streams |= {int(own(h, j)[L.OWN_RNG]) for j in range(players) if j != seat}
            assert not streams & set(int(x) for x in st), seat
            assert int(own(h, seat)[L.OWN_RNG]) in set(int(x) for x in st)  # its own: yes
            checked += 1
    assert checked >= 30


SPY = USER_KIND_BASE + 7  # a user bot kind of these tests' own


@functools.lru_cache(maxsize=None)
def spy_kind() -> int:
    """A user bot answering through this process's bot table
    (``engine/bot_table.py``), as a loaded user bot does: it first writes a
    checksum of the parameters it is handed into the bot scratch part of
    ``state``, then keeps its own face-down stack in its scratch (as a heuristic
    bot keeps values derived from it)."""
    from numba import carray, cfunc

    from analyzer.engine import bot_table

    scratch, bet, n_params = L.S_SCRATCH, L.DECIDE_BET, bots.N_PARAMS
    stack = L.S_VIEW + L.OWN_STACK
    dice = L.PUB_RNG

    @cfunc(bot_table.C_DECIDE)
    def spy(what, seat, kind, g, ng, s, ns, p, np_, n_options):
        state = carray(s, (ns,))
        params = carray(p, (np_,))
        total = 0.0
        for i in range(params.shape[0]):
            total += params[i] * (i + 1.0) * (i + 2.0)
        state[scratch] = np.int64(total * 1e6)
        state[scratch + 1] = state[dice]  # what it can see of the race's own stream
        for i in range(6):
            params[n_params + i] = state[stack + i]
        return -1 if what >= bet else 0

    bot_table.register(SPY, spy.address, spy)
    return SPY


def test_a_bot_is_not_handed_another_players_scratch():
    """A bot may keep values derived from its own cards in its scratch between
    decisions; what another bot is handed must not change with them."""
    r = S.Race(kinds=(spy_kind(), spy_kind(), 0, 0))
    params = S.with_work_row(np.zeros((4, bots.PARAMS_WIDTH)))
    seen = []
    for stack in ((S.BLUE, S.GREY, S.RED), (S.RED, S.GREY, S.BLUE)):  # seat 0's stack
        hidden = r.hidden.copy()
        hidden[L.OWN_HAND:L.OWN_HAND + 6] = 1
        for k, color in enumerate(stack):
            hidden[L.OWN_STACK + k] = color
            hidden[L.OWN_HAND + color] = 0
        hidden[L.OWN_STACK_N] = len(stack)
        st = r.state.copy()
        p = params.copy()
        kernel.ask(L.DECIDE_BET, 0, r.game, st, hidden, p, 0)  # seat 0 keeps its stack
        kept = p[0, bots.N_PARAMS:bots.N_PARAMS + 6].copy()
        kernel.ask(L.DECIDE_BET, 1, r.game, st, hidden, p, 0)  # what is seat 1 handed?
        seen.append((int(st[L.S_SCRATCH]), kept))
    # seat 0's scratch persisted and holds its stack: there is something to leak
    assert list(seen[0][1][:3]) == [S.BLUE, S.GREY, S.RED]
    assert list(seen[1][1][:3]) == [S.RED, S.GREY, S.BLUE]
    assert seen[0][0] == seen[1][0], "seat 1 was handed values derived from seat 0's stack"
    # control: the spy's checksum does see the parameters it is handed
    p = params.copy()
    p[1, 0] = 7.0
    st = r.state.copy()
    kernel.ask(L.DECIDE_BET, 1, r.game, st, r.hidden.copy(), p, 0)
    assert int(st[L.S_SCRATCH]) != seen[0][0]


def test_a_bot_cannot_see_the_dice_to_come():
    """The race's own stream (dice, deal, getaway rolls) is counter-based: whoever
    holds it can compute every roll to come. A bot deciding is shown it as 0,
    and the kernel has it back afterwards."""
    r = S.Race(kinds=(spy_kind(), 0, 0, 0))
    r.start(5, 3)
    params = S.with_work_row(np.zeros((4, bots.PARAMS_WIDTH)))
    st = r.state.copy()
    before = int(st[L.PUB_RNG])
    assert before != 0  # control: a seeded race has a stream to hide
    st[L.S_SCRATCH + 1] = 12345
    for what in (L.DECIDE_MOVE, L.DECIDE_BET, L.DECIDE_DISCARD):
        kernel.ask(what, 0, r.game, st, r.hidden.copy(), params.copy(), 2)
        assert int(st[L.S_SCRATCH + 1]) == 0, "the bot saw the race's stream"
        assert int(st[L.PUB_RNG]) == before


@pytest.mark.parametrize("n_sections", [13, L.WEIGHT_TABLE_PROGRESS - 2, 40])
def test_win_weight_is_the_exponential_of_the_value(n_sections):
    """A heuristic bot's win weight is exp(sharpness * (progress - block_weight *
    blocks)) at every position and block count, 0 once eliminated: from the table
    it builds once per board (boards of up to WEIGHT_TABLE_PROGRESS - 2 sections)
    or computed directly (larger boards)."""
    kinds = [bots.FAVOURITE] * 4
    r = S.Race([["empty", "concrete", "bookmaker"]] * n_sections, kinds=kinds,
               params=params_for(kinds))
    row = r.params[0].copy()
    sharpness, block_weight = row[bots.P_SHARPNESS], row[bots.P_BLOCK_WEIGHT]
    lem = S.GREEN
    checked = set()
    for pos in [-1, 0, 3, r.n_fields // 2, r.n_fields - 1, r.n_fields]:  # six sections apart
        progress = (0 if pos < 0 else n_sections + 1 if pos >= r.n_fields
                    else r.board.field_section[pos] + 1)
        for blocks in range(3):
            r.state[L.PUB_POS + lem] = pos
            r.state[L.PUB_BLOCKS + lem] = blocks
            want = math.exp(sharpness * (progress - block_weight * blocks))
            assert bots.win_weight(r.game, r.state, row, lem) == pytest.approx(want, rel=1e-14)
            checked.add(want)
    assert len(checked) == 6 * 3  # every position and block count weighs differently
    assert (row[L.TABLE_SECTIONS] == n_sections) == (n_sections + 2 <= L.WEIGHT_TABLE_PROGRESS)
    r.state[L.PUB_POS + lem] = L.ELIMINATED_POS
    r.state[L.PUB_BLOCKS + lem] = 3
    r.state[L.PUB_OUT + lem] = 1
    assert bots.win_weight(r.game, r.state, row, lem) == 0.0
