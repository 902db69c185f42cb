"""The output policy (engine/output.py) on its own: anything but a
regular file at an output path is refused before the work; a write is whole or
not at all, and a failed one (a full disk, a signal) leaves no temporary and
no folder made for it; a report's NAME_files/ folder of the user's is never
written into, and files the user put into ours are never touched."""
import errno
import json
import os
from pathlib import Path

import pytest

from analyzer.engine import output
from analyzer.engine.output import (FOLDER_MARK, check_page, check_target, files_dir, temp_path, write_file,
                                    write_page)
from analyzer.errors import AnalyzerError, OutputError


class FullDisk:
    """``output._put`` that lets ``room`` files through, then writes half of the
    next one and fails as a full disk does."""

    def __init__(self, monkeypatch, room: int = 0):
        self.room = room
        self.real = output._put
        monkeypatch.setattr(output, "_put", self)

    def __call__(self, path, data):
        if self.room > 0:
            self.room -= 1
            return self.real(path, data)
        data = data.encode() if isinstance(data, str) else data
        with open(path, "xb") as f:
            f.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class Interrupting(FullDisk):
    """As the signal handler does (cli._on_signal): a KeyboardInterrupt mid-write."""

    def __call__(self, path, data):
        if self.room > 0:
            self.room -= 1
            return self.real(path, data)
        raise KeyboardInterrupt


def listing(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"")
            for p in sorted(folder.rglob("*"))}


def not_a_file(tmp_path: Path, kind: str) -> Path:
    target = tmp_path / "out.html"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (tmp_path / "elsewhere.html").write_text("the user's")
        target.symlink_to(tmp_path / "elsewhere.html")
    elif kind == "dangling symlink":
        target.symlink_to(tmp_path / "nowhere.html")
    else:
        return Path("/dev/null")
    return target


@pytest.mark.parametrize("kind", ["fifo", "symlink", "dangling symlink", "device"])
def test_what_is_not_a_regular_file_is_refused_and_left_as_it_was(tmp_path, kind):
    target = not_a_file(tmp_path, kind)
    before = listing(tmp_path)
    for write in (lambda: write_file(target, "x", "the page"),
                  lambda: write_page(target, "r.html", {"a.csv": "1"}, "x", "the page")):
        with pytest.raises(AnalyzerError, match="it exists and is not a file") as e:
            write()
        assert e.value.exit_code == 2 and "\n" not in str(e.value)
    assert listing(tmp_path) == before
    assert kind != "fifo" or target.is_fifo()


def test_a_parent_that_is_a_device_is_named_as_such():
    """``--out /dev/full/x`` said "File exists"."""
    with pytest.raises(AnalyzerError, match="/dev/full is not a directory"):
        check_target("/dev/full/x", "the page")


@pytest.mark.parametrize("interrupt", [FullDisk, Interrupting])
def test_a_failed_write_leaves_the_old_file_and_nothing_else(tmp_path, monkeypatch, interrupt):
    target = tmp_path / "new" / "deeper" / "bot.toml"
    old = tmp_path / "bot.toml"
    old.write_text("old")
    interrupt(monkeypatch)
    for path in (old, target):
        with pytest.raises(OutputError if interrupt is FullDisk else KeyboardInterrupt) as e:
            write_file(path, "new", "the tuned bot")
        if interrupt is FullDisk:
            assert e.value.exit_code == 1 and str(e.value) == f"cannot write the tuned bot to {path}: " \
                                                             "No space left on device"
    assert listing(tmp_path) == {"bot.toml": b"old"}  # no temporary, no folder made for the file


