"""Record specs: each table a game writes, declared once (column name, dtype,
meaning, unit). The match's table builder computes the values and
``TableSpec.frame`` puts them in the declared order and dtype (a builder that
forgets a column, adds an undeclared one or would store a value its dtype cannot
hold fails loudly); the statistics' ``COLUMNS`` are checked against the specs
(``check_columns``); the docs' tables of columns are rendered from them
(``markdown``), and a test keeps ``docs/`` in step.

Dtypes: numpy names (``int8`` ... ``int64``, ``float64``, ``bool``),
``object`` (strings), pandas' nullable ``Int8`` ... (missing values allowed) or
``category`` (strings from a fixed list of categories). Integer columns are
range-checked when they are cast: a number never lands in a column too narrow
for it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Column:
    name: str
    dtype: str
    meaning: str
    unit: str = ""


@dataclass(frozen=True)
class TableSpec:
    name: str
    row: str  # what one row is ("race", "race and seat", ...)
    columns: tuple[Column, ...]
    summed: bool = False  # summed over the run (not a row per item)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def frame(self, values: dict) -> "pd.DataFrame":
        """The table from ``values`` (column name -> array, Categorical or scalar
        broadcast), in declared order and dtype."""
        import pandas as pd

        declared = self.names
        missing = [n for n in declared if n not in values]
        extra = [n for n in values if n not in declared]
        if missing or extra:
            raise ValueError(f"table {self.name}: the builder gives {extra or 'no'} undeclared and lacks "
                             f"{missing or 'no'} declared columns")
        out = {}
        for col in self.columns:
            v = values[col.name]
            if col.dtype == "category":
                if not isinstance(v, pd.Categorical):
                    raise ValueError(f"table {self.name}: column {col.name} must be built as a Categorical")
                out[col.name] = v
            elif col.dtype == "bool":
                out[col.name] = np.asarray(v).astype(bool)
            elif col.dtype == "object":  # strings
                out[col.name] = np.asarray(v, dtype=object)
            elif col.dtype[0] == "I":  # a nullable integer (pandas' Int8 ...): missing values stay missing
                out[col.name] = _nullable(v, col.dtype, f"{self.name}.{col.name}")
            else:
                out[col.name] = _cast(np.asarray(v), np.dtype(col.dtype), f"{self.name}.{col.name}")
        return pd.DataFrame(out)


def _nullable(v, dtype: str, where: str):
    import pandas as pd

    arr = pd.array(v)
    values = arr.dropna().to_numpy() if hasattr(arr, "dropna") else np.asarray(arr)
    if len(values):
        _cast(np.asarray(values, np.int64), np.dtype(dtype.lower()), where)
    return pd.array(arr, dtype=dtype)


def _cast(v: np.ndarray, dtype: np.dtype, where: str) -> np.ndarray:
    if dtype.kind in "iu" and v.size and v.dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = v.min(), v.max()
        if lo < info.min or hi > info.max:
            raise OverflowError(f"{where}: values {lo}..{hi} do not fit {dtype}")
    return v.astype(dtype, copy=False)


def expand(columns: list[Column], names: list[str], template: Column) -> list[Column]:
    """One column per name (e.g. one per colour) from a template whose name and
    meaning hold ``{}``."""
    return [Column(template.name.format(n), template.dtype, template.meaning.format(n), template.unit)
            for n in names]


def check_columns(specs: dict[str, TableSpec], columns: dict[str, list[str]]) -> None:
    """Every column the statistics read is declared (raises ValueError)."""
    for table, names in columns.items():
        if table not in specs:
            raise ValueError(f"statistics read table {table!r}, which the game does not write")
        unknown = [n for n in names if n not in specs[table].names]
        if unknown:
            raise ValueError(f"statistics read undeclared columns of {table}: {unknown}")


def markdown_summary(specs: dict[str, TableSpec]) -> str:
    """One line per table (its row and column names), for docs/tables.md."""
    lines = ["| table | one row per | columns |", "|---|---|---|"]
    for spec in specs.values():
        row = spec.row + (" (summed over the run)" if spec.summed else "")
        lines.append(f"| `{spec.name}.parquet` | {row} | `{', '.join(spec.names)}` |")
    return "\n".join(lines) + "\n"


def markdown(specs: dict[str, TableSpec]) -> str:
    """Every table's columns with dtype, meaning and unit, for the docs."""
    lines = []
    for spec in specs.values():
        lines += [f"`{spec.name}.parquet`: one row per {spec.row}" + (" (summed over the run)" if spec.summed else ""),
                  "", "| column | dtype | meaning |", "|---|---|---|"]
        for c in spec.columns:
            unit = f" ({c.unit})" if c.unit else ""
            lines.append(f"| `{c.name}` | {c.dtype} | {c.meaning}{unit} |")
        lines.append("")
    return "\n".join(lines)


def flow_columns(standing: str, who: str, step: str) -> list[Column]:
    """The game-flow columns (``engine/flow.py``) of a per-race or per-game table:
    ``standing`` says what the game's standing if it ended now is, ``who`` what
    leads it (a lemming, a player...), ``step`` after which the leader is noted
    (plural, e.g. "moves")."""
    return [
        Column("lead_changes", "int16", f"times the lead passed from one {who} to another; the standing: "
                                        f"{standing}; a tie at the top leaves the lead where it was", "changes"),
        Column("decided_after", "Int32", f"{step} played before the eventual winner took the lead for good "
                                         f"(0: it led from the first on; null: no single winner)", step),
        Column("comeback", "bool", f"the eventual winner did not lead after half the {step} (false without a "
                                   "single winner)"),
    ]



def flow_values(lead_changes, decided_after, comeback) -> dict:
    """The ``flow_columns`` of a table from the kernel's counters (``decided_after``
    -1: no single winner, null in the table)."""
    import pandas as pd

    decided = np.asarray(decided_after)
    missing = decided < 0
    return {"lead_changes": lead_changes, "comeback": comeback,
            "decided_after": pd.arrays.IntegerArray(np.where(missing, 0, decided).astype(np.int32), missing)}
