"""The generic user-bot loader and view specs (analyzer/engine/userbots.py):
accessors that run as plain Python and check their index, the view printed by
field name, the loader's refusals in one line, and the generated bot API pages
being current. No kernel is compiled here (the games' tests play user bots)."""
from pathlib import Path

import numpy as np
import pytest

from analyzer.docs import bot_api_pages
from analyzer.engine import userbots
from analyzer.engine.botspec import BotSpec
from analyzer.errors import BotError
from analyzer.games import registry
from analyzer.games.lemming_mafia import layout as LM
from analyzer.games.lemming_mafia import view as lm_view
from analyzer.games.sau_mau_mau import layout as SMM
from analyzer.games.sau_mau_mau import view as smm_view


ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_api_pages_are_generated_from_the_view_specs():
    """docs/bots-<game>.md is what its spec generates (regenerate with
    ``python -m analyzer.docs``), one page per game with a view."""
    pages = bot_api_pages()
    assert set(pages) == {"docs/bots-lemming-mafia.md", "docs/bots-sau-mau-mau.md", "docs/bots-mafia.md",
                          "docs/bots-lemminge.md"}
    for name, text in pages.items():
        assert (ROOT / name).read_text(encoding="utf-8") == text, f"{name} is stale"
    page = pages["docs/bots-sau-mau-mau.md"]
    for d in smm_view.VIEW.decisions:  # every decision and every field is on the page
        assert f"| {d.name} | {d.what} |" in page
    for f in smm_view.VIEW.fields:
        assert f"`{f.name}(view" in page


def _lm_view(what=LM.DECIDE_MOVE, n_options=2):
    state = np.zeros(LM.S_OCCUPANT + 40, np.int64)
    state[LM.PUB_POS:LM.PUB_POS + 6] = [3, -1, 7, -2, 0, 12]
    state[LM.S_VIEW + LM.OWN_HAND + 2] = 1
    state[LM.S_OPTIONS:LM.S_OPTIONS + 2] = [2, 5]
    params = np.zeros(LM.PARAMS_WIDTH)
    params[0] = 0.25
    return lm_view.View(what, 1, n_options, np.zeros(10, np.int64), state, params)


def test_accessors_read_the_named_slots_and_check_their_index():
    view = _lm_view()
    assert [lm_view.position(view, c) for c in range(6)] == [3, -1, 7, -2, 0, 12]
    assert lm_view.hand(view, 2) == 1 and lm_view.hand(view, 3) == 0
    assert [lm_view.options(view, i) for i in range(lm_view.n_options(view))] == [2, 5]
    assert lm_view.decision(view) == lm_view.DECIDE_MOVE and lm_view.seat(view) == 1
    assert lm_view.param(view, 0) == 0.25
    lm_view.remember(view, 3, 1.5)
    assert lm_view.memory(view, 3) == 1.5 and view.params[LM.N_PARAMS + 3] == 1.5
    for bad in (lambda: lm_view.position(view, 6), lambda: lm_view.position(view, -1),
                lambda: lm_view.options(view, 2), lambda: lm_view.param(view, LM.N_PARAMS),
                lambda: lm_view.memory(view, LM.PARAMS_WIDTH - LM.N_PARAMS)):
        with pytest.raises(IndexError):
            bad()
    with pytest.raises(IndexError):  # Sau Mau Mau bots keep no memory
        smm_view.memory(smm_view.View(0, 0, 0, np.zeros(1, np.int64), np.zeros(SMM.S_LEN, np.int64),
                                      np.zeros(SMM.PARAMS_WIDTH)), 0)


def test_the_view_prints_its_fields_by_name():
    text = repr(_lm_view())
    assert text.startswith("Lemming Mafia view: decision move (seat 1), options [2, 5]")
    assert "  position: [3, -1, 7, -2, 0, 12]" in text and "  hand: [0, 0, 1, 0, 0, 0]" in text
    assert lm_view.describe(_lm_view()) == text


def test_the_own_stream_draws_are_the_same_in_python_and_numba():
    """uniform/draw advance the player's own stream in the view: a plain bot and
    its fast twin draw the same numbers."""
    from numba import njit

    @njit
    def draws(view):
        return lm_view.draw(view, 6) * 10 + lm_view.draw(view, 6), lm_view.uniform(view)

    a, b = _lm_view(), _lm_view()
    a.state[LM.S_VIEW + LM.OWN_RNG] = b.state[LM.S_VIEW + LM.OWN_RNG] = 12345
    python = (lm_view.draw(a, 6) * 10 + lm_view.draw(a, 6), lm_view.uniform(a))
    assert python == draws(b)
    assert a.state[LM.S_VIEW + LM.OWN_RNG] == b.state[LM.S_VIEW + LM.OWN_RNG] != 12345


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text("from numba import njit\nfrom analyzer.engine.bots import UserBot\n" + text)
    return path


