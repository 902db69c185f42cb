"""Lemming Mafia's rule numbers as data (``ruleset.py``, ``--rule``/``--rules``):
the declaration; every key changes play as its words say, shown on the engine's
own records with fixed seeds; the three kernels (random table, heuristic table,
general) still play the same races under a variant, the look-ahead bot, the
interventions and user bots play it too; a variant compiles no kernel again.
The command line's refusals and names are in ``test_lm_cli.py``; the
statistical cross-check against the reference under variants in
``test_lm_crosscheck.py``."""
import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S
from analyzer.engine.botspec import BotSpec, parse_bot_list
from analyzer.errors import InputFileError
from analyzer.games.lemming_mafia import intervene, kernel, random_race, table_race
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.board import pack_game
from analyzer.games.lemming_mafia.match import Chunk, LemmingMafiaMatch
from analyzer.games.lemming_mafia.replay import traced_race
from analyzer.games.lemming_mafia.ruleset import RULES

BOX = RULES.box()


def rules(**values):
    return RULES.rules(values)


def match(bots="random", players=4, board=None, **values):
    specs = parse_bot_list(bots) if "," in bots else [BotSpec(bots)] * players
    return LemmingMafiaMatch(board, len(specs), specs, rules=rules(**values))


def records(m, races, seed=11):
    c = m.play(seed, 0, races).view()
    return c, m.tables_of(c)


# the columns of a race row that its scoring does not change (who won the game, and
# whether a tie was broken, do)
PLAYED = [col for col in range(L.RACE_LEN) if col not in (L.RACE_TIEBREAK, L.RACE_N_WINNERS)]


def assert_same_races(a, b):
    np.testing.assert_array_equal(a.races[:, PLAYED], b.races[:, PLAYED])
    np.testing.assert_array_equal(a.bets[..., L.BET_COLOR], b.bets[..., L.BET_COLOR])
    np.testing.assert_array_equal(a.contracts[..., L.CT_DISCARD_TURN], b.contracts[..., L.CT_DISCARD_TURN])


# ------------------------------------------------------------------ the declaration

def test_the_keys_box_values_and_ranges():
    keys = {k.name: k for k in RULES.keys}
    assert list(keys)[:7] == ["contracts_dealt", "unfulfilled_contract", "blocks_to_eliminate", "bet_points",
                              "getaway_die", "bets_per_bookmaker", "discards_per_boss"]
    assert BOX.as_dict() == {"contracts_dealt": 3, "unfulfilled_contract": -2, "blocks_to_eliminate": 3,
                             "bet_points": (1, 2, 3, 4, 5, 6), "getaway_die": 6, "bets_per_bookmaker": 1,
                             "discards_per_boss": 1, "jackhammer_removes": 1}
    assert (keys["blocks_to_eliminate"].lo, keys["blocks_to_eliminate"].hi) == (2, 6)
    assert (keys["getaway_die"].lo, keys["getaway_die"].hi) == (2, 12)
    assert keys["bet_points"].length == (1, L.N_LEMMINGS)  # a stack holds one card of each colour
    assert (keys["contracts_dealt"].lo, keys["contracts_dealt"].hi) == (1, L.MAX_CONTRACTS_EACH)
    assert "deck size / players" in keys["contracts_dealt"].allowed()


def test_the_box_packs_as_before_and_a_variant_packs_its_values():
    kinds = [L.RANDOM] * 4
    box = pack_game(S.DEFAULT_BOARD, S.DEFAULT_DECK, kinds)
    np.testing.assert_array_equal(box, pack_game(S.DEFAULT_BOARD, S.DEFAULT_DECK, kinds, BOX))
    assert list(box[L.G_BET_POINTS:L.G_BET_POINTS + 6]) == [1, 2, 3, 4, 5, 6]
    assert (box[L.G_CONTRACTS_DEALT], box[L.G_UNFULFILLED], box[L.G_BLOCKS_OUT], box[L.G_GETAWAY_DIE]) == (3, -2, 3, 6)
    game = pack_game(S.DEFAULT_BOARD, S.DEFAULT_DECK, kinds, rules(bet_points=[5, 3], contracts_dealt=2,
                                                                  getaway_die=9, bets_per_bookmaker=2))
    # a list shorter than a stack pays its last entry on the later positions
    assert list(game[L.G_BET_POINTS:L.G_BET_POINTS + 6]) == [5, 3, 3, 3, 3, 3]
    assert (game[L.G_CONTRACTS_DEALT], game[L.G_GETAWAY_DIE], game[L.G_BETS_PER_BOOKMAKER]) == (2, 9, 2)
    # the shapes of the arrays do not depend on a rule: the same layout, other values
    assert len(game) == len(box) and game[L.G_S_LEN] == box[L.G_S_LEN] and game[L.G_H_LEN] == box[L.G_H_LEN]


