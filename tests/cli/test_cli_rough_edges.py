"""Smaller ways a command or an API call broke its promise (one line, exit 2 or
1, never a traceback or a wrong message), each once seen: output paths whose
names are not UTF-8 text (a pyarrow UnicodeEncodeError); API arguments of the
wrong type (TypeError, AttributeError, ValueError); runs of two analyzer versions
taken for the same races, a merged report naming one version; a plain bot
raising KeyboardInterrupt (a ctypes traceback, then a wrong message); Dask's
port warning and the resource tracker's lines after a local cluster;
``report .`` inside a run directory writing ``-report.html`` into it."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import analyzer
from analyzer import api
from analyzer.errors import AnalyzerError
from tests.cli_support import assert_usage_error, run

SIM = ["simulate", "sau-mau-mau", "--games", 30, "--threads", 1, "--no-progress"]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("edges") / "run"
    assert run([*SIM, "--out", out]) == 0
    return out


# ------------------------------------------------------------------ paths

@pytest.mark.parametrize("option", ["--out", "--report"])
def test_an_output_path_that_is_not_utf8_is_one_line(tmp_path, capsys, option):
    target = os.fsdecode(bytes(tmp_path) + b"/bad\xff" + (b".html" if option == "--report" else b""))
    line = assert_usage_error(capsys, [*SIM, option, target], "not UTF-8 text", "bad\\xff")
    assert option in line or "report" in line
    assert os.listdir(tmp_path) == []


def test_a_utf8_path_under_a_c_locale_is_written(tmp_path):
    """Under ``LC_ALL=C PYTHONUTF8=0`` Python reads ``ü`` as two escaped bytes:
    the tables and the report are written under the name's UTF-8 bytes all the same."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    done = subprocess.run([sys.executable, "-m", "analyzer", *map(str, SIM), "--out", "out/ü", "--report",
                           "out/ü.html"], cwd=tmp_path, env=env, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    folder = tmp_path / "out"
    assert sorted(os.listdir(folder)) == ["ü", "ü.html", "ü_files"]
    assert run(["report", folder / "ü", "--report", tmp_path / "again.html"]) == 0
    assert 'href="ü_files/' in (folder / "ü.html").read_text(encoding="utf-8")


def test_report_of_the_current_directory_writes_beside_it(run_dir, tmp_path, monkeypatch):
    copy = tmp_path / "mine"
    shutil.copytree(run_dir, copy)
    monkeypatch.chdir(copy)
    assert run(["report", "."]) == 0
    assert sorted(p.name for p in copy.iterdir()) == sorted(p.name for p in run_dir.iterdir())  # nothing added
    assert (tmp_path / "mine-report.html").is_file()


# ------------------------------------------------------------------ the API's arguments

@pytest.mark.parametrize("call, needle", [
    (lambda: api.compare("sau-mau-mau", "random", "backer", games=20, alpha="x"), "--alpha must be a number"),
    (lambda: api.compare("sau-mau-mau", "random", "backer", games=20, alpha=None, sprt=(0, 1)),
     "--alpha must be a number"),
    (lambda: api.compare("sau-mau-mau", "random", "backer", games=20, beta="x"), "--beta must be a number"),
    (lambda: api.compare("sau-mau-mau", "random", "backer", games=20, field=None), "--field"),
])
def test_bad_api_arguments_raise_one_line(call, needle):
    with pytest.raises(AnalyzerError, match=needle):
        call()


@pytest.mark.parametrize("kwargs, needle", [
    ({"min_effect": "x"}, "--min-effect must be a number"),
    ({"min_effect": "200"}, "--min-effect must be a number"),
    ({"by": 5}, "--by must be one of"),
])
def test_bad_report_arguments_raise_one_line(run_dir, tmp_path, kwargs, needle):
    with pytest.raises(AnalyzerError, match=needle):
        api.report_runs(run_dir, tmp_path / "r.html", **kwargs)


