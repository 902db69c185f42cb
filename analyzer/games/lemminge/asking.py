"""How a kernel asks a built-in heuristic bot: the game's kernel and the search
bot's playouts (search.py) both do, which is why it is neither of theirs; the
bots themselves (bots.py) never see the hidden array."""
from analyzer.engine.jit import kernel
from analyzer.games.lemminge.bots import decide_heuristic
from analyzer.games.lemminge.layout import OWN_LEN, OWN_RNG, S_VIEW
from analyzer.games.lemminge.rules import own_at


@kernel(inline=True)
def ask_heuristic(what, seat, kind, game, state, hidden, row, n_options):
    """A built-in heuristic bot's decision from its parameter ``row``: its view
    is ``state`` with a copy of its own hand row in ``S_VIEW``; its stream is
    copied back after."""
    at = own_at(seat)
    for i in range(OWN_LEN):
        state[S_VIEW + i] = hidden[at + i]
    answer = decide_heuristic(what, seat, kind, game, state, row, n_options)
    hidden[at + OWN_RNG] = state[S_VIEW + OWN_RNG]
    return answer
