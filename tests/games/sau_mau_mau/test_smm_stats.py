"""Sau Mau Mau's balance statistics against values computed by hand on small
fixed tables, chunked and merged aggregation against whole-table aggregation,
and the HTML report from synthetic tables."""
import re

import numpy as np
import pandas as pd
import pytest

from analyzer.report import write_report
from analyzer.report.figures import render_all
from analyzer.games.sau_mau_mau.report import FIGURES, answers, key_tables, overview
from analyzer.stats.intervals import Z95, clustered_rate, mean_ci, paired_diff_ci, wilson
from analyzer.games.sau_mau_mau.stats import COLUMNS, TABLE_DOCS, SauMauMauStats, expected_rows
from tests.games.lemming_mafia.test_lm_stats import assert_results_equal, ov, row, split

PIGS = ["pink", "brown", "black", "beige"]
ENDS = ["crown", "hand", "cap"]
WINNING = ["" if m == 0 else ",".join(p for i, p in enumerate(PIGS) if m >> i & 1) for m in range(16)]
BOTS = ["smart", "random"]


def cat(values, categories):
    return pd.Categorical(values, categories=categories)


# ---------------------------------------------------------------------- hand tables

# two games, three players: "smart" in seat 1, "random" in seats 2 and 3.
# per race: first seat, turns, end, both ends, winning pigs, ender seat, crown pig
RACES = [
    (1, 10, "crown", False, "pink", 1, "pink"),
    (2, 20, "hand", False, "pink,black", 3, ""),
    (3, 30, "crown", True, "brown", 3, "brown"),
    (1, 20, "crown", False, "black", 2, "black"),
    (1, 15, "hand", False, "beige", 1, ""),
    (2, 25, "crown", False, "pink", 2, "pink"),
    (3, 10, "cap", False, "brown,black", 0, ""),
    (1, 40, "crown", False, "pink", 3, "pink"),
]
# per race, per seat: (bet, crown, hand) points
POINTS = [
    [(6, 3, 0), (0, 0, 0), (4, 0, 0)],
    [(0, 0, 0), (6, 0, 0), (4, 0, 5)],
    [(0, 0, 0), (0, 0, 0), (0, 3, 5)],
    [(0, 0, 0), (6, 3, 0), (0, 0, 0)],
    [(0, 0, 5), (6, 0, 0), (0, 0, 0)],
    [(4, 0, 0), (6, 3, 0), (0, 0, 0)],
    [(6, 0, 0), (4, 0, 0), (0, 0, 0)],
    [(4, 0, 0), (0, 0, 0), (0, 3, 0)],
]
# final spaces of the pigs, per race
SPACES = [[15, 3, 7, 2], [9, 4, 9, 1], [5, 15, 2, 8], [1, 2, 16, 3],
          [6, 6, 6, 6], [15, 0, 0, 0], [3, 8, 8, 1], [17, 5, 5, 5]]
# bets: bot, queue position, turn placed, race turns, changed, points, won
BETS = [
    ("smart", 1, 1, 10, False, 6, True),
    ("random", 2, 5, 10, False, 4, True),
    ("random", 3, 10, 10, True, 0, False),
    ("smart", 1, 3, 20, False, 0, False),
    ("random", 2, 12, 20, True, 6, True),
    ("random", 1, 2, 30, False, 6, True),
    ("smart", 2, 29, 30, True, 0, False),
    ("random", 3, 20, 20, False, 3, True),
    ("smart", 4, 16, 20, True, 2, True),
]
# bet events: every row of BETS (in the final queue; a change's replaced pig won: CHANGED_FROM_WON in
# order of the changes) and first bets later changed away: bot, turn placed, race turns, won
CHANGED_FROM_WON = [True, False, False, True]
CHANGED_AWAY = [("smart", 2, 20, True), ("random", 1, 10, False), ("random", 4, 30, True)]


def bet_events(bets: pd.DataFrame, changed_from_won, away=()) -> pd.DataFrame:
    """The bet_events table of ``bets`` (each in the final queue) and the cards ``away``
    (first bets changed away later, paying nothing)."""
    ev = pd.DataFrame({"game": bets["game"], "bot": bets["bot"].astype(str), "turn_placed": bets["turn_placed"],
                       "race_turns": bets["race_turns"], "change": bets["changed"], "in_final_queue": True,
                       "points": bets["points"], "won": bets["won"], "changed_from_won": False})
    ev.loc[ev["change"].to_numpy(bool), "changed_from_won"] = list(changed_from_won)
    rows = [{"game": 0, "bot": b, "turn_placed": t, "race_turns": n, "change": False, "in_final_queue": False, "points": 0,
             "won": w, "changed_from_won": False} for b, t, n, w in away]
    ev = pd.concat([ev, pd.DataFrame(rows, columns=ev.columns)], ignore_index=True)
    ev["bot"] = cat(ev["bot"], list(bets["bot"].cat.categories))
    return ev


