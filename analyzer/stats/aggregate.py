"""Exactly mergeable accumulators for chunked aggregation.

Everything here keeps integer counts only (histograms over small integer keys),
never rows. Counting is associative and exact, so adding a table in any number
of chunks, or merging accumulators filled from different chunks, gives the same
integers as one pass over the whole table - and every statistic computed from
those integers is then bit-for-bit the same.

- ``Labels``: stable dense codes for labels (bot names, colours), growing.
- ``Hist``: counts over a grid of integer keys; axes grow to take any value.
- ``GroupBits``: per-group bit patterns (e.g. which seats won a race), for
  statistics that pair rows of the same race; a group cut by a chunk edge is
  carried over to the next chunk.
- helpers turning counts into rates, means, spreads and quantiles with intervals.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from analyzer.stats.intervals import mean_ci, wilson


class Labels:
    """Dense integer codes for labels, in order of first registration."""

    def __init__(self, labels: Iterable[str] = ()):
        self.labels: list[str] = []
        self._code: dict[str, int] = {}
        for label in labels:
            self.code_of(label)

    def __len__(self) -> int:
        return len(self.labels)

    def code_of(self, label) -> int:
        label = str(label)
        code = self._code.get(label)
        if code is None:
            code = self._code[label] = len(self.labels)
            self.labels.append(label)
        return code

    def codes(self, values) -> np.ndarray:
        """Codes (int64) of a column of labels: categorical (every category is
        registered, in category order, observed or not), string or object."""
        s = values if isinstance(values, pd.Series) else pd.Series(values)
        if isinstance(s.dtype, pd.CategoricalDtype):
            local = s.cat.codes.to_numpy(np.int64)
            categories = s.cat.categories
        else:
            local, categories = pd.factorize(s, sort=False)
            local = np.asarray(local, np.int64)
        if local.size and local.min() < 0:
            raise ValueError("missing label in a label column")
        lut = np.array([self.code_of(c) for c in categories], np.int64)
        return lut[local] if lut.size else np.zeros(0, np.int64)

    def remap(self, other: "Labels") -> np.ndarray:
        """Codes in ``self`` of ``other``'s labels (registering new ones)."""
        return np.array([self.code_of(label) for label in other.labels], np.int64)

    def copy(self) -> "Labels":
        return Labels(self.labels)


