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