def test_contracts_dealt_is_bounded_by_the_deck_and_the_players():
    LemmingMafiaMatch(None, 3, [BotSpec("random")] * 3, rules=rules(contracts_dealt=6))  # 18 cards / 3
    with pytest.raises(InputFileError, match=r"contracts_dealt 7: .* 18 cards, 3 players need 21 "
                                             r"\(allowed: 1 to the deck size / players, here 1 to 6\)"):
        LemmingMafiaMatch(None, 3, [BotSpec("random")] * 3, rules=rules(contracts_dealt=7))
    with pytest.raises(InputFileError, match="here 1 to 4"):
        LemmingMafiaMatch(None, 4, [BotSpec("random")] * 4, rules=rules(contracts_dealt=5))


# ------------------------------------------------- each key changes play as it says
# A random table's race does not depend on its scoring rules (the random bot reads
# none of them): a variant of the scoring keys plays the same races as the box,
# scored otherwise, so the records show the rule's effect alone.

def test_contracts_dealt_deals_that_many_distinct_cards_to_each_player():
    for dealt in (1, 5):
        c, t = records(match(players=3, contracts_dealt=dealt, discards_per_boss=5), 600)
        assert c.contracts.shape[2] == dealt
        cards = c.contracts[:, :, :, L.CT_CARD].reshape(len(c.races), -1)
        assert all(len(set(row)) == 3 * dealt for row in cards.tolist())  # one deck, no card twice
        assert (t["contracts"].groupby(["race", "seat"]).size() == dealt).all()
        assert c.players[:, :, L.PL_DISCARDED].max() == dealt  # a seat may throw every card away
        # what the players hold is what they score: every card held pays its points or the penalty
        held = c.contracts[:, :, :, L.CT_DISCARDED] == 0
        np.testing.assert_array_equal((c.contracts[:, :, :, L.CT_PAYOFF] * held).sum(axis=2),
                                      c.players[:, :, L.PL_CONTRACT_POINTS])


def test_unfulfilled_contract_is_what_a_held_card_not_fulfilled_scores():
    box, _ = records(match(), 800)
    for value in (-5, 0, 3):
        c, _ = records(match(unfulfilled_contract=value), 800)
        assert_same_races(c, box)  # the same races ...
        ct = c.contracts
        held_unfulfilled = (ct[:, :, :, L.CT_DISCARDED] == 0) & (ct[:, :, :, L.CT_FULFILLED] == 0)
        assert held_unfulfilled.any()
        assert (ct[:, :, :, L.CT_PAYOFF][held_unfulfilled] == value).all()  # ... scored otherwise
        np.testing.assert_array_equal(ct[:, :, :, L.CT_PAYOFF][~held_unfulfilled],
                                      box.contracts[:, :, :, L.CT_PAYOFF][~held_unfulfilled])
        shift = (value + 2) * held_unfulfilled.sum(axis=2)
        np.testing.assert_array_equal(c.players[:, :, L.PL_SCORE], box.players[:, :, L.PL_SCORE] + shift)


def test_bet_points_pays_the_winners_card_by_its_placing_order():
    box, box_t = records(match(), 800)
    for points, paid in (([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]), ([5, 3], [5, 3, 3, 3, 3, 3]),
                         ([6, 5, 4, 3, 2, 1], [6, 5, 4, 3, 2, 1])):
        c, t = records(match(bet_points=points), 800)
        assert_same_races(c, box)
        bets = t["bets"]
        winner = c.races[:, L.RACE_WINNER][bets["race"].to_numpy()]
        on_winner = bets["color"].cat.codes.to_numpy() == winner
        expected = np.where(on_winner, np.array(paid)[bets["order"].to_numpy() - 1], 0)
        np.testing.assert_array_equal(bets["paid"].to_numpy(), expected)
        np.testing.assert_array_equal(bets["order"], box_t["bets"]["order"])  # the same cards, other points
        per_player = bets.groupby(["race", "seat"])["paid"].sum()
        players = t["players"].set_index(["race", "seat"])["bet_points"]
        np.testing.assert_array_equal(players.reindex(per_player.index), per_player)
        assert (expected[on_winner] > 0).any() or points[0] == 0


