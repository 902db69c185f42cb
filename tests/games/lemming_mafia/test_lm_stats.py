"""The balance statistics against values computed by hand on small fixed tables,
and chunked aggregation against whole-table aggregation."""
import math

import numpy as np
import pandas as pd
import pytest

from analyzer.stats.aggregate import GroupBits, Hist, Labels, hist_quantiles
from analyzer.stats.intervals import clustered_mean_ci, clustered_rate, mean_ci, paired_diff_ci, wilson
from analyzer.games.lemming_mafia.stats import COLUMNS, LemmingMafiaStats

COLORS = ["blue", "grey", "green", "purple", "pink", "red"]


def cat(values, categories):
    return pd.Categorical(values, categories=categories)


def hand_tables() -> dict[str, pd.DataFrame]:
    """Three races, three seats: favourite in seat 1, random in seats 2 and 3."""
    places = [
        [1, 2, 3, 4, 5, 6],
        [6, 2, 5, 3, 4, 1],
        [1, 3, 2, 6, 5, 4],
    ]
    concrete = [[0, 1, 2, 0, 1, 2], [3, 0, 3, 2, 1, 1], [2, 1, 0, 3, 3, 3]]
    races = pd.DataFrame({
        "race": [0, 1, 2],
        "winner": cat(["blue", "red", "blue"], COLORS),
        "turns": [10, 20, 30],
        "eliminated": [0, 2, 5],
        "finish": cat(["water", "water", "last_standing"], ["water", "last_standing"]),
        "winner_concrete": [0, 1, 2],
        "winner_field": [30, 31, 12],
        "tiebreak": [False, True, False],
        "winners": [1, 1, 2],
        "lead_changes": [0, 3, 1],
        "decided_after": pd.array([0, 15, 24], dtype="Int32"),
        "comeback": [False, True, False],
    })
    for i, c in enumerate(COLORS):
        races[f"place_{c}"] = [p[i] for p in places]
    for i, c in enumerate(COLORS):
        races[f"concrete_{c}"] = [k[i] for k in concrete]
    bots = ["favourite", "random"]
    players = pd.DataFrame({
        "race": [0, 0, 0, 1, 1, 1, 2, 2, 2],
        "seat": [1, 2, 3] * 3,
        "bot": cat(["favourite", "random", "random"] * 3, bots),
        "bet_points": [3, 0, 1, 4, 2, 0, 0, 0, 0],
        "contract_points": [2, 2, 0, 0, 4, -2, 3, 3, 0],
        "score": [5, 2, 1, 4, 6, -2, 3, 3, 0],
        "bets_placed": [6, 2, 4, 5, 3, 1, 0, 6, 2],
        "contracts_discarded": [1, 0, 2, 3, 1, 0, 0, 1, 1],
        "won": [True, False, False, False, True, False, True, True, False],
    })
    kinds = ["before", "top3", "winner_clean"]
    contracts = pd.DataFrame({
        "race": [0, 0, 1, 1, 1, 2, 2],
        "seat": [1, 1, 2, 2, 3, 3, 1],
        "kind": cat(["before", "top3", "before", "top3", "before", "winner_clean", "winner_clean"], kinds),
        "colors": cat(["green,red", "blue", "green,red", "blue", "green,red", "", ""], ["green,red", "blue", ""]),
        "points": [2, 3, 2, 3, 2, 5, 5],
        "discarded": [False, True, False, False, True, False, True],
        "fulfilled": [True, False, False, True, True, False, True],
        "payoff": [2, 0, -2, 3, 0, -2, 0],
        "discard_turn": [0, 4, 0, 0, 7, 0, 9],
        "card": [0, 1, 0, 1, 0, 2, 2],
    })
    bets = pd.DataFrame({
        "race": [0, 0, 0, 1, 1, 2, 2],
        "seat": [1, 1, 1, 2, 2, 3, 3],
        "order": [1, 2, 3, 1, 2, 1, 2],
        "color": cat(["blue", "red", "blue", "red", "blue", "grey", "blue"], COLORS),
        "turn": [1, 5, 10, 3, 15, 20, 28],
        "race_turns": [10, 10, 10, 20, 20, 30, 30],
        "track_place": [1, 2, 1, 3, 1, 4, 1],
        "paid": [0, 0, 3, 1, 0, 0, 2],
    })
    fields = pd.DataFrame({
        "field": [0, 1, 2],
        "section": [0, 0, 1],
        "action": cat(["bookmaker", "empty", "concrete"], ["empty", "concrete", "bookmaker"]),
        "landings": [5, 3, 2],
        "triggers": [5, 0, 2],
    })
    return {"races": races, "players": players, "contracts": contracts, "bets": bets, "fields": fields}


