"""Documentation derived from the games' declarations, so it cannot drift: the
tables of columns in ``docs/tables.md`` (names) and in ``docs/<game>.md`` (names, dtypes,
meanings, units) come from each game's record specs, between the markers
``<!-- tables:GAME -->`` and ``<!-- /tables:GAME -->``; each game's table of rule
numbers (``--rule``, ``[rules]``: key, box value, range, meaning) in ``docs/<game>.md``
from its rule set, between ``<!-- rules:GAME -->`` and ``<!-- /rules:GAME -->``.

The bot API pages ``docs/bots-<game>.md`` come from each game's view spec
(``engine/botpage.py``).

    python -m analyzer.docs          # rewrite the generated parts
    python -m analyzer.docs --check  # exit 1 if they are out of date (a test runs it)
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = ROOT / "docs" / "tables.md"  # every game's tables, names only


def tables_markdown(game: str, full: bool) -> str:
    from analyzer.engine.records import markdown, markdown_summary
    from analyzer.games import game_info

    specs = game_info(game).load("records").TABLES
    return (markdown(specs) if full else markdown_summary(specs)).rstrip() + "\n"


def doc_path(game: str) -> Path:
    return ROOT / "docs" / f"{game}.md"


def _block(game: str) -> re.Pattern:
    return re.compile(rf"(<!-- tables:{re.escape(game)} -->\n)(.*?)(<!-- /tables:{re.escape(game)} -->)", re.S)


def _rules_block(game: str) -> re.Pattern:
    return re.compile(rf"(<!-- rules:{re.escape(game)} -->\n)(.*?)(<!-- /rules:{re.escape(game)} -->)", re.S)


def rules_markdown(game: str) -> str:
    from analyzer.games import rules_of

    return rules_of(game).markdown()


def render(text: str, games: list[str], full: bool) -> str:
    for game in games:
        text = _block(game).sub(lambda m: m.group(1) + "\n" + tables_markdown(game, full) + "\n" + m.group(3),
                                text)
        if full:
            text = _rules_block(game).sub(lambda m: m.group(1) + "\n" + rules_markdown(game) + "\n" + m.group(3),
                                          text)
    return text


def generated_files() -> dict[Path, tuple[str, str]]:
    """Each file with generated parts: (its text now, its text as it should be)."""
    from analyzer.games import names

    out = {}
    text = SUMMARY.read_text(encoding="utf-8")
    out[SUMMARY] = (text, render(text, names(), full=False))
    for game in names():
        path = doc_path(game)
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            out[path] = (text, render(text, [game], full=True))
    for name, page in bot_api_pages().items():
        path = ROOT / name
        out[path] = (path.read_text(encoding="utf-8") if path.is_file() else "", page)
    return out


def bot_api_pages() -> dict[str, str]:
    """``docs/bots-<game>.md`` for every game whose registry has a view."""
    from analyzer.engine.botpage import api_page
    from analyzer.games import names, registry

    pages = {}
    for game in names():
        view = getattr(registry(game), "view", None)
        if view is not None:
            pages[f"docs/bots-{game}.md"] = api_page(view)
    return pages


def main(argv: list[str]) -> int:
    stale = [path for path, (now, new) in generated_files().items() if now != new]
    if "--check" in argv:
        for path in stale:
            print(f"{path} is out of date: run python -m analyzer.docs", file=sys.stderr)
        return 1 if stale else 0
    for path, (now, new) in generated_files().items():
        if now != new:
            path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