def test_the_heuristic_bots_weigh_a_card_by_what_its_position_pays():
    """A heuristic bot's bet gains (what each colour's win pays it, which its
    moves steer by) are the variant's points of each card's stack position."""
    from analyzer.games.lemming_mafia import bots

    game = pack_game(S.DEFAULT_BOARD, S.DEFAULT_DECK, [L.TIMER] * 3, rules(bet_points=[6, 5, 4, 0]))
    row = np.zeros(L.OWN_LEN, np.int64)
    row[L.OWN_HAND:L.OWN_HAND + 6] = [1, 1, 0, 0, 0, 1]
    row[L.OWN_STACK:L.OWN_STACK + 3] = [2, 4, 3]
    row[L.OWN_STACK_N] = 3
    params = np.zeros(L.PARAMS_WIDTH)
    bots.bet_gains_of(game, row, 0, params)
    assert list(params[L.SC_GAIN:L.SC_GAIN + 6]) == [0, 0, 6, 4, 5, 0]  # in hand: the next position pays 0
    assert list(params[L.SC_RANK:L.SC_RANK + 6]) == [4, 4, 1, 3, 2, 4]
    # and the races of a heuristic table change with them, where a random table's do not
    heuristic = "timer,contractor,favourite,timer"
    box, _ = records(match(heuristic), 300)
    c, _ = records(match(heuristic, bet_points=[6, 5, 4, 3, 2, 1]), 300)
    assert (c.races[:, L.RACE_TURNS] != box.races[:, L.RACE_TURNS]).any()


def test_blocks_to_eliminate_is_the_block_that_eliminates():
    box, _ = records(match(), 1500)
    for blocks in (2, 5):
        c, _ = records(match(blocks_to_eliminate=blocks), 1500)
        places = c.races[:, L.RACE_PLACE:L.RACE_PLACE + 6]
        carried = c.races[:, L.RACE_BLOCKS:L.RACE_BLOCKS + 6]
        out = places > 6 - c.races[:, L.RACE_N_ELIM][:, None]  # the eliminated take the last places
        assert (carried[out] == blocks).all()  # eliminated by that block ...
        assert carried[~out].max() == blocks - 1  # ... and a lemming still racing carries one fewer at most
        more = c.races[:, L.RACE_N_ELIM].mean() > box.races[:, L.RACE_N_ELIM].mean()
        assert more == (blocks < 3)


def land_events(m, races, seed=3):
    """Every EV_LAND event of ``races`` traced races: (field landed on, the
    lemming, its position after, its blocks before and after)."""
    out = []
    for index in range(races):
        events, _ = traced_race(m, seed, index)
        blocks = np.zeros(6, np.int64)
        for ev in events:
            if ev[0] != L.EV_LAND:
                continue
            lemming, field = int(ev[2]), int(ev[3])
            pos, after = ev[5:11], ev[11:17]
            out.append((field, lemming, int(pos[lemming]), int(blocks[lemming]), int(after[lemming])))
            blocks = after.copy()
    return out


def test_getaway_die_is_how_far_a_getaway_car_goes(tmp_path):
    # one getaway car, on field 0: the car takes a lemming to the field the die shows, or it crashes
    board = tmp_path / "car.toml"
    board.write_text(S.board_toml([["getaway", "empty"]] + [["empty", "empty", "empty"]] * 6))
    for sides in (2, 6, 12):
        jumps = {pos for field, _, pos, _, _ in land_events(match(board=str(board), getaway_die=sides), 150)
                 if field == 0 and pos > 0}
        assert jumps == set(range(1, sides + 1)), (sides, jumps)


def test_jackhammer_removes_takes_that_many_blocks_off():
    for removes in (0, 1, 2):
        seen = 0
        for field, _, _, before, after in land_events(match(jackhammer_removes=removes), 120):
            if S.DEFAULT_BOARD.field_action[field] == L.JACKHAMMER:
                assert after == max(before - removes, 0), (removes, before, after)
                seen += before >= 2
        assert seen > 0


@pytest.mark.parametrize("bots", ["random", "timer:urgency=100,contractor,favourite,random"])
def test_bets_per_bookmaker_lets_a_player_put_that_many_cards_down(bots):
    most = {}
    for per in (1, 3):
        _, t = records(match(bots, bets_per_bookmaker=per), 1500)
        in_one_round = t["bets"].groupby(["race", "seat", "turn"]).size().groupby("seat").max()
        most[per] = in_one_round.to_dict()
    assert set(most[1].values()) == {1}
    assert max(most[3].values()) == 3 and min(most[3].values()) >= 2  # every seat's bot, heuristic ones too