def hand_tables() -> dict[str, pd.DataFrame]:
    n = len(RACES)
    races = pd.DataFrame({
        "game": np.repeat([0, 1], 4).astype(np.int64),
        "race": np.tile([1, 2, 3, 4], 2).astype(np.int8),
        "players": np.full(n, 3, np.int8),
        "first_seat": np.array([r[0] for r in RACES], np.int8),
        "turns": np.array([r[1] for r in RACES], np.int32),
        "end": cat([r[2] for r in RACES], ENDS),
        "both_ends": [r[3] for r in RACES],
        "winning_pigs": cat([r[4] for r in RACES], WINNING),
        "queue_length": np.full(n, 2, np.int8),
        "ender_seat": np.array([r[5] for r in RACES], np.int8),
        "crown_pig": cat([r[6] for r in RACES], [""] + PIGS),
        "reshuffles": np.array([0, 1, 0, 0, 2, 0, 1, 0], np.int16),
        # races 2 and 7 have no single winning pig: no decided_after, no comeback
        "lead_changes": np.array([0, 2, 1, 0, 0, 1, 3, 2], np.int16),
        "decided_after": pd.array([0, None, 15, 0, 3, 20, None, 10], dtype="Int32"),
        "comeback": [False, False, True, False, False, True, False, False],
    })
    for i, pig in enumerate(PIGS):
        races[f"pos_{pig}"] = np.array([s[i] for s in SPACES], np.int16)
    rows = []
    for k, (race, pts) in enumerate(zip(RACES, POINTS)):
        for seat, (bet, crown, hand) in enumerate(pts, start=1):
            rows.append({"game": k // 4, "race": k % 4 + 1, "seat": seat, "bot": "smart" if seat == 1 else "random",
                         "race_points": bet + crown + hand, "bet_points": bet, "crown_points": crown,
                         "hand_points": hand, "bets_placed": 1 + (seat == 2), "bets_changed": int(seat == 2),
                         "cards_left": 3, "cards_drawn": 4, "cards_played": 5, "decisions": 9,
                         "first": seat == race[0]})
    players = pd.DataFrame(rows)
    players["bot"] = cat(players["bot"], BOTS)
    totals = np.array([[sum(sum(p[s]) for p in POINTS[4 * g:4 * g + 4]) for s in range(3)] for g in range(2)])
    games = pd.DataFrame({
        "game": np.repeat([0, 1], 3), "seat": np.tile([1, 2, 3], 2).astype(np.int8),
        "bot": cat(["smart", "random", "random"] * 2, BOTS), "total": totals.ravel().astype(np.int16),
        "won": (totals == totals.max(axis=1, keepdims=True)).ravel(),
    })
    bets = pd.DataFrame(BETS, columns=["bot", "queue_position", "turn_placed", "race_turns", "changed", "points",
                                       "won"])
    bets["bot"] = cat(bets["bot"], BOTS)
    bets.insert(0, "game", 0)
    bets.insert(1, "race", 1)
    bets.insert(2, "seat", 1)
    bets.insert(4, "pig", cat(["pink"] * len(bets), PIGS))
    return {"races": races, "players": players, "games": games, "bets": bets,
            "bet_events": bet_events(bets, CHANGED_FROM_WON, CHANGED_AWAY)}


@pytest.fixture(scope="module")
def res():
    s = SauMauMauStats()
    s.add(hand_tables())
    return s.result()


# ---------------------------------------------------------------------- hand values


def test_hand_tables_are_what_they_say():
    t = hand_tables()
    assert list(t["games"]["total"]) == [9, 15, 21, 19, 19, 3]
    assert list(t["games"]["won"]) == [False, False, True, True, True, False]  # game 1: a shared win


