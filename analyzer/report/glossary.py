"""The short glossary every report page carries, folded (``<details>``): the
statistical words the answers use, each in one plain sentence. Written once
here; the balance report, the side-by-side report, the tournament page and the
sweep page all show it (tests/report/test_rep_glossary.py)."""
from __future__ import annotations

import html

TERMS: tuple[tuple[str, str], ...] = (
    ("shown", "the whole 95% interval lies beyond the practical threshold (e.g. ±1 pp): the effect is there and "
              "larger than it; the answer says which way (\"SEAT 1 FAVOURED\", \"UNBALANCED: grey -4.7 pp\")."),
    ("ruled out", "the whole 95% interval lies inside the threshold: any effect is smaller than it (\"BALANCED "
                  "within ±1.0 pp\")."),
    ("not enough races (games)", "the interval reaches across the threshold: more races would settle it, and "
                                 "the answer says about how many; where the estimate is within one standard error "
                                 "of the threshold it may sit on it, and no number of races is promised."),
    ("depends on the bots", "the tables of different bots decide the question differently (one shows it, "
                            "another rules it out, or they show it in opposite directions): each table's answer "
                            "is listed."),
    ("95% interval (CI)", "the range the true value lies in, 19 times out of 20, given the races played. "
                          "\"exact\" means every race gave the same answer, so there is no range."),
    ("practical threshold", "the smallest effect that matters to a designer (1 pp of win rate unless the "
                            "run says otherwise); smaller effects are not flagged even when real."),
    ("simultaneous interval", "an interval widened so that all the seats' (colours') intervals hold together, "
                              "19 times out of 20; used when the largest of several gaps is quoted."),
    ("Wilson interval", "the 95% interval of a share or a win rate; it stays inside 0-100% even for rare "
                        "outcomes."),
    ("clustered interval", "an interval computed race by race, because the seats of one race are not "
                           "independent (one wins, the others lose)."),
    ("pp (percentage points)", "the difference of two percentages: 27% against 25% is +2 pp."),
    ("controlled table", "the same bot in every seat, on the same deals and dice: a seat's or colour's edge "
                         "is then the game's, not a stronger bot's."),
    ("mixed table", "the run as played, each seat with its own bot: seat and bot are confounded."),
    ("intervention", "the same races replayed with one decision forced each way (bet or not, this card or "
                     "that): the difference is that decision's effect."),
    ("hindsight", "a value read after the race, knowing how it ended: it tells what paid, not what a player "
                  "could have known when choosing."),
    ("observational (association)", "a comparison of games where something happened with games where it did "
                                    "not; it is not the effect of that thing, because the game's course "
                                    "decides when it happens."),
    ("Cochran's Q", "a test of whether any seat (colour, family) wins more than the others, comparing them "
                    "within the same races."),
    ("Holm correction", "when many seats or colours are tested at once, each test is made stricter so that "
                        "chance alone flags none of them in 19 runs out of 20."),
    ("eta squared", "the share of the spread in scores explained by a factor (which bot played, the seat): "
                    "0% nothing, 100% everything."),
    ("paired", "two bots or choices compared on the same deals and dice, so luck cancels out of the "
               "difference."),
    ("common random numbers", "the two arms of an intervention replay each race with the same seed, so the same "
                              "deals and dice: only the forced decision differs."),
    ("equivalence test", "the test behind \"ruled out\": the whole interval inside the practical threshold."),
    ("t interval", "the 95% interval of a mean (points, length), from the spread of the values and how many "
                   "there are."),
    ("chi-square test, z test", "tests of whether shares (colours, pigs) differ from an equal share: the "
                                "chi-square test over all of them at once, a z test for one."),
    ("joint test, p", "a test over all seats (colours, families) at once; p is the chance of differences at "
                      "least this large if all were equal, so a small p (below 0.05) means they differ."),
    ("sd (standard deviation)", "how far single values typically lie from their mean."),
)


def html_block() -> str:
    """The glossary as a folded HTML block."""
    items = "".join(f"<dt>{html.escape(term)}</dt><dd>{html.escape(text)}</dd>" for term, text in TERMS)
    return ('<details class="glossary" id="glossary"><summary>Glossary: the words the answers use</summary>'
            f'<dl>{items}</dl></details>')


CSS = ("details.glossary{margin:1em 0;font-size:.9em}details.glossary summary{cursor:pointer;font-weight:600}"
       "details.glossary dt{font-weight:600;margin-top:.4em}details.glossary dd{margin:0 0 0 1.2em}")
