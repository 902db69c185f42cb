"""The Python API (``import analyzer``): the command line's runs as objects with
their tables as DataFrames, summary, manifest and report; bad input raises
``AnalyzerError`` before any race."""
import pandas as pd
import pytest

import analyzer
from tests.cli_support import run


def test_simulate_returns_tables_summary_manifest_and_report(tmp_path, capsys):
    result = analyzer.simulate("lemming-mafia", races=300, bots=["favourite", "random", "random", "random"],
                               seed=3, threads=1)
    assert set(result.tables) == {"races", "players", "contracts", "bets", "fields"}
    players = result.tables["players"]
    assert isinstance(players, pd.DataFrame) and len(players) == 300 * 4
    assert result.tables["races"].race.tolist() == list(range(300))
    assert result.manifest["seed"] == 3 and result.manifest["board"]["assumed"] is True
    assert result.count == 300 and "favourite" in str(result)
    # the same run on the command line writes the same tables and prints the same summary
    out = tmp_path / "run"
    assert run(["simulate", "lemming-mafia", "--races", 300, "--bots", "favourite,random,random,random",
                "--seed", 3, "--threads", 1, "--out", out, "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert result.summary.render() in printed
    for name, df in result.tables.items():
        pd.testing.assert_frame_equal(df, pd.read_parquet(out / f"{name}.parquet"), check_dtype=False,
                                      check_categorical=False)
    html = result.report(tmp_path / "report.html")
    assert html.is_file() and "Lemming Mafia" in html.read_text()
    assert analyzer.report_runs(out, tmp_path / "again.html").is_file()


def test_simulate_sau_mau_mau_counts_games(tmp_path):
    result = analyzer.simulate("sau-mau-mau", games=40, bots="random", players=3, threads=1, out=tmp_path / "r")
    assert result.manifest["games"] == 40 and len(result.tables["games"]) == 40 * 3
    assert (tmp_path / "r" / "manifest.json").is_file()


def test_compare_and_tournament(tmp_path):
    duel = analyzer.compare("lemming-mafia", "favourite", "random", races=400, threads=1)
    table = duel.table
    assert list(table.index) == ["win rate", "mean score"]
    assert table.loc["win rate", "low"] <= table.loc["win rate", "A - B"] <= table.loc["win rate", "high"]
    cup = analyzer.tournament("lemming-mafia", ["random", "favourite", "timer"], races=360, threads=1,
                              report=tmp_path / "cup.html")
    assert set(cup.ratings.bot) == {"random", "favourite", "timer"}
    assert abs(cup.ratings.elo.mean()) < 1e-6  # Elo scale, mean 0
    assert (tmp_path / "cup.html").is_file() and "report:" in str(cup)


@pytest.mark.parametrize("call, needle", [
    (lambda: analyzer.simulate("chess"), "unknown game 'chess'"),
    (lambda: analyzer.simulate("lemming-mafia", races=10 ** 30), "--races must be at most"),
    (lambda: analyzer.simulate("lemming-mafia", races=2.5), "must be a whole number"),
    (lambda: analyzer.simulate("lemming-mafia", bots=[1, 2]), "bots must be"),
    (lambda: analyzer.simulate("lemming-mafia", races=5, games=6), "give races or games, not both"),
    (lambda: analyzer.compare("lemming-mafia", "random,timer", "random"), "--bot takes one bot"),
    (lambda: analyzer.tournament("lemming-mafia", "random"), "at least 2 bots"),
])
def test_bad_input_raises_one_line(call, needle):
    with pytest.raises(analyzer.AnalyzerError) as info:
        call()
    assert needle in str(info.value) and "\n" not in str(info.value)