def test_game_outcomes(res):
    assert ov(res, "games")["value"] == 2 and ov(res, "races")["value"] == 8
    assert ov(res, "players")["value"] == 3
    bots = res["bots"]
    assert list(bots["bot"]) == ["smart", "random"]
    smart, rnd = row(bots, bot="smart"), row(bots, bot="random")
    assert (smart["seats"], rnd["seats"]) == ("1", "2,3")
    assert not smart["random"] and rnd["random"]
    assert (smart["player_games"], smart["wins"], rnd["player_games"], rnd["wins"]) == (2, 1, 4, 2)
    assert (smart["win_low"], smart["win_high"]) == pytest.approx(wilson(1, 2))
    assert smart["mean_score"] == 14 and rnd["mean_score"] == pytest.approx((15 + 21 + 19 + 3) / 4)
    # per race: smart's race points 9,0,0,0,5,4,6,4
    assert smart["races_played"] == 8
    assert smart["mean_race_points"] == pytest.approx(28 / 8)
    sd = np.std([9, 0, 0, 0, 5, 4, 6, 4], ddof=1)
    assert (smart["race_points_low"], smart["race_points_high"]) == pytest.approx(mean_ci(3.5, sd, 8))
    assert smart["mean_bet_points"] == pytest.approx(20 / 8)
    assert smart["mean_crown_points"] == pytest.approx(3 / 8)
    assert smart["mean_hand_points"] == pytest.approx(5 / 8)
    assert smart["bet_scored"] == pytest.approx(4 / 8)
    assert rnd["mean_bets_placed"] == pytest.approx(1.5) and rnd["mean_bets_changed"] == pytest.approx(0.5)
    seats = res["seats"]
    assert list(seats["seat"]) == [1, 2, 3] and seats["confounded"].all()
    assert list(seats["win_rate"]) == [0.5, 0.5, 0.5]
    assert row(seats, seat=3)["mean_score"] == 12
    assert ov(res, "shared_game_win_share")["value"] == pytest.approx(1 / 2)
    sd = res["score_distribution"]
    allrow = row(sd, bot="all")
    scores = np.array([9, 15, 21, 19, 19, 3])
    assert allrow["player_races"] == 6 and allrow["mean"] == pytest.approx(scores.mean())
    assert allrow["q50"] == np.quantile(scores, 0.5, method="inverted_cdf")
    assert ov(res, "score_mean")["value"] == pytest.approx(scores.mean())


def test_seat_advantage_and_luck_skill_are_paired_by_game(res):
    sa = res["seat_advantage"]
    wins = np.array([[0, 0, 1], [1, 1, 0]])
    for s in range(3):
        mean, low, high = paired_diff_ci(wins[:, s] - wins.mean(axis=1))
        r = row(sa, seat=s + 1)
        assert r["games"] == 2
        assert r["advantage"] == pytest.approx(mean)
        assert (r["advantage_low"], r["advantage_high"]) == pytest.approx((max(low, -1), min(high, 1)))
    # first seats of the races: 1, 2, 3, 1 in each game
    assert list(sa["races_started"]) == [2, 1, 1]
    ls = res["luck_skill"]
    assert list(ls["bot"]) == ["smart"]
    r = ls.iloc[0]
    mean, low, high = paired_diff_ci(wins[:, 0] - wins[:, 1:].mean(axis=1))
    assert r["games"] == 2 and r["difference"] == pytest.approx(mean)
    assert (r["difference_low"], r["difference_high"]) == pytest.approx((max(low, -1), min(high, 1)))


def test_queue_position_values(res):
    qp = res["queue_position"]
    allp = qp[qp["bot"] == "all"].set_index("queue_position")
    assert list(allp.index) == [1, 2, 3, 4]
    assert list(allp["bets"]) == [3, 3, 2, 1] and list(allp["won_bets"]) == [2, 2, 1, 1]
    assert allp.loc[1, "mean_points"] == 4 and allp.loc[2, "mean_points"] == pytest.approx(10 / 3)
    assert allp.loc[3, "mean_points"] == 1.5 and allp.loc[4, "mean_points"] == 2
    assert (allp.loc[1, "points_low"], allp.loc[1, "points_high"]) == pytest.approx(
        mean_ci(4, np.std([6, 0, 6], ddof=1), 3))
    assert (allp.loc[1, "win_low"], allp.loc[1, "win_high"]) == pytest.approx(wilson(2, 3))
    assert allp.loc[2, "won_bet_points"] == 5  # winning bets in 2nd place paid 4 and 6
    assert list(allp["changed_share"]) == pytest.approx([0, 2 / 3, 1 / 2, 1])
    smart = qp[qp["bot"] == "smart"].set_index("queue_position")
    assert list(smart["bets"]) == [2, 1, 0, 1]
    assert smart.loc[1, "mean_points"] == 3


