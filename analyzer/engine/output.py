"""One output policy for every file the program writes: a run's tables (the
run directory, ``engine/writer.py``), reports and their ``NAME_files/``
folders, replay timelines, tuned bots, sweep tables and checkpoints.

- ``check_target`` / ``check_page`` before any work: a path holding anything
  but a regular file (a FIFO, a device, a symbolic link, a directory), or a
  ``NAME_files/`` folder the program did not write, is refused in one line
  (exit 2). Writing by rename would replace a FIFO or a link with a file, and
  opening a FIFO to write would wait for a reader for ever.
- ``write_file`` / ``write_page``: everything is written under a short hidden
  temporary name beside its place, unique to the writer (``temp_path``), and
  renamed into it, so a reader never sees half a file. On any failure (a full disk, a signal's KeyboardInterrupt)
  every temporary and every folder made for the output is removed; a failed
  write is one line, exit 1 (``OutputError``).
- A ``NAME_files/`` folder lists the files it holds in ``FOLDER_MARK``: a
  later report replaces those and no others, so a file the user put there
  is never overwritten or deleted.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import stat
from contextlib import contextmanager
from pathlib import Path

from analyzer.engine.inputs import read_input
from analyzer.errors import AnalyzerError, OutputError

WRITTEN_BY = "analyzer"
FOLDER_MARK = ".analyzer-files.json"  # in a page's NAME_files/: the files a report of ours wrote there
LEGACY_FOLDER_SUFFIXES = (".csv", ".png")  # what earlier versions wrote into NAME_files/, unmarked
SHORT_NAME = 40  # bytes of a name kept in a temporary's name: a long name plus a suffix would pass 255


def short_name(name: str) -> str:
    """``name`` itself, or for a long one its start and a digest of the whole:
    a temporary's name must stay legal (255 bytes) beside a 250-byte name."""
    raw = name.encode("utf-8", "surrogateescape")
    if len(raw) <= SHORT_NAME:
        return name
    head = raw[:24].decode("utf-8", "ignore")
    return f"{head}~{hashlib.sha256(raw).hexdigest()[:8]}"


_temp_numbers = itertools.count(1)  # next() is atomic: threads never draw the same number


def temp_path(path: Path, kind: str = "tmp") -> Path:
    """A hidden temporary beside ``path`` of its own: ``.NAME.KIND-PID-N``, the
    pid keeping processes apart and ``N`` (counted in the process) two writers
    of one process, threads too. Two threads writing one output with one
    temporary removed each other's and left a manifest saying complete over
    unreadable tables."""
    path = Path(path)
    return path.parent / f".{short_name(path.name)}.{kind}-{os.getpid()}-{next(_temp_numbers)}"


def utf8_text(path, what: str = "the path") -> str:
    """A path as UTF-8 text, as pyarrow (tables) and a page's links (its folder)
    take it: its bytes decoded as UTF-8, also where Python decoded them otherwise
    (under a C locale, ``out/ü`` arrives as surrogate escapes). A path whose bytes
    are not UTF-8 is refused in one line: no table or page could be written
    or read under it."""
    raw = os.fsencode(path)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise AnalyzerError(f"cannot use {what} {raw.decode('utf-8', 'backslashreplace')}: its name is not "
                            f"UTF-8 text (byte {raw[e.start]:#04x}); tables and reports take UTF-8 names only, "
                            "choose another") from None


def files_dir(page: Path) -> Path:
    """The folder beside a page for its PNG and CSV files."""
    page = Path(page)
    return page.with_name(page.stem + "_files")


def page_path(out, default_name: str) -> Path:
    """The page a path names: ``default_name`` inside it if it is a directory."""
    out = Path(out)
    return out / default_name if out.is_dir() else out


