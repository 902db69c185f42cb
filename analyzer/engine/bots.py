"""Bot families as a game declares them, and the files a user names on the
command line: ``name[:k=v]`` built-ins, bot TOML files (a built-in family with
its own defaults, e.g. written by ``analyzer tune``) and, where the game supports
them, user Python files. Knows no game: each game builds a ``BotRegistry`` from
its families and the width of its parameter rows."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

from analyzer.engine.botfamily import (  # noqa: F401  (declared there)
    ANY_NUMBER, PLAYER, BotFamily, ParamRange, UserBot, file_digest, search_family,
)
from analyzer.engine.botspec import BotSpec
from analyzer.errors import AnalyzerError, BotError


@dataclass(frozen=True)
class BotFile:
    """A bot TOML file: a built-in family with its own defaults.

        family = "NAME"               # a built-in bot of the game
        name = "tuned-NAME"           # optional, default: the file's stem
        description = "..."           # optional
        [params]
        some_parameter = 2.5
    """
    family: str
    name: str
    description: str
    params: dict[str, float]
    path: str
    sha256: str = ""  # of the file's bytes (``botfamily.file_digest``)


def _bot_file_model():
    from typing import Any

    from pydantic import Field, ValidationInfo, field_validator

    from analyzer.engine.datafile import FileModel, one_line_name

    class BotFileModel(FileModel):
        """A bot TOML file, validated (see ``BotFile``)."""
        family: Any = Field(default=None, validate_default=True)
        name: str | None = None
        description: str | None = None
        params: Any = Field(default_factory=dict)

        @field_validator("family")
        @classmethod
        def _family(cls, family, info: ValidationInfo):
            builtin = info.context["registry"].builtin
            if not isinstance(family, str) or family not in builtin:
                raise ValueError(f"'family' must name a built-in bot ({', '.join(builtin)}), got {family!r}")
            return family

        @field_validator("name", "description", mode="wrap")
        @classmethod
        def _text(cls, value, handler, info: ValidationInfo):
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{info.field_name!r} must be a string, got {value!r}")
            if value is not None and info.field_name == "name":
                one_line_name(value)  # it labels the seat in one-line headers
            return handler(value)

        @field_validator("params")
        @classmethod
        def _params(cls, params, info: ValidationInfo):
            if not isinstance(params, dict):
                raise ValueError("'params' must be a table ([params] with name = number lines)")
            if "family" not in info.data:
                return params  # the family's own error comes first
            family = info.context["registry"].builtin[info.data["family"]]
            out = {}
            for key, value in params.items():
                if key not in family.params:
                    raise ValueError(f"bot {family.name!r} has no parameter {key!r} "
                                     f"(its parameters: {', '.join(family.params) or 'none'})")
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                    raise ValueError(f"parameter {key!r} must be a number, got {value!r}")
                allowed = family.range_of(key)
                if not allowed.accepts(float(value)):
                    raise ValueError(f"parameter {key} must be {allowed.describe()}, got {value:g}")
                out[key] = float(value)
            return out

    return BotFileModel


class _LazyModel:
    """The bot-file model, built at first use (pydantic loads only when a bot
    file is read)."""
    _model = None

    def __get__(self, obj, owner=None):
        if _LazyModel._model is None:
            _LazyModel._model = _bot_file_model()
        return _LazyModel._model


class BotRegistry:
    """The bots of one game a user can name."""

    _file_model = _LazyModel()

    def __init__(self, builtin: dict[str, BotFamily], width: int, load_py=None, view=None,
                 store: ParamRange | None = None):
        """``store``: the values the game's parameter store holds (e.g. int64
        millionths), every bot's parameters bounded by it; default any number."""
        self.width = width
        self.store = store if store is not None else ParamRange()
        self.builtin = {name: dataclasses.replace(f, width=width, store=self.store) for name, f in builtin.items()}
        # user bots: a game declares what they see (an ``engine.userbots.ViewSpec``)
        # and the generic loader does the rest; ``load_py`` (path -> BotFamily) is
        # the older, game-written hook
        self.view = view
        if view is not None and load_py is None:
            from analyzer.engine import userbots

            load_py = userbots.loader(view, width)
        self._load_py = load_py

    @property
    def user_bots(self) -> bool:
        return self._load_py is not None

    def read_bot_toml(self, path: str) -> BotFile:
        from analyzer.engine.datafile import read_toml, validate

        p = Path(path)
        try:
            data = read_toml(p, "bot file")
            digest = file_digest(p)
        except AnalyzerError as e:
            raise BotError(str(e)) from None
        except OSError as e:
            raise BotError(f"cannot read bot file {path}: {e.strerror or e}") from None
        f = validate(self._file_model, data, path, "bot file", context={"registry": self}, error=BotError)
        return BotFile(f.family, f.name or p.stem, f.description or f"{f.family} with the parameters of {p.name}",
                       dict(f.params), str(p), digest)

    def load_bot_toml(self, path: str) -> BotFamily:
        """The built-in family of a bot TOML file, with the file's parameters as defaults."""
        f = self.read_bot_toml(path)
        base = self.builtin[f.family]
        params = {k: (slot, f.params.get(k, default), text) for k, (slot, default, text) in base.params.items()}
        return dataclasses.replace(base, name=f.name, description=f.description, params=params, source=f.path,
                                   sha256=f.sha256)

    def resolve(self, spec: BotSpec) -> BotFamily:
        if spec.name.endswith(".py"):
            if self._load_py is None:
                raise BotError(f"bot {spec.name!r}: this game takes no user Python bots "
                               f"(built-in bots: {', '.join(self.builtin)}; or a bot .toml file)")
            from analyzer.engine.datafile import one_line_name

            family = self._load_py(spec.name)
            try:
                one_line_name(family.name)  # it labels the seat in one-line headers
            except ValueError as e:
                raise BotError(f"bot file {spec.name}: the UserBot's name {e}") from None
            family = dataclasses.replace(family, width=self.width, store=self.store)
            for name, default in family.defaults().items():  # its declared defaults fit the store too
                family.check_value(name, default, f"{spec.name}, its default")
            return family
        if spec.name.endswith(".toml"):
            return self.load_bot_toml(spec.name)
        if spec.name not in self.builtin:
            files = "a path to a .py or .toml bot file" if self._load_py else "a path to a .toml bot file"
            raise BotError(f"unknown bot {spec.name!r} (built-in bots: {', '.join(self.builtin)}; or {files})")
        return self.builtin[spec.name]
