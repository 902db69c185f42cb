"""Interventions with common random numbers: which contracts to keep and when to
bet on the leader, measured by forcing one decision each way on the same races.

The report's other contract and bet figures are hindsight: what a discarded card
would have paid had play not changed, how often a card placed at some stage was
the winner's. Bots steer the race towards the cards they hold, so hindsight
overstates (or understates) what a decision is worth. Here a race of the run
(same seed, same race index, so the same deal and dice) is played twice with one
seat's answer at one round forced each way, everything else left to the bots:

- contracts: at a boss round, *discard* the card in slot k now, against *hold* it
  to the end (never discarded from that round on); for every slot the seat still
  holds there;
- bets: at a bookmaker round, put the leading lemming's card down *now*, against
  *hold* it now (pass; the bot decides freely afterwards); when the seat still
  holds the leader's card;
- a bot's discard policy as a whole: the race *as played* against the same race
  with every discard of one seat *undone* (the seat keeps all its contracts; its
  bot is still asked, so its stream advances alike, and steers by the cards it
  still holds), for every seat whose bot discarded in the race. A seat that
  discarded nothing gains exactly 0 (both arms are the same race), so this is
  what the policy is worth per race, the figure a whole-policy ``compare`` of the
  bot against itself with discarding switched off estimates.

The gain is the forced seat's score in the first arm minus in the second. Both
arms are the same race until the forced round, every bot is still asked there
(its own stream advances alike), and the dice come from the race's stream, so
most of the luck cancels in the difference: the interval is the paired t
interval of the per-race differences (the unpaired one, from the two arms'
spreads, is given beside it to show what the pairing buys).

Where the rules let a player put down (throw away) more than one card a round
(``bets_per_bookmaker``, ``discards_per_boss``), the forcing is of the seat's
first answer of the round; its later ones there are its bot's (a card held
stays held, discards undone stay undone).

Which seat and round (contracts and bets): race i forces seat ``i mod players`` at one round drawn
uniformly from the rounds of that kind the race had (a stream keyed by
(seed, race index)); races without such a round add nothing. The race stage of a
round is the share of the track the leading lemming had crossed then, which a
player sees at the table (unlike the hindsight figures' share of the race's final
length). The forcing is a region of the kernel's private array
(``layout.F_*``, ``kernel.force_round``); ordinary runs have none and are
unchanged.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.games.lemming_mafia import kernel
from analyzer.games.lemming_mafia import layout as L
from analyzer.stats.intervals import clustered_mean_ci, mean_ci, paired_diff_ci

INTERVENTION_MAX = 10_000  # races per intervention in a report
# races for the bots' whole discard policy: a race costs one replay per seat that
# discarded (the others gain exactly 0), a tenth of the one-card experiment's cost,
# and the per-race figure needs the races (its sd is about 4 points a race: +-0.04 at 40,000 races)
POLICY_MAX = 40_000
STAGES = ((0.0, 1 / 3, "first third"), (1 / 3, 2 / 3, "middle third"), (2 / 3, 1.01, "last third"))
ALL = "all"

DISCARD_COLUMNS = ["race", "seat", "bot", "card", "stage", "bot_discarded", "score_discard", "score_hold",
                   "won_discard", "won_hold", "hindsight_gain"]
BET_COLUMNS = ["race", "seat", "bot", "stage", "bot_answer", "score_bet", "score_hold", "won_bet", "won_hold"]
POLICY_COLUMNS = ["race", "seat", "bot", "discards", "score_played", "score_kept", "won_played", "won_kept",
                  "hindsight_gain"]


class Forcer:
    """One match's arrays for playing single races with one answer forced."""

    def __init__(self, match):
        self.match = match
        self.game = match.game_array.copy()
        h_len = int(self.game[L.G_H_LEN])
        self.at = h_len
        self.game[L.G_FORCE_AT] = h_len
        self.hidden = np.zeros(h_len + L.F_LEN, np.int64)
        self.state = np.zeros(int(self.game[L.G_S_LEN]), np.int64)
        self.params = np.zeros((match.params.shape[0] + 1, match.params.shape[1]), np.float64)
        self.params[:-1] = match.params  # the working row after the seats' rows, as play_races makes it
        self.chunk = match._new_chunk(1)
        self.play_race = kernel.play_race
        self.n_sections = len(match.board.sections)

    def play(self, seed: int, index: int, what: int, seat: int, round_: int, mode: int = 0,
             slot: int = 0) -> np.ndarray:
        """Race ``index`` of ``seed`` with the forcing given; returns the forcing
        region after the race (``layout.F_*``); the race's rows are in ``chunk``."""
        region = self.hidden[self.at:]
        region[:] = 0
        region[L.F_WHAT], region[L.F_SEAT], region[L.F_ROUND] = what, seat, round_
        region[L.F_MODE], region[L.F_SLOT] = mode, slot
        c = self.chunk
        status = self.play_race(self.game, self.state, self.hidden, self.params, seed, index, c.races,
                                c.players, c.contracts, c.bets, 0)
        if status != 0:
            self.match._bot_failed((int(status) << 32) + index, index)
        return region.copy()

    def outcome(self, seat: int) -> tuple[int, int]:
        row = self.chunk.players[0, seat]
        return int(row[L.PL_SCORE]), int(row[L.PL_WON])

    def stage(self, region: np.ndarray) -> float:
        """Share of the track the leader had crossed at the forced round."""
        return float(region[L.F_LEADER_STEP]) / max(self.n_sections, 1)


