"""Reading the TOML data files users write (boards, tracks, scenarios, bots):
every way a file can be unreadable ends in one line naming it."""
from __future__ import annotations

import tomllib
from pathlib import Path

from analyzer.engine.inputs import read_input
from analyzer.errors import InputFileError


def read_toml(path: Path, what: str) -> dict:
    """The parsed file; ``what`` names it in errors ("board file", "track file").
    Read as every input is (``engine/inputs.py``): a regular file of bounded size."""
    data = read_input(path, what)
    try:
        return tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise InputFileError(f"{what} {path} is not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise InputFileError(f"{what} {path} is not valid TOML (not UTF-8 text: {e.reason} at byte "
                             f"{e.start})") from None


def content_digest(obj) -> str:
    """A short sha256 of a data file's content (not its bytes: comments, key order
    and file names do not change it), for manifests and reports."""
    import hashlib
    import json

    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


# ---------------------------------------------------------------- validation
# Every data file (board, track, deck, bot file, scenario) is validated by a
# pydantic model: unknown keys, wrong types and impossible values end in one
# line naming the file, the key and what is wrong.

import unicodedata  # noqa: E402
from typing import Annotated  # noqa: E402

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError  # noqa: E402


class FileModel(BaseModel):
    """Base of the data-file models: unknown keys are errors, and values are
    taken as typed (``assumed = "false"`` is not a boolean, ``3.0`` not a count)."""
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def one_line_name(value: str) -> str:
    """A name shown in a one-line header or label (a board's, a deck's, a bot's):
    not empty, and no line break or other control character."""
    if not isinstance(value, str):
        raise ValueError(f"must be a string, got {value!r}")
    if not value.strip():
        raise ValueError("must not be empty")
    bad = next((c for c in value if unicodedata.category(c).startswith("C")), None)
    if bad is not None:
        raise ValueError(f"must be one line of text, got {value!r} (it holds {bad!r})")
    return value


Name = Annotated[str, AfterValidator(one_line_name)]  # a file model's name field


def where(loc) -> str:
    """A pydantic error location as a user reads the file: ``board.name``,
    ``contract 19.points`` (list items counted from 1, named by their list's
    key without its plural s), ``run 2.races``."""
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int) and parts:
            key = parts.pop()
            parts.append(f"{key[:-1] if key.endswith('s') else key} {item + 1}")
        elif isinstance(item, int):
            parts.append(f"item {item + 1}")
        else:
            parts.append(str(item))
    return ".".join(parts)


def _explain(error: dict) -> str:
    message = error.get("msg", "is not valid")
    if error.get("type") == "value_error":  # our own validators' words
        return message.removeprefix("Value error, ")
    kind = error.get("type")
    if kind == "extra_forbidden":
        name = error.get("loc", ("?",))[-1]
        return f"unknown {'table' if isinstance(error.get('input'), dict) else 'key'} {name!r}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be a table, got {error.get('input')!r}"
    if kind == "missing":
        return "is required"
    value = error.get("input")
    shown = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return f"{message[0].lower() + message[1:]}, got {shown}"


def validate(model: type[BaseModel], data, path, what: str, context: dict | None = None,
             error: type[Exception] = InputFileError):
    """``model`` validated from ``data`` (a parsed file); any problem raises
    ``error`` (an ``InputFileError``) of one line: ``<what> <path>: <key>: <what is wrong>``."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as e:
        # an unknown key first: a misspelt key is the likeliest cause of the rest
        errors = sorted(e.errors(include_url=False), key=lambda err: err.get("type") != "extra_forbidden")
        first = errors[0]
        loc = tuple(first.get("loc", ()))
        key = where(loc[:-1] if first.get("type") == "extra_forbidden" else loc)
        more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
        raise error(f"{what} {path}: {key + ': ' if key else ''}{_explain(first)}{more}") from None


def counts_as_assumed(declared: bool, content, default_content) -> bool:
    """Whether data is an assumed reconstruction: declared so, or equal to the
    shipped assumed default. A copy of the default still counts as assumed,
    whatever its name or its ``assumed`` key say: its numbers are the
    reconstruction's, and every summary and report must say so."""
    return bool(declared) or content == default_content
