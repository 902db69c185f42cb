"""Running the command line in tests: one place for the exit-code convention."""
from analyzer.cli import main


def run(argv) -> int:
    """main(argv) -> exit code (0 when it returns normally)."""
    try:
        main([str(a) for a in argv])
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return 0


def assert_usage_error(capsys, argv, *needles) -> str:
    """``argv`` fails as a usage error: exit 2, one ``analyzer: error:`` line on
    stderr naming every needle, no traceback. Returns the line."""
    code = run(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("analyzer: error: "), err
    assert "Traceback" not in err and "Traceback" not in out
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]
