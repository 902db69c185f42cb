import pytest

from analyzer.engine.botspec import BotSpec, parse_bot_list, seat_bots
from analyzer.errors import BotError


def test_names_and_params():
    specs = parse_bot_list(" greedy , cautious:risk=0.2:depth=3 ,./bots/my_bot.py:x=-1.5e-3")
    assert specs == [
        BotSpec("greedy", ()),
        BotSpec("cautious", (("depth", 3.0), ("risk", 0.2))),
        BotSpec("./bots/my_bot.py", (("x", -0.0015),)),
    ]
    assert [s.label for s in specs] == ["greedy", "cautious:depth=3:risk=0.2",
                                        "./bots/my_bot.py:x=-0.0015"]
    assert isinstance(specs[1].params[0][1], float)


def test_param_order_does_not_matter():
    a, b = parse_bot_list("x:b=1:a=2,x:a=2:b=1.0")
    assert a == b and hash(a) == hash(b) and a.label == "x:a=2:b=1"


def test_label_round_trips():
    for text in ["a", "a:k=0.1", "a:k=1e-07", "a:k=3", "a:big=1e+20", "a:k=-2"]:
        spec = parse_bot_list(text)[0]
        assert parse_bot_list(spec.label)[0] == spec
        assert str(spec) == spec.label
    assert parse_bot_list("a:k=3.0")[0].label == "a:k=3"


def test_spaces_inside_entries_are_tolerated():
    assert parse_bot_list("a : k = 2")[0] == BotSpec("a", (("k", 2.0),))


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("   ", "empty"),
    ("a,,b", "entry 2 is empty"),
    ("a,", "entry 2 is empty"),
    (":k=1", "no bot name"),
    ("a:k", "'k' needs the form key=value"),
    ("a:", "needs the form key=value"),
    ("a:=1", "has no name"),
    ("a:k=x", "must be a number, got 'x'"),
    ("a:k=", "must be a number"),
    ("a:k=nan", "must be a number"),
    ("a:k=inf", "must be a number"),
    ("a:k=1:k=2", "'k' is given twice"),
])
def test_errors(text, fragment):
    with pytest.raises(BotError) as info:
        parse_bot_list(text)
    message = str(info.value)
    assert fragment in message and "\n" not in message


def test_errors_name_the_entry():
    with pytest.raises(BotError, match="'cautious:risk=high'"):
        parse_bot_list("greedy,cautious:risk=high")


def test_seat_bots():
    one = parse_bot_list("greedy")
    assert seat_bots(one, 3) == one * 3
    three = parse_bot_list("a,b,c")
    assert seat_bots(three, 3) == three
    with pytest.raises(BotError, match="2 bots given for 3 players"):
        seat_bots(parse_bot_list("a,b"), 3)