@pytest.fixture(scope="module")
def res():
    s = LemmingMafiaStats()
    s.add(hand_tables())
    return s.result()


def row(df, **keys):
    mask = np.ones(len(df), bool)
    for k, v in keys.items():
        mask &= (df[k] == v).to_numpy()
    assert mask.sum() == 1, keys
    return df[mask].iloc[0]


def ov(res, metric):
    return row(res["overview"], metric=metric)


# ---------------------------------------------------------------------- hand values


def test_race_aggregates(res):
    assert ov(res, "races")["value"] == 3
    assert ov(res, "players")["value"] == 3
    assert ov(res, "tiebreak_share")["value"] == pytest.approx(1 / 3)
    assert (ov(res, "tiebreak_share")["low"], ov(res, "tiebreak_share")["high"]) == pytest.approx(wilson(1, 3))
    assert ov(res, "shared_win_share")["value"] == pytest.approx(1 / 3)
    length = ov(res, "race_length_mean")
    assert length["value"] == 20
    assert (length["low"], length["high"]) == pytest.approx(mean_ci(20, 10, 3))
    assert ov(res, "eliminated_mean")["value"] == pytest.approx(7 / 3)
    assert ov(res, "last_standing_share")["value"] == pytest.approx(1 / 3)
    assert ov(res, "winner_concrete_mean")["value"] == 1
    rl = res["race_length"]
    assert list(rl["turns"]) == list(range(10, 31)) and rl["races"].sum() == 3
    assert row(rl, turns=20)["cumulative_share"] == pytest.approx(2 / 3)
    el = res["eliminations"]
    assert list(el["races"]) == [1, 0, 1, 0, 0, 1]
    fin = res["finish"]
    assert row(fin, finish="water")["races"] == 2 and row(fin, finish="last_standing")["races"] == 1
    lm = res["lemmings"]
    assert list(lm["color"]) == COLORS
    assert list(lm["wins"]) == [2, 0, 0, 0, 0, 1]
    blue = row(lm, color="blue")
    assert blue["win_rate"] == pytest.approx(2 / 3)
    assert (blue["win_low"], blue["win_high"]) == pytest.approx(wilson(2, 3))
    assert blue["mean_place"] == pytest.approx((1 + 6 + 1) / 3)
    assert blue["mean_concrete_at_end"] == pytest.approx(5 / 3)
    assert blue["winner_concrete_mean"] == pytest.approx(1)  # wins with 0 and 2 blocks
    wc = res["winner_concrete"]
    assert list(wc[wc["color"] == "all"]["races"]) == [1, 1, 1]
    flow = res["flow"].set_index("metric")["value"]
    assert flow["lead_changes"] == pytest.approx(4 / 3)
    assert flow["decided_share"] == pytest.approx((0 + 0.75 + 0.80) / 3)  # 0/10, 15/20, 24/30
    assert flow["comeback"] == pytest.approx(1 / 3) and flow["length"] == 20


