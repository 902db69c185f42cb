"""The progress bar: rich on a terminal (or when forced), silent otherwise."""
import io
import re

from analyzer.engine.progress import Progress, wanted


class TTY(io.StringIO):
    def isatty(self):
        return True


def plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_disabled_writes_nothing():
    stream = TTY()
    with Progress(100, "games", enabled=False, stream=stream) as p:
        p.advance(50)
        p.advance(50)
    assert stream.getvalue() == "" and p.done == 100


def test_auto_is_off_when_not_a_terminal_and_on_when_one():
    assert not wanted(None, io.StringIO())
    assert wanted(None, TTY())
    assert wanted(True, io.StringIO()) and not wanted(False, TTY())
    stream = io.StringIO()
    with Progress(100, "games", stream=stream) as p:
        p.advance(100)
    assert stream.getvalue() == ""


def test_forced_bar_shows_count_phase_and_total():
    stream = io.StringIO()
    with Progress(1000, "races", enabled=True, stream=stream) as p:
        with p.phase("compiling the bots"):
            p._bar.refresh()
            assert "races: compiling the bots" in plain(stream.getvalue())
        p.advance(250)
        p._bar.refresh()
        assert "250/1000" in plain(stream.getvalue())
        p.advance(750)
    assert "1000/1000" in plain(stream.getvalue())


def test_exception_wipes_the_bar():
    stream = io.StringIO()
    try:
        with Progress(10, "games", enabled=True, stream=stream) as p:
            p.advance(5)
            p._bar.refresh()
            raise RuntimeError
    except RuntimeError:
        pass
    last = plain(stream.getvalue()).rsplit("\n", 1)[-1]
    assert "5/10" not in last