@pytest.mark.parametrize("body, message", [
    ("X = 1\n", "defines no BOT = UserBot"),
    ("BOT = UserBot('b', lambda view, x: 0, game='sau-mau-mau')\n", "decide must take one argument"),
    ("BOT = UserBot('b', lambda view: 0)\n", "UserBot needs game=..."),
    ("BOT = UserBot('b', lambda view: 0, game='lemming-mafia')\n",
     "is a bot for 'lemming-mafia', not 'sau-mau-mau'"),
    ("BOT = UserBot('b', lambda view: 0, game='sau-mau-mau', roles=('family',))\n",
     "sau-mau-mau has no role 'family'"),
    ("BOT = UserBot('b', lambda view: 0, game='sau-mau-mau', params={'p': ('x', 'help')})\n",
     "the default of parameter 'p' must be a number"),
    ("BOT = UserBot('b', lambda view: 0, game='sau-mau-mau', params={f'p{i}': (0, '') for i in range(14)})\n",
     "at most 13 parameters"),
    ("raise RuntimeError('oops')\n", "failed to load: raised RuntimeError at line 3: oops"),
    ("@njit\ndef decide(view):\n    return 1.5\nBOT = UserBot('b', decide, game='sau-mau-mau')\n",
     "decide returns float64, not an integer"),
    ("@njit\ndef decide(view):\n    return undefined_name\nBOT = UserBot('b', decide, game='sau-mau-mau')\n",
     "does not compile"),
])
def test_the_loader_refuses_a_bad_bot_file_in_one_line(tmp_path, body, message):
    path = _write(tmp_path, "bad_bot.py", body)
    with pytest.raises(BotError, match=None) as info:
        registry("sau-mau-mau").resolve(BotSpec(str(path)))
    text = str(info.value)
    assert len(text.splitlines()) == 1 and str(path) in text and message in text, text


def test_a_plain_and_a_fast_bot_load_once_with_their_parameters():
    smm = registry("sau-mau-mau")
    plain = smm.resolve(BotSpec(str(ROOT / "sims" / "bots" / "sau-mau-mau-greedy.py")))
    fast = smm.resolve(BotSpec(str(ROOT / "sims" / "bots" / "sau-mau-mau-greedy-fast.py")))
    assert not plain.decide.fast and fast.decide.fast
    assert plain.kind >= userbots.USER_KIND_BASE and fast.kind != plain.kind
    assert plain.params == {"switch_lead": (0, 4.0, plain.params["switch_lead"][2])}
    assert smm.resolve(BotSpec(str(ROOT / "sims" / "bots" / "sau-mau-mau-greedy.py"))).kind == plain.kind
    assert {plain.kind, fast.kind} <= {f.kind for f in userbots.loaded("sau-mau-mau")}


