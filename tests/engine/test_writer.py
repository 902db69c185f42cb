import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from analyzer.engine.writer import RunWriter, file_sha256
from analyzer.errors import AnalyzerError


def chunk(first, count):
    games = range(first, first + count)
    return pd.DataFrame({"game": list(games), "score": [g * 0.5 for g in games]})


def partial_dirs(parent):
    return [p for p in parent.iterdir() if p.name.startswith(".")]


def write_run(out, chunks=((0, 5), (5, 5), (10, 3)), manifest=None):
    with RunWriter(out, ["games"]) as w:
        for first, count in chunks:
            w.write("games", chunk(first, count))
        w.finish(manifest or {"seed": 1})


def test_complete_run(tmp_path):
    out = tmp_path / "a" / "b" / "run"
    write_run(out, manifest={"seed": 7, "games": 13})
    assert sorted(p.name for p in out.iterdir()) == ["games.parquet", "manifest.json"]
    manifest_text = (out / "manifest.json").read_text()
    assert json.loads(manifest_text) == {"seed": 7, "games": 13, "complete": True,
                                         "written_by": "analyzer"}
    assert manifest_text == json.dumps({"complete": True, "games": 13, "seed": 7,
                                        "written_by": "analyzer"},
                                       indent=2, sort_keys=True) + "\n"
    table = pq.read_table(out / "games.parquet").to_pandas()
    pd.testing.assert_frame_equal(table, chunk(0, 13))
    assert partial_dirs(out.parent) == []


def test_later_chunks_are_cast_to_first_schema(tmp_path):
    out = tmp_path / "run"
    with RunWriter(out, ["t"]) as w:
        w.write("t", pd.DataFrame({"a": [1, 2], "b": [0.5, 1.5]}))
        w.write("t", pd.DataFrame({"b": [2, 3], "a": [3, 4]}))  # other order, int b
        with pytest.raises(ValueError):
            w.write("t", pd.DataFrame({"a": [1]}))
        w.finish({})
    df = pq.read_table(out / "t.parquet").to_pandas()
    assert df["a"].tolist() == [1, 2, 3, 4] and df["b"].tolist() == [0.5, 1.5, 2.0, 3.0]
    assert df["b"].dtype == "float64"


def test_empty_tables_declared_or_skipped(tmp_path):
    out = tmp_path / "run"
    with RunWriter(out, ["games", "declared", "silent"]) as w:
        w.declare("declared", pd.DataFrame({"x": pd.Series(dtype="int32")}))
        w.write("games", chunk(0, 2))
        w.finish({})
    assert sorted(p.name for p in out.iterdir()) == [
        "declared.parquet", "games.parquet", "manifest.json"]
    table = pq.read_table(out / "declared.parquet")
    assert table.num_rows == 0 and str(table.schema.field("x").type) == "int32"


def test_unknown_table(tmp_path):
    with RunWriter(tmp_path / "run", ["games"]) as w:
        with pytest.raises(ValueError, match="unknown table"):
            w.write("other", chunk(0, 1))


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_failed_run_leaves_nothing(tmp_path, error):
    out = tmp_path / "run"
    with pytest.raises(error):
        with RunWriter(out, ["games"]) as w:
            w.write("games", chunk(0, 5))
            raise error
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_exit_without_finish_leaves_nothing(tmp_path):
    out = tmp_path / "run"
    with RunWriter(out, ["games"]) as w:
        w.write("games", chunk(0, 5))
    assert list(tmp_path.iterdir()) == []


def test_failed_run_keeps_previous_run(tmp_path):
    out = tmp_path / "run"
    write_run(out, manifest={"seed": 1})
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(KeyboardInterrupt):
        with RunWriter(out, ["games"]) as w:
            w.write("games", chunk(100, 5))
            raise KeyboardInterrupt
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert partial_dirs(tmp_path) == []


def test_new_run_replaces_previous_run(tmp_path):
    out = tmp_path / "run"
    with RunWriter(out, ["games", "extra"]) as w:
        w.write("games", chunk(0, 5))
        w.write("extra", chunk(0, 1))
        w.finish({"seed": 1})
    write_run(out, chunks=[(50, 2)], manifest={"seed": 2})
    assert sorted(p.name for p in out.iterdir()) == ["games.parquet", "manifest.json"]
    assert json.loads((out / "manifest.json").read_text())["seed"] == 2
    assert pq.read_table(out / "games.parquet").column("game").to_pylist() == [50, 51]
    assert partial_dirs(tmp_path) == []


