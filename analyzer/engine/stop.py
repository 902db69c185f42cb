"""A stop asked for by a signal, kept where every long loop sees it.

The CLI turns Ctrl-C, SIGTERM and SIGHUP into a ``KeyboardInterrupt`` raised in
the main thread, so the usual clean-up runs (the hidden partial run directory
removed, the thread pool abandoned). That exception can be lost: Python runs a
signal's handler at the next bytecode of the main thread, and if that bytecode
belongs to a finaliser (a ``__del__`` or weakref callback run by the collector)
the exception is reported as "ignored" and dropped; library code that clears
errors can drop it too. The run would then go on to its end as if no signal had
come. So the handler also records the request here, and the loops that play a
run (``runner.run_chunks``, ``runner.interruptible``, the cluster's task loop)
call ``check()`` between chunks: a lost exception delays the stop by one chunk,
never more.

Only the CLI requests a stop; a notebook's Ctrl-C is Python's own."""
_signum: int | None = None  # the signal that asked for the stop; None: none did


def request(signum: int) -> None:
    """Signal ``signum`` asked the command to stop."""
    global _signum
    _signum = signum


def clear() -> None:
    """A new command starts (the tests call the CLI's ``main`` many times in one process)."""
    global _signum
    _signum = None


def signum() -> int | None:
    """Which signal asked for the stop (None: no stop was asked for)."""
    return _signum


def requested() -> bool:
    return _signum is not None


def check() -> None:
    """Raise ``KeyboardInterrupt`` if a stop was asked for: called between chunks."""
    if _signum is not None:
        raise KeyboardInterrupt
