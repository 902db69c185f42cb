"""The Python API (``import analyzer``): the command line's runs as objects with
their tables as DataFrames, summary, manifest and report; bad input raises
``AnalyzerError`` before any race."""
import json

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


def test_threads_writing_one_out_leave_one_whole_run(tmp_path):
    """Threads of one process simulating into the same ``out``: each run is
    played into a partial directory of its own; one that finds another writer
    of the directory at work is refused (AnalyzerError, one line), and the
    directory holds one whole run, its manifest matching its tables (it said
    complete over unreadable Parquet when they shared one)."""
    import threading

    import pyarrow.parquet as pq

    from analyzer.errors import AnalyzerError

    out = tmp_path / "run"
    start = threading.Barrier(4)
    done, refused = [], []

    def play(seed: int) -> None:
        start.wait()
        try:
            done.append(analyzer.simulate("lemming-mafia", races=3000, bots="random", seed=seed, threads=1,
                                          out=out, progress=False))
        except AnalyzerError as e:
            refused.append(str(e))

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert done and len(done) + len(refused) == 4
    assert all("is being written by another run now (another thread of this process" in e for e in refused)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is True and manifest["seed"] in {r.manifest["seed"] for r in done}
    # the tables are the ones of the manifest's run, whole
    again = analyzer.simulate("lemming-mafia", races=3000, bots="random", seed=manifest["seed"], threads=1)
    assert sorted(p.stem for p in out.glob("*.parquet")) == sorted(again.tables)
    for name, expected in again.tables.items():
        table = pq.read_table(out / f"{name}.parquet").to_pandas()
        pd.testing.assert_frame_equal(table, expected, check_dtype=False, check_categorical=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]  # no partial directory left