def test_a_report_path_of_the_wrong_type_raises_one_line():
    played = analyzer.simulate("sau-mau-mau", games=20, threads=1, progress=False)
    with pytest.raises(AnalyzerError, match="the report path must be a path, got 123"):
        played.report(123)
    cup = analyzer.tournament("sau-mau-mau", ["random", "backer"], games=8, threads=1, progress=False)
    with pytest.raises(AnalyzerError, match="the report path must be a path, got None"):
        cup.report(None)


# ------------------------------------------------------------------ versions

def of_version(run_dir: Path, copy: Path, version: str, seed: int | None = None) -> Path:
    """A copy of the run as if played by another analyzer version (and seed)."""
    shutil.copytree(run_dir, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["versions"]["analyzer"] = version
    if seed is not None:
        manifest["seed"] = manifest["items"]["seed"] = seed
    (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


@pytest.mark.parametrize("seed", [None, 2])
def test_runs_of_two_analyzer_versions_are_not_blended(run_dir, tmp_path, capsys, seed):
    """Another version may play other races from the same seed, or the same
    ones: never "the same races", and never one blended report naming one version."""
    other = of_version(run_dir, tmp_path / "old", "0.0.9", seed)
    line = assert_usage_error(capsys, ["report", run_dir, other, "--report", tmp_path / "r.html"],
                              "analyzer version", "0.0.9", analyzer.__version__)
    assert "same games" not in line
    assert_usage_error(capsys, ["report", run_dir, other, "--drop-duplicates", "--report", tmp_path / "r.html"],
                       "analyzer version")
    assert not (tmp_path / "r.html").exists()


def test_side_by_side_each_run_shows_its_version(run_dir, tmp_path):
    other = of_version(run_dir, tmp_path / "old", "0.0.9", seed=2)
    manifest = json.loads((other / "manifest.json").read_text())
    assert run(["report", run_dir, other, "--by", "board", "--report", tmp_path / "r.html"]) == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "0.0.9 (run)" in page and f"{analyzer.__version__} (run)" in page
    assert manifest["seed"] == 2


def test_a_merged_manifest_names_every_runs_version():
    from analyzer.report import merge_manifests

    base = {"game": "sau-mau-mau", "unit": "games", "games": 10, "players": 4, "seed": 1, "bots": [], "data": []}
    merged = merge_manifests([{**base, "versions": {"analyzer": "0.1"}}, {**base, "versions": {"analyzer": "0.2"}}],
                             [Path("a"), Path("b")])
    assert merged["versions"]["analyzer"] == "a: 0.1; b: 0.2"


# ------------------------------------------------------------------ a plain bot's KeyboardInterrupt

def test_a_plain_bot_raising_keyboard_interrupt_is_a_fault_of_the_bot(tmp_path, capsys):
    bot = tmp_path / "stopper.py"
    bot.write_text("from analyzer.engine.bots import UserBot\n\n\ndef decide(view):\n"
                   "    raise KeyboardInterrupt\n\n\nBOT = UserBot('stopper', decide, game='sau-mau-mau')\n")
    line = assert_usage_error(capsys, [*SIM, "--bots", f"{bot},random"] + ["--players", 2],
                              f"user bot {bot} (seat 1, play decision): raised KeyboardInterrupt at line 5")
    assert "outside its valid cards" not in line


# ------------------------------------------------------------------ a local cluster, quietly

def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


@pytest.fixture
def port_8787():
    """Dask's dashboard port held, as by another local cluster."""
    s = socket.socket()
    try:
        s.bind(("0.0.0.0", 8787))
        s.listen()
    except OSError:
        pass  # already held by someone else: the same case
    yield
    s.close()


@pytest.mark.slow
def test_a_local_cluster_prints_nothing_of_dasks(tmp_path, port_8787):
    argv = [sys.executable, "-m", "analyzer", "simulate", "sau-mau-mau", "--games", "400", "--cluster", "local:1",
            "--no-progress"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # stopped by SIGTERM while its worker plays: one line, and nothing from multiprocessing after it
    argv[argv.index("400")] = "100000000"
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(_children(proc.pid)) < 2:  # the tracker and a worker's nanny
        time.sleep(0.5)
    time.sleep(8)  # the worker has joined and plays
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert err.strip().splitlines() == ["analyzer: stopped by SIGTERM"], err