class Hist:
    """Counts (int64) over a grid of integer keys, one axis per key.

    Axis ``i`` covers the values ``lows[i] .. lows[i] + shape[i] - 1`` and grows
    (on either side) when a key outside that range comes in, so callers need
    not know the ranges in advance. Memory is the grid, whatever the rows.
    """

    def __init__(self, names: Sequence[str]):
        self.names = tuple(names)
        self.counts = np.zeros((0,) * len(self.names), np.int64)
        self.lows = [0] * len(self.names)

    @property
    def ndim(self) -> int:
        return len(self.names)

    def axis(self, name: str) -> int:
        return self.names.index(name)

    def values(self, name: str) -> np.ndarray:
        """Key values along axis ``name``."""
        i = self.axis(name)
        return np.arange(self.lows[i], self.lows[i] + self.counts.shape[i], dtype=np.int64)

    def copy(self) -> "Hist":
        out = Hist(self.names)
        out.counts = self.counts.copy()
        out.lows = list(self.lows)
        return out

    def _cover(self, lows: Sequence[int], highs: Sequence[int]) -> None:
        """Grow the grid so that every axis covers ``lows[i] .. highs[i]``."""
        pad = []
        for i in range(self.ndim):
            size = self.counts.shape[i]
            if size == 0:
                self.lows[i] = int(lows[i])
                pad.append((0, int(highs[i]) - int(lows[i]) + 1))
                continue
            have_hi = self.lows[i] + size - 1
            before = max(0, self.lows[i] - int(lows[i]))
            after = max(0, int(highs[i]) - have_hi)
            pad.append((before, after))
            self.lows[i] -= before
        if any(b or a for b, a in pad):
            if self.counts.size == 0:
                shape = [self.counts.shape[i] + pad[i][0] + pad[i][1] for i in range(self.ndim)]
                self.counts = np.zeros(shape, np.int64)
            else:
                self.counts = np.pad(self.counts, pad)

    def add(self, *keys) -> None:
        """Count rows: one integer array (or scalar) per axis, equal lengths."""
        if len(keys) != self.ndim:
            raise ValueError(f"Hist{self.names} takes {self.ndim} keys, got {len(keys)}")
        arrays = [np.asarray(k) for k in keys]
        n = max((a.size for a in arrays if a.ndim), default=1)
        if n == 0:
            return
        arrays = [a.astype(np.int64, copy=False) for a in arrays]
        lows = [int(a.min()) for a in arrays]
        highs = [int(a.max()) for a in arrays]
        self._cover(lows, highs)
        shape = self.counts.shape
        flat = arrays[0] - self.lows[0]
        for i in range(1, self.ndim):
            flat = flat * shape[i] + (arrays[i] - self.lows[i])
        flat = np.broadcast_to(flat, (n,)) if np.ndim(flat) == 0 else flat
        self.counts += np.bincount(flat, minlength=self.counts.size).reshape(shape)

    def add_counts(self, counts: np.ndarray, positions: Sequence[np.ndarray]) -> None:
        """Add a block of counts whose cells sit at the key values ``positions``
        (one 1-D array per axis, no repeats within an axis)."""
        if counts.size == 0:
            return
        lows = [int(p.min()) for p in positions]
        highs = [int(p.max()) for p in positions]
        self._cover(lows, highs)
        index = np.ix_(*[np.asarray(p, np.int64) - self.lows[i] for i, p in enumerate(positions)])
        self.counts[index] += counts

    def merge(self, other: "Hist", remaps: dict[str, np.ndarray] | None = None) -> None:
        """Add ``other``'s counts; ``remaps[name]`` maps other's label codes along a
        label axis to ours."""
        if other.names != self.names:
            raise ValueError(f"cannot merge Hist{other.names} into Hist{self.names}")
        remaps = remaps or {}
        positions = []
        for i, name in enumerate(self.names):
            values = np.arange(other.lows[i], other.lows[i] + other.counts.shape[i], dtype=np.int64)
            if name in remaps and values.size:
                values = remaps[name][values]
            positions.append(values)
        self.add_counts(other.counts, positions)

    def take(self, **axis_values) -> np.ndarray:
        """The counts re-indexed to the given key values on the named axes (zero
        where the grid has no cell); other axes are kept whole."""
        out = self.counts
        for name, wanted in axis_values.items():
            i = self.axis(name)
            wanted = np.asarray(wanted, np.int64)
            size = out.shape[i]
            idx = wanted - self.lows[i]
            valid = (idx >= 0) & (idx < size)
            if size == 0:
                shape = list(out.shape)
                shape[i] = wanted.size
                out = np.zeros(shape, np.int64)
                continue
            out = np.take(out, np.clip(idx, 0, size - 1), axis=i)
            mask_shape = [1] * out.ndim
            mask_shape[i] = -1
            out = out * valid.reshape(mask_shape)
        return out

    def marginal(self, *keep: str) -> np.ndarray:
        """Counts summed over every axis not in ``keep`` (in ``keep`` order)."""
        axes = tuple(i for i, name in enumerate(self.names) if name not in keep)
        out = self.counts.sum(axis=axes) if axes else self.counts
        order = [name for name in self.names if name in keep]
        return np.moveaxis(out, [order.index(k) for k in keep], range(len(keep)))

    def nbytes(self) -> int:
        return int(self.counts.nbytes)


