"""The races a run holds, as a set: a run of ``simulate`` plays items
``first .. first + count - 1`` of the random streams of its seed, under its
setup (game, board/deck/map by digest, players, seats' bots with their
parameters). Two runs with the same seed and setup whose index ranges meet hold
the same races: merged, they would count them twice (a copied run directory, or
two runs left at the default ``--seed 1``). Knows no game: it reads manifests.

The manifest records the set under ``items`` (``seed``, ``first``, ``count``,
``setup``); a run written before that key existed is read as items ``0 ..
count - 1`` of its seed, its setup digested from the manifest the same way."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from analyzer.errors import AnalyzerError

ITEMS = "items"  # the manifest's key


def setup_digest(manifest: dict) -> str:
    """What decides the races besides the seed, digested. Thread count, chunk
    size and date do not change a race (the engine's guarantee), so they are
    left out; so are the seats' labels (a bot's family, source, parameters and,
    for a bot file, its content are what it plays). The analyzer version is
    not in it (old runs keep their digest): ``RaceSet`` compares it apart. The
    rules count where they differ from the box (a run of the box's rules has
    the digest it had before runs named them)."""
    setup = {
        "game": manifest.get("game"),
        "unit": manifest.get("unit"),
        "players": manifest.get("players"),
        "variant": manifest.get("variant"),
        "roles": manifest.get("roles"),
        "data": sorted([str(d.get("part")), str(d.get("sha256"))] for d in manifest.get("data") or []),
        # a bot file's content too: an edited file is another bot (a built-in bot has
        # none, so the digests of runs of built-in bots are those of before)
        "bots": [[b.get("seat"), b.get("family"), b.get("source"), b.get("params")]
                 + ([b["sha256"]] if b.get("sha256") else [])
                 for b in manifest.get("bots") or []],
    }
    rules = manifest.get("rules")
    if isinstance(rules, dict) and rules.get("changed"):  # a variant; the box's runs keep their digest
        setup["rules"] = rules.get("changed")
    return hashlib.sha256(json.dumps(setup, sort_keys=True, default=str).encode()).hexdigest()[:16]


def items_entry(manifest: dict, first: int = 0) -> dict:
    """The ``items`` entry ``simulate`` writes into a new run's manifest."""
    unit = manifest["unit"]
    return {"seed": manifest["seed"], "first": first, "count": int(manifest[unit]),
            "setup": setup_digest(manifest)}


@dataclass(frozen=True)
class RaceSet:
    seed: int
    first: int
    count: int
    setup: str
    # the analyzer version that played them: another version may play other races
    # from the same seed and setup (CHANGES.md lists those that do), so races of
    # two versions are never taken for the same ones ("": not recorded)
    version: str = ""

    @property
    def stop(self) -> int:
        return self.first + self.count

    def _same_streams(self, other: "RaceSet") -> bool:
        return self.seed == other.seed and self.setup == other.setup and self.version == other.version

    def meets(self, other: "RaceSet") -> bool:
        """True if the two share at least one race."""
        return self._same_streams(other) and max(self.first, other.first) < min(self.stop, other.stop)

    def within(self, other: "RaceSet") -> bool:
        """True if every race of this set is one of ``other``'s."""
        return self._same_streams(other) and other.first <= self.first and self.stop <= other.stop

    def describe(self, unit: str = "races") -> str:
        last = f"{self.stop - 1:,}" if self.count else "none"
        return f"seed {self.seed}, {unit} {self.first:,} to {last}, setup {self.setup}"


def race_set(manifest: dict) -> RaceSet:
    """The races of a run, from its manifest (``items``, or what an older run implies)."""
    items = manifest.get(ITEMS)
    unit = manifest.get("unit", "races")
    versions = manifest.get("versions")
    version = str(versions.get("analyzer", "")) if isinstance(versions, dict) else ""
    if isinstance(items, dict):
        try:
            return RaceSet(int(items["seed"]), int(items["first"]), int(items["count"]), str(items["setup"]),
                           version)
        except (KeyError, TypeError, ValueError):
            raise AnalyzerError(f"the run manifest's {ITEMS!r} is not a seed, first, count and setup: "
                                f"{items!r}") from None
    return RaceSet(int(manifest.get("seed", 0)), 0, int(manifest.get(unit, 0)), setup_digest(manifest), version)


def plan_merge(manifests: list[dict], run_dirs: list[Path],
               drop_duplicates: bool = False) -> tuple[list[int], list[str]]:
    """Which runs a merged report reads: ``(kept indices, notes on the runs
    left out)``. Runs sharing races are refused in one line naming both, or,
    with ``drop_duplicates``, a run whose races all lie in a kept run is left
    out (the larger runs are kept first, so as many races as possible stay).
    A run sharing only part of its races with another cannot be cut (its
    summed tables cover all its races): that is refused even then."""
    unit = manifests[0].get("unit", "races") if manifests else "races"
    sets = [race_set(m) for m in manifests]
    if not drop_duplicates:
        for j in range(len(sets)):
            for i in range(j):
                if sets[i].meets(sets[j]):
                    raise AnalyzerError(
                        f"runs {run_dirs[i]} and {run_dirs[j]} hold the same {unit} ({sets[j].describe(unit)}; "
                        f"the same seed and setup): merged they would count them twice; give one of them, "
                        f"rerun with another --seed, or pass --drop-duplicates to keep each once")
        return list(range(len(sets))), []
    order = sorted(range(len(sets)), key=lambda k: (-sets[k].count, k))
    kept: list[int] = []
    notes: list[str] = []
    for j in order:
        inside = next((i for i in kept if sets[j].within(sets[i])), None)
        if inside is not None:
            notes.append(f"{run_dirs[j].name} left out: its {sets[j].count:,} {unit} are the same as "
                         f"{run_dirs[inside].name}'s ({sets[j].describe(unit)})")
            continue
        partly = next((i for i in kept if sets[j].meets(sets[i])), None)
        if partly is not None:
            raise AnalyzerError(f"runs {run_dirs[partly]} and {run_dirs[j]} share only some of their {unit}; "
                                f"a run cannot be cut, so --drop-duplicates cannot keep each once: "
                                f"report them apart")
        kept.append(j)
    return sorted(kept), notes
