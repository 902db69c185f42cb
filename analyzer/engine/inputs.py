"""One way to read every file a user gives (boards, tracks, maps, decks,
scenarios, sweeps, bot files, run manifests, sweep checkpoints): a regular file
of bounded size, or one line saying why not. Outputs have their own policy
(``engine/output.py``).

- The path is looked at (``os.stat``) before it is opened: a FIFO (or
  ``/dev/stdin`` on a pipe) would block ``open`` until a writer came, a device
  (``/dev/zero``) would never end, a directory is not a file. Each is refused
  by name and kind.
- Opened without blocking (``O_NONBLOCK``: a path that turned into a FIFO
  after the look does not wait) and looked at again through the open file.
- At most ``MAX_INPUT_BYTES`` read: a larger file is refused, before reading
  by its size and while reading for a file whose size says nothing (``/proc``).
"""
from __future__ import annotations

import os
import stat

from analyzer.errors import InputFileError

MAX_INPUT_BYTES = 16 << 20  # 16 MiB: the largest data or bot file is a few KB; a sweep's checkpoint a few more
_BLOCK = 1 << 20


def _mib(n: int) -> str:
    return f"{n / (1 << 20):g} MiB" if n >= 1 << 20 else f"{n:,} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _check(st: os.stat_result, path, what: str, limit: int | None, error) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise error(f"{what} is a directory: {path}")
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{what} {path} is {_kind(st.st_mode)}, not a regular file; give the path of a file")
    if limit is not None and st.st_size > limit:
        raise error(f"{what} {path} is too large ({st.st_size:,} bytes; an input file holds at most "
                    f"{_mib(limit)})")


def _cannot(path, what: str, e: Exception, error):
    if isinstance(e, (FileNotFoundError, NotADirectoryError)):
        return error(f"{what} not found: {path}")
    reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
    return error(f"cannot read {what} {path}: {reason}")


def check_input(path, what: str, limit: int | None = MAX_INPUT_BYTES, error=InputFileError) -> os.stat_result:
    """``path`` is a regular file (of at most ``limit`` bytes), or ``error``
    (one line naming ``what`` and the path) is raised; nothing is opened. For
    a file another library opens (a run's Parquet tables: ``limit=None``)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        raise _cannot(path, what, e, error) from None
    _check(st, path, what, limit, error)
    return st


def read_input(path, what: str, limit: int = MAX_INPUT_BYTES, error=InputFileError) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; any
    other path (missing, a directory, a FIFO, a device, too large, unreadable)
    raises ``error``: one line naming ``what`` ("board file") and the path."""
    check_input(path, what, limit, error)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as e:
        raise _cannot(path, what, e, error) from None
    try:
        _check(os.fstat(fd), path, what, limit, error)  # the file opened is the file looked at
        chunks, total = [], 0
        while True:
            block = os.read(fd, min(_BLOCK, limit + 1 - total))
            if not block:
                return b"".join(chunks)
            chunks.append(block)
            total += len(block)
            if total > limit:
                raise error(f"{what} {path} is too large (more than the {_mib(limit)} an input file holds at most)")
    except OSError as e:
        raise _cannot(path, what, e, error) from None
    finally:
        os.close(fd)


def read_input_text(path, what: str, limit: int = MAX_INPUT_BYTES, error=InputFileError) -> str:
    """``read_input`` as UTF-8 text; text that is not UTF-8 is one line too."""
    data = read_input(path, what, limit, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{what} {path} is not UTF-8 text ({e.reason} at byte {e.start})") from None
