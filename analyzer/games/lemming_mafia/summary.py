"""The end-of-run summary of a Lemming Mafia simulation, accumulated chunk by chunk
from the record arrays (sums and counts only, so memory does not grow with races)."""
from __future__ import annotations

import numpy as np

from analyzer.engine.jit import kernel
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.layout import N_LEMMINGS
from analyzer.stats.intervals import wilson


@kernel
def add_records(races, players, wins, score, score_sq, bet, contract, turns, eliminated,
                finish, winner, counts):
    """Add a chunk's race and player records to the running sums, in one pass. It
    runs in the main thread while the workers play the next chunk: on a machine
    with as many workers as cores, its time is taken from theirs."""
    for i in range(races.shape[0]):
        for seat in range(players.shape[1]):
            wins[seat] += players[i, seat, L.PL_WON]
            points = float(players[i, seat, L.PL_SCORE])
            score[seat] += points
            score_sq[seat] += points * points
            bet[seat] += players[i, seat, L.PL_BET_POINTS]
            contract[seat] += players[i, seat, L.PL_CONTRACT_POINTS]
        turns[races[i, L.RACE_TURNS]] += 1
        eliminated[races[i, L.RACE_N_ELIM]] += 1
        finish[races[i, L.RACE_FINISH]] += 1
        winner[races[i, L.RACE_WINNER]] += 1
        counts[0] += races[i, L.RACE_TIEBREAK]
        counts[1] += races[i, L.RACE_N_WINNERS] > 1


class Summary:
    def __init__(self, players: int, labels: list[str], sections: int):
        self.players = players
        self.labels = labels
        # every move takes a lemming at least one section on, so no race lasts longer
        self.max_turns = N_LEMMINGS * (sections + 1) + 1
        self.races = 0
        self.wins = np.zeros(players)
        self.score = np.zeros(players)
        self.score_sq = np.zeros(players)
        self.bet = np.zeros(players)
        self.contract = np.zeros(players)
        self.turns = np.zeros(self.max_turns + 1, np.int64)
        self.eliminated = np.zeros(L.N_LEMMINGS, np.int64)
        self.finish = np.zeros(len(L.FINISHES), np.int64)
        self.winner = np.zeros(L.N_LEMMINGS, np.int64)
        self.tiebreak = 0
        self.shared = 0
        self.fields = None  # landings and triggers per field, of the chunks played with detail

    def add(self, chunk) -> None:
        c = chunk.view()
        self.races += c.count
        counts = np.zeros(2, np.int64)
        add_records(c.races, c.players, self.wins, self.score, self.score_sq, self.bet,
                    self.contract, self.turns, self.eliminated, self.finish, self.winner, counts)
        self.tiebreak += int(counts[0])
        self.shared += int(counts[1])
        if c.detail:  # a chunk played for the summary only counts no fields (match.play)
            self.fields = c.fields.copy() if self.fields is None else self.fields + c.fields

    # ------------------------------------------------------------------ figures

    def seat_rows(self) -> list[dict]:
        n = max(self.races, 1)
        low, high = wilson(self.wins, self.races)
        mean = self.score / n
        var = np.maximum(self.score_sq / n - mean ** 2, 0.0)
        return [{"seat": i + 1, "bot": self.labels[i], "win_rate": self.wins[i] / n,
                 "win_low": float(low[i]), "win_high": float(high[i]),
                 "mean_score": mean[i], "score_sd": float(np.sqrt(var[i])),
                 "bet_points": self.bet[i] / n, "contract_points": self.contract[i] / n}
                for i in range(self.players)]

    def turn_stats(self) -> dict:
        t = np.arange(self.turns.size)
        n = max(self.races, 1)
        mean = float((self.turns * t).sum() / n)
        sd = float(np.sqrt(max((self.turns * t * t).sum() / n - mean ** 2, 0.0)))
        cum = np.cumsum(self.turns) / n
        return {"mean": mean, "sd": sd, "min": int(np.argmax(self.turns > 0)),
                "p5": int(np.searchsorted(cum, 0.05)), "p50": int(np.searchsorted(cum, 0.5)),
                "p95": int(np.searchsorted(cum, 0.95)), "max": int(np.flatnonzero(self.turns)[-1]) if self.races else 0}

    def as_dict(self) -> dict:
        n = max(self.races, 1)
        return {
            "races": self.races,
            "seats": self.seat_rows(),
            "turns": self.turn_stats(),
            "eliminated_mean": float((self.eliminated * np.arange(L.N_LEMMINGS)).sum() / n),
            "eliminated_share": {str(k): self.eliminated[k] / n for k in range(L.N_LEMMINGS)},
            "finish_share": {name: self.finish[i] / n for i, name in enumerate(L.FINISHES)},
            "winner_share": {c: self.winner[i] / n for i, c in enumerate(L.COLORS)},
            "tiebreak_share": self.tiebreak / n,
            "shared_win_share": self.shared / n,
        }

    def render(self) -> str:
        d = self.as_dict()
        from analyzer.report.text import label_width

        w = label_width((row['bot'] for row in d['seats']), 28)  # labels are never cut
        lines = [f"{'seat':<5}{'bot':<{w}}{'win rate (95% CI)':<24}{'mean score':>11}{'bet':>7}{'contract':>10}"]
        for row in d["seats"]:
            ci = f"{row['win_rate']:6.1%} ({row['win_low']:.1%}-{row['win_high']:.1%})"
            lines.append(f"{row['seat']:<5}{row['bot']:<{w}}{ci:<24}{row['mean_score']:>11.2f}"
                         f"{row['bet_points']:>7.2f}{row['contract_points']:>10.2f}")
        t = d["turns"]
        lines.append("")
        lines.append(f"race length: {t['mean']:.1f} moves (sd {t['sd']:.1f}; 5%-95%: {t['p5']}-{t['p95']}; "
                     f"range {t['min']}-{t['max']})")
        elim = ", ".join(f"{k}: {v:.1%}" for k, v in d["eliminated_share"].items())
        lines.append(f"eliminated lemmings: {d['eliminated_mean']:.2f} per race ({elim})")
        lines.append("finish: " + ", ".join(f"{k.replace('_', ' ')} {v:.1%}" for k, v in d["finish_share"].items()))
        lines.append("wins by lemming: " + ", ".join(f"{k} {v:.1%}" for k, v in d["winner_share"].items()))
        lines.append(f"top score tied, decided by contract points: {d['tiebreak_share']:.1%} of races; "
                     f"shared wins: {d['shared_win_share']:.1%}")
        return "\n".join(lines)