def test_player_aggregates(res):
    bots = res["bots"]
    assert list(bots["bot"]) == ["favourite", "random"]
    fav, rnd = row(bots, bot="favourite"), row(bots, bot="random")
    assert fav["seats"] == "1" and rnd["seats"] == "2,3"
    assert not fav["random"] and rnd["random"]
    assert (fav["player_races"], fav["wins"]) == (3, 2)
    assert (rnd["player_races"], rnd["wins"]) == (6, 2)
    assert (fav["win_low"], fav["win_high"]) == pytest.approx(wilson(2, 3))
    assert fav["mean_score"] == 4 and fav["score_sd"] == pytest.approx(1.0)
    assert (fav["score_low"], fav["score_high"]) == pytest.approx(mean_ci(4, 1, 3))
    assert fav["mean_bet_points"] == pytest.approx(7 / 3)
    assert fav["mean_contract_points"] == pytest.approx(5 / 3)
    assert rnd["mean_score"] == pytest.approx(10 / 6)
    assert rnd["score_sd"] == pytest.approx(np.std([2, 1, 6, -2, 3, 0], ddof=1))
    assert rnd["mean_bet_points"] == pytest.approx(3 / 6)
    assert fav["never_backed"] == pytest.approx(1 / 3)
    assert rnd["never_backed"] == pytest.approx(4 / 6)
    assert fav["mean_bets_placed"] == pytest.approx(11 / 3)
    assert rnd["mean_contracts_discarded"] == pytest.approx(5 / 6)
    assert ov(res, "winner_backed_by_nobody_share")["value"] == pytest.approx(1 / 3)  # race 2
    assert ov(res, "player_never_backed_winner_share")["value"] == pytest.approx(5 / 9)
    # seats: different bots in the seats, so confounded
    seats = res["seats"]
    assert list(seats["seat"]) == [1, 2, 3] and seats["confounded"].all()
    s2 = row(seats, seat=2)
    assert s2["bot"] == "random" and s2["wins"] == 2 and s2["mean_score"] == pytest.approx(11 / 3)


def test_score_distribution(res):
    sd = res["score_distribution"]
    scores = np.array([5, 2, 1, 4, 6, -2, 3, 3, 0])
    allrow = row(sd, bot="all")
    assert allrow["mean"] == pytest.approx(scores.mean())
    assert allrow["sd"] == pytest.approx(scores.std(ddof=1))
    for q, col in [(0.05, "q05"), (0.25, "q25"), (0.5, "q50"), (0.75, "q75"), (0.95, "q95")]:
        assert allrow[col] == np.quantile(scores, q, method="inverted_cdf"), col
    assert (allrow["min"], allrow["max"]) == (-2, 6)
    # share of variance explained by the bot (eta squared), by hand
    groups = [scores[[0, 3, 6]], scores[[1, 2, 4, 5, 7, 8]]]
    between = sum(len(g) * (g.mean() - scores.mean()) ** 2 for g in groups)
    total = ((scores - scores.mean()) ** 2).sum()
    assert ov(res, "skill_share_of_score_variance")["value"] == pytest.approx(between / total)


def test_seat_advantage_and_luck_skill(res):
    sa = res["seat_advantage"]
    wins = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0]])
    for s in range(3):
        d = wins[:, s] - wins.mean(axis=1)
        mean, low, high = paired_diff_ci(d)
        r = row(sa, seat=s + 1)
        assert r["races"] == 3
        assert r["advantage"] == pytest.approx(mean)
        assert (r["advantage_low"], r["advantage_high"]) == pytest.approx((max(low, -1), min(high, 1)))  # a rate difference stays in [-1, 1]
    assert row(sa, seat=1)["advantage"] == pytest.approx(2 / 9)
    ls = res["luck_skill"]
    assert list(ls["bot"]) == ["favourite"]
    r = ls.iloc[0]
    d = wins[:, 0] - wins[:, 1:].mean(axis=1)  # favourite minus random per seat, per race
    mean, low, high = paired_diff_ci(d)
    assert r["difference"] == pytest.approx(1 / 3) == pytest.approx(mean)
    assert (r["difference_low"], r["difference_high"]) == pytest.approx((max(low, -1), min(high, 1)))
    assert r["bot_win_rate"] == pytest.approx(2 / 3) and r["random_win_rate"] == pytest.approx(1 / 3)


