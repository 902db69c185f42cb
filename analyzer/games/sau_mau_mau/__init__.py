"""Sau Mau Mau ("Les cochons sont partis !"), as ``shared/rules/sau-mau-mau.md``
states it: a jitted four-race game (``kernel.py``), its rules (``rules.py``), the
reference random bot (``random_bot.py``), the layout of its flat arrays
(``layout.py``) and the assumed track file (``board.py``, ``data/``).

Decisions where the rules page is silent (a player's reading):

1. The first discard triggers no action, but it still matches by colour, number
   and symbol: an X or a +2 may be played on a first X or +2 (matching is not an
   action); a first +2 imposes no penalty and a first X skips no one.
2. Under a pending +2 penalty the only valid cards are +2s (of any colour); green
   specials do not stop a penalty. Declining (drawing) takes the whole penalty.
3. A player may draw even with valid cards; under a penalty, "drawing" means
   taking the whole penalty.
4. If the draw pile is empty and the discard pile holds only its top card (every
   other card is in hands), a player draws what there is (possibly nothing). A
   penalty drawn short gives one step back per card actually drawn, and a turn
   that drew nothing gives no bet.
5. Penalty steps back are taken one at a time, each on a pig off the start
   space; the player may stop early (answer -1). Steps are not offered once all
   pigs stand on the start space.
6. The Flapi's printed colour is the colour required next; the Flapi moves the
   last pig even if the choice is forced; a Flapi can end a race by the crown.
7. A pig passes the crown space freely (its space is recorded beyond the crown);
   the race ends as soon as one reaches or passes it. Crown and last card at
   once: the crown pig is the only winner (it is also the only pig furthest
   ahead), the ender scores 3 + 5 = 8; records mark end "crown" and both_ends.
8. An X or a +2 played as the last card ends the race: the skip / penalty lapse.
9. A skipped turn counts as a player turn (``turns``) but asks nothing: no draw,
   no bet.
10. A bet may be changed to any pig, the same one included (which only moves it
    to the back); the random bot always changes to another pig. Bet cards are
    face down: the queue's seats are public, the pigs only in their owner's row.
11. Dealing: one card at a time, starting with the race's first player. The
    first player of race r is seat (r - 1) mod players; play passes to seat + 1
    (left). Each race's shuffles (deal and reshuffles) use a stream of their
    own (lane 0 of stream game * 4 + race - 1), so a race's deal is the same
    whatever happened before; each player's choices use its own lane of the
    game's stream, kept in its private row.
12. A race no one can end (every player refusing to play forever) is stopped at
    MAX_TURNS turns: end "cap", no crown or hand points, the pigs furthest ahead
    win the bets. The random bot never gets there in practice.
13. Records: ``bets_placed`` counts every bet card laid in the queue (first
    bets and changes), ``bets_changed`` the changes among them; the bets table
    holds each player's card in the final queue (``changed`` = it replaced an
    earlier bet of that player).
"""
from analyzer.games import GameInfo  # noqa: E402  (after the docstring of decisions)

GAME = GameInfo(
    name="sau-mau-mau",
    title="Sau Mau Mau",
    match="analyzer.games.sau_mau_mau.match:SauMauMauMatch",
    bots="analyzer.games.sau_mau_mau.registry",
    stats="analyzer.stats.sau_mau_mau",
    report="analyzer.report.sau_mau_mau",
    default_players=4,
    default_bots=("random",),
    unit="games",
)
