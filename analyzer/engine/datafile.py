"""Reading the TOML data files users write (boards, tracks, scenarios, bots):
every way a file can be unreadable ends in one line naming it."""
from __future__ import annotations

import tomllib
from pathlib import Path

from analyzer.errors import InputFileError


def read_toml(path: Path, what: str) -> dict:
    """The parsed file; ``what`` names it in errors ("board file", "track file")."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise InputFileError(f"{what} not found: {path}") from None
    except IsADirectoryError:
        raise InputFileError(f"{what} is a directory: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise InputFileError(f"{what} {path} is not valid TOML: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputFileError(f"cannot read {what} {path}: {e}") from None


def content_digest(obj) -> str:
    """A short sha256 of a data file's content (not its bytes: comments, key order
    and file names do not change it), for manifests and reports."""
    import hashlib
    import json

    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]