def test_existing_empty_dir_is_used(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    write_run(out)
    assert (out / "manifest.json").exists()


def test_refuses_foreign_directory(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(AnalyzerError, match="other files") as info:
        RunWriter(out, ["games"])
    assert "\n" not in str(info.value)
    assert (out / "notes.txt").read_text() == "mine"
    (out / "notes.txt").unlink()
    (out / "sub").mkdir()  # a subdirectory is foreign too
    with pytest.raises(AnalyzerError):
        RunWriter(out, ["games"])


def test_refuses_directory_that_turns_foreign_during_run(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(AnalyzerError):
        with RunWriter(out, ["games"]) as w:
            w.write("games", chunk(0, 1))
            out.mkdir()
            (out / "notes.txt").write_text("mine")
            w.finish({})
    assert (out / "notes.txt").read_text() == "mine"
    assert partial_dirs(tmp_path) == []


def test_parquet_files_without_a_run_manifest_are_the_users(tmp_path):
    """A directory of the user's own Parquet files is not a
    previous run: it is refused, and the files stay."""
    out = tmp_path / "data"
    out.mkdir()
    (out / "mine.parquet").write_bytes(b"PAR1 the user's data")
    with pytest.raises(AnalyzerError, match="no analyzer run manifest"):
        RunWriter(out, ["games"])
    (out / "manifest.json").write_text('{"complete": true, "note": "not ours"}')
    with pytest.raises(AnalyzerError, match="no analyzer run manifest"):
        RunWriter(out, ["games"])
    (out / "manifest.json").write_text("not json")
    with pytest.raises(AnalyzerError, match="no analyzer run manifest"):
        RunWriter(out, ["games"])
    assert (out / "mine.parquet").read_bytes() == b"PAR1 the user's data"


def test_the_current_directory_is_refused_before_any_work(tmp_path, monkeypatch):
    """``--out .`` fails at once, not after every race."""
    monkeypatch.chdir(tmp_path)
    for name in (".", str(tmp_path), ".."):
        with pytest.raises(AnalyzerError, match="current directory"):
            RunWriter(Path(name), ["games"])
    (tmp_path / "sub").mkdir()
    write_run(Path("sub"))  # a relative path below it is fine
    assert (tmp_path / "sub" / "manifest.json").exists()


def test_a_full_disk_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    """A failed write (ENOSPC) is an AnalyzerError with exit
    code 1, and the hidden partial directory goes."""
    import errno

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    out = tmp_path / "run"
    with pytest.raises(AnalyzerError, match="No space left on device") as info:
        write_run(out)
    assert info.value.exit_code == 1 and "\n" not in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_partial_directories_of_killed_runs_are_removed(tmp_path):
    """A run killed outright (SIGKILL) could not clean up; the next run aimed at
    the same directory removes its partial directory (named by an earlier
    version too), not another directory's; nor one of this process that no
    writer holds."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    leftovers = [tmp_path / f".run.partial-{dead.pid}", tmp_path / f".run.partial-{dead.pid}-3",
                 tmp_path / f".run.partial-{os.getpid()}-999999"]
    other = tmp_path / f".other.partial-{dead.pid}-1"
    for d in (*leftovers, other):
        d.mkdir()
        (d / "games.parquet").write_bytes(b"half")
    write_run(tmp_path / "run")
    assert not any(d.exists() for d in leftovers)
    assert other.exists()
    # a previous run moved aside by a run killed before it removed it goes once a run is in place
    moved_aside = tmp_path / f".run.old-{dead.pid}-4"
    moved_aside.mkdir()
    write_run(tmp_path / "run")
    assert not moved_aside.exists()


def test_a_run_directory_another_process_is_writing_is_refused(tmp_path):
    """Two runs writing one directory at once would both report it as theirs,
    where only the last one's tables are: the later one is refused in one line
    naming the other, whose partial directory stays."""
    live = tmp_path / f".run.partial-{os.getppid()}-1"  # a live process's
    live.mkdir()
    with pytest.raises(AnalyzerError, match=rf"run is being written by another run now \(process {os.getppid()}, "
                                            rf"into {live.name}\)"):
        write_run(tmp_path / "run")
    assert live.exists() and not (tmp_path / "run").exists()
    assert partial_dirs(tmp_path) == [live]


def test_two_writers_of_one_run_directory_in_one_process(tmp_path):
    """Two writers (two threads of the Python API) of one ``out``: each one's
    start-up removed the other's partial directory (they shared its name), and
    the manifest said complete over unreadable tables. The second is refused;
    the first writes its run whole."""
    out = tmp_path / "run"
    with RunWriter(out, ["games"]) as first:
        first.write("games", chunk(0, 5))
        with pytest.raises(AnalyzerError, match="is being written by another run now "
                                                r"\(another thread of this process"):
            with RunWriter(out, ["games"]) as second:
                second.write("games", chunk(100, 5))
                second.finish({"seed": 2})
        first.write("games", chunk(5, 5))
        first.finish({"seed": 1})
    assert json.loads((out / "manifest.json").read_text())["seed"] == 1
    pd.testing.assert_frame_equal(pq.read_table(out / "games.parquet").to_pandas(), chunk(0, 10))
    assert partial_dirs(tmp_path) == []
    write_run(out)  # once it is done, the next run replaces it as usual


def test_refuses_file(tmp_path):
    out = tmp_path / "run"
    out.write_text("x")
    with pytest.raises(AnalyzerError, match="not a directory"):
        RunWriter(out, ["games"])


def test_refuses_unwritable_location(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(AnalyzerError, match="cannot write") as info:
        with RunWriter(blocker / "run", ["games"]):
            pass
    assert "\n" not in str(info.value)


def test_refuses_read_only_parent(tmp_path):
    """A directory nobody may write into: a read-only one for a user, sysfs for
    root (CI runs as root, where permission bits do not stop a write)."""
    if os.geteuid() == 0:
        parent = Path("/sys")
    else:
        parent = tmp_path / "ro"
        parent.mkdir()
        parent.chmod(0o500)
    try:
        with pytest.raises(AnalyzerError, match="cannot write"):
            with RunWriter(parent / "analyzer-test-run", ["games"]):
                pass
    finally:
        if parent != Path("/sys"):
            parent.chmod(0o700)


def test_file_sha256(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"abc")
    assert file_sha256(path) == "ba7816bf8f01cfea"
