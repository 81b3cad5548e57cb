"""Assignment operators (:= = += -= *= /=) and the cast of results to bool.

BT.CPP keeps the type of a filled entry (`Any::copyInto`): an int entry takes 4.0 as 4
and rejects 4.5, a string entry rejects numbers. We mirror that with Python types.
"""
import math

import pytest

from robot_tasks.bt.errors import ScriptError
from robot_tasks.bt.scripting import parse_script, script_truthy

EMPTY = object()


class FakeBlackboard:
    """Dict-backed blackboard with the evaluator's protocol; EMPTY marks an entry that
    exists without a value (as `{key}` port remaps create them)."""

    def __init__(self, **entries):
        self.entries = dict(entries)

    def get(self, key):
        value = self.entries[key]
        if value is EMPTY:
            raise KeyError(key)
        return value

    def has_entry(self, key):
        return key in self.entries

    def set(self, key, value):
        self.entries[key] = value


def run(source, **entries):
    bb = FakeBlackboard(**entries)
    return parse_script(source).evaluate(bb, {}), bb.entries


def same(actual, expected):
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(actual, float) and math.isnan(actual)
    return type(actual) is type(expected) and actual == expected


# (script, initial entries, expected result, expected value of the target afterwards)
@pytest.mark.parametrize("source, entries, result, stored", [
    # := creates with the value's own type
    ("x := 3", {}, 3, 3),
    ("x := 3.5", {}, 3.5, 3.5),
    ("x := 'txt'", {}, "txt", "txt"),
    ("x := true", {}, 1.0, 1.0),
    ("x := -3", {}, -3.0, -3.0),          # unary minus yields a double
    ("x := 1 + 2", {}, 3.0, 3.0),
    ("x := e", {"e": 3}, 3, 3),
    ("x := 4", {"x": EMPTY}, 4, 4),       # an empty entry takes any value
    ("x = 4", {"x": EMPTY}, 4, 4),
    # on a filled entry := and = keep the entry's type
    ("x := 4.0", {"x": 1}, 4, 4),
    ("x = 4.0", {"x": 1}, 4, 4),
    ("x = x + 1", {"x": 1}, 2, 2),
    ("x := x * 2", {"x": 3}, 6, 6),
    ("x = 2", {"x": 0.5}, 2.0, 2.0),
    ("x = 'y'", {"x": "s"}, "y", "y"),
    ("x = '7'", {"x": 1}, 7.0, 7.0),      # number entry parses a string (as a double)
    ("x = 'true'", {"x": 0.0}, 1.0, 1.0),
    ("x = 1", {"x": False}, True, True),  # bool entries keep bool for 0/1
    ("x = 0.0", {"x": True}, False, False),
    # compound operators compute in double, then convert back into the entry's type
    ("x += 2", {"x": 3}, 5, 5),
    ("x -= 1", {"x": 3}, 2, 2),
    ("x *= 2", {"x": 3}, 6, 6),
    ("x /= 2", {"x": 6}, 3, 3),
    ("x += 0.5", {"x": 1.0}, 1.5, 1.5),
    ("x /= 0", {"x": 1.0}, math.inf, math.inf),
    ("x /= 0", {"x": 0.0}, math.nan, math.nan),
    ("x += 1", {"x": False}, True, True),
    ("x += 'b'", {"x": "a"}, "ab", "ab"),
    ("x += s", {"x": "a", "s": "!"}, "a!", "a!"),
    # the RHS is a full expression; chains assign right to left
    ("x := y := 3", {}, 3, 3),
    ("x := 1 < 2 ? 'lt' : 'ge'", {}, "lt", "lt"),
    ("@x := 2", {}, 2, 2),
])
def test_assignment_values_and_types(source, entries, result, stored):
    value, after = run(source, **entries)
    assert same(value, result), (source, value)
    key = "@x" if source.startswith("@") else "x"
    assert same(after[key], stored), (source, after)


def test_chained_assignment_sets_both_entries():
    _, after = run("x := y := 3")
    assert after == {"x": 3, "y": 3}


