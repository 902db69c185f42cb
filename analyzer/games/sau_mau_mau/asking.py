"""How a kernel asks a built-in heuristic bot: the game's kernel and the search
bot's playouts (search.py) both do, which is why it is neither of theirs; the
bots themselves (bots.py) never see the hidden array."""
from analyzer.engine.jit import kernel
from analyzer.games.sau_mau_mau.bots import decide_heuristic
from analyzer.games.sau_mau_mau.layout import OWN_BET_PIG, OWN_HAND, OWN_HAND_N, OWN_RNG, S_VIEW
from analyzer.games.sau_mau_mau.rules import own_at


@kernel(inline=True)
def ask_heuristic(what, seat, kind, game, state, hidden, row, n_options):
    """A built-in heuristic bot's decision as a kernel asks it (the game's and
    the search bot's playouts), from its parameter ``row``: its view is ``state``
    with its own hidden row's hand, bet and stream copied in, all it reads (the
    other slots of the row are not copied); its stream is copied back after."""
    at = own_at(seat)
    n = hidden[at + OWN_HAND_N]
    for i in range(n):
        state[S_VIEW + OWN_HAND + i] = hidden[at + OWN_HAND + i]
    state[S_VIEW + OWN_HAND_N] = n
    state[S_VIEW + OWN_BET_PIG] = hidden[at + OWN_BET_PIG]
    state[S_VIEW + OWN_RNG] = hidden[at + OWN_RNG]
    answer = decide_heuristic(what, seat, kind, game, state, row, n_options)
    hidden[at + OWN_RNG] = state[S_VIEW + OWN_RNG]
    return answer