@pytest.mark.parametrize("bots", ["random", "contractor:discard_margin=-3,contractor:discard_margin=-3,random"])
def test_discards_per_boss_lets_a_player_throw_that_many_contracts_away(bots):
    most = {}
    for per in (1, 2):
        _, t = records(match(bots, players=3, discards_per_boss=per), 1500)
        c = t["contracts"]
        thrown = c[c["discarded"] == 1]
        most[per] = thrown.groupby(["race", "seat", "discard_turn"]).size().groupby("seat").max().to_dict()
    assert set(most[1].values()) == {1}
    assert set(most[2].values()) == {2}


# ------------------------------------------------------ every kernel plays the variant

VARIANTS = {
    "more-cards": dict(contracts_dealt=5, discards_per_boss=3, bets_per_bookmaker=4, unfulfilled_contract=-5),
    "harsh": dict(blocks_to_eliminate=2, getaway_die=12, jackhammer_removes=0, bet_points=[6, 5, 4, 3, 2, 1]),
    "soft": dict(blocks_to_eliminate=6, getaway_die=2, jackhammer_removes=5, bet_points=[2, 4], contracts_dealt=1,
                 bets_per_bookmaker=6, discards_per_boss=8),
}


def play(play_races, game, params, seed, count, dealt):
    chunk = Chunk.empty(count, params.shape[0], game[L.G_N_FIELDS], dealt)
    status = play_races(game, params, seed, 0, count, chunk.races, chunk.players, chunk.contracts, chunk.bets,
                        chunk.fields)
    assert status == 0
    return chunk


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("bots, fast", [("random,random,random", random_race.play_races),
                                        ("favourite,timer,contractor", table_race.play_races),
                                        ("timer:late_bets=0:urgency=100,contractor:discard_margin=-1,random",
                                         table_race.play_races)])
def test_the_fast_kernels_play_the_general_kernels_races_under_a_variant(variant, bots, fast):
    m = match(bots, **VARIANTS[variant])
    assert m._play is fast
    dealt = m.rules["contracts_dealt"]
    for seed in (7, 2**40 + 3):
        general = play(kernel.play_races, m.game_array, m.params, seed, 600, dealt)
        quick = play(fast, m.game_array, m.params, seed, 600, dealt)
        for part in ("races", "players", "contracts", "bets", "fields"):
            np.testing.assert_array_equal(getattr(quick, part), getattr(general, part), err_msg=part)


def test_the_look_ahead_bot_plays_the_variant():
    """Its playouts and sampled worlds deal the variant's contracts and play its
    rounds: it wins more against random bots under a variant than a random bot
    does, and its discards and bets keep to the variant's counts."""
    m = match("lookahead:rollouts=16,random,random", contracts_dealt=5, discards_per_boss=2, bets_per_bookmaker=2,
              bet_points=[6, 5, 4, 3, 2, 1])
    c, t = records(m, 150)
    assert c.contracts.shape[2] == 5
    won = c.players[:, :, L.PL_WON].mean(axis=0)
    assert won[0] > won[1:].max()
    assert t["bets"].groupby(["race", "seat", "turn"]).size().max() == 2
    for shared in (0, 1):
        lm = match(f"lookahead:rollouts=4:shared={shared},random,random", contracts_dealt=4, discards_per_boss=2,
                   bets_per_bookmaker=3)
        lc, _ = records(lm, 20)
        assert lc.players[:, :, L.PL_DISCARDED].max() <= 4


def test_the_interventions_play_the_variant():
    m = match("favourite,timer,contractor", contracts_dealt=4, discards_per_boss=2, unfulfilled_contract=-5)
    d = intervene.discard_samples(m, 3, 40)
    assert len(d) and d["card"].between(0, len(m.deck.cards) - 1).all()
    # a forced race is the run's race: as played, its records are the run's
    f = intervene.Forcer(m)
    f.play(3, 5, L.DECIDE_DISCARD, 0, 0)
    run = m.play(3, 5, 1).view()
    np.testing.assert_array_equal(f.chunk.players[0], run.players[0])
    np.testing.assert_array_equal(f.chunk.contracts[0], run.contracts[0])
    # hindsight is scored with the variant's penalty
    p = intervene.policy_samples(m, 3, 30)
    unfulfilled_paid = set()
    for index in p["race"].unique():
        ct = m.play(3, int(index), 1).view().contracts[0]
        held_bad = (ct[:, :, L.CT_DISCARDED] == 0) & (ct[:, :, L.CT_FULFILLED] == 0)
        unfulfilled_paid |= set(ct[:, :, L.CT_PAYOFF][held_bad].tolist())
    assert unfulfilled_paid <= {-5}


