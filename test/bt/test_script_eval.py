"""Evaluating scripts: every operator, value types, strings, enums, '@' keys and the
runtime errors, against BT.CPP 4.10's `scripting/operators.hpp` semantics.

Values are checked with their Python type: BT.CPP keeps int literals as int64 but every
arithmetic result is a double, so `1 + 2` is 3.0 while `5` is 5.
"""
import math

import pytest

from robot_tasks.bt.errors import ScriptError
from robot_tasks.bt.scripting import parse_script

EMPTY = object()  # marks an entry that exists but holds no value


class FakeBlackboard:
    """Dict-backed blackboard implementing exactly the protocol the evaluator uses,
    recording every key it is asked about (to check '@' keys pass through)."""

    def __init__(self, **entries):
        self.entries = dict(entries)
        self.keys_seen = []

    def get(self, key):
        self.keys_seen.append(key)
        value = self.entries[key]
        if value is EMPTY:
            raise KeyError(key)
        return value

    def has_entry(self, key):
        self.keys_seen.append(key)
        return key in self.entries

    def set(self, key, value):
        self.keys_seen.append(key)
        self.entries[key] = value


def run(source, enums=None, **entries):
    bb = FakeBlackboard(**entries)
    return parse_script(source).evaluate(bb, enums or {}), bb


def same(actual, expected):
    """Equal in value and in Python type (NaN equals NaN)."""
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(actual, float) and math.isnan(actual)
    return type(actual) is type(expected) and actual == expected


@pytest.mark.parametrize("source, expected", [
    # literals keep their type: int64 -> int, real -> float, bool -> 1.0/0.0
    ("5", 5), ("0x1f", 31), ("2.5", 2.5), ("1e3", 1000.0), ("true", 1.0), ("false", 0.0),
    ("'text'", "text"),
    # arithmetic always yields a double
    ("1 + 2", 3.0), ("1 - 5", -4.0), ("2 * 3.5", 7.0), ("7 / 2", 3.5), ("6 / 3", 2.0),
    ("1 + 2 * 3", 7.0), ("(1 + 2) * 3", 9.0), ("4 - 1 + 1", 4.0), ("8 / 4 / 2", 1.0),
    ("i + 1", 8.0), ("f * 2", 5.0), ("i / 2", 3.5), ("1 - i", -6.0), ("i * f", 17.5),
    # division by zero follows IEEE doubles instead of raising
    ("1 / 0", math.inf), ("-1 / 0", -math.inf), ("0 / 0", math.nan), ("f / 0.0", math.inf),
    # unary operators yield doubles; '~' truncates toward zero first
    ("-3", -3.0), ("- -2", 2.0), ("-f", -2.5), ("!0", 1.0), ("!2.5", 0.0), ("!!7", 1.0),
    ("!-1", 0.0),  # '!' casts directly, so negatives are fine here (unlike &&, ||)
    ("~0", -1.0), ("~5", -6.0), ("~2.7", -3.0), ("~-1", 0.0),
    # bitwise: integral operands (ints or integral doubles), double result
    ("6 & 3", 2.0), ("6 | 3", 7.0), ("6 ^ 3", 5.0), ("6.0 & 3", 2.0), ("-1 & 255", 255.0),
    ("1 | 2 & 3", 3.0), ("0x0F ^ 0xFF", 240.0),
    # logic: doubles are true when non-zero, ints must be 0/1; results are doubles
    ("1 && 0", 0.0), ("1 || 0", 1.0), ("true && true", 1.0), ("false || false", 0.0),
    ("2.5 && 1.0", 1.0), ("0.0 || 0.5", 1.0), ("1 < 2 && 2 < 3", 1.0),
    ("0 || 1 && 0", 0.0), ("1 || 0 && 0", 1.0),
])
def test_numeric_operators(source, expected):
    value, _ = run(source, i=7, f=2.5)
    assert same(value, expected), (source, value, expected)