def test_bet_timing_and_changes(res):
    """Timing and first-against-changed count every bet card laid (bet_events): the three
    first bets later changed away count too, with the 0 points they paid."""
    st = res["bet_stage"]
    # stage = (turn - 1) * 10 // race_turns: 0, 4, 9, 1, 5, 0, 9, 9, 7 in the queue; 0, 0, 1 changed away
    allst = st[st["kind"] == "all"].set_index("stage_bin")
    assert list(allst["bets"]) == [4, 2, 0, 0, 1, 1, 0, 1, 0, 3]
    assert allst.loc[0, "mean_points"] == 3 and allst.loc[9, "mean_points"] == 1
    first = st[st["kind"] == "first"].set_index("stage_bin")
    changed = st[st["kind"] == "changed"].set_index("stage_bin")
    assert list(first["bets"] + changed["bets"]) == list(allst["bets"])
    assert (first.loc[9, "bets"], changed.loc[9, "bets"]) == (1, 2)
    tu = res["bet_turn"]
    assert list(tu[tu["kind"] == "all"]["turn"]) == [1, 2, 3, 4, 5, 10, 12, 16, 20, 29]
    ch = res["bet_changes"]
    a = row(ch, bot="all")
    first_pts, changed_pts = np.array([6, 4, 0, 6, 3, 0, 0, 0]), np.array([0, 6, 0, 2])
    assert (a["first_bets"], a["changed_bets"], a["first_changed_away"]) == (8, 4, 3 / 8)
    assert a["first_points"] == pytest.approx(19 / 8) and a["changed_points"] == 2
    assert (a["first_win_share"], a["changed_win_share"]) == pytest.approx((6 / 8, 2 / 4))
    assert a["difference"] == pytest.approx(2 - 19 / 8)
    half = Z95 * np.sqrt(changed_pts.var(ddof=1) / 4 + first_pts.var(ddof=1) / 8)
    assert (a["difference_low"], a["difference_high"]) == pytest.approx((2 - 19 / 8 - half, 2 - 19 / 8 + half))
    assert row(ch, bot="smart")["first_points"] == 2 and row(ch, bot="smart")["changed_points"] == 1
    assert row(ch, bot="random")["first_points"] == pytest.approx(13 / 5)
    assert row(ch, bot="random")["changed_points"] == 3
    # each change against the pig it left (new won, left won): (F, T), (T, F), (F, F), (T, T)
    d = np.array([-1, 1, 0, 0])
    t_half = 3.182446305284263 * d.std(ddof=1) / 2  # t(0.975, 3)
    assert (a["changes"], a["new_pig_won"], a["left_pig_won"], a["switch_gain"]) == (4, 0.5, 0.5, 0)
    assert (a["switch_low"], a["switch_high"]) == pytest.approx((-t_half, t_half))
    assert (row(ch, bot="smart")["changes"], row(ch, bot="smart")["switch_gain"]) == (2, 0)
    # bet cards laid (players.bets_placed: 1, 2, 1 a race over 8 races) against the 12 events given
    assert (ov(res, "bet_cards_laid")["value"], ov(res, "bet_cards_not_in_bet_events")["value"]) == (32, 20)


def test_race_ends(res):
    assert ov(res, "crown_end_share")["value"] == pytest.approx(4 / 8)
    assert ov(res, "hand_end_share")["value"] == pytest.approx(2 / 8)
    assert ov(res, "both_end_share")["value"] == pytest.approx(1 / 8)
    assert ov(res, "cap_end_share")["value"] == pytest.approx(1 / 8)
    bp = res["ends_by_players"]
    assert list(bp["players"]) == [3] * 4 and list(bp["end"]) == ["crown", "hand", "both", "cap"]
    assert list(bp["races"]) == [4, 2, 1, 1]
    c = row(bp, end="crown")
    assert (c["low"], c["high"]) == pytest.approx(wilson(4, 8))
    br = res["ends_by_race"]
    assert list(br[br["race"] == 1]["races"]) == [1, 1, 0, 0]
    assert list(br[br["race"] == 3]["races"]) == [0, 0, 1, 1]
    assert list(br[br["race"] == 4]["races"]) == [2, 0, 0, 0]
    assert row(br, race=4, end="crown")["share"] == 1