def warm_job(match):
    """The compile job (``engine/warm.py``) of the interventions of a report of
    ``match``'s run: the general kernel's single race."""
    from functools import partial

    from analyzer.engine.warm import Job

    return Job(f"{match.title}: interventions", partial(_first_forced_race, match), (kernel.play_race,),
               match.compile_seconds)


def _first_forced_race(match) -> None:
    Forcer(match).play(1, 0, L.DECIDE_BET, 0, 1, L.FORCE_PASS)


def _round_of(seed: int, index: int, what: int, rounds: int) -> int:
    """The round (1-based) a race forces, uniform over its ``rounds``, from a stream
    keyed by (seed, race index, decision)."""
    return 1 + int(np.random.default_rng([int(seed), int(index), int(what)]).integers(rounds))


def discard_samples(match, seed: int, races: int, first: int = 0) -> pd.DataFrame:
    """Races ``first ..`` of ``seed``: per forced (race, slot), the seat's score with the
    card discarded at the round against held to the end (see the module)."""
    f = Forcer(match)
    deck = match.deck.array
    unfulfilled = match.rules["unfulfilled_contract"]
    rows = []
    for index in range(first, first + races):
        seat = index % match.players
        rounds = int(f.play(seed, index, L.DECIDE_DISCARD, seat, 0)[L.F_COUNT])
        if rounds == 0:
            continue
        n = _round_of(seed, index, L.DECIDE_DISCARD, rounds)
        for slot in range(match.rules["contracts_dealt"]):
            region = f.play(seed, index, L.DECIDE_DISCARD, seat, n, L.FORCE_DISCARD, slot)
            if region[L.F_REACHED] != 1:
                continue
            score_d, won_d = f.outcome(seat)
            ct = f.chunk.contracts[0, seat, slot]
            card = int(ct[L.CT_CARD])
            points = int(deck[card, L.DECK_POINTS])
            # hindsight: what the card would have paid, held, in the race where it went
            hindsight = -(points if ct[L.CT_FULFILLED] else unfulfilled)
            f.play(seed, index, L.DECIDE_DISCARD, seat, n, L.FORCE_HOLD, slot)
            score_h, won_h = f.outcome(seat)
            rows.append((index, seat + 1, match.labels[seat], card, f.stage(region),
                         int(region[L.F_BOT_ANSWER]) == slot, score_d, score_h, won_d, won_h, hindsight))
    return pd.DataFrame(rows, columns=DISCARD_COLUMNS)


def bet_samples(match, seed: int, races: int, first: int = 0) -> pd.DataFrame:
    """Races ``first ..`` of ``seed``: per forced race, the seat's score with the
    leader's card bet at the round against held then (see the module)."""
    f = Forcer(match)
    rows = []
    for index in range(first, first + races):
        seat = index % match.players
        rounds = int(f.play(seed, index, L.DECIDE_BET, seat, 0)[L.F_COUNT])
        if rounds == 0:
            continue
        n = _round_of(seed, index, L.DECIDE_BET, rounds)
        region = f.play(seed, index, L.DECIDE_BET, seat, n, L.FORCE_BET_LEADER)
        if region[L.F_REACHED] != 1:
            continue
        score_b, won_b = f.outcome(seat)
        f.play(seed, index, L.DECIDE_BET, seat, n, L.FORCE_PASS)
        score_h, won_h = f.outcome(seat)
        answer = int(region[L.F_BOT_ANSWER])
        bot_answer = "pass" if answer < 0 else ("leader" if answer == region[L.F_LEADER] else "other")
        rows.append((index, seat + 1, match.labels[seat], f.stage(region), bot_answer, score_b, score_h,
                     won_b, won_h))
    return pd.DataFrame(rows, columns=BET_COLUMNS)