def test_a_user_bot_reads_the_rules_and_plays_them(tmp_path):
    bot = tmp_path / "thrower.py"
    bot.write_text('''from analyzer.engine.bots import UserBot
from analyzer.games.lemming_mafia.view import (DECIDE_BET, DECIDE_DISCARD, bet_points, bets_per_bookmaker,
                                               contracts_dealt, decision, discards_per_boss, hand, held, round_card)


def decide(view):
    if decision(view) == DECIDE_DISCARD:
        if discards_per_boss(view) != 5 or round_card(view) == 4:
            return -1  # four at a time
        # throw the contracts away, the highest slot first: asked again after each
        for slot in range(contracts_dealt(view) - 1, -1, -1):
            if held(view, slot) == 1:
                return slot
        return -1
    if decision(view) == DECIDE_BET:
        if bet_points(view, 5) != 9 or bets_per_bookmaker(view) != 6:
            return -1
        for color in range(6):
            if hand(view, color) == 1:
                return color
        return -1
    return 0


BOT = UserBot("thrower", decide, game="lemming-mafia")
''')
    m = LemmingMafiaMatch(None, 3, [BotSpec(str(bot)), BotSpec("random"), BotSpec("random")],
                          rules=rules(contracts_dealt=5, discards_per_boss=5, bets_per_bookmaker=6,
                                      bet_points=[1, 9]))
    c, t = records(m, 40)
    ct = t["contracts"]
    mine = ct[ct["seat"] == 1]
    # at its first boss it throws four away, one after the other in the same round (asked for
    # a fifth, round_card is 4: it stops), the last at the next boss
    thrown = mine[mine["discarded"] == 1]
    first = thrown.groupby("race")["discard_turn"].transform("min") == thrown["discard_turn"]
    assert thrown["race"].nunique() > 30
    assert (thrown[first].groupby("race").size() == 4).all()
    assert (thrown[~first].groupby(["race", "discard_turn"]).size() == 1).all() and (~first).any()
    bets = t["bets"]
    mine = bets[bets["seat"] == 1].groupby("race")["turn"].agg(["size", "nunique"])
    assert len(mine) > 30 and (mine["size"] == 6).all() and (mine["nunique"] == 1).all()  # all six at once


def test_the_view_shows_the_rules_of_the_run():
    from analyzer.games.lemming_mafia import view as V

    m = match(contracts_dealt=2, bet_points=[4, 2], blocks_to_eliminate=4, getaway_die=8, unfulfilled_contract=-3,
              bets_per_bookmaker=2, discards_per_boss=2, jackhammer_removes=3)
    state, _ = S.rules.new_arrays(m.game_array)
    v = V.View(L.DECIDE_BET, 0, 0, m.game_array, state, np.zeros(L.PARAMS_WIDTH))
    assert (V.contracts_dealt(v), V.unfulfilled_contract(v), V.blocks_to_eliminate(v), V.getaway_die(v)) == \
        (2, -3, 4, 8)
    assert [V.bet_points(v, k) for k in range(6)] == [4, 2, 2, 2, 2, 2]
    assert (V.bets_per_bookmaker(v), V.discards_per_boss(v), V.jackhammer_removes(v)) == (2, 2, 3)
    with pytest.raises(IndexError):
        V.contract_kind(v, 2)  # two contracts dealt: slots 0 and 1


# ------------------------------------------------------------ no kernel compiles again

def test_a_variant_compiles_no_kernel_again():
    """Rule values are data: after the box has played on every kernel, two
    variants play on them with no new compiled signature."""
    dispatchers = (random_race.play_races, random_race.play_race_summaries, table_race.play_races,
                   table_race.play_race_summaries, kernel.play_races, kernel.play_race)
    tables = ("random,random,random", "favourite,timer,contractor", "lookahead:rollouts=2,random,timer")

    def play_everything(**values):
        for bots in tables:
            m = match(bots, **values)
            m.play(5, 0, 20)
            m.play(5, 0, 20, False)
        intervene.Forcer(match("favourite,timer,contractor", **values)).play(
            5, 0, L.DECIDE_DISCARD, 0, 1, L.FORCE_DISCARD, 0)

    play_everything()
    before = {d.py_func.__qualname__ + str(i): list(d.signatures) for i, d in enumerate(dispatchers)}
    assert all(before.values())
    play_everything(**VARIANTS["more-cards"])
    play_everything(**VARIANTS["soft"], unfulfilled_contract=4)
    after = {d.py_func.__qualname__ + str(i): list(d.signatures) for i, d in enumerate(dispatchers)}
    assert after == before
