"""The game-flow counters (engine/flow.py) on hand-played standings, against a
plain-Python recomputation, and their summary (stats/flow.py)."""
import numpy as np
import pandas as pd
import pytest

from analyzer.engine.flow import NO_LEADER, flow_counters, note_leader, one_bit, sole_leader
from analyzer.stats.flow import FlowStats


def counters(leaders, winner, cap=None):
    """The kernel's counters of a game whose leader after each step is ``leaders``."""
    cap = len(leaders) if cap is None else cap
    history = np.full(3 + cap, 99, np.int64)  # the region starts at 3: the slots before stay untouched
    for step, leader in enumerate(leaders, 1):
        note_leader(history, 3, cap, step, leader)
    assert (history[:3] == 99).all()
    changes, decided, comeback = flow_counters(history, 3, cap, len(leaders), winner)
    return int(changes), int(decided), bool(comeback)


def reference(leaders, winner):
    """The definitions of the module docstring, written out plainly."""
    holders, held = [], NO_LEADER
    for x in leaders:
        held = x if x != NO_LEADER else held
        holders.append(held)
    known = [h for h in holders if h != NO_LEADER]
    changes = sum(1 for a, b in zip(known, known[1:]) if a != b)
    if winner < 0:
        return changes, -1, False
    decided = min(s for s in range(len(holders) + 1) if all(h == winner for h in holders[s:]))
    half = len(leaders) // 2
    return changes, decided, half > 0 and holders[half - 1] != winner


def test_a_hand_played_game():
    # after each of 10 steps: nobody (a tie), A, A, B, a tie, B, A, C, C, C; C wins
    a, b, c, tie = 0, 1, 2, NO_LEADER
    leaders = [tie, a, a, b, tie, b, a, c, c, c]
    # the lead passes A->B (step 4), B->A (step 7), A->C (step 8); the tie at step 5 leaves it with B
    # C holds it for good after 7 steps; B held it after step 5 (the half): a comeback
    assert counters(leaders, c) == (3, 7, True)
    # B as the winner: it held the lead at the half, not at the end (decided only after the last step)
    assert counters(leaders, b) == (3, 10, False)


def test_ties_and_the_winner_leading_throughout():
    assert counters([0, 0, 0, 0], 0) == (0, 0, False)
    assert counters([NO_LEADER, NO_LEADER, 1, 1], 1) == (0, 2, True)  # nobody held the lead at the half
    assert counters([1, NO_LEADER, 1, 1], 1) == (0, 0, False)  # a tie leaves the lead with 1 throughout
    assert counters([1, NO_LEADER, 2, 2], 2) == (1, 2, True)
    assert counters([3], 3) == (0, 0, False)  # one step: no half to be behind at


def test_no_single_winner_has_no_decision_and_no_comeback():
    assert counters([0, 1, 0, 1], -1) == (3, -1, False)


def test_steps_past_the_cap_are_not_noted():
    # a cap of 3 slots for 5 steps: only the first three leaders are kept
    assert counters([0, 1, 1, 0, 0], 1, cap=3)[0] == 1


def test_against_the_plain_definitions_on_random_games():
    rng = np.random.default_rng(35)
    for _ in range(400):
        n = int(rng.integers(1, 25))
        sides = int(rng.integers(1, 4))
        leaders = [int(x) for x in rng.integers(-1, sides, n)]
        winner = int(rng.integers(-1, sides))
        assert counters(leaders, winner) == reference(leaders, winner), (leaders, winner)


def test_sole_leader_and_one_bit():
    assert sole_leader(np.array([9, 3, 5, 7], np.int64), 1, 3) == 2
    assert sole_leader(np.array([9, 7, 5, 7], np.int64), 1, 3) == NO_LEADER
    assert sole_leader(np.array([-4, -2, -3], np.int64), 0, 3) == 1
    assert [one_bit(m) for m in (1, 2, 4, 8)] == [0, 1, 2, 3]


def flow_table(changes, decided, comeback, turns):
    return pd.DataFrame({"lead_changes": changes, "decided_after": pd.array(decided, dtype="Int32"),
                         "comeback": comeback, "turns": turns})


def test_summary_of_a_hand_table_whole_and_in_chunks():
    df = flow_table([0, 2, 5, 1], [0, None, 30, 5], [False, False, True, False], [10, 20, 40, 10])
    whole = FlowStats()
    whole.add(df)
    res = whole.result().set_index("metric")
    assert res.loc["lead_changes", "value"] == pytest.approx(2.0)
    assert res.loc["no_lead_change", "value"] == pytest.approx(0.25)
    assert res.loc["decided_share", ["value", "n"]].tolist() == pytest.approx([(0 + 75 + 50) / 300, 3])
    assert res.loc["comeback", "value"] == pytest.approx(1 / 3)
    assert res.loc["no_single_winner", "value"] == pytest.approx(0.25)
    assert res.loc["length", "value"] == pytest.approx(20)
    parts = FlowStats(), FlowStats()
    parts[0].add(df.iloc[:1])
    parts[1].add(df.iloc[1:])
    pd.testing.assert_frame_equal(parts[0].merge(parts[1]).result(), whole.result())