def test_bet_aggregates(res):
    st = res["bet_stage"]
    assert len(st) == 10 and st["cards"].sum() == 7
    last = row(st, stage_bin=9)
    # stage = (turn - 1) * 10 // race_turns: 0, 4, 9, 1, 7, 6, 9
    assert list(st["cards"]) == [1, 1, 0, 0, 1, 0, 1, 1, 0, 2]
    assert (last["cards"], last["winner_cards"]) == (2, 2)
    assert last["mean_points"] == pytest.approx(2.5) and last["winner_card_points"] == pytest.approx(2.5)
    heat = res["bet_heatmap"]
    assert len(heat) == 60
    c = row(heat, track_place=1, stage_bin=9)
    assert (c["cards"], c["winner_cards"], c["chance"]) == (2, 2, 1.0)
    assert (c["chance_low"], c["chance_high"]) == pytest.approx(wilson(2, 2))
    c = row(heat, track_place=3, stage_bin=1)
    assert (c["cards"], c["winner_cards"]) == (1, 1)
    assert row(heat, track_place=1, stage_bin=0)["chance"] == 0
    assert np.isnan(row(heat, track_place=6, stage_bin=5)["chance"])
    turn = res["bet_turn"]
    assert list(turn["turn"]) == [1, 3, 5, 10, 15, 20, 28]
    assert row(turn, turn=10)["winner_card_points"] == 3
    sp = res["stack_position"]
    allp = sp[sp["bot"] == "all"].set_index("order")
    assert list(allp["cards"]) == [3, 3, 1, 0, 0, 0]
    assert list(allp["winner_cards"]) == [1, 1, 1, 0, 0, 0]
    assert allp.loc[1, "mean_points"] == pytest.approx(1 / 3)
    assert allp.loc[2, "mean_points"] == pytest.approx(2 / 3)
    assert allp.loc[3, "mean_points"] == 3
    fav = sp[sp["bot"] == "favourite"].set_index("order")
    rnd = sp[sp["bot"] == "random"].set_index("order")
    assert list(fav["cards"]) == [1, 1, 1, 0, 0, 0] and list(rnd["cards"]) == [2, 2, 0, 0, 0, 0]
    assert rnd.loc[2, "mean_points"] == pytest.approx(1.0)


def test_contract_aggregates(res):
    ct = res["contracts"].set_index("contract")
    assert list(ct.index) == ["green before red", "blue in the top 3", "winner without concrete"]
    b = ct.loc["green before red"]
    assert (b["dealt"], b["kept"], b["discarded"], b["cards"]) == (3, 2, 1, 1)
    assert b["fulfil_rate"] == pytest.approx(2 / 3)
    # clustered by race: race 0 deals it once (fulfilled), race 1 twice (one fulfilled);
    # residuals y - p n: +1/3, -1/3; var = 2/(2-1) * (2/9) / 3^2 = 4/81 against the
    # binomial 2/27 = 6/81: design effect 2/3, Wilson at 4.5 cards with 3 fulfilled
    assert (b["fulfil_low"], b["fulfil_high"]) == pytest.approx(wilson(3.0, 4.5))
    assert b["discard_rate"] == pytest.approx(1 / 3)
    assert b["kept_payoff"] == 0  # payoffs 2 and -2
    assert (b["kept_payoff_low"], b["kept_payoff_high"]) == pytest.approx(mean_ci(0, np.std([2, -2], ddof=1), 2))
    assert b["discarded_would_pay"] == 2 and b["discard_gain"] == -2  # the discarded one was fulfilled
    assert b["hold_value"] == pytest.approx(2 / 3)  # 2 in race 0; 2, -2 in race 1
    # clustered by race, by hand: residuals 2 - 2/3 = +4/3 (race 0) and
    # (2 - 2/3) + (-2 - 2/3) = -4/3 (race 1); var = 2/(2-1) * (16/9 + 16/9) / 3^2 = 64/81,
    # half = t(0.975, 1) * 8/9 (the plain interval over 3 cards, t(0.975, 2) * 2.31 / sqrt(3), is narrower)
    half = 12.706204736174698 * 8 / 9
    assert (b["hold_value_low"], b["hold_value_high"]) == pytest.approx((2 / 3 - half, 2 / 3 + half))
    assert half > mean_ci(2 / 3, np.std([2, -2, 2], ddof=1), 3)[1] - 2 / 3
    t = ct.loc["blue in the top 3"]
    assert t["kept_payoff"] == 3 and t["discard_gain"] == 2 and t["hold_value"] == pytest.approx(0.5)
    w = ct.loc["winner without concrete"]
    assert (w["kind"], w["colors"], w["points"]) == ("winner_clean", "", 5)
    assert w["kept_payoff"] == -2 and w["discard_gain"] == -5 and w["hold_value"] == pytest.approx(1.5)
    by = res["contracts_by_bot"]
    fav = row(by, bot="favourite", contract="green before red")
    assert (fav["dealt"], fav["kept_payoff"]) == (1, 2)
    rnd = row(by, bot="random", contract="green before red")
    assert (rnd["dealt"], rnd["discarded"], rnd["discard_gain"]) == (2, 1, -2)


