"""Who sits where when bots are compared, rated or tuned: a bot moves only among
the seats of one role (a game whose seats are alike has one role, so it visits
every seat), and the field fills the rest.

The field is given as one bot (everywhere) or as one bot per other seat, in seat
order, as the table reads with the studied bot in the first seat of its role.
As the studied bot moves through its role's seats, the field bots of that role
keep their order around it and the seats of other roles keep their bots. With one
role this is ``field[:s] + [bot] + field[s:]`` for seat ``s``."""
from __future__ import annotations

from typing import TypeVar

from analyzer.errors import AnalyzerError

T = TypeVar("T")


def role_seats(roles: list[str], role: str) -> list[int]:
    seats = [s for s, r in enumerate(roles) if r == role]
    if not seats:
        known = ", ".join(dict.fromkeys(roles))
        raise AnalyzerError(f"no seat has the role {role!r} at {len(roles)} players (roles: {known})")
    return seats


def expand_field(field: list[T], players: int, option: str = "--field") -> list[T]:
    """One bot per other seat (a single bot fills them all)."""
    if len(field) == 1:
        return field * (players - 1)
    if len(field) != players - 1:
        raise AnalyzerError(f"{option} gives {len(field)} bots, {players} players need {players - 1} (or one)")
    return list(field)


def seat_tables(bot: T, field: list[T], roles: list[str], role: str,
                option: str = "--field") -> list[tuple[int, list[T]]]:
    """For each seat of ``role``, in seat order: (seat, the table with ``bot`` there)."""
    seats = role_seats(roles, role)
    fill = expand_field(field, len(roles), option)
    base = fill[:seats[0]] + [bot] + fill[seats[0]:]
    same_role = [base[s] for s in seats[1:]]
    tables = []
    for k, seat in enumerate(seats):
        table = list(base)
        around = same_role[:k] + [bot] + same_role[k:]
        for s, b in zip(seats, around):
            table[s] = b
        tables.append((seat, table))
    return tables


def rotate_in_role(table: list[T], roles: list[str], role: str) -> list[list[T]]:
    """``table`` with the bots on ``role``'s seats rotated through those seats
    (seat ``seats[i]`` holds ``bots[(i + r) % k]`` in rotation ``r``); other seats
    keep theirs."""
    seats = role_seats(roles, role)
    bots = [table[s] for s in seats]
    k = len(seats)
    out = []
    for r in range(k):
        t = list(table)
        for i, s in enumerate(seats):
            t[s] = bots[(i + r) % k]
        out.append(t)
    return out