class GroupBits:
    """Per-group bit patterns: for each group (a race), which members (seats,
    numbered 0-62) are present and, per flag, which members have it set.

    The patterns are counted in one ``Hist(("present", "mask"))`` per flag, so a
    statistic pairing the members of a race (seat 1 against the others, one bot
    against another in the same race) can be computed exactly afterwards.

    Rows of one group must be contiguous in the stream. The last group of every
    chunk is held back until the next chunk shows whether it goes on there, and
    the very first group until ``final()``, so chunks may cut a group anywhere
    and accumulators fed consecutive stretches of one stream can be merged.
    """

    def __init__(self, flags: Sequence[str]):
        self.flags = tuple(flags)
        self.hists = {flag: Hist(("present", "mask")) for flag in self.flags}
        self.pending: dict[int, np.ndarray] = {}  # group -> [present, mask per flag]
        self.head: int | None = None  # the first group seen

    def add(self, group: np.ndarray, member: np.ndarray, flags: dict[str, np.ndarray]) -> None:
        group = np.asarray(group, np.int64)
        if group.size == 0:
            return
        bits = np.left_shift(np.int64(1), np.asarray(member, np.int64))
        columns = [bits] + [np.where(np.asarray(flags[f], bool), bits, 0) for f in self.flags]
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        ids = group[starts]
        if np.unique(ids).size != ids.size:  # a group's rows are not together: sort them
            order = np.argsort(group, kind="stable")
            group = group[order]
            columns = [c[order] for c in columns]
            starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
            ids = group[starts]
        masks = np.stack([np.bitwise_or.reduceat(c, starts) for c in columns], axis=1)
        # held-back groups that go on in this chunk join it
        for i in {0, len(ids) - 1}:
            held = self.pending.pop(int(ids[i]), None)
            if held is not None:
                masks[i] |= held
        # other held-back groups are done, except the first group this
        # accumulator ever saw: its start may be in an accumulator merged later
        done = [m for g, m in self.pending.items() if g != self.head]
        self.pending = {g: m for g, m in self.pending.items() if g == self.head}
        self._count(np.array(done, np.int64).reshape(-1, masks.shape[1]))
        if self.head is None:
            self.head = int(ids[0])
        keep = {len(ids) - 1} | ({0} if int(ids[0]) == self.head else set())
        for i in keep:
            self.pending[int(ids[i])] = masks[i].copy()
        middle = np.ones(len(ids), bool)
        middle[list(keep)] = False
        self._count(masks[middle])

    def _count(self, masks: np.ndarray) -> None:
        if len(masks) == 0:
            return
        for j, flag in enumerate(self.flags):
            self.hists[flag].add(masks[:, 0], masks[:, j + 1])

    def _finalize_pending(self) -> None:
        if self.pending:
            self._count(np.stack(list(self.pending.values())))
            self.pending = {}

    def merge(self, other: "GroupBits") -> None:
        if other.flags != self.flags:
            raise ValueError("cannot merge GroupBits with other flags")
        for flag in self.flags:
            self.hists[flag].merge(other.hists[flag])
        for group, masks in other.pending.items():
            self.pending[group] = self.pending[group] | masks if group in self.pending else masks.copy()
        if self.head is None:
            self.head = other.head

    def copy(self) -> "GroupBits":
        out = GroupBits(self.flags)
        out.hists = {f: h.copy() for f, h in self.hists.items()}
        out.pending = {g: m.copy() for g, m in self.pending.items()}
        out.head = self.head
        return out

    def final(self) -> dict[str, Hist]:
        """The pattern counts with the held-back groups included (no side effect)."""
        done = self.copy()
        done._finalize_pending()
        return done.hists

    def nbytes(self) -> int:
        return sum(h.nbytes() for h in self.hists.values()) + 64 * len(self.pending)


class GroupRows:
    """Holds back the rows of groups (races) that a chunk edge may have cut, so
    that per-group statistics see whole groups: ``add(df)`` returns the rows of
    the groups now known to be complete, ``held()`` the rest (complete once the
    stream is). As in ``GroupBits``, a group's rows must be contiguous in the
    stream; the last group of every chunk is held until the next chunk shows
    whether it goes on, and the very first group until the end, so accumulators
    fed consecutive stretches of one stream can be merged (``merge``)."""

    def __init__(self, key: str):
        self.key = key
        self.pending: pd.DataFrame | None = None
        self.head = None

    def add(self, df: pd.DataFrame) -> pd.DataFrame:
        if not len(df):
            return df.iloc[:0]
        ids = df[self.key].to_numpy()
        first, last = ids[0], ids[-1]
        if self.head is None:
            self.head = first
        done, keep = [], []
        if self.pending is not None and len(self.pending):
            pid = self.pending[self.key].to_numpy()
            joins = (pid == first) | (pid == last)
            stays = ~joins & (pid == self.head)
            done.append(self.pending[~joins & ~stays])
            keep.append(self.pending[stays])
            df = pd.concat([self.pending[joins], df], ignore_index=True)
            ids = df[self.key].to_numpy()
        hold = (ids == last) | (ids == self.head)
        keep.append(df[hold])
        done.append(df[~hold])
        self.pending = pd.concat(keep, ignore_index=True)
        return pd.concat(done, ignore_index=True)

    def held(self) -> pd.DataFrame | None:
        return self.pending

    def merge(self, other: "GroupRows") -> None:
        parts = [p for p in (self.pending, other.pending) if p is not None]
        self.pending = pd.concat(parts, ignore_index=True) if parts else None
        if self.head is None:
            self.head = other.head

    def nbytes(self) -> int:
        return 0 if self.pending is None else int(self.pending.memory_usage(deep=False).sum())