def test_first_player_advantage_is_paired_by_race(res):
    fp = res["first_player"]
    assert list(fp["race"]) == [1, 2, 3, 4, "all"]
    # starting seat's race points minus the other two seats' mean, race by race
    d = np.array([9 - 2, 6 - 4.5, 8 - 0, 0 - 4.5, 5 - 3, 9 - 2, 0 - 5, 4 - 1.5])
    by_race = {1: d[[0, 4]], 2: d[[1, 5]], 3: d[[2, 6]], 4: d[[3, 7]], "all": d}
    for race, diffs in by_race.items():
        r = row(fp, race=race)
        mean, low, high = paired_diff_ci(diffs)
        assert r["races"] == len(diffs)
        assert r["advantage"] == pytest.approx(mean)
        assert (r["advantage_low"], r["advantage_high"]) == pytest.approx((low, high))
    r1 = row(fp, race=1)
    assert r1["first_points"] == 7 and r1["others_points"] == pytest.approx((0 + 4 + 6 + 0) / 4)
    # the starting seat ended races 1 and 1, 2 of game 1, 3 of game 0
    assert list(fp["ended_by_first"]) == pytest.approx([1, 0.5, 0.5, 0, 0.5])
    assert ov(res, "first_player_points_advantage")["value"] == pytest.approx(d.mean())
    assert ov(res, "winner_backed_by_nobody_share")["value"] == pytest.approx(1 / 8)  # game 0, race 3
    assert fp["confounded"].all()  # smart in seat 1, random in seats 2 and 3


def test_first_player_by_seat_compares_each_seat_with_itself(res):
    bs = res["first_player_by_seat"]
    assert list(bs["seat"]) == [1, 2, 3, "all"] and list(bs["bot"][:3]) == ["smart", "random", "random"]
    # race points of each seat in the races it starts and in the others
    starting = {1: [9, 0, 5, 4], 2: [6, 9], 3: [8, 0]}
    other = {1: [0, 0, 4, 6], 2: [0, 0, 9, 6, 4, 0], 3: [4, 9, 0, 0, 0, 3]}
    ses = []
    for seat in (1, 2, 3):
        r = row(bs, seat=seat)
        a, b = np.array(starting[seat]), np.array(other[seat])
        assert (r["races_started"], r["races"]) == (len(a), 8)
        assert r["starting_points"] == pytest.approx(a.mean()) and r["other_points"] == pytest.approx(b.mean())
        se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        ses.append(se)
        d = a.mean() - b.mean()
        assert (r["difference"], r["difference_low"], r["difference_high"]) == pytest.approx(
            (d, d - Z95 * se, d + Z95 * se))
    # a seat ends a race when it scores crown or hand points
    assert list(bs["ended_starting"][:3]) == pytest.approx([2 / 4, 1 / 2, 1 / 2])
    assert list(bs["ended_other"][:3]) == pytest.approx([0, 1 / 6, 2 / 6])
    a = row(bs, seat="all")
    mean = np.mean(bs["difference"][:3])
    half = Z95 * np.sqrt(np.sum(np.square(ses))) / 3
    assert (a["difference"], a["difference_low"], a["difference_high"]) == pytest.approx(
        (mean, mean - half, mean + half))
    assert a["ended_starting"] == pytest.approx(4 / 8)


def test_wins_per_pig(res):
    pg = res["pigs"].set_index("pig")
    assert list(pg.index) == PIGS
    assert list(pg["wins"]) == [4, 2, 3, 1]
    assert list(pg["sole_wins"]) == [3, 1, 1, 1] and list(pg["shared_wins"]) == [1, 1, 2, 0]
    assert pg.loc["pink", "win_share"] == 0.5
    assert (pg.loc["pink", "win_low"], pg.loc["pink", "win_high"]) == pytest.approx(wilson(4, 8))
    assert list(pg["crowns"]) == [3, 1, 1, 0]
    assert pg.loc["black", "mean_space"] == pytest.approx(np.mean([s[2] for s in SPACES]))
    assert ov(res, "shared_pig_win_share")["value"] == pytest.approx(2 / 8)