@pytest.mark.parametrize("interrupt", [FullDisk, Interrupting])
@pytest.mark.parametrize("room", [0, 1, 3])
def test_a_failed_page_leaves_the_previous_page_whole(tmp_path, monkeypatch, interrupt, room):
    """Item 9 and 18: a full disk or SIGTERM while a report is written left a
    ``.rep.html.tmp-PID``, a partly written or an empty ``rep_files/``."""
    write_page(tmp_path / "rep.html", "r.html", {"a.csv": "1", "b.png": b"\x89"}, "old", "the report")
    before = listing(tmp_path)
    interrupt(monkeypatch, room)
    with pytest.raises(OutputError if interrupt is FullDisk else KeyboardInterrupt):
        write_page(tmp_path / "rep.html", "r.html", {"a.csv": "2", "c.csv": "3", "d.png": b"4"}, "new",
                   "the report")
    assert listing(tmp_path) == before
    with pytest.raises(OutputError if interrupt is FullDisk else KeyboardInterrupt):
        write_page(tmp_path / "sub" / "new.html", "r.html", {"a.csv": "2"}, "new", "the report")
    assert listing(tmp_path) == before  # no empty new_files/, no sub/


def test_a_page_replaces_its_own_files_and_no_others(tmp_path):
    page = tmp_path / "rep.html"
    write_page(page, "r.html", {"a.csv": "1", "old.png": b"1"}, "first", "the report")
    folder = files_dir(page)
    (folder / "notes.txt").write_text("mine")
    write_page(page, "r.html", {"a.csv": "2", "b.csv": "2"}, "second", "the report")
    assert listing(folder) == {"a.csv": b"2", "b.csv": b"2", "notes.txt": b"mine",
                               FOLDER_MARK: json.dumps({"written_by": "analyzer",
                                                        "files": ["a.csv", "b.csv"]}).encode() + b"\n"}
    assert page.read_text() == "second"
    # a file the user put in that a later report would write: not overwritten
    (folder / "c.csv").write_text("mine too")
    with pytest.raises(AnalyzerError, match=r"holds files that are not the report's \(c.csv\)"):
        write_page(page, "r.html", {"c.csv": "3"}, "third", "the report")
    assert (folder / "c.csv").read_text() == "mine too" and page.read_text() == "second"


def test_a_folder_of_the_users_is_refused_before_the_work(tmp_path):
    """Item 18: a report into an existing NAME_files/ of the user's overwrote
    same-named files."""
    folder = tmp_path / "rep_files"
    folder.mkdir()
    (folder / "overview.csv").write_text("the user's")
    with pytest.raises(AnalyzerError, match="rep_files exists and was not written by analyzer") as e:
        check_page(tmp_path / "rep.html", "r.html", "the report")
    assert e.value.exit_code == 2
    with pytest.raises(AnalyzerError, match="was not written by analyzer"):
        write_page(tmp_path / "rep.html", "r.html", {"overview.csv": "ours"}, "page", "the report")
    assert listing(tmp_path) == {"rep_files": b"", "rep_files/overview.csv": b"the user's"}


def test_an_earlier_versions_folder_is_taken_for_a_reports(tmp_path):
    """Before the mark: a page and a folder of nothing but CSV and PNG files."""
    (tmp_path / "rep.html").write_text("old page")
    folder = tmp_path / "rep_files"
    folder.mkdir()
    (folder / "gone.csv").write_text("old")
    write_page(tmp_path / "rep.html", "r.html", {"a.csv": "1"}, "new", "the report")
    assert sorted(p.name for p in folder.iterdir()) == [FOLDER_MARK, "a.csv"]


def test_long_names_get_short_temporaries(tmp_path):
    """Item 16: a 250-character --out failed on the hidden temporary's name."""
    name = "r" * 245 + ".html"
    assert len(temp_path(tmp_path / name).name) < 80
    page = write_page(tmp_path / name, "r.html", {"a.csv": "1"}, "page", "the report")
    assert page.read_text() == "page" and (files_dir(page) / "a.csv").is_file()
    assert temp_path(tmp_path / "rep.html").name.startswith(f".rep.html.tmp-{os.getpid()}-")  # short names as they are


def test_every_temporary_is_the_writers_own():
    """Two writers of one output in one process (threads) never share a
    temporary: each one's clean-up removed the other's."""
    import threading

    names = []
    threads = [threading.Thread(target=lambda: names.extend(temp_path(Path("/x/out")).name for _ in range(500)))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(names)) == len(names) == 2000
