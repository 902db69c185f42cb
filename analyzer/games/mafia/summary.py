"""The end-of-run summary of a Mafia simulation, accumulated chunk by chunk from
the record arrays (sums and counts only: memory does not grow with the number
of games)."""
from __future__ import annotations

import numpy as np

from analyzer.games.mafia import layout as L
from analyzer.stats.intervals import wilson

MEANS = ("shootouts", "arrests", "holds", "eliminations", "markers_placed", "markers_removed",
         "commission_freezes", "restaurant_explosions", "air_moves", "played_usa", "played_rome",
         "played_sisde")


class Summary:
    def __init__(self, players: int, labels: list[str], roles: list[str], seat_sides, mafia_map):
        self.players = players
        self.labels = labels
        self.roles = roles
        self.seat_sides = seat_sides
        self.map = mafia_map
        self.games = 0
        self.outcomes = np.zeros(len(L.OUTCOMES), np.int64)
        self.side_wins = np.zeros(L.N_SIDES, np.int64)
        self.passes = 0.0
        self.passes_sq = 0.0
        self.side_turns = 0.0
        self.counters = np.zeros(L.GM_LEN)
        self.spaces = np.zeros((mafia_map.n_spaces, L.SP_LEN), np.int64)
        self.base_games = np.zeros((L.N_FAMILIES, mafia_map.n_spaces), np.int64)
        self.base_wins = np.zeros((L.N_FAMILIES, mafia_map.n_spaces), np.int64)

    def add(self, chunk) -> None:
        c = chunk.view()
        g = c.games
        self.games += c.count
        self.outcomes += np.bincount(g[:, L.GM_OUTCOME], minlength=len(L.OUTCOMES))
        self.side_wins += c.sides[:, :, L.SD_WON].sum(0)
        p = g[:, L.GM_CALENDAR_TURNS].astype(np.float64)
        self.passes += p.sum()
        self.passes_sq += (p * p).sum()
        self.counters += g.sum(0)
        self.spaces += c.spaces
        for f in range(L.N_FAMILIES):
            base = c.sides[:, f, L.SD_BASE]
            self.base_games[f] += np.bincount(base, minlength=self.map.n_spaces)
            self.base_wins[f] += np.bincount(base, weights=c.sides[:, f, L.SD_WON],
                                             minlength=self.map.n_spaces).astype(np.int64)

    def seat_rows(self) -> list[dict]:
        rows = []
        n = max(self.games, 1)
        for seat, sides in enumerate(self.seat_sides):
            wins = int(sum(self.side_wins[s] for s in sides))
            low, high = wilson(np.array([wins]), self.games)
            rows.append({"seat": seat + 1, "bot": self.labels[seat], "role": self.roles[seat],
                         "sides": "+".join(L.SIDE_NAMES[s] for s in sides), "win_rate": wins / n,
                         "win_low": float(low[0]), "win_high": float(high[0])})
        return rows

    def as_dict(self) -> dict:
        n = max(self.games, 1)
        mean = self.passes / n
        bases = {}
        for f, color in enumerate(L.FAMILIES):
            bases[color] = {self.map.spaces[x].name: {"share": self.base_games[f, x] / n,
                                                      "win_rate": self.base_wins[f, x] / max(self.base_games[f, x], 1)}
                            for x in self.map.bases_of(f)}
        return {
            "games": self.games,
            "seats": self.seat_rows(),
            "outcome_share": {name: self.outcomes[i] / n for i, name in enumerate(L.OUTCOMES)},
            "calendar_turns_mean": mean,
            "calendar_turns_sd": float(np.sqrt(max(self.passes_sq / n - mean ** 2, 0.0))),
            "side_turns_mean": self.counters[L.GM_SIDE_TURNS] / n,
            "per_game": {name: self.counters[L.GM_COLUMNS.index(name)] / n for name in MEANS},
            "bases": bases,
        }

    def render(self) -> str:
        d = self.as_dict()
        from analyzer.report.text import label_width

        w = label_width((row['bot'] for row in d['seats']), 24)  # labels are never cut
        lines = [f"{'seat':<5}{'role':<8}{'sides':<14}{'bot':<{w}}{'win rate (95% CI)':<24}"]
        for row in d["seats"]:
            ci = f"{row['win_rate']:6.1%} ({row['win_low']:.1%}-{row['win_high']:.1%})"
            lines.append(f"{row['seat']:<5}{row['role']:<8}{row['sides']:<14}{row['bot']:<{w}}{ci:<24}")
        lines.append("")
        o = d["outcome_share"]
        shown = [k for k in L.OUTCOMES if o[k] > 0 or k in ("state", "draw")]
        lines.append("outcome: " + ", ".join(f"{k.replace('_', ' ')} {o[k]:.1%}" for k in shown
                                             if not (k == "state" and self.players == 4)))
        lines.append(f"game length: {d['calendar_turns_mean']:.1f} calendar turns (sd {d['calendar_turns_sd']:.1f}), "
                     f"{d['side_turns_mean']:.1f} side turns")
        pg = d["per_game"]
        lines.append(f"per game: {pg['shootouts']:.2f} shootouts, {pg['arrests']:.2f} arrests, "
                     f"{pg['holds']:.2f} holds, {pg['eliminations']:.2f} eliminations; markers placed "
                     f"{pg['markers_placed']:.2f}, removed {pg['markers_removed']:.2f}")
        lines.append(f"cards played per game: USA {pg['played_usa']:.2f}, ROME {pg['played_rome']:.2f}, "
                     f"SISDE {pg['played_sisde']:.2f}; air moves {pg['air_moves']:.2f}, "
                     f"commission freezes {pg['commission_freezes']:.2f}, restaurant explosions "
                     f"{pg['restaurant_explosions']:.2f}")
        parts = []
        for color, cities in d["bases"].items():
            parts.append(f"{color} " + ", ".join(f"{city} {v['share']:.0%} (wins {v['win_rate']:.1%})"
                                                for city, v in cities.items()))
        lines.append("bases: " + "; ".join(parts))
        return "\n".join(lines)