# ---------------------------------------------------------------------- statistics


def ints(df: pd.DataFrame, column: str) -> np.ndarray:
    return df[column].to_numpy(np.int64)


def bools(df: pd.DataFrame, column: str) -> np.ndarray:
    """A boolean column as 0/1 counts."""
    return df[column].to_numpy(bool).astype(np.int64)


def check_columns(columns: dict, name: str, df: pd.DataFrame) -> None:
    """Refuse a table that lacks a column the aggregator reads (``columns``: table -> names)."""
    missing = [c for c in columns[name] if c not in df.columns]
    if missing:
        raise ValueError(f"table {name!r} lacks columns {missing}")


def add_tables(target, columns: dict, tables) -> None:
    """One chunk into a game's aggregator: every table is checked against
    ``columns`` (empty ones too), the non-empty ones go to ``target._add_<name>``."""
    unknown = set(tables) - set(columns)
    if unknown:
        raise ValueError(f"unknown tables {sorted(unknown)}; known: {list(columns)}")
    for name, df in tables.items():
        check_columns(columns, name, df)
        if len(df):
            getattr(target, f"_add_{name}")(df)


def rate(k, n) -> dict:
    """Share ``k / n`` with its 95% Wilson interval (arrays broadcast)."""
    k = np.asarray(k, np.int64)
    n = np.asarray(n, np.int64)
    low, high = wilson(k, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(n > 0, k / np.where(n > 0, n, 1), np.nan)
    return {"rate": r, "low": low, "high": high}


def moments(counts: np.ndarray, values: np.ndarray, axis: int = -1):
    """``(n, sum, sum of squares)`` of a histogram along ``axis`` (exact integers)."""
    counts = np.asarray(counts, np.int64)
    shape = [1] * counts.ndim
    shape[axis] = -1
    v = np.asarray(values, np.int64).reshape(shape)
    return counts.sum(axis), (counts * v).sum(axis), (counts * v * v).sum(axis)


def mean_sd_ci(n, s1, s2) -> dict:
    """Mean, sample sd (ddof=1) and 95% normal interval from n, sum, sum of squares."""
    n = np.asarray(n, np.float64)
    s1 = np.asarray(s1, np.float64)
    s2 = np.asarray(s2, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(n > 0, s1 / n, np.nan)
        var = np.where(n > 1, (s2 - s1 * mean) / (n - 1), np.nan)
    sd = np.sqrt(np.maximum(var, 0.0))
    sd = np.where(n > 1, sd, np.nan)
    low, high = mean_ci(mean, sd, n)
    return {"mean": mean, "sd": sd, "low": low, "high": high}


def hist_mean(counts: np.ndarray, values: np.ndarray, axis: int = -1) -> dict:
    """Mean with sd and interval of the values a histogram counts, along ``axis``."""
    n, s1, s2 = moments(counts, values, axis)
    return {"n": n, **mean_sd_ci(n, s1, s2)}


def hist_quantiles(counts: np.ndarray, values: np.ndarray, qs: Sequence[float]) -> np.ndarray:
    """Quantiles of a 1-D histogram: the smallest value whose cumulative share
    reaches q (numpy's ``inverted_cdf`` method). NaN for an empty histogram."""
    counts = np.asarray(counts, np.int64)
    total = counts.sum()
    if total == 0:
        return np.full(len(qs), np.nan)
    cum = np.cumsum(counts)
    # ceil(q * total) with integers where possible, so results do not wobble
    targets = np.maximum(np.ceil(np.asarray(qs, np.float64) * total), 1).astype(np.int64)
    return np.asarray(values)[np.searchsorted(cum, targets)].astype(np.float64)


def frame(columns: dict) -> pd.DataFrame:
    """A DataFrame from scalars / 1-D arrays (flattened), in the given order."""
    return pd.DataFrame({k: np.ravel(v) if not isinstance(v, (list, pd.Categorical)) else v
                         for k, v in columns.items()})
