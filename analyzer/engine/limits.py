"""Upper bounds of a run, checked before any work (documented in docs/commands.md):
beyond them a run would not end in a lifetime or would only exhaust memory. Here,
apart from ``engine.simulate`` (which checks a run against them), so that what
reads a run back (``engine.manifest``) knows them without importing the runner."""
MAX_SEED = (1 << 63) - 1
MAX_COUNT = 10_000_000_000  # races or games per run: about 14 hours at 200,000 a second
MAX_THREADS = 256
MAX_CHUNK = 1 << 20  # items per chunk: record buffers stay in the hundreds of megabytes
MAX_PLAYERS = 16  # any game's seats, before the game checks its own range