def _kind(path: Path) -> str:
    if path.is_symlink():
        return "a symbolic link"
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_parent(path: Path, what: str) -> None:
    """The nearest existing folder above ``path`` must be a writable directory
    (``/dev/full/x``: /dev/full is a device, not "File exists")."""
    path = Path(os.path.abspath(path))
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise AnalyzerError(f"cannot write {what} to {path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise AnalyzerError(f"cannot write {what} to {path}: {parent} is not writable")


def check_target(path, what: str) -> Path:
    """Refuse, before any work, a file path holding anything but a regular file,
    or a name that is not UTF-8 text (``utf8_text``)."""
    path = Path(path)
    utf8_text(os.path.abspath(path), what)
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise AnalyzerError(f"cannot write {what} to {path}: it exists and is not a file ({_kind(path)})")
    check_parent(path, what)
    return path


def check_page(out, default_name: str, what: str) -> Path:
    """``check_target`` for a page, and its ``NAME_files/`` folder must be absent,
    empty or one of ours. Returns the page's path."""
    page = check_target(page_path(out, default_name), what)
    folder = files_dir(page)
    if _files_of_ours(folder, page) is None:
        raise AnalyzerError(f"cannot write {what} to {page}: {folder} exists and was not written by analyzer "
                            f"(no {FOLDER_MARK} in it); move it or choose another path")
    return page


def _files_of_ours(folder: Path, page: Path) -> set[str] | None:
    """The names of the files a report of ours wrote in ``folder`` (empty if there
    is no folder or an empty one); None if the folder is not ours. A folder
    of an earlier version has no mark: it is taken for ours only beside its
    page and with nothing but CSV and PNG files in it."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        return None
    if not folder.exists():
        return set()
    entries = list(folder.iterdir())
    names = {e.name for e in entries}
    try:
        mark = json.loads(read_input(folder / FOLDER_MARK, "the folder's mark"))
        if mark.get("written_by") == WRITTEN_BY and all(isinstance(n, str) for n in mark["files"]):
            return set(mark["files"]) & names
    except (AnalyzerError, ValueError, AttributeError, KeyError, TypeError):
        pass
    if all(e.is_file() and not e.is_symlink() and e.suffix in LEGACY_FOLDER_SUFFIXES for e in entries) \
            and (not entries or page.is_file()):
        return names
    return None


def output_error(what: str, path, e: OSError) -> OutputError:
    """A write that failed (a full disk, a lost mount) as one line, exit 1."""
    return OutputError(f"cannot write {what} to {path}: {e.strerror or e}")


def _put(path: Path, data) -> None:
    """A new file holding ``data`` (bytes, or text as UTF-8); ``x``: never through
    something planted at the temporary's name."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "xb") as f:
        f.write(data)


def _remove(path: Path) -> None:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    except OSError:
        pass  # cleaning up after a failure: the first error is the one to report


def make_parents(path: Path) -> list[Path]:
    """The missing folders above ``path``, made; returns them, deepest first, for
    ``remove_made`` to take away again when the output fails."""
    missing, parent = [], Path(os.path.abspath(path)).parent
    while not parent.exists() and parent != parent.parent:
        missing.append(parent)
        parent = parent.parent
    for folder in reversed(missing):
        folder.mkdir()
    return missing


def remove_made(folders: list[Path]) -> None:
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            break  # something else is in it now


def write_file(path, data, what: str) -> Path:
    """``data`` at ``path``, whole or not at all."""
    path = check_target(path, what)  # again: something may have appeared during the work
    tmp = temp_path(path)
    with _whole_or_nothing(path, what, (tmp,)):
        _put(tmp, data)
        os.replace(tmp, path)
    return path


@contextmanager
def _whole_or_nothing(path: Path, what: str, temporaries: tuple[Path, ...]):
    """The body writes ``path`` through ``temporaries`` (none there before it runs),
    after the missing parent folders are made. On any failure, a signal's
    KeyboardInterrupt too, every temporary and every folder made for it go
    again, and an OSError is the one line of ``output_error``."""
    made: list[Path] = []
    try:
        made = make_parents(path)
        for tmp in temporaries:
            _remove(tmp)
        yield
    except BaseException as e:
        for tmp in temporaries:
            _remove(tmp)
        remove_made(made)
        if isinstance(e, OSError):
            raise output_error(what, path, e) from None
        raise


def write_page(out, default_name: str, files: dict[str, object], page: str, what: str) -> Path:
    """A page (HTML) and its ``NAME_files/`` folder holding ``files`` (name ->
    bytes or text): all staged in hidden temporaries, then moved in. In a
    folder of ours the files of the previous page that this one does not
    write again go; every other file in it stays. Returns the page's path."""
    path = check_page(out, default_name, what)
    folder = files_dir(path)
    stage, tmp = temp_path(folder), temp_path(path)
    with _whole_or_nothing(path, what, (stage, tmp)):
        stage.mkdir()
        for name, data in files.items():
            _put(stage / name, data)
        _put(stage / FOLDER_MARK, json.dumps({"written_by": WRITTEN_BY, "files": sorted(files)}) + "\n")
        _put(tmp, page)
        _move_in(stage, folder, path, what)
        os.replace(tmp, path)
    return path


def _move_in(stage: Path, folder: Path, page: Path, what: str) -> None:
    ours = _files_of_ours(folder, page)  # again: the folder may have changed during the work
    if ours is None:
        raise AnalyzerError(f"cannot write {what} to {page}: {folder} exists and was not written by analyzer "
                            f"(no {FOLDER_MARK} in it); move it or choose another path")
    if not folder.exists():
        os.rename(stage, folder)
        return
    names = [p.name for p in stage.iterdir() if p.name != FOLDER_MARK]  # before the mark below joins them
    theirs = sorted(n for n in names if n not in ours and ((folder / n).exists() or (folder / n).is_symlink()))
    if theirs:
        raise AnalyzerError(f"cannot write {what} to {page}: {folder} holds files that are not the "
                            f"report's ({', '.join(theirs[:3])}); move them or choose another path")
    # the mark names the old files and the new while they are moved, so that a
    # stop half-way leaves no file of ours taken for the user's
    both = stage / f"{FOLDER_MARK}.both"
    _put(both, json.dumps({"written_by": WRITTEN_BY, "files": sorted(ours | set(names))}) + "\n")
    os.replace(both, folder / FOLDER_MARK)
    for name in names:
        os.replace(stage / name, folder / name)
    for name in ours - set(names):
        (folder / name).unlink(missing_ok=True)  # the previous page's, not written again
    os.replace(stage / FOLDER_MARK, folder / FOLDER_MARK)
    stage.rmdir()
