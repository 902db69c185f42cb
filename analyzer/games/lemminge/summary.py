"""The end-of-run summary of a Lemminge simulation, accumulated chunk by chunk
from the record arrays (sums and histograms only: memory does not grow with
the number of games)."""
from __future__ import annotations

import numpy as np

from analyzer.games.lemminge import layout as L
from analyzer.stats.intervals import wilson

PER_SEAT = (("finished", L.PL_FINISHED), ("refills", L.PL_REFILLS), ("moves", L.PL_MOVES),
            ("steps", L.PL_STEPS), ("pushes_made", L.PL_PUSHES_MADE), ("pushed", L.PL_PUSHED),
            ("new_columns", L.PL_NEW_COLUMNS), ("tiles_placed", L.PL_TILES_PLACED))


class Summary:
    def __init__(self, players: int, labels: list[str], n_cells: int):
        self.players = players
        self.labels = labels
        self.games = 0
        self.wins = np.zeros(players, np.int64)
        self.sums = np.zeros((players, len(PER_SEAT)), np.int64)
        self.turns = np.zeros(L.MAX_TURNS + 1, np.int64)  # histogram of game length
        self.capped = 0
        self.reshuffles = 0
        self.hexes = np.zeros((n_cells, L.HX_LEN), np.int64)

    def add(self, chunk) -> None:
        c = chunk.view()
        self.games += c.count
        self.wins += c.players[:, :, L.PL_WON].sum(0)
        for k, (_, col) in enumerate(PER_SEAT):
            self.sums[:, k] += c.players[:, :, col].sum(0)
        self.turns += np.bincount(c.games[:, L.GM_TURNS], minlength=L.MAX_TURNS + 1)
        self.capped += int(c.games[:, L.GM_CAPPED].sum())
        self.reshuffles += int(c.games[:, L.GM_RESHUFFLES].sum())
        self.hexes += c.hexes

    def length(self) -> dict:
        n = max(self.games, 1)
        t = np.arange(len(self.turns))
        mean = float((t * self.turns).sum() / n)
        sd = float(np.sqrt(max((t * t * self.turns).sum() / n - mean ** 2, 0.0)))
        cdf = np.cumsum(self.turns) / n
        played = np.nonzero(self.turns)[0]
        return {"mean": mean, "sd": sd, "p05": int(np.searchsorted(cdf, 0.05)),
                "p95": int(np.searchsorted(cdf, 0.95)),
                "min": int(played[0]) if len(played) else 0, "max": int(played[-1]) if len(played) else 0}

    def seat_rows(self) -> list[dict]:
        n = max(self.games, 1)
        low, high = wilson(self.wins, self.games)
        return [{"seat": i + 1, "bot": self.labels[i], "win_rate": self.wins[i] / n,
                 "win_low": float(low[i]), "win_high": float(high[i]),
                 **{name: self.sums[i, k] / n for k, (name, _) in enumerate(PER_SEAT)}}
                for i in range(self.players)]

    def as_dict(self) -> dict:
        n = max(self.games, 1)
        return {"games": self.games, "seats": self.seat_rows(), "turns": self.length(),
                "capped_share": self.capped / n, "reshuffles_mean": self.reshuffles / n}

    def render(self) -> str:
        d = self.as_dict()
        from analyzer.report.text import label_width

        w = label_width((row['bot'] for row in d['seats']), 24)  # labels are never cut
        lines = [f"{'seat':<5}{'bot':<{w}}{'win rate (95% CI)':<24}{'home':>6}{'moves':>7}{'refills':>8}"
                 f"{'steps':>7}{'pushes':>7}{'pushed':>7}{'columns':>8}{'tiles':>6}"]
        for r in d["seats"]:
            ci = f"{r['win_rate']:6.1%} ({r['win_low']:.1%}-{r['win_high']:.1%})"
            lines.append(f"{r['seat']:<5}{r['bot']:<{w}}{ci:<24}{r['finished']:>6.2f}{r['moves']:>7.1f}"
                         f"{r['refills']:>8.1f}{r['steps']:>7.1f}{r['pushes_made']:>7.2f}{r['pushed']:>7.2f}"
                         f"{r['new_columns']:>8.2f}{r['tiles_placed']:>6.2f}")
        t = d["turns"]
        lines.append("")
        lines.append(f"game length: {t['mean']:.1f} turns (sd {t['sd']:.1f}; 5%-95%: {t['p05']}-{t['p95']}; "
                     f"range {t['min']}-{t['max']}), refills included; draw pile reshuffles: "
                     f"{d['reshuffles_mean']:.2f} per game"
                     + (f"; stopped at the {L.MAX_TURNS}-turn cap: {d['capped_share']:.2%}" if self.capped else ""))
        lines.append("per seat and game: lemmings home, cards played (moves), refills, hexes stepped, "
                     "lemmings pushed and pushed back, new columns, tiles placed")
        return "\n".join(lines)