@pytest.mark.parametrize("source, expected", [
    ("1 < 2", 1.0), ("2 < 1", 0.0), ("2 > 1", 1.0), ("1 > 1", 0.0),
    ("1 <= 1", 1.0), ("2 <= 1", 0.0), ("1 >= 1", 1.0), ("0 >= 1", 0.0),
    ("1 == 1", 1.0), ("1 == 2", 0.0), ("1 != 2", 1.0), ("1 != 1", 0.0),
    ("i == 7", 1.0), ("i == 7.0", 1.0), ("f != 2.5", 0.0),
    # chains: every link must hold
    ("1 < 2 < 3", 1.0), ("3 > 2 > 1", 1.0), ("1 < 3 < 2", 0.0), ("1 < 2 <= 2 == 2", 1.0),
    ("1 == 1 == 1", 1.0), ("2 == 2 == 1", 0.0),
    ("1/0 == 1/0", 0.0), ("0/0 != 0/0", 1.0), ("0/0 < 1", 1.0),  # inf/NaN as in C++
    # == and != allow float epsilon (1.19e-7)
    ("0.1 + 0.2 == 0.3", 1.0), ("1 == 1.0000001", 1.0), ("1 == 1.000001", 0.0),
    ("1 != 1.0000001", 0.0), ("0.1 + 0.2 != 0.3", 0.0),
    # strings compare bytewise
    ("'abc' == 'abc'", 1.0), ("'abc' != 'abd'", 1.0), ("'abc' < 'abd'", 1.0),
    ("'b' > 'abc'", 1.0), ("'ab' < 'abc'", 1.0), ("'a' >= 'a'", 1.0), ("'A' < 'a'", 1.0),
    # a string against a number is read as a number (true/false, enums, numeric prefix)
    ("'3' == 3", 1.0), ("3 == '3.0'", 1.0), ("'2.5' < 3", 1.0), ("'true' == 1", 1.0),
    ("'false' == 0", 1.0), ("'RED' == 1", 1.0), ("'3abc' == 3", 1.0), ("'-4' < 0", 1.0),
    ("s == 'go'", 1.0),
])
def test_comparisons(source, expected):
    value, _ = run(source, enums={"RED": 1}, i=7, f=2.5, s="go")
    assert same(value, expected), (source, value, expected)


@pytest.mark.parametrize("source, expected", [
    ("'hello' + ' ' + 'world'", "hello world"),
    ("a + b", "ab"),
    ("'a' .. 'b'", "ab"),
    ("'n=' .. 5", "n=5"),             # int64 via std::to_string
    ("5 .. '!'", "5!"),
    ("'x' .. 1.5", "x1.500000"),      # double via std::to_string ("%f")
    ("'q' .. (0/0)", "q-nan"),        # x86's default NaN has the sign bit set
    ("'q' .. (1/0)", "qinf"),
    ("'x' .. (1 + 1)", "x2.000000"),
    ("'v' .. -1", "v-1.000000"),      # unary minus makes a double
    ("'k' .. i", "k7"),
    ("'' .. ''", ""),
])
def test_string_concatenation(source, expected):
    value, _ = run(source, a="a", b="b", i=7)
    assert same(value, expected)


def test_concat_of_two_numbers_is_empty_like_btcpp():
    # BT.CPP's ExprBinaryArithmetic falls through and returns an empty Any.
    value, _ = run("1 .. 2")
    assert value is None
    with pytest.raises(ScriptError, match=r"right operand of \[:=\] is not initialized"):
        run("x := 1 .. 2")


@pytest.mark.parametrize("source, expected", [
    ("1 ? 'y' : 'n'", "y"), ("0 ? 'y' : 'n'", "n"), ("0.5 ? 'y' : 'n'", "y"),
    ("-1 ? 'y' : 'n'", "y"), ("(0/0) ? 'y' : 'n'", "y"),
    ("i == 7 ? 10 : 20", 10), ("i != 7 ? 10 : 20", 20),
    # the condition is cast to double: strings must hold a number
    ("'1' ? 'y' : 'n'", "y"), ("'0' ? 'y' : 'n'", "n"), ("'2x' ? 'y' : 'n'", "y"),
    ("0 ? 1 : 0 ? 2 : 3", 3), ("1 ? 0 ? 4 : 5 : 6", 5),
    # only the chosen branch is evaluated
    ("1 ? 2 : missing", 2), ("0 ? missing : 3", 3),
])
def test_ternary(source, expected):
    value, _ = run(source, i=7)
    assert same(value, expected), (source, value)


def test_statements_run_in_order_and_return_the_last_value():
    value, bb = run("x := 3; y := 5; x + y")
    assert same(value, 8.0)
    assert bb.entries == {"x": 3, "y": 5}


def test_and_or_do_not_short_circuit():
    with pytest.raises(ScriptError, match=r"variable not found: \[missing\]"):
        run("0 && missing")
    with pytest.raises(ScriptError, match=r"variable not found: \[missing\]"):
        run("1 || missing")
    value, bb = run("false && (x := 5.0)")
    assert same(value, 0.0) and bb.entries["x"] == 5.0