def policy_samples(match, seed: int, races: int, first: int = 0) -> pd.DataFrame:
    """Races ``first ..`` of ``seed``: per race and seat, the seat's score as played
    against with all its discards undone, and the hindsight gain of the same
    discards (what the discarded cards would have paid, had play not changed, with
    the sign of a gain); see the module."""
    f = Forcer(match)
    deck = match.deck.array
    unfulfilled = match.rules["unfulfilled_contract"]
    rows = []
    for index in range(first, first + races):
        f.play(seed, index, L.DECIDE_DISCARD, 0, 0)  # round 0: nothing forced, the race as played
        played = f.chunk.players[0].copy()
        contracts = f.chunk.contracts[0].copy()
        for seat in range(match.players):
            score, won = int(played[seat, L.PL_SCORE]), int(played[seat, L.PL_WON])
            discards = int(played[seat, L.PL_DISCARDED])
            hindsight, score_k, won_k = 0, score, won  # no discard: the same race both ways
            if discards:
                for ct in contracts[seat]:
                    if ct[L.CT_DISCARDED]:
                        hindsight -= int(deck[int(ct[L.CT_CARD]), L.DECK_POINTS]) if ct[L.CT_FULFILLED] \
                            else unfulfilled
                f.play(seed, index, L.DECIDE_DISCARD, seat, 1, L.FORCE_KEEP_ALL)
                score_k, won_k = f.outcome(seat)
            rows.append((index, seat + 1, match.labels[seat], discards, score, score_k, won, won_k, hindsight))
    return pd.DataFrame(rows, columns=POLICY_COLUMNS)


# ---------------------------------------------------------------- summaries