@pytest.mark.parametrize("source, entries, fragment", [
    ("x = 1", {}, "the blackboard entry [x] doesn't exist yet; to create it, use the "
                  "operator [:=] instead of [=]"),
    ("x += 1", {}, "use the operator [:=] instead of [+=]"),
    ("x -= 1", {}, "instead of [-=]"),
    ("x = 4.5", {"x": 1}, "error assigning a value to entry [x] with type [int64_t]"),
    ("x /= 2", {"x": 3}, "entry [x] with type [int64_t]"),      # 1.5 can't be int
    ("x = 1", {"x": "s"}, "the right operand has type [int64_t] and can't be converted "
                          "to [std::string]"),
    ("x := 2.5", {"x": "s"}, "can't be converted to [std::string]"),
    ("x = 'abc'", {"x": 1}, "failed string to number conversion of 'abc'"),
    ("x = 's'", {"x": [1]}, "the right operand is a string, can't convert to [list]"),
    ("x = 2", {"x": True}, "can't be converted to [bool]"),
    ("x = 5", {"x": [1]}, "the right operand has type [int64_t] and can't be converted "
                          "to [list]"),
    ("x += 1", {"x": "s"}, "can't be used with the non-numeric entry [x]"),
    ("x += 'b'", {"x": 1}, "can't be converted to [int64_t]"),
    ("x -= 'b'", {"x": "a"}, "the operator [-=] is not supported for strings"),
    ("x += 1", {"x": EMPTY}, "the left operand of the operator [+=] is not initialized"),
    ("x := e", {"e": EMPTY}, "the right operand of [:=] is not initialized"),
    ("x += e", {"x": 1, "e": EMPTY}, "the right operand of the operator [+=] is not "
                                     "initialized"),
    ("1 = 2", {}, "the left operand of [=] is not a blackboard entry"),
    ("x + 1 := 2", {"x": 1}, "the left operand of [:=] is not a blackboard entry"),
    ("x := missing", {}, "variable not found: [missing]"),
])
def test_assignment_errors(source, entries, fragment):
    with pytest.raises(ScriptError) as info:
        run(source, **entries)
    assert fragment in info.value.reason, info.value.reason
    assert f"of '{source}'" in str(info.value)


def test_failed_assignment_leaves_the_entry_unchanged():
    bb = FakeBlackboard(x=1)
    with pytest.raises(ScriptError):
        parse_script("x = 4.5").evaluate(bb, {})
    assert bb.entries == {"x": 1}


def test_assign_existing_checks_the_entry_before_evaluating_the_right_side():
    bb = FakeBlackboard()
    with pytest.raises(ScriptError, match=r"instead of \[=\]"):
        parse_script("nope = (side := 1)").evaluate(bb, {})
    assert bb.entries == {}


def test_the_error_points_at_the_assignment_operator():
    with pytest.raises(ScriptError) as info:
        run("a := 1; x = 2")
    assert info.value.position == 10


def test_counter_script_runs_repeatedly():
    program = parse_script("counter := counter + 1; counter < 3")
    bb = FakeBlackboard(counter=0)
    results = [program.evaluate(bb, {}) for _ in range(4)]
    assert results == [1.0, 1.0, 0.0, 0.0]
    assert same(bb.entries["counter"], 4)


# ---- cast of a script result to bool (ScriptCondition, _skipIf, _while, ...) ----------
@pytest.mark.parametrize("value, expected", [
    (1.0, True), (0.0, False), (2.5, True), (math.nan, True),
    (1, True), (0, False), (True, True), (False, False),
])
def test_script_truthy(value, expected):
    assert script_truthy(value) is expected


@pytest.mark.parametrize("value, fragment", [
    (2, "only 0 or 1"),
    (-1, "negative"),
    (-2.5, "negative"),         # BT.CPP's convertNumber treats bool as unsigned
    ("true", "no safe conversion between [std::string] and [bool]"),
    ("", "[std::string] and [bool]"),
    (None, "empty"),
    ([1], "[list] and [bool]"),
])
def test_script_truthy_rejects_what_btcpp_cannot_cast(value, fragment):
    with pytest.raises(ScriptError, match="as a boolean") as info:
        script_truthy(value)
    assert fragment in str(info.value)


def test_evaluate_truthy_casts_the_last_statement():
    bb = FakeBlackboard(x=3)
    assert parse_script("x > 2").evaluate_truthy(bb) is True
    assert parse_script("x := 0; x").evaluate_truthy(bb) is False
    with pytest.raises(ScriptError, match=r"in script \[x := 5; x\]"):
        parse_script("x := 5; x").evaluate_truthy(bb)