def test_field_aggregates():
    s = LemmingMafiaStats()
    t = hand_tables()
    s.add(t)
    s.add({"fields": t["fields"]})  # a second chunk's counts
    f = s.result()["fields"]
    assert list(f["field"]) == [0, 1, 2] and list(f["section"]) == [0, 0, 1]
    assert list(f["action"]) == ["bookmaker", "empty", "concrete"]
    assert list(f["landings"]) == [10, 6, 4] and list(f["triggers"]) == [10, 0, 4]
    assert list(f["landing_rate"]) == pytest.approx([10 / 3, 2, 4 / 3])
    assert list(f["trigger_share"]) == pytest.approx([1, 0, 1])


# ---------------------------------------------------------------------- chunks


def assert_results_equal(a: dict, b: dict):
    assert a.keys() == b.keys()
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True, obj=name)


def split(df: pd.DataFrame, cuts) -> list[pd.DataFrame]:
    edges = [0, *cuts, len(df)]
    return [df.iloc[a:b].reset_index(drop=True) for a, b in zip(edges[:-1], edges[1:])]


def test_chunked_equals_whole_on_hand_tables():
    t = hand_tables()
    whole = LemmingMafiaStats()
    whole.add(t)
    chunked = LemmingMafiaStats()
    # uneven cuts, one cutting race 1's players in the middle, an empty chunk
    for name, cuts in [("players", [2, 2, 5]), ("races", [1]), ("bets", [3, 4]), ("contracts", [6]),
                       ("fields", [])]:
        for part in split(t[name], cuts):
            chunked.add({name: part})
    assert_results_equal(whole.result(), chunked.result())


