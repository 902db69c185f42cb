"""Balance statistics of Mafia runs (not written yet: ``--report`` refuses in one line)."""
from analyzer.errors import AnalyzerError

COLUMNS: dict[str, list[str]] = {}
TABLE_DOCS: dict[str, str] = {}
ID_COLUMNS: dict[str, list[str]] = {}


def new_stats(**options):
    raise AnalyzerError("the Mafia balance report is not written yet (simulate --out writes its tables)")


def expected_rows(manifest) -> dict:
    return {}
