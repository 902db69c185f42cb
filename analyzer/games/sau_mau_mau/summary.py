"""The end-of-run summary of a Sau Mau Mau simulation, accumulated chunk by
chunk from the record arrays (sums and counts only: memory does not grow with
the number of games)."""
from __future__ import annotations

import numpy as np

from analyzer.games.sau_mau_mau import layout as L
from analyzer.stats.intervals import wilson


class Summary:
    def __init__(self, players: int, labels: list[str], races_per_game: int = 4):
        self.players = players
        self.labels = labels
        self.races_per_game = races_per_game  # the rules' (four in the box)
        self.games = 0
        self.wins = np.zeros(players)
        self.total = np.zeros(players)
        self.total_sq = np.zeros(players)
        self.points = np.zeros((players, 3))  # bet, crown, hand points summed over races
        self.bets_placed = np.zeros(players)
        self.bets_changed = np.zeros(players)
        self.ends = np.zeros(len(L.ENDS), np.int64)
        self.both = 0
        self.turns = 0
        self.turns_sq = 0
        self.queue = 0
        self.pig_wins = np.zeros(L.N_PIGS, np.int64)
        self.shared = 0  # races won by several pigs

    def add(self, chunk) -> None:
        c = chunk.view()
        self.games += c.count
        g = c.games
        self.wins += g[:, :, L.GM_WON].sum(0)
        total = g[:, :, L.GM_TOTAL].astype(np.float64)
        self.total += total.sum(0)
        self.total_sq += (total * total).sum(0)
        pl = c.players
        for k, col in enumerate((L.PL_BET_POINTS, L.PL_CROWN_POINTS, L.PL_HAND_POINTS)):
            self.points[:, k] += pl[:, :, :, col].sum((0, 1))
        self.bets_placed += pl[:, :, :, L.PL_BETS_PLACED].sum((0, 1))
        self.bets_changed += pl[:, :, :, L.PL_BETS_CHANGED].sum((0, 1))
        r = c.races.reshape(-1, L.RACE_LEN)
        self.ends += np.bincount(r[:, L.RACE_END], minlength=len(L.ENDS))
        self.both += int(r[:, L.RACE_BOTH].sum())
        turns = r[:, L.RACE_TURNS].astype(np.float64)
        self.turns += turns.sum()
        self.turns_sq += (turns * turns).sum()
        self.queue += int(r[:, L.RACE_QUEUE_LEN].sum())
        mask = r[:, L.RACE_WINNING]
        for p in range(L.N_PIGS):
            self.pig_wins[p] += int((mask >> p & 1).sum())
        self.shared += int((np.bitwise_count(mask.astype(np.uint64)) > 1).sum())

    @property
    def races(self) -> int:
        return self.games * self.races_per_game

    def seat_rows(self) -> list[dict]:
        n = max(self.games, 1)
        low, high = wilson(self.wins, self.games)
        mean = self.total / n
        sd = np.sqrt(np.maximum(self.total_sq / n - mean ** 2, 0.0))
        per_race = self.points / max(self.races, 1)
        return [{"seat": i + 1, "bot": self.labels[i], "win_rate": self.wins[i] / n,
                 "win_low": float(low[i]), "win_high": float(high[i]), "mean_total": mean[i],
                 "total_sd": float(sd[i]), "bet_points": per_race[i, 0], "crown_points": per_race[i, 1],
                 "hand_points": per_race[i, 2], "bets_placed": self.bets_placed[i] / max(self.races, 1),
                 "bets_changed": self.bets_changed[i] / max(self.races, 1)}
                for i in range(self.players)]

    def as_dict(self) -> dict:
        r = max(self.races, 1)
        mean = self.turns / r
        return {
            "games": self.games,
            "races": self.races,
            "seats": self.seat_rows(),
            "turns_mean": mean,
            "turns_sd": float(np.sqrt(max(self.turns_sq / r - mean ** 2, 0.0))),
            "end_share": {name: self.ends[i] / r for i, name in enumerate(L.ENDS)},
            "both_ends_share": self.both / r,
            "queue_length_mean": self.queue / r,
            "pig_win_share": {pig: self.pig_wins[i] / r for i, pig in enumerate(L.PIGS)},
            "shared_pig_win_share": self.shared / r,
        }

    def render(self) -> str:
        d = self.as_dict()
        from analyzer.report.text import label_width

        w = label_width((row['bot'] for row in d['seats']), 26)  # labels are never cut
        lines = [f"{'seat':<5}{'bot':<{w}}{'game win rate (95% CI)':<26}{'total':>7}"
                 f"{'per race: bet':>15}{'crown':>7}{'hand':>6}{'bets':>6}{'changes':>9}"]
        for row in d["seats"]:
            ci = f"{row['win_rate']:6.1%} ({row['win_low']:.1%}-{row['win_high']:.1%})"
            lines.append(f"{row['seat']:<5}{row['bot']:<{w}}{ci:<26}{row['mean_total']:>7.2f}"
                         f"{row['bet_points']:>15.2f}{row['crown_points']:>7.2f}{row['hand_points']:>6.2f}"
                         f"{row['bets_placed']:>6.2f}{row['bets_changed']:>9.2f}")
        e = d["end_share"]
        lines.append("")
        lines.append(f"races: {d['races']:,} ({d['games']:,} games of {self.races_per_game}); length {d['turns_mean']:.1f} turns "
                     f"(sd {d['turns_sd']:.1f}); bets in the queue at the end: {d['queue_length_mean']:.2f}")
        lines.append(f"race end: crown {e['crown']:.1%}, empty hand {e['hand']:.1%} (both at once "
                     f"{d['both_ends_share']:.1%})" + (f", stopped at the turn cap {e['cap']:.2%}" if e["cap"] else ""))
        lines.append("race wins by pig: " + ", ".join(f"{k} {v:.1%}" for k, v in d["pig_win_share"].items())
                     + f"; several pigs share the win in {d['shared_pig_win_share']:.1%} of races")
        return "\n".join(lines)
