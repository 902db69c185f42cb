"""Loading and validating a Mafia map (the format of ``data/assumed-default.toml``,
described in its header), and the table of every move a piece can make on it.

Every problem ends in one ``InputFileError`` line naming the file and, where
there is one, the space.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.engine.datafile import content_digest, one_line_name, read_toml
from analyzer.engine.jit import USER_KIND_BASE
from analyzer.errors import InputFileError
from analyzer.games.mafia import layout as L
from analyzer.games.mafia import ruleset
from analyzer.games.mafia.ruleset import faces_mask

MAP_KEYS = {"name", "note", "assumed", "ring", "bar", "prefect_start", "sisde_start", "state_return"}
SPACE_KEYS = {"id", "name", "type", "trigger", "airport", "open_to"}
RETURN_KEYS = ("continent", "prison", "barracks")
RING, BAR_FWD, BAR_BACK, RING_EXIT = range(4)  # how a walking piece goes on (see paths_from)


def default_map_path() -> Path:
    return Path(str(resources.files("analyzer.games.mafia") / "data" / "assumed-default.toml"))


@dataclass(frozen=True)
class Space:
    id: int
    name: str
    type: int
    trigger: tuple[int, ...]
    airport: bool
    open_to: tuple[int, ...]  # family indices


@dataclass(frozen=True)
class MafiaMap:
    name: str
    source: str
    assumed: bool
    spaces: tuple[Space, ...]
    ring: tuple[int, ...]
    bar: tuple[int, ...]  # junction, central spaces..., junction
    prefect_start: int
    sisde_start: int
    state_return: int
    returns: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # continent, prison, barracks faces

    @property
    def n_spaces(self) -> int:
        return len(self.spaces)

    @property
    def roadblocks(self) -> list[int]:
        return [s.id for s in self.spaces if s.type == L.ROADBLOCK]

    @property
    def cities(self) -> list[int]:
        return [s.id for s in self.spaces if s.type == L.CITY]

    @property
    def markable_spaces(self) -> int:
        """Spaces that can hold a control marker (the cities never do; an Anti-mafia
        operation never turns a space into a city)."""
        return self.n_spaces - len(self.cities)

    def bases_of(self, family: int) -> list[int]:
        return [s.id for s in self.spaces if s.type == L.CITY and family in s.open_to]

    def content(self) -> dict:
        return {"ring": list(self.ring), "bar": list(self.bar), "prefect_start": self.prefect_start,
                "sisde_start": self.sisde_start, "state_return": self.state_return,
                "returns": [list(r) for r in self.returns],
                "spaces": [[s.id, s.type, list(s.trigger), s.airport, list(s.open_to)] for s in self.spaces]}

    def digest(self) -> str:
        return content_digest(self.content())

    def detail(self) -> str:
        return f"{self.n_spaces} spaces, ring of {len(self.ring)}, bar of {len(self.bar) - 2}"

    # -------------------------------------------------------------- moves
    def next_steps(self, space: int, mode: int, first: bool, air: bool) -> list[tuple[int, int, bool]]:
        """(next space, mode after the step, the step is a flight) of one step."""
        ring_next = {a: self.ring[(i + 1) % len(self.ring)] for i, a in enumerate(self.ring)}
        bar = self.bar
        pos = {x: i for i, x in enumerate(bar)}
        out = []
        central = space in pos and 0 < pos[space] < len(bar) - 1
        if central:
            i = pos[space]
            dirs = (BAR_FWD, BAR_BACK) if first else (mode,)
            for d in dirs:
                j = i + 1 if d == BAR_FWD else i - 1
                end = j in (0, len(bar) - 1)
                out.append((bar[j], RING_EXIT if end else d, False))
        else:
            out.append((ring_next[space], RING, False))
            if mode == RING:  # on a junction walking the ring (or starting there): it may turn in
                if space == bar[0]:
                    out.append((bar[1], RING_EXIT if len(bar) == 2 else BAR_FWD, False))
                if space == bar[-1]:
                    out.append((bar[-2], RING_EXIT if len(bar) == 2 else BAR_BACK, False))
        if first and air and self.spaces[space].airport:
            for s in self.spaces:
                if s.airport and s.id != space:
                    out.append((s.id, RING, True))
        return out

    def paths_from(self, space: int, steps: int, air: bool) -> list[tuple[tuple[int, ...], bool]]:
        """Every path (the spaces entered, in order; whether it flew) of exactly
        ``steps`` steps from ``space``; a path is its sequence of spaces, so
        branches and the air link give separate paths."""
        out: list[tuple[tuple[int, ...], bool]] = []

        def walk(at, mode, left, seq, flew):
            if left == 0:
                out.append((tuple(seq), flew))
                return
            for nxt, m, flight in self.next_steps(at, mode, not seq, air):
                walk(nxt, m, left - 1, seq + [nxt], flew or flight)

        walk(space, RING, steps, [], False)
        seen, unique = set(), []
        for p in out:
            if p[0] not in seen:
                seen.add(p[0])
                unique.append(p)
        return unique

    def path_table(self) -> np.ndarray:
        """[space, steps 0-12, air 0/1, 1 + 2 * max paths]: count, then (end, flew) per path."""
        table = {(x, k, a): self.paths_from(x, k, bool(a))
                 for x in range(self.n_spaces) for k in range(1, L.MAX_STEPS + 1) for a in (0, 1)}
        widest = max(len(v) for v in table.values())
        arr = np.zeros((self.n_spaces, L.MAX_STEPS + 1, 2, 1 + 2 * widest), np.int64)
        for (x, k, a), paths in table.items():
            arr[x, k, a, 0] = len(paths)
            for i, (seq, flew) in enumerate(paths):
                arr[x, k, a, 1 + 2 * i] = seq[-1]
                arr[x, k, a, 2 + 2 * i] = int(flew)
        return arr


def _faces(value, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise InputFileError(f"{where} must be a non-empty list of die faces 1-6, got {value!r}")
    for f in value:
        if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6:
            raise InputFileError(f"{where} has a die face outside 1-6: {f!r}")
    if len(set(value)) != len(value):
        raise InputFileError(f"{where} lists a die face twice: {value!r}")
    return tuple(sorted(value))


def _int(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputFileError(f"{where} must be a whole number, got {value!r}")
    return value


def parse_map(data: dict, where: str) -> MafiaMap:
    unknown = set(data) - {"map", "returns", "spaces"}
    if unknown:
        raise InputFileError(f"{where}: unknown table(s) {', '.join(sorted(unknown))} "
                             "(expected [map], [returns], [[spaces]])")
    table = data.get("map")
    if not isinstance(table, dict):
        raise InputFileError(f"{where}: no [map] table")
    unknown = set(table) - MAP_KEYS
    if unknown:
        raise InputFileError(f"{where}: unknown key(s) in [map]: {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(sorted(MAP_KEYS))})")
    raw_spaces = data.get("spaces")
    if not isinstance(raw_spaces, list) or not raw_spaces:
        raise InputFileError(f"{where}: no [[spaces]]")
    if len(raw_spaces) > L.MAX_SPACES:
        raise InputFileError(f"{where}: {len(raw_spaces)} spaces, at most {L.MAX_SPACES} are supported")
    spaces: dict[int, Space] = {}
    for k, raw in enumerate(raw_spaces):
        if not isinstance(raw, dict):
            raise InputFileError(f"{where}: [[spaces]] entry {k + 1} is not a table")
        sid = raw.get("id")
        label = f"{where}: space {sid!r}" + (f" ({raw['name']})" if isinstance(raw.get("name"), str) else "")
        unknown = set(raw) - SPACE_KEYS
        if unknown:
            raise InputFileError(f"{label}: unknown key(s) {', '.join(sorted(unknown))} "
                                 f"(known: {', '.join(sorted(SPACE_KEYS))})")
        sid = _int(sid, f"{where}: [[spaces]] entry {k + 1}: id")
        if sid in spaces:
            raise InputFileError(f"{label}: id {sid} is used twice")
        name = raw.get("name", f"space {sid}")
        if not isinstance(name, str):
            raise InputFileError(f"{label}: name must be a string")
        kind = raw.get("type")
        if kind not in L.SPACE_TYPES:
            raise InputFileError(f"{label}: unknown type {kind!r} (known: {', '.join(L.SPACE_TYPES)})")
        t = L.SPACE_TYPES.index(kind)
        trigger: tuple[int, ...] = ()
        if t in L.TRIGGERED:
            if "trigger" not in raw:
                raise InputFileError(f"{label}: a {kind} needs a trigger (die faces 1-6)")
            trigger = _faces(raw["trigger"], f"{label}: trigger")
        elif "trigger" in raw:
            raise InputFileError(f"{label}: a {kind} has no trigger")
        airport = raw.get("airport", False)
        if not isinstance(airport, bool):
            raise InputFileError(f"{label}: airport must be true or false")
        if airport and t != L.CITY:
            raise InputFileError(f"{label}: an airport must be a city")
        open_to: tuple[int, ...] = ()
        if t == L.CITY:
            raw_open = raw.get("open_to")
            if not isinstance(raw_open, list) or not raw_open:
                raise InputFileError(f"{label}: a city needs open_to, the families that may choose it as "
                                     f"base (a base no family may choose)")
            for c in raw_open:
                if c not in L.FAMILIES:
                    raise InputFileError(f"{label}: open_to names {c!r}, not a family "
                                         f"({', '.join(L.FAMILIES)})")
            open_to = tuple(sorted({L.FAMILIES.index(c) for c in raw_open}))
        elif "open_to" in raw:
            raise InputFileError(f"{label}: open_to is for cities only")
        spaces[sid] = Space(sid, name, t, trigger, airport, open_to)
    n = len(spaces)
    if sorted(spaces) != list(range(n)):
        missing = min(set(range(n)) - set(spaces))
        raise InputFileError(f"{where}: space ids must be 0-{n - 1}; space {missing} is missing")
    names = {s.id: s.name for s in spaces.values()}

    def sp(i) -> str:
        return f"space {i} ({names[i]})" if on_map(i) else f"space {i!r}"

    def on_map(x) -> bool:  # a space id is a whole number (not 0.0, true or a list) of a space
        return isinstance(x, int) and not isinstance(x, bool) and x in spaces

    ring = table.get("ring")
    if not isinstance(ring, list) or len(ring) < 3:
        raise InputFileError(f"{where}: [map] ring must list the ring's space ids clockwise (at least 3)")
    for x in ring:
        if not on_map(x):
            raise InputFileError(f"{where}: the ring names {sp(x)}, which is not on the map")
    seen = set()
    for x in ring:
        if x in seen:
            raise InputFileError(f"{where}: the ring is not a cycle: {sp(x)} appears twice")
        seen.add(x)
    bar = table.get("bar")
    if not isinstance(bar, list) or len(bar) < 3:
        raise InputFileError(f"{where}: [map] bar must list a ring junction, the central space ids in "
                             "order and the other ring junction")
    for x in bar:
        if not on_map(x):
            raise InputFileError(f"{where}: the bar names {sp(x)}, which is not on the map")
    for end in (bar[0], bar[-1]):
        if end not in seen:
            raise InputFileError(f"{where}: the bar does not join the ring: its end {sp(end)} is not on the ring")
    if bar[0] == bar[-1]:
        raise InputFileError(f"{where}: the bar does not join the ring: both ends are {sp(bar[0])}")
    central = bar[1:-1]
    for x in central:
        if x in seen:
            raise InputFileError(f"{where}: the bar's central {sp(x)} is also on the ring")
    if len(set(central)) != len(central):
        raise InputFileError(f"{where}: the bar names a central space twice")
    on_paths = seen | set(central)
    for x in range(n):
        if x not in on_paths:
            raise InputFileError(f"{where}: {sp(x)} is neither on the ring nor on the bar")
    for s in spaces.values():
        if s.airport and s.id not in seen:
            raise InputFileError(f"{where}: {sp(s.id)}: an airport must be on the ring")
    cities = [s for s in spaces.values() if s.type == L.CITY]
    if not cities:
        raise InputFileError(f"{where}: the map has no city")
    airports = [s.id for s in spaces.values() if s.airport]
    if len(airports) != 2:
        raise InputFileError(f"{where}: the map needs two airports (cities linked by air), it has "
                             f"{len(airports)}")
    for f, color in enumerate(L.FAMILIES):
        if not any(f in s.open_to for s in cities):
            raise InputFileError(f"{where}: no city is open to the {color} family as base")
    roadblocks = [s.id for s in spaces.values() if s.type == L.ROADBLOCK]
    if len(roadblocks) != L.N_CC:
        raise InputFileError(f"{where}: the map needs {L.N_CC} roadblocks (one Carabiniere starts on each), "
                             f"it has {len(roadblocks)}")
    starts = {}
    for key in ("prefect_start", "sisde_start", "state_return"):
        if key not in table:
            raise InputFileError(f"{where}: [map] lacks {key}")
        v = table[key]
        if not on_map(v):
            raise InputFileError(f"{where}: [map] {key} is {sp(v)}, which is not on the map")
        starts[key] = v
    rets = data.get("returns")
    if not isinstance(rets, dict):
        raise InputFileError(f"{where}: no [returns] table (die faces of a return per box)")
    unknown = set(rets) - set(RETURN_KEYS)
    if unknown:
        raise InputFileError(f"{where}: unknown key(s) in [returns]: {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(RETURN_KEYS)})")
    returns = []
    for key in RETURN_KEYS:
        if key not in rets:
            raise InputFileError(f"{where}: [returns] lacks {key}")
        returns.append(_faces(rets[key], f"{where}: [returns] {key}"))
    assumed = table.get("assumed", False)
    if not isinstance(assumed, bool):
        raise InputFileError(f"{where}: [map] assumed must be true or false")
    name = table.get("name", Path(where).stem)
    if not isinstance(name, str):
        raise InputFileError(f"{where}: [map] name must be a string")
    try:
        one_line_name(name)
    except ValueError as e:
        raise InputFileError(f"{where}: [map] name {e}") from None
    return MafiaMap(name, where, assumed, tuple(spaces[i] for i in range(n)), tuple(ring), tuple(bar),
                    starts["prefect_start"], starts["sisde_start"], starts["state_return"], tuple(returns))


def load_map(path: str | Path | None = None) -> MafiaMap:
    """The map of a file, or the shipped assumed default. A file with the default's
    content is still the assumed default, whatever it says."""
    default_path = default_map_path()
    default = parse_map(read_toml(default_path, "map file"), str(default_path))
    if path is None:
        return default
    m = parse_map(read_toml(Path(path), "map file"), str(path))
    if m.digest() == default.digest() and not m.assumed:
        m = MafiaMap(m.name, m.source, True, m.spaces, m.ring, m.bar, m.prefect_start, m.sisde_start,
                     m.state_return, m.returns)
    return m


def pack_game(m: MafiaMap, players: int, side_kinds, check: bool = False, side_params=None,
              playout=None, rules=None) -> np.ndarray:
    """The kernel's ``game`` array (layout ``G_*``) of a map, player count and the
    bot kind playing each side, under ``rules`` (``ruleset.RULES``' values; None:
    the box's); ``playout``: (kinds, parameter rows) of the heuristics a
    search bot's playouts play each side with (``registry.playout_bot``)."""
    g = np.zeros(L.G_LEN, np.int64)
    g[L.G_PLAYERS] = players
    g[L.G_N_SPACES] = m.n_spaces
    if rules is None:
        rules = ruleset.RULES.box()
    ruleset.check(rules, players, m.markable_spaces)
    g[L.G_WIN_SPACES] = rules.at("spaces_to_win", players)
    g[L.G_PURGE_END] = 2 * rules["purge_points_to_end"]
    g[L.G_MARKERS] = rules["markers_per_family"]
    g[L.G_SAFETY_CAP] = rules["safety_cap"]
    g[L.G_PURGE_WEIGHT:L.G_PURGE_WEIGHT + 3] = rules["purge_half_points"]
    g[L.G_SHOT_HITS] = faces_mask(rules["shootout_hit_faces"])
    g[L.G_WEAPON_HITS] = faces_mask(rules["weapons_hit_faces"])
    g[L.G_PICCIOTTO_MARKER] = faces_mask(rules["picciotto_marker_faces"])
    g[L.G_CC_REMOVAL] = faces_mask(rules["cc_removal_faces"])
    g[L.G_PREFECT_START] = m.prefect_start
    g[L.G_SISDE_START] = m.sisde_start
    g[L.G_STATE_RETURN] = m.state_return
    for i, x in enumerate(m.roadblocks):
        g[L.G_CC_START + i] = x
    for k, faces in enumerate(m.returns):
        g[L.G_RETURN + k] = sum(1 << f for f in faces)
    g[L.G_CHECK] = int(check)
    seats = L.seat_sides(players)
    g[L.G_SEAT:L.G_SEAT + L.N_SIDES] = -1
    for seat, sides in enumerate(seats):
        for side in sides:
            g[L.G_SEAT + side] = seat
    for side in range(L.N_SIDES):
        g[L.G_KINDS + side] = side_kinds[side]
        if side_params is not None:
            row = np.asarray(side_params[side], np.float64)[:L.PARAMS_WIDTH]
            at = L.G_PARAMS + side * L.PARAMS_WIDTH
            if side_kinds[side] >= USER_KIND_BASE:  # a user bot reads its parameters as float64, exactly
                g[at:at + len(row)] = np.ascontiguousarray(row).view(np.int64)
            else:
                g[at:at + len(row)] = np.round(row * L.PARAM_UNIT).astype(np.int64)
    if playout is not None:
        kinds, rows = playout
        g[L.G_PLAYOUT_KIND:L.G_PLAYOUT_KIND + L.N_SIDES] = kinds
        g[L.G_PLAYOUT_PARAMS:L.G_PLAYOUT_PARAMS + L.N_SIDES * L.MODEL_WIDTH] = np.round(
            np.asarray(rows, np.float64).reshape(-1) * L.PARAM_UNIT).astype(np.int64)
    for s in m.spaces:
        g[L.G_AIRPORT + s.id] = int(s.airport)
        g[L.G_TYPE + s.id] = s.type
        g[L.G_TRIGGER + s.id] = sum(1 << f for f in s.trigger)
        g[L.G_OPEN + s.id] = sum(1 << f for f in s.open_to) if s.type == L.CITY else 0
    return g