def test_race_length_and_points(res):
    rl = res["race_length"]
    assert rl["races"].sum() == 8 and list(rl["turns"]) == list(range(10, 41))
    assert row(rl, turns=20)["cumulative_share"] == pytest.approx(5 / 8)
    assert ov(res, "race_length_mean")["value"] == pytest.approx(np.mean([r[1] for r in RACES]))
    assert ov(res, "reshuffles_mean")["value"] == pytest.approx(0.5)
    flow = res["flow"].set_index("metric")
    assert flow.loc["lead_changes", "value"] == pytest.approx(9 / 8)
    assert flow.loc["no_single_winner", "value"] == pytest.approx(2 / 8)
    assert flow.loc["comeback", ["value", "n"]].tolist() == pytest.approx([2 / 6, 6])
    # in whole percent of each race's turns: 0/10, 15/30 (50%), 0/20, 3/15 (20%), 20/25 (80%), 10/40 (25%)
    assert flow.loc["decided_share", "value"] == pytest.approx((0 + 50 + 0 + 20 + 80 + 25) / 600)
    pt = res["points"]
    allbet = row(pt, bot="all", source="bet")
    bets = [b for p in POINTS for b, _, _ in p]
    assert allbet["player_races"] == 24 and allbet["mean"] == pytest.approx(np.mean(bets))
    assert allbet["scoring_share"] == pytest.approx(np.mean(np.array(bets) > 0))
    total = sum(sum(x) for p in POINTS for x in p)
    assert allbet["share_of_race_points"] == pytest.approx(sum(bets) / total)
    assert row(pt, bot="smart", source="hand")["mean"] == pytest.approx(5 / 8)


# ---------------------------------------------------------------------- chunks