def test_the_readme_bot_loads_and_answers_a_view(tmp_path):
    """The bot of docs/bots.md's "Your own bot" section loads as written and gives
    legal answers (its games are played by the games' user-bot tests)."""
    page = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = page[page.index("## Your own bot"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    code = code[:code.index("```")]
    path = tmp_path / "my_bot.py"
    path.write_text(code)
    family = registry("sau-mau-mau").resolve(BotSpec(str(path)))
    assert family.name == "leader" and not family.decide.fast
    state = np.zeros(SMM.S_LEN, np.int64)
    state[SMM.PUB_POS:SMM.PUB_POS + 4] = [2, 5, 1, 0]
    state[SMM.S_VIEW + SMM.OWN_BET_PIG] = -1
    view = smm_view.View(SMM.DECIDE_BET, 0, 0, np.zeros(SMM.G_LEN, np.int64), state, np.zeros(SMM.PARAMS_WIDTH))
    assert family.decide.user_py(view) == 1  # bets on the pig ahead


@pytest.mark.parametrize("body, fast, line", [
    ("def decide(view):\n    return 1 // (seat(view) - seat(view))\n", False,
     "(seat 2, play decision): raised ZeroDivisionError at line 5: integer division or modulo by zero"),
    ("import sys\ndef decide(view):\n    sys.exit(3)\n", False, "(seat 2, play decision): called sys.exit"),
    ("def decide(view):\n    return n_options(view)\n", False,
     "(seat 2, play decision): illegal choice 2: the options are 0-1, or -1"),
    ("def decide(view):\n    return 'a'\n", False, "(seat 2, play decision): returned 'a', not an integer"),
    ("@njit\ndef decide(view):\n    return position(view, 4)\n", True,
     "(seat 2, play decision): raised IndexError at line 6: position(view, i): i outside 0-3"),
    ("@njit\ndef decide(view):\n    return view.state[10 ** 6]\n", True,
     "(seat 2, play decision): raised IndexError at line 6: index 1000000 is out of bounds"),
])
def test_a_failing_decision_answers_fault_and_records_one_line(tmp_path, body, fast, line):
    """The adapter the kernel calls, called directly: a raise, an exit, an illegal
    or non-integer answer and a bad index all answer FAULT (which every kernel
    refuses) and leave one line naming the file and the decision."""
    path = _write(tmp_path, "failing.py", "from analyzer.games.sau_mau_mau.view import *\n" + body
                  + "BOT = UserBot('failing', decide, game='sau-mau-mau')\n")
    family = registry("sau-mau-mau").resolve(BotSpec(str(path)))
    assert family.decide.fast == fast
    state = np.zeros(SMM.S_LEN, np.int64)
    answer = family.decide(SMM.DECIDE_PLAY, 1, family.kind, np.zeros(SMM.G_LEN, np.int64), state,
                                        np.zeros(SMM.PARAMS_WIDTH), 2)
    assert answer == userbots.FAULT
    recorded = userbots.take_fault(family.kind)
    assert recorded.startswith(f"user bot {path} ") and line in recorded, recorded
    assert userbots.take_fault(family.kind) is None  # taken once


# A process loads bot files, in the order given, and prints the first one's
# (``mine.py``) kind and whether a match seating it plays the game's own kernel.
_KEY_PROBE = """
import sys
from pathlib import Path
from analyzer.engine.botspec import BotSpec
from analyzer.games.sau_mau_mau import kernel
from analyzer.games.sau_mau_mau.match import SauMauMauMatch
from analyzer.games.sau_mau_mau.registry import REGISTRY

families = {Path(p).stem: REGISTRY.resolve(BotSpec(p)) for p in sys.argv[1:]}
table = [BotSpec(str(Path(sys.argv[1]).parent / "mine.py")), BotSpec("random"), BotSpec("random")]
print(families["mine"].kind, SauMauMauMatch(None, 3, table)._play is kernel.play_games)
"""


def test_a_bots_kind_names_its_text_not_the_load_order(tmp_path):
    """The same bot file, loaded in two processes in different orders and after
    different other bots, gets the same kind (a cluster worker and its client
    agree on it), and a match seating it plays the game's own kernel: nothing is
    compiled around a user bot, which the kernel calls by address."""
    import subprocess
    import sys
    import uuid

    token = f"# {uuid.uuid4().hex}\n"  # texts no other test loads: their first kinds are their own
    mine = _write(tmp_path, "mine.py", token + "def decide(view):\n    return 0 if n_options(view) else -1\n"
                  "BOT = UserBot('mine', decide, game='sau-mau-mau')\n")
    other = _write(tmp_path, "other.py", token + "def decide(view):\n    return -1 if n_options(view) else 0\n"
                   "BOT = UserBot('other', decide, game='sau-mau-mau')\n")
    for path in (mine, other):  # the view's names for the bodies above
        path.write_text(path.read_text().replace("from analyzer.engine.bots import UserBot\n",
                                                 "from analyzer.engine.bots import UserBot\n"
                                                 "from analyzer.games.sau_mau_mau.view import *\n"))
    greedy = ROOT / "sims" / "bots" / "sau-mau-mau-greedy.py"

    def probe(*paths):
        out = subprocess.run([sys.executable, "-c", _KEY_PROBE, *map(str, paths)], cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        kind, own_kernel = out.stdout.split()
        return int(kind), own_kernel

    first = probe(mine, greedy)
    later = probe(other, greedy, mine)  # two other bots loaded before it
    assert first == later
    kind, own_kernel = first
    assert kind >= userbots.USER_KIND_BASE and own_kernel == "True"


def test_two_files_of_one_name_and_text_in_two_folders_are_two_bots(tmp_path):
    """Their kinds, functions of the name and text, would be one: the second
    takes the next free kind, and each bot's faults name its own file."""
    import uuid

    text = (f"# {uuid.uuid4().hex}\nfrom analyzer.games.sau_mau_mau.view import *\n"
            "def decide(view):\n    return n_options(view)\nBOT = UserBot('twin', decide, game='sau-mau-mau')\n")
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    paths = [_write(tmp_path / folder, "twin.py", text) for folder in ("a", "b")]
    first, second = (registry("sau-mau-mau").resolve(BotSpec(str(p))) for p in paths)
    assert first.kind != second.kind and min(first.kind, second.kind) >= userbots.USER_KIND_BASE
    for family, path in zip((first, second), paths):
        family.decide(SMM.DECIDE_PLAY, 0, family.kind, np.zeros(SMM.G_LEN, np.int64),
                                   np.zeros(SMM.S_LEN, np.int64), np.zeros(SMM.PARAMS_WIDTH), 2)
        assert userbots.take_fault(family.kind).startswith(f"user bot {path} (seat 1, play decision): illegal")
