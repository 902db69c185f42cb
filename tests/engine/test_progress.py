import io

from analyzer.engine.progress import Progress


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class TTY(io.StringIO):
    def isatty(self):
        return True


def test_disabled_writes_nothing():
    stream = TTY()
    with Progress(100, "games", enabled=False, stream=stream) as p:
        p.advance(50)
        p.advance(50)
    assert stream.getvalue() == ""


def test_auto_is_off_when_not_a_terminal():
    stream = io.StringIO()
    clock = Clock()
    with Progress(100, "games", stream=stream, clock=clock) as p:
        clock.now += 5
        p.advance(50)
    assert stream.getvalue() == ""


def test_auto_waits_half_a_second_on_a_terminal():
    stream, clock = TTY(), Clock()
    with Progress(100, "games", stream=stream, clock=clock) as p:
        clock.now += 0.2
        p.advance(10)
        assert stream.getvalue() == ""  # short runs never show a bar
        clock.now += 0.4
        p.advance(10)
        assert stream.getvalue().startswith("\rgames [")
    assert stream.getvalue().endswith("\n")


def test_short_auto_run_leaves_no_trace():
    stream, clock = TTY(), Clock()
    with Progress(100, "games", stream=stream, clock=clock) as p:
        clock.now += 0.1
        p.advance(100)
    assert stream.getvalue() == ""


def test_bar_content_and_rate_limit():
    stream, clock = io.StringIO(), Clock()
    with Progress(1000, "games", enabled=True, stream=stream, clock=clock) as p:
        clock.now += 1.0
        p.advance(250)
        text = stream.getvalue()
        assert "25%" in text and "250/1,000" in text and "250/s" in text and "ETA 0:03" in text
        for _ in range(50):  # a burst within 0.1 s redraws nothing
            clock.now += 0.001
            p.advance(1)
        assert stream.getvalue() == text
        clock.now += 0.2
        p.advance(1)
        assert stream.getvalue() != text
    out = stream.getvalue()
    assert "\n" not in out[:-1] and out.endswith("\n")  # one line, updated in place
    assert "301/1,000" in out.rsplit("\r", 1)[1]


def test_exception_clears_the_line():
    stream, clock = io.StringIO(), Clock()
    try:
        with Progress(10, "games", enabled=True, stream=stream, clock=clock) as p:
            p.advance(5)
            raise RuntimeError
    except RuntimeError:
        pass
    last = stream.getvalue().rsplit("\r", 2)
    assert last[-1] == "" and last[-2].strip() == ""
