"""Running the command line in tests: one place for the exit-code convention."""
from analyzer.cli import main


def run(argv) -> int:
    """main(argv) -> exit code (0 when it returns normally)."""
    try:
        main([str(a) for a in argv])
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return 0
