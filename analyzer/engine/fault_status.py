"""The status a game's kernel returns when a bot fails: 0 when every item
played, else the fault's code (error * 8 + seat) times 2^32 plus the item's
index (a game whose kernel orders them otherwise turns its status into this
one). Knows no game."""


def decode_fault(status: int, first: int) -> tuple[int, int]:
    """(code, item index) of a kernel's fault status, ``code << 32`` plus the
    index. The index is read from its low 32 bits as the one item of the chunk
    from ``first`` with those bits (a chunk is far shorter than 2^32 items): a
    run goes past 2^32 items (up to 10 billion), where the plain split named
    the wrong item and bot."""
    mask = (1 << 32) - 1
    index = first + (((int(status) & mask) - first) & mask)
    return (int(status) - index) >> 32, index
