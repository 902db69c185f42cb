"""Mafia's rule numbers a designer may change (``--rule``, ``--rules FILE``,
``[rules]``): each with its box value, range and meaning. The match packs them
into the kernel's ``game`` array (``board.pack_game``); docs/mafia.md's table of
rules is generated from this declaration (``python -m analyzer.docs``).

Ranges that depend on the map or on other keys (a goal no side can reach, a die
face listed twice) are checked by ``check`` when a match is set up."""
from analyzer.engine.ruleset import RuleKey, RuleSet
from analyzer.errors import AnalyzerError
from analyzer.games.mafia.layout import MAX_PASSES, MAX_PLAYERS, MIN_PLAYERS, N_FAMILIES

MAX_MARKERS = 30  # markers_per_family at most: four families' markers on the map fit the records' int8
BOSSES, PICCIOTTI = N_FAMILIES, 2 * N_FAMILIES  # the pieces that count towards the purge

FACES = "a list of 1 to 6 different die faces, each 1 to 6"

RULES = RuleSet("mafia", "Mafia", (MIN_PLAYERS, MAX_PLAYERS), (
    RuleKey("spaces_to_win", {3: 5, 4: 4, 5: 4}, per_players=True, lo=1, hi=20, unit="spaces",
            range_text="a table by player count, each entry a whole number from 1 to the spaces a family "
                       "can control (at most markers_per_family, and the map's spaces that are not cities)",
            meaning="spaces a family must control at the start of its turn to win, by player count"),
    RuleKey("purge_points_to_end", 4, lo=1, hi=48, unit="purge points",
            range_text="a whole number from 1 to the most purge points the pieces can make (12 in the box: "
                       "four Bosses in Prison and eight Picciotti in Prison)",
            meaning="the State's purge points that end the game at the start of a State turn (the State "
                    "wins; with four players, checked at the start of every family turn: everyone loses)"),
    RuleKey("markers_per_family", 8, lo=1, hi=MAX_MARKERS, unit="markers",
            meaning="control markers each family has (its supply at the start)"),
    RuleKey("safety_cap", 600, lo=1, hi=MAX_PASSES, unit="calendar turns",
            meaning="calendar turns (passes of the six-slot calendar) after which a game without a winner "
                    "ends as a draw"),
    RuleKey("purge_half_points", (4, 2, 1), length=(3, 3), lo=0, hi=8, unit="half purge points",
            meaning="what a piece in a box adds to the State's purge points, in halves: a Boss in Prison, a "
                    "Boss in the Barracks, a Picciotto in Prison (the box: 2, 1 and 1/2 points)"),
    RuleKey("shootout_hit_faces", (1, 3, 5), length=(1, 6), lo=1, hi=6, unit="die faces", range_text=FACES,
            meaning="the die faces on which a piece in a shootout hits (an odd die in the box)"),
    RuleKey("weapons_hit_faces", (2, 3, 4, 5, 6), length=(1, 6), lo=1, hi=6, unit="die faces",
            range_text=FACES, meaning="the die faces on which a piece hits with Special weapons"),
    RuleKey("picciotto_marker_faces", (2, 4, 6), length=(1, 6), lo=1, hi=6, unit="die faces",
            range_text=FACES, meaning="the die faces on which a Picciotto places a marker in (d) 3 "
                                      "(an even die in the box)"),
    RuleKey("cc_removal_faces", (2, 4, 6), length=(1, 6), lo=1, hi=6, unit="die faces", range_text=FACES,
            meaning="the die faces on which a CC removes a marker in (d) 3 (an even die in the box)"),
))

FACE_KEYS = ("shootout_hit_faces", "weapons_hit_faces", "picciotto_marker_faces", "cc_removal_faces")


def faces_mask(faces) -> int:
    """Die faces as the kernel's bit mask (bit f set: face f)."""
    return sum(1 << f for f in faces)


def most_purge_halves(weights) -> int:
    """The most purge points, doubled, the pieces can make under ``purge_half_points``:
    every Boss in its worse box for it, every Picciotto in Prison."""
    boss_prison, boss_barracks, picciotto_prison = weights
    return BOSSES * max(boss_prison, boss_barracks) + PICCIOTTI * picciotto_prison


def check(rules, players: int, markable_spaces: int) -> None:
    """The ranges that depend on the map (``markable_spaces``: its spaces that are not
    cities) and on other keys, for a game of ``players``: AnalyzerError in one line
    naming the key, the value and the allowed range."""
    for key in FACE_KEYS:
        faces = rules[key]
        if len(set(faces)) != len(faces):
            raise AnalyzerError(f"rule {key} {','.join(map(str, faces))}: a die face is listed twice "
                                f"(allowed: {FACES})")
    markers = rules["markers_per_family"]
    need = rules.at("spaces_to_win", players)
    most = min(markers, markable_spaces)
    if need > most:
        raise AnalyzerError(f"rule spaces_to_win {need} for {players} players: a family can control at most "
                            f"{most} spaces (markers_per_family {markers}; {markable_spaces} spaces of the map "
                            f"are not cities), so the allowed range is 1 to {most}")
    end = rules["purge_points_to_end"]
    weights = rules["purge_half_points"]
    reach = most_purge_halves(weights)
    if 2 * end > reach:
        raise AnalyzerError(f"rule purge_points_to_end {end}: the pieces can make at most {reach / 2:g} purge "
                            f"points (purge_half_points {','.join(map(str, weights))}: {BOSSES} Bosses, "
                            f"{PICCIOTTI} Picciotti), so the allowed range is 1 to {reach // 2}")