def random_tables(games=300, players=4, seed=0, bots=("smart", "random", "random", "random")) -> dict:
    """Synthetic tables of the match's shape, internally consistent enough for
    every statistic (not a simulation of the rules)."""
    rng = np.random.default_rng(seed)
    bots = [bots[s % len(bots)] for s in range(players)]
    labels = list(dict.fromkeys(bots))
    races, pl, bets = [], [], []
    totals = np.zeros((games, players), np.int64)
    for g in range(games):
        for r in range(1, 5):
            first = (r - 1) % players + 1
            turns = int(rng.integers(4, 70))
            end = rng.choice(ENDS, p=[0.74, 0.25, 0.01])
            both = bool(end == "crown" and rng.random() < 0.05)
            mask = 1 << int(rng.integers(4)) if end == "crown" or rng.random() < 0.9 else int(rng.integers(1, 16))
            ender = 0 if end == "cap" else int(rng.integers(1, players + 1))
            crown = PIGS[mask.bit_length() - 1] if end == "crown" else ""
            queue = rng.permutation(players)[:int(rng.integers(0, players + 1))]
            rank, seat_bet = 0, {}
            for pos, s in enumerate(queue, start=1):
                pig = int(rng.integers(4))
                won = bool(mask >> pig & 1)
                points = [6, 4, 3, 2, 1][rank] if won else 0
                rank += won
                seat_bet[s] = points
                bets.append({"game": g, "race": r, "seat": s + 1, "bot": bots[s], "pig": PIGS[pig],
                             "queue_position": pos, "turn_placed": int(rng.integers(1, turns + 1)),
                             "race_turns": turns, "changed": bool(rng.random() < 0.2), "points": points,
                             "won": won})
            for s in range(players):
                crown_pts = 3 if end == "crown" and s + 1 == ender else 0
                hand_pts = 5 if (end == "hand" or both) and s + 1 == ender else 0
                bet = seat_bet.get(s, 0)
                totals[g, s] += bet + crown_pts + hand_pts
                pl.append({"game": g, "race": r, "seat": s + 1, "bot": bots[s], "race_points": bet + crown_pts + hand_pts,
                           "bet_points": bet, "crown_points": crown_pts, "hand_points": hand_pts,
                           "bets_placed": int(s in seat_bet), "bets_changed": 0, "first": s + 1 == first})
            races.append({"game": g, "race": r, "players": players, "first_seat": first, "turns": turns, "end": end,
                          "both_ends": both, "winning_pigs": WINNING[mask], "queue_length": len(queue),
                          "ender_seat": ender, "crown_pig": crown, "reshuffles": int(rng.integers(0, 3)),
                          **{f"pos_{p}": int(rng.integers(0, 20)) for p in PIGS}})
    races = pd.DataFrame(races)
    # game-flow columns made from the others (no draws: the tables above stay as they were)
    single = ~races["winning_pigs"].str.contains(",")
    races["lead_changes"] = (races["turns"] % 4).astype(np.int16)
    races["decided_after"] = pd.array(np.where(single, races["turns"] // 2, 0), dtype="Int32")
    races.loc[~single, "decided_after"] = pd.NA
    races["comeback"] = single & (races["turns"] % 3 == 0)
    races["end"] = cat(races["end"], ENDS)
    races["winning_pigs"] = cat(races["winning_pigs"], WINNING)
    races["crown_pig"] = cat(races["crown_pig"], [""] + PIGS)
    games_t = pd.DataFrame({"game": np.repeat(np.arange(games), players), "seat": np.tile(np.arange(1, players + 1), games),
                            "bot": cat(bots * games, labels), "total": totals.ravel(),
                            "won": (totals == totals.max(axis=1, keepdims=True)).ravel()})
    pl, bets = pd.DataFrame(pl), pd.DataFrame(bets)
    pl["bot"], bets["bot"] = cat(pl["bot"], labels), cat(bets["bot"], labels)
    events = bet_events(bets, rng.random(int(bets["changed"].sum())) < 0.3)
    return {"races": races, "players": pl, "games": games_t, "bets": bets, "bet_events": events}


@pytest.fixture(scope="module")
def synthetic():
    return random_tables()


def test_chunked_equals_whole_on_hand_tables():
    t = hand_tables()
    whole = SauMauMauStats()
    whole.add(t)
    chunked = SauMauMauStats()
    # uneven cuts: players cut inside a race, games inside a game, an empty chunk
    for name, cuts in [("players", [2, 2, 7, 13]), ("games", [1, 4]), ("races", [3]), ("bets", [5]),
                       ("bet_events", [4, 6])]:
        for part in split(t[name], cuts):
            chunked.add({name: part})
    assert_results_equal(whole.result(), chunked.result())


def test_chunked_and_merged_equal_whole(synthetic):
    t = synthetic
    whole = SauMauMauStats()
    whole.add(t)
    ref = whole.result()
    rng = np.random.default_rng(1)
    chunked = SauMauMauStats()
    parts = {name: split(df, sorted(rng.choice(np.arange(1, len(df)), 6, replace=False))) for name, df in t.items()}
    for i in range(7):
        chunked.add({name: p[i] for name, p in parts.items()})
    assert_results_equal(ref, chunked.result())
    # three accumulators over consecutive stretches (cut inside races and games), merged
    # in order and the halves merged the other way round
    for fracs, reverse in (([0.37, 0.71], False), ([0.5], True)):
        accs = []
        for name, df in t.items():
            edges = [0, *(int(f * len(df)) + 1 for f in fracs), len(df)]
            for i, (a, b) in enumerate(zip(edges[:-1], edges[1:])):
                if len(accs) <= i:
                    accs.append(SauMauMauStats())
                accs[i].add({name: df.iloc[a:b]})
        if reverse:
            accs = accs[::-1]
        merged = accs[0]
        for other in accs[1:]:
            merged.merge(other)
        assert_results_equal(ref, merged.result())


def test_labels_in_other_orders_merge_exactly():
    t = hand_tables()
    whole = SauMauMauStats()
    whole.add(t)
    a, b = SauMauMauStats(), SauMauMauStats()
    g = t["games"].copy()
    g["bot"] = g["bot"].astype(str)  # b sees the bots as plain strings, random first
    b.add({"games": g.iloc[1:]})
    a.add({"games": g.iloc[:1]})
    a.add({name: df for name, df in t.items() if name != "games"})
    assert_results_equal(whole.result(), a.merge(b).result())


def test_memory_does_not_grow_with_rows():
    t = hand_tables()
    s = SauMauMauStats()

    def add(k):
        s.add({n: df.assign(game=df["game"] + 2 * k) for n, df in t.items()})

    for k in range(3):
        add(k)
    size = s.nbytes()
    for k in range(3, 40):
        add(k)
    assert s.nbytes() == size
    assert ov(s.result(), "games")["value"] == 80


def test_bad_tables_are_refused():
    s = SauMauMauStats()
    t = hand_tables()
    with pytest.raises(ValueError, match="lacks columns"):
        s.add({"games": t["games"].drop(columns=["total"])})
    with pytest.raises(ValueError, match="unknown tables"):
        s.add({"moves": pd.DataFrame()})
    with pytest.raises(ValueError, match="unknown pig"):
        s.add({"races": t["races"].assign(winning_pigs=["pink,green"] * 8)})
    assert set(COLUMNS) == {"races", "players", "games", "bets", "bet_events"}
    assert expected_rows({"games": 7, "players": 3}) == ("games", 21)


def test_empty_stats_give_empty_tables():
    r = SauMauMauStats().result()
    assert ov(r, "games")["value"] == 0
    for name in ("bots", "seats", "seat_advantage", "luck_skill", "queue_position", "first_player", "race_length"):
        assert len(r[name]) == 0, name
    m = {"game": "sau-mau-mau", "unit": "games", "games": 0, "players": 4}
    assert render_all(FIGURES, r, m) == []
    assert all(a.text for a in answers(r, m))
    assert overview(r) and key_tables(r) == ""


# ---------------------------------------------------------------------- the report


def manifest_of(t: dict) -> dict:
    seats = t["games"].groupby("seat", observed=True)["bot"].first()
    return {"game": "sau-mau-mau", "title": "Sau Mau Mau", "unit": "games", "games": int(t["games"]["game"].nunique()),
            "players": len(seats), "seed": 3, "bots": [{"seat": int(s), "bot": str(b)} for s, b in seats.items()],
            "data": [{"part": "track", "name": "synthetic-track", "assumed": True, "sha256": "0" * 64,
                      "detail": "crown on space 18 for 4 players"}]}


@pytest.mark.parametrize("one_bot", [False, True])
def test_report_renders_every_figure(synthetic, one_bot, tmp_path):
    t = random_tables(120, 3, 5, ("random",)) if one_bot else synthetic
    s = SauMauMauStats()
    s.add(t)
    res = s.result()
    manifest = manifest_of(t)
    assert res["first_player"]["confounded"].any() != one_bot
    path = write_report(res, manifest, tmp_path / "r.html")
    page = path.read_text(encoding="utf-8")
    assert page.count('<img src="data:image/png;base64,') == len(FIGURES)
    pngs = sorted((tmp_path / "r_files").glob("*.png"))
    assert {p.stem for p in pngs} == {f[0] for f in FIGURES}
    assert {p.stem for p in (tmp_path / "r_files").glob("*.csv")} == set(res) | {"scorecard"}  # and its scorecard
    assert set(res) == set(TABLE_DOCS)
    assert "ASSUMED reconstruction" in page and "synthetic-track" in page
    questions = [a.question for a in answers(res, manifest)]
    for q in ("Which queue position earned most? (hindsight: bets the bots laid)",
              "Which bets earned most: early or late, first or changed? (hindsight: bets the bots laid)",
              "How do races end?", "Does starting a race help?", "Are the pigs balanced?"):
        assert q in questions and re.search(re.escape(q), page)
    # answers carry the run's numbers, not canned text
    crown = ov(res, "crown_end_share")["value"]
    assert f"{100 * crown:.1f}% of races end by the crown" in page
    queue = "Which queue position earned most? (hindsight: bets the bots laid)"
    assert "n/a" not in {a.question: a.text for a in answers(res, manifest)}[queue]


def test_queue_shares_are_clustered_by_game(synthetic):
    """A queue place's share of bets on a winning pig, overall and per bot, has the
    interval clustered by game (computed here from per-game totals)."""
    s = SauMauMauStats()
    for part in split(synthetic["bets"], [301, 777]):  # chunk edges inside games
        s.add({"bets": part})
    s.add({name: df for name, df in synthetic.items() if name != "bets"})
    qp = s.result()["queue_position"]
    bets = synthetic["bets"]
    for bot, mine in (("all", bets), ("smart", bets[bets["bot"] == "smart"]), ("random", bets[bets["bot"] == "random"])):
        for place in (1, 3):
            at = mine[mine["queue_position"] == place]
            per = at.groupby("game").agg(n=("won", "size"), y=("won", "sum"))
            y, n = per["y"].to_numpy(float), per["n"].to_numpy(float)
            games = bets[bets["queue_position"] == place]["game"].nunique()  # games with a bet there, by anyone
            _, low, high = clustered_rate(games, y.sum(), n.sum(), (y * y).sum(), (n * n).sum(), (y * n).sum())
            r = row(qp, bot=bot, queue_position=place)
            assert r["bets"] == n.sum() and r["win_share"] == pytest.approx(y.sum() / n.sum())
            assert (r["win_low"], r["win_high"]) == pytest.approx((low, high))