def gain_row(a: np.ndarray, b: np.ndarray, race=None) -> dict:
    """Mean of ``a - b`` (paired arms of the same races) with its paired t interval,
    and the interval the same arms would give as two independent samples. With
    ``race`` (the race of each pair; several cards of one race are not independent)
    the paired interval is clustered by race."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    n = len(a)
    gain, low, high = (clustered_mean_ci(a - b, race) if race is not None else paired_diff_ci(a - b)) if n \
        else (np.nan, np.nan, np.nan)
    spread = np.sqrt(np.var(a, ddof=1) + np.var(b, ddof=1)) if n > 1 else np.nan
    u_low, u_high = mean_ci(gain, spread, n) if n > 1 else (np.nan, np.nan)
    return {"n": n, "gain": float(gain), "low": float(low), "high": float(high),
            "unpaired_low": float(u_low), "unpaired_high": float(u_high)}


def _stage_groups(df: pd.DataFrame):
    yield ALL, 0.0, 1.0, df
    for lo, hi, name in STAGES:
        yield name, lo, min(hi, 1.0), df[(df["stage"] >= lo) & (df["stage"] < hi)]


def _bot_groups(df: pd.DataFrame):
    yield ALL, df
    bots = list(dict.fromkeys(df["bot"]))
    if len(bots) > 1:
        for b in bots:
            yield b, df[df["bot"] == b]


def contract_table(samples: pd.DataFrame, contract_name) -> pd.DataFrame:
    """Per bot (all pooled first), contract and stage: the gain of discarding the card
    rather than holding it to the end, paired and unpaired intervals, and the
    hindsight gain of the same forced discards. ``contract_name(card)`` names a card."""
    rows = []
    if len(samples):
        samples = samples.assign(contract=[contract_name(int(c)) for c in samples["card"]])
    for bot, by_bot in _bot_groups(samples):
        for contract in [ALL] + sorted(set(by_bot["contract"])) if len(by_bot) else []:
            part = by_bot if contract == ALL else by_bot[by_bot["contract"] == contract]
            for stage, lo, hi, s in _stage_groups(part):
                g = gain_row(s["score_discard"], s["score_hold"], s["race"])
                h = clustered_mean_ci(s["hindsight_gain"], s["race"]) if len(s) else (np.nan,) * 3
                rows.append({"bot": bot, "contract": contract, "stage": stage, "stage_from": lo, "stage_to": hi,
                             **g, "hindsight_gain": float(h[0]), "hindsight_low": float(h[1]),
                             "hindsight_high": float(h[2])})
    return pd.DataFrame(rows, columns=["bot", "contract", "stage", "stage_from", "stage_to", "n", "gain", "low",
                                       "high", "unpaired_low", "unpaired_high", "hindsight_gain",
                                       "hindsight_low", "hindsight_high"])


def policy_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Per bot (all seats pooled first): what its own discards gained per race by
    intervention (as played minus discards undone, clustered by race), in points and
    win rate, against the hindsight figure of the same discards and the hindsight
    bias (hindsight minus intervention, per race, with its interval)."""
    rows = []
    for bot, s in _bot_groups(samples):
        g = gain_row(s["score_played"], s["score_kept"], s["race"])
        empty = (np.nan,) * 3
        w = clustered_mean_ci(s["won_played"].astype(float) - s["won_kept"], s["race"]) if len(s) else empty
        h = clustered_mean_ci(s["hindsight_gain"], s["race"]) if len(s) else empty
        bias = clustered_mean_ci(s["hindsight_gain"] - (s["score_played"] - s["score_kept"]), s["race"]) \
            if len(s) else empty
        rows.append({"bot": bot, "seats": ",".join(str(x) for x in sorted(set(s["seat"]))), **g,
                     "win_gain": float(w[0]), "win_low": float(w[1]), "win_high": float(w[2]),
                     "discards": float(s["discards"].mean()) if len(s) else np.nan,
                     "races_with_discard": float((s["discards"] > 0).mean()) if len(s) else np.nan,
                     "hindsight_gain": float(h[0]), "hindsight_low": float(h[1]), "hindsight_high": float(h[2]),
                     "bias": float(bias[0]), "bias_low": float(bias[1]), "bias_high": float(bias[2])})
    return pd.DataFrame(rows, columns=POLICY_TABLE_COLUMNS)


POLICY_TABLE_COLUMNS = ["bot", "seats", "n", "gain", "low", "high", "unpaired_low", "unpaired_high", "win_gain", "win_low",
                        "win_high", "discards", "races_with_discard", "hindsight_gain", "hindsight_low",
                        "hindsight_high", "bias", "bias_low", "bias_high"]


def bet_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Per bot (all pooled first) and stage: the gain of betting the leader's card now
    rather than holding it then, in points and in win rate."""
    rows = []
    for bot, by_bot in _bot_groups(samples):
        for stage, lo, hi, s in _stage_groups(by_bot):
            g = gain_row(s["score_bet"], s["score_hold"])
            w = paired_diff_ci(s["won_bet"].astype(float) - s["won_hold"]) if len(s) else (np.nan,) * 3
            rows.append({"bot": bot, "stage": stage, "stage_from": lo, "stage_to": hi, **g,
                         "win_gain": float(w[0]), "win_low": float(w[1]), "win_high": float(w[2]),
                         "bot_bet_leader": float((s["bot_answer"] == "leader").mean()) if len(s) else np.nan})
    return pd.DataFrame(rows, columns=["bot", "stage", "stage_from", "stage_to", "n", "gain", "low", "high",
                                       "unpaired_low", "unpaired_high", "win_gain", "win_low", "win_high",
                                       "bot_bet_leader"])


def intervention_tables(match, seed: int, races: int, policy_races: int | None = None) -> dict[str, pd.DataFrame]:
    """The report's intervention tables for ``races`` races of ``seed`` (``policy_races``
    for the bots' own discards, default ``races``)."""
    from analyzer.games.lemming_mafia.stats import _contract_name

    names = {i: _contract_name(kind, ",".join(colors)) for i, (kind, colors, _) in enumerate(match.deck.cards)}
    d = discard_samples(match, seed, races)
    b = bet_samples(match, seed, races)
    return {"intervention_contracts": contract_table(d, names.__getitem__),
            "intervention_discard_policy": policy_table(policy_samples(match, seed, races if policy_races is None else policy_races)),
            "intervention_bets": bet_table(b)}
