"""The heuristic bots: each beats the reference random bot in its role, on the
same dice (common random numbers: every side draws its own choices from its own
stream, so swapping one seat's bot leaves the dice of every game alone).

For each bot, N five-player games with it in its seat and N with the random bot
there (same seeds, every other seat random); the win-rate difference must be
positive with |z| > 4 (a two-proportion test, unpaired: pairing would only
narrow it)."""
import math

import numpy as np
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.errors import BotError
from analyzer.games.mafia.match import MafiaMatch

GAMES = 6000
SEAT = {"hunter": 2, "warden": 2, "expander": 0, "raider": 3}  # the State sits third at 5 players


def win_rate(players, bots, seat, seed=77):
    match = MafiaMatch(None, players, [BotSpec(b) for b in bots])
    won, _ = match.outcomes(match.play(seed, 0, GAMES))
    return won[:, seat].mean()


@pytest.mark.parametrize("bot", list(SEAT))
def test_each_heuristic_bot_beats_random_in_its_role(bot):
    seat = SEAT[bot]
    field = ["random"] * 5
    with_bot = list(field)
    with_bot[seat] = bot
    a, b = win_rate(5, with_bot, seat), win_rate(5, field, seat)
    p = (a + b) / 2
    z = (a - b) / math.sqrt(p * (1 - p) * 2 / GAMES)
    assert z > 4, (bot, a, b, z)


def test_a_bot_is_refused_outside_its_role():
    with pytest.raises(BotError, match="cannot play seat 3: that seat's role is state, the bot plays family"):
        MafiaMatch(None, 5, [BotSpec("expander")] * 5)
    with pytest.raises(BotError, match="cannot play seat 1: that seat's role is family, the bot plays state"):
        MafiaMatch(None, 4, [BotSpec("hunter")] * 4)


def test_family_bots_play_the_four_player_state_move():
    won = win_rate(4, ["raider", "random", "random", "random"], 0)
    assert won > win_rate(4, ["random"] * 4, 0)