def test_merge_equals_whole_on_hand_tables():
    t = hand_tables()
    whole = LemmingMafiaStats()
    whole.add(t)
    a, b = LemmingMafiaStats(), LemmingMafiaStats()
    a.add({name: df.iloc[: len(df) // 2] for name, df in t.items()})
    b.add({name: df.iloc[len(df) // 2:] for name, df in t.items()})  # players cut inside race 1
    assert_results_equal(whole.result(), a.merge(b).result())


def test_labels_in_other_orders_merge_exactly():
    t = hand_tables()
    whole = LemmingMafiaStats()
    whole.add(t)
    # the second aggregator sees the bots as plain strings, random first
    p = t["players"].copy()
    p["bot"] = p["bot"].astype(str)
    a, b = LemmingMafiaStats(), LemmingMafiaStats()
    b.add({"players": p.iloc[[1, 2]]})  # b: the stream after its first row, in two chunks
    a.add({"players": p.iloc[[0]]})  # a: the first row (race 0 is cut between a and b)
    b.add({"players": p.iloc[3:]})
    rest = {k: v for k, v in t.items() if k != "players"}
    a.add(rest)
    merged = a.merge(b).result()
    assert_results_equal(whole.result(), merged)


def test_memory_does_not_grow_with_rows():
    t = hand_tables()
    s = LemmingMafiaStats()

    def add(k):
        s.add({n: df.assign(race=df["race"] + 3 * k) if "race" in df else df for n, df in t.items()})

    for k in range(5):
        add(k)
    size = s.nbytes()  # the grids have seen every key value of these tables
    for k in range(5, 50):
        add(k)
    assert s.nbytes() == size
    assert ov(s.result(), "races")["value"] == 150


def test_bad_tables_are_refused():
    s = LemmingMafiaStats()
    with pytest.raises(ValueError, match="lacks columns"):
        s.add({"players": hand_tables()["players"].drop(columns=["score"])})
    with pytest.raises(ValueError, match="unknown tables"):
        s.add({"moves": pd.DataFrame()})
    assert set(COLUMNS) == {"races", "players", "contracts", "bets", "fields"}


def test_empty_stats_give_empty_tables():
    r = LemmingMafiaStats().result()
    assert ov(r, "races")["value"] == 0
    assert len(r["bots"]) == 0 and len(r["luck_skill"]) == 0 and len(r["contracts"]) == 0


# ---------------------------------------------------------------------- helpers


def test_hist_grows_both_ways_and_takes_values():
    h = Hist(("a", "b"))
    h.add(np.array([0, 1, 1]), np.array([5, 5, 7]))
    h.add(np.array([-2]), np.array([3]))
    assert h.lows == [-2, 3] and h.counts.shape == (4, 5)
    assert h.take(a=[1], b=[5, 7, 99])[0].tolist() == [1, 1, 0]
    assert h.counts.sum() == 4
    assert h.marginal("b").tolist() == [1, 0, 2, 0, 1]


def test_labels_codes_from_categories_and_strings():
    lab = Labels(["x"])
    assert lab.codes(pd.Series(pd.Categorical(["z", "x"], categories=["z", "y", "x"]))).tolist() == [1, 0]
    assert lab.labels == ["x", "z", "y"]  # every category registered, in order
    assert lab.codes(pd.Series(["y", "w"])).tolist() == [2, 3]


def test_group_bits_carry_a_cut_group_over():
    g = GroupBits(("won",))
    g.add(np.array([7, 7, 8]), np.array([0, 1, 0]), {"won": np.array([0, 1, 1])})
    g.add(np.array([8, 8, 9]), np.array([1, 2, 0]), {"won": np.array([0, 1, 0])})
    h = g.final()["won"]
    assert h.take(present=[3], mask=[2])[0].tolist() == [1]  # race 7: seats 0,1; seat 1 won
    assert h.take(present=[7], mask=[5])[0].tolist() == [1]  # race 8 cut over two chunks
    assert h.take(present=[1], mask=[0])[0].tolist() == [1]  # race 9, last, flushed by final()
    assert h.counts.sum() == 3


def test_hist_quantiles_match_numpy_inverted_cdf():
    rng = np.random.default_rng(3)
    x = rng.integers(-5, 20, size=1001)
    values = np.arange(-5, 20)
    counts = np.bincount(x + 5, minlength=25)
    qs = [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0]
    assert hist_quantiles(counts, values, qs).tolist() == np.quantile(x, qs, method="inverted_cdf").tolist()
    assert math.isnan(hist_quantiles(np.zeros(3, int), np.arange(3), [0.5])[0])


def test_contract_rates_per_bot_are_clustered_by_race():
    """A bot in two seats often holds the same contract twice in a race, and whether it is
    fulfilled is the race's: its per-bot interval is the race-clustered one (computed here
    from per-race totals), wider than Wilson's over the cards."""
    rng = np.random.default_rng(3)
    n_races, seats, bots = 400, 4, ["favourite", "random"]
    kinds = ["top3", "winner_clean"]
    rows = []
    for race in range(n_races):
        fulfilled = rng.random(2) < 0.5  # per contract and race: every copy alike
        for seat in range(1, seats + 1):
            for _ in range(3):
                card = int(rng.integers(2))
                discarded = bool(rng.random() < 0.2)
                # what it paid under the box's rules: its points, -2 held and unfulfilled, 0 discarded
                payoff = 0 if discarded else (3 + 2 * card if fulfilled[card] else -2)
                rows.append({"race": race, "seat": seat, "kind": kinds[card], "colors": "blue" if card == 0 else "",
                             "points": 3 + 2 * card, "discarded": discarded,
                             "fulfilled": bool(fulfilled[card]), "payoff": payoff, "discard_turn": 0, "card": card})
    contracts = pd.DataFrame(rows)
    contracts["kind"] = cat(contracts["kind"], kinds)
    contracts["colors"] = cat(contracts["colors"], ["blue", ""])
    players = pd.DataFrame({"race": np.repeat(np.arange(n_races), seats), "seat": np.tile(np.arange(1, seats + 1), n_races),
                            "bot": cat([bots[s % 2] for s in range(seats)] * n_races, bots),
                            "bet_points": 0, "contract_points": 0, "score": 0, "bets_placed": 0,
                            "contracts_discarded": 0, "won": False})
    s = LemmingMafiaStats()
    for part in split(contracts, [999, 2500]):  # chunk edges inside races
        s.add({"contracts": part})
    s.add({"players": players})
    by = s.result()["contracts_by_bot"]
    for b, bot in enumerate(bots):
        for card, name in ((0, "blue in the top 3"), (1, "winner without concrete")):
            mine = contracts[(contracts["seat"] % 2 == (b + 1) % 2) & (contracts["card"] == card)]
            per = mine.groupby("race").agg(n=("fulfilled", "size"), y=("fulfilled", "sum"))
            races = mine["race"].nunique()  # the races that dealt it to the bot's seats
            y, n = per["y"].to_numpy(float), per["n"].to_numpy(float)
            _, low, high = clustered_rate(races, y.sum(), n.sum(), (y * y).sum(), (n * n).sum(), (y * n).sum())
            r = row(by, bot=bot, contract=name)
            assert (r["fulfil_low"], r["fulfil_high"]) == pytest.approx((low, high))
            # the payoff means, clustered by race too: the interval of the cards' own values
            would = np.where(mine["fulfilled"], mine["points"], -2).astype(float)
            for column, cards in (("hold_value", slice(None)), ("discarded_would_pay", mine["discarded"].to_numpy()),
                                  ("kept_payoff", ~mine["discarded"].to_numpy())):
                m, lo, hi = clustered_mean_ci(would[cards], mine["race"].to_numpy()[cards])
                assert (r[column], r[f"{column}_low"], r[f"{column}_high"]) == pytest.approx((m, lo, hi)), column
            plain_lo, plain_hi = mean_ci(would.mean(), would.std(ddof=1), len(would))
            assert r["hold_value_high"] - r["hold_value_low"] > 1.2 * (plain_hi - plain_lo)
            wl, wh = wilson(y.sum(), n.sum())
            assert high - low > 1.5 * (wh - wl)


def test_the_unfulfilled_score_is_read_from_the_rows():
    """What a contract held and not fulfilled scores (the rule unfulfilled_contract)
    is the payoff such rows show: the payoff figures use it; rows of two rules
    cannot be added up; without such a row it is unknown (and a card's hold value
    is known only where every card was fulfilled)."""
    def rows(penalty, fulfilled=(True, False)):
        return pd.DataFrame({"race": [0, 0, 1, 1], "seat": [1, 2, 1, 2], "kind": cat(["top3"] * 4, ["top3"]),
                             "colors": cat(["blue"] * 4, ["blue"]), "points": 3, "discarded": [False, True] * 2,
                             "fulfilled": [fulfilled[0], False, fulfilled[1], True],
                             "payoff": [3 if fulfilled[0] else penalty, 0, 3 if fulfilled[1] else penalty, 0],
                             "discard_turn": [0, 5, 0, 7], "card": 0})
    s = LemmingMafiaStats()
    s.add({"contracts": rows(-4)})
    assert s.unfulfilled_payoff() == -4
    c = s.result()["contracts"].iloc[0]
    assert c["hold_value"] == pytest.approx(0.5 * 3 + 0.5 * -4)  # two of four cards fulfilled
    with pytest.raises(ValueError, match="different rules"):
        other = LemmingMafiaStats()
        other.add({"contracts": rows(-1)})
        s.merge(other).unfulfilled_payoff()
    none = LemmingMafiaStats()
    none.add({"contracts": rows(-4, fulfilled=(True, True))})
    assert np.isnan(none.unfulfilled_payoff())
