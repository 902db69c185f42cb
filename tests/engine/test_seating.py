"""Roles: bots move only among the seats of their role, the field keeps the
others; a bot is refused in a role it cannot play (one line)."""
import numpy as np
import pytest

from analyzer.engine.bots import BotFamily, BotRegistry
from analyzer.engine.botspec import BotSpec
from analyzer.engine.compare import compare
from analyzer.engine.match import PooledMatch
from analyzer.engine.seating import rotate_in_role, seat_tables
from analyzer.engine.tournament import tournament
from analyzer.errors import AnalyzerError, BotError

ROLES = ["family", "family", "state", "family", "family"]


def test_one_role_visits_every_seat_with_the_field_in_order():
    tables = seat_tables("A", ["f1", "f2", "f3"], ["player"] * 4, "player")
    assert tables == [(0, ["A", "f1", "f2", "f3"]), (1, ["f1", "A", "f2", "f3"]),
                      (2, ["f1", "f2", "A", "f3"]), (3, ["f1", "f2", "f3", "A"])]


def test_a_role_keeps_the_other_roles_seats():
    # the field as the table reads with A in the first family seat: seats 2-5
    tables = seat_tables("A", ["f1", "S", "f3", "f4"], ROLES, "family")
    assert [seat for seat, _ in tables] == [0, 1, 3, 4]
    for seat, table in tables:
        assert table[2] == "S"
        assert table[seat] == "A"
        assert [b for s, b in enumerate(table) if s not in (2, seat)] == ["f1", "f3", "f4"]
    assert seat_tables("H", ["f1", "f2", "f3", "f4"], ROLES, "state") == [(2, ["f1", "f2", "H", "f3", "f4"])]


def test_rotation_in_a_role():
    rotated = rotate_in_role(["a", "b", "S", "c", "d"], ROLES, "family")
    assert rotated[1] == ["b", "c", "S", "d", "a"]
    assert all(t[2] == "S" for t in rotated) and len(rotated) == 4
    with pytest.raises(AnalyzerError, match="no seat has the role 'police'"):
        rotate_in_role(["a"] * 5, ROLES, "police")


# a game of sides in plain Python: the state bot "hunter" wins whenever it sits at
# the table; otherwise the family bot "boss" wins; seat 1 breaks other ties

FAMILIES = {
    "hunter": BotFamily("hunter", 1, "state bot", roles=("state",)),
    "boss": BotFamily("boss", 2, "family bot", roles=("family",)),
    "thug": BotFamily("thug", 3, "family bot", roles=("family",)),
    "any": BotFamily("any", 4, "plays both", roles=("state", "family")),
}
REGISTRY = BotRegistry(FAMILIES, 1)


class Chunk:
    def __init__(self, first, count):
        self.first, self.count = first, count


class SidesMatch(PooledMatch):
    game, title, unit, tables = "sides", "Sides", "games", ()

    @classmethod
    def seat_roles(cls, players):
        return ROLES[:players]

    def __init__(self, players, bots):
        super().__init__(REGISTRY, players, bots)

    def warm_up(self, detail=True):
        pass

    def _new_chunk(self, capacity):
        return Chunk(0, 0)

    def _play_into(self, chunk, seed, first, count):
        return 0

    def describe(self):
        return {"game": self.game, "unit": self.unit, "players": self.players, "bots": self.bots_described()}

    def outcomes(self, chunk):
        names = [f.name for f in self.families]
        won = np.zeros((chunk.count, self.players), bool)
        winner = names.index("boss") if "boss" in names else 0
        won[:, winner] = True
        return won, won.astype(np.int64)


def test_a_bot_cannot_sit_in_a_role_it_cannot_play():
    with pytest.raises(BotError, match="cannot play seat 3: that seat's role is state"):
        SidesMatch(5, [BotSpec("boss")] * 5)
    SidesMatch(5, [BotSpec("boss")] * 2 + [BotSpec("hunter")] + [BotSpec("thug")] * 2)


def test_compare_rotates_among_the_family_seats_only():
    field = [BotSpec("thug"), BotSpec("hunter"), BotSpec("thug"), BotSpec("thug")]
    result = compare(lambda table: SidesMatch(5, table), BotSpec("boss"), BotSpec("thug"), field, 5,
                     400, 1, threads=1, roles=ROLES, role="family")
    assert result.seats == [0, 1, 3, 4]
    assert result.win.n == 400
    assert result.win.mean_a == 1.0  # boss wins wherever it sits
    assert result.win.mean_b == 0.25  # among thugs, seat 1 wins: a quarter of the family seats


def test_tournament_rates_the_bots_of_one_role_against_a_field():
    result = tournament(lambda table: SidesMatch(5, table), [BotSpec("boss"), BotSpec("thug")], 5, 800, 1,
                        threads=1, roles=ROLES, role="family", field=[BotSpec("hunter")])
    assert result.places == [0, 1, 3, 4] and result.seat_numbers == [1, 2, 4, 5]
    assert result.ratings.elo[0] > result.ratings.elo[1]
    with pytest.raises(AnalyzerError, match="--field must name their bots"):
        tournament(lambda table: SidesMatch(5, table), [BotSpec("boss"), BotSpec("thug")], 5, 800, 1,
                   threads=1, roles=ROLES, role="family")
