"""Every table column is declared once (the game's record specs): the tables
--out writes hold exactly the declared columns and dtypes, the statistics read
only declared columns, a value too wide for its column fails instead of
wrapping, and the docs tables are generated from the specs."""
import numpy as np
import pandas as pd
import pytest

from analyzer.docs import generated_files
from analyzer.engine.records import Column, TableSpec, check_columns
from analyzer.games import infos

GAMES = infos()


@pytest.mark.parametrize("info", GAMES, ids=lambda i: i.name)
def test_statistics_read_declared_columns(info):
    check_columns(info.load("records").TABLES, info.load("stats").COLUMNS)


@pytest.mark.parametrize("info", GAMES, ids=lambda i: i.name)
def test_match_writes_its_declared_tables(info):
    specs = info.load("records").TABLES
    assert tuple(info.load("match").tables) == tuple(specs)


def test_a_value_too_wide_for_its_column_fails():
    spec = TableSpec("t", "row", (Column("x", "int8", "a small number"),))
    assert spec.frame({"x": np.array([1, 127])})["x"].dtype == np.int8
    with pytest.raises(OverflowError, match="t.x: values 1..300 do not fit int8"):
        spec.frame({"x": np.array([1, 300])})
    with pytest.raises(ValueError, match="undeclared"):
        spec.frame({"x": np.array([1]), "y": np.array([2])})
    with pytest.raises(ValueError, match="must be built as a Categorical"):
        TableSpec("t", "row", (Column("c", "category", "a name"),)).frame({"c": ["a"]})
    assert isinstance(TableSpec("t", "row", (Column("c", "category", "a name"),)).frame(
        {"c": pd.Categorical(["a"])})["c"].dtype, pd.CategoricalDtype)


def test_docs_tables_are_generated_from_the_specs():
    files = generated_files()
    stale = [str(path) for path, (now, new) in files.items() if now != new]
    assert not stale, f"out of date (run python -m analyzer.docs): {stale}"
    summary = next(now for path, (now, _) in files.items() if path.name == "tables.md")
    for info in GAMES:
        assert f"<!-- tables:{info.name} -->" in summary, info.name