def test_comparison_chain_stops_at_first_false_link_like_btcpp():
    value, _ = run("1 > 2 < missing")
    assert same(value, 0.0)


def test_enums_resolve_to_doubles_and_win_over_blackboard_keys():
    enums = {"RED": 1, "BLUE": 3, "GREEN": 5}
    value, bb = run("c := GREEN; RED + BLUE", enums=enums, RED=100)
    assert same(value, 4.0)
    assert same(bb.entries["c"], 5.0)
    # assignment targets are always blackboard keys, even if an enum has that name
    value, bb = run("RED := 7; RED", enums=enums)
    assert bb.entries["RED"] == 7 and same(value, 1.0)


def test_enums_are_optional():
    assert same(parse_script("1 + 1").evaluate(FakeBlackboard()), 2.0)
    assert same(parse_script("1 + 1").evaluate(FakeBlackboard(), None), 2.0)


def test_root_keys_pass_through_unchanged():
    value, bb = run("@count := 1; @count += 1; @count * 10")
    assert same(value, 20.0)
    assert bb.entries == {"@count": 2}
    assert set(bb.keys_seen) == {"@count"}


@pytest.mark.parametrize("source, column, fragment", [
    ("missing + 1", 1, "variable not found: [missing]"),
    ("1 + missing", 5, "variable not found: [missing]"),
    ("'a' + 1", 5, "operation [+] not permitted between [std::string] and [int64_t]"),
    ("'a' - 'b'", 5, "operation [-] not permitted"),
    ("'a' * 2", 5, "operation [*] not permitted"),
    ("1 .. lst", 3, "operation [..] not permitted"),
    ("5.5 & 1", 5, "bitwise operator [&] needs integer operands"),
    ("1 | 0.5", 3, "bitwise operator [|] needs integer operands"),
    ("'a' ^ 1", 5, "operation [^] not permitted"),
    ("2 && 1", 3, "logic operator [&&] needs operands castable to bool"),
    ("1 || i", 3, "logic operator [||] needs operands castable to bool"),
    ("'a' && 1", 5, "operation [&&] not permitted"),
    ("-1.0 && 1", 6, "logic operator [&&] needs operands castable to bool"),  # negative
    ("-'a'", 1, "operator [-] is not valid for a string"),
    ("!s", 1, "operator [!] is not valid for a string"),
    ("~1e300", 1, "out of range for the bitwise operator [~]"),
    ("'abc' == 1", 7, "failed string to number conversion of 'abc'"),
    ("1 < lst", 3, "can't mix different types in comparison [<]"),
    ("'abc' ? 1 : 2", 7, "condition of the operator [?:] is not a number"),
    ("'' ? 1 : 2", 4, "condition of the operator [?:] is not a number"),
    ("e + 1", 3, "the left operand of the operator [+] is not initialized"),
    ("1 + e", 3, "the right operand of the operator [+] is not initialized"),
    ("e < 1", 3, "the left operand of the operator [<] is not initialized"),
    ("1 == e", 3, "the right operand of the operator [==] is not initialized"),
    ("-e", 1, "the right operand of the operator [-] is not initialized"),
    ("e ? 1 : 2", 3, "condition of the operator [?:] is not initialized"),
])
def test_runtime_errors_name_the_operator_or_variable_and_the_column(source, column,
                                                                     fragment):
    with pytest.raises(ScriptError) as info:
        run(source, i=7, s="txt", lst=[1], e=EMPTY)
    assert fragment in info.value.reason
    assert info.value.position == column - 1
    assert f"at column {column} of '{source}'" in str(info.value)


def test_reading_an_empty_entry_returns_none():
    value, _ = run("e", e=EMPTY)
    assert value is None


def test_big_integers_refuse_inexact_double_conversion_like_btcpp():
    with pytest.raises(ScriptError, match="loss of precision"):
        run("big + 1", big=2 ** 60)
    value, _ = run("big + 1", big=2 ** 53 - 2)
    assert same(value, float(2 ** 53 - 1))


def test_numpy_scalars_and_bools_behave_as_numbers():
    np = pytest.importorskip("numpy")
    value, _ = run("a + b + c", a=np.float64(1.5), b=np.int32(2), c=True)
    assert same(value, 4.5)
