"""Cross-check random scripts against BT.CPP itself (behaviortreepy 0.1.4 = BT.CPP 4.8.2).

Each case runs `setup; target op EXPR; ...` in a real BT.CPP `<Script>` node and in our
evaluator, then compares success/failure and every blackboard entry (type and value).
A second test runs `setup; EXPR` as a `<ScriptCondition>` and compares SUCCESS/FAILURE/
error with our `evaluate_truthy` (BT.CPP's cast of the result to bool).

Only scripts that mean the same in 4.8 (lexy grammar) and 4.10 (Pratt parser) are drawn:
- every operand that is not a plain atom is parenthesised: 4.8 groups binary operators
  differently (`4 - 1 + 1` is 2 there) and rejects mixing math/bit/concat operators
  without parentheses, or `a && !b`;
- no `true`/`false` (4.8 makes them int 1/0, 4.10 double 1.0/0.0), no statements
  without `;` between them, no int64-overflowing literals (4.8: parse error, 4.10: 0).
"""
import math
import random
from xml.sax.saxutils import escape

import behaviortreepy

from robot_tasks.bt.errors import ScriptError
from robot_tasks.bt.scripting import parse_script

SEED = 20261130
CASES = 3000

SETUP = "a := 3; b := 2.5; c := 0; h := 0.5; s := 'ab'; n := '4'; "
NUMBER_ATOMS = ["0", "1", "2", "3", "7", "0x1F", "2.5", "0.5", "1e1", "3.0", "a", "b", "c", "h"]
# No string that could start a hex number once a number is concatenated in front ('x1'
# would make '0x1'): this wheel reads strings with std::stod (hex, leading '+' and spaces
# accepted) while BT.CPP 4.10 built on Kilted uses std::from_chars (decimal only).
STRING_ATOMS = ["'ab'", "'4'", "'2.5'", "''", "'z1'", "'1'", "'-3'", "s", "n"]
BINARY = ["+", "-", "*", "/", "..", "&", "|", "^", "&&", "||"]
# Logic and bitwise operators reject most operands (ints other than 0/1, fractions), so
# draw them less often to keep enough successful scripts.
BINARY_WEIGHTED = ["+", "-", "*", "/", ".."] * 3 + ["&", "|", "^", "&&", "||"]
COMPARE = ["==", "!=", "<", ">", "<=", ">="]
TARGETS = [("r", ":=")] * 6 + [("a", "="), ("a", "+="), ("b", "-="), ("b", "*="),
                              ("h", "/="), ("s", "+="), ("s", "="), ("n", ":="), ("c", ":=")]


class ScriptMaker:
    def __init__(self, rng):
        self.rng = rng

    def wrap(self, expr, is_atom):
        return expr if is_atom else f"({expr})"

    def expr(self, depth):
        """Return (text, is_atom)."""
        rng = self.rng
        roll = rng.random()
        if depth >= 3 or roll < 0.3:
            return rng.choice(STRING_ATOMS if rng.random() < 0.2 else NUMBER_ATOMS), True
        if roll < 0.42:
            return rng.choice(["-", "!", "~"]) + self.wrap(*self.expr(depth + 1)), False
        if roll < 0.75:
            return (f"{self.wrap(*self.expr(depth + 1))} {rng.choice(BINARY_WEIGHTED)} "
                    f"{self.wrap(*self.expr(depth + 1))}"), False
        if roll < 0.9:
            parts = [self.wrap(*self.expr(depth + 1))]
            for _ in range(rng.choice([1, 1, 2])):
                parts += [rng.choice(COMPARE), self.wrap(*self.expr(depth + 1))]
            return " ".join(parts), False
        return (f"{self.wrap(*self.expr(depth + 1))} ? {self.wrap(*self.expr(depth + 1))}"
                f" : {self.wrap(*self.expr(depth + 1))}"), False

    def script(self):
        """The setup, then one to three assignments."""
        statements = []
        for _ in range(self.rng.choice([1, 1, 2, 3])):
            target, op = self.rng.choice(TARGETS)
            statements.append(f"{target} {op} {self.expr(0)[0]}")
        return SETUP + "; ".join(statements)


# ---- the oracle: a real BT.CPP Script node ---------------------------------------------
def run_btcpp(factory, code):
    xml = (f'<root BTCPP_format="4"><BehaviorTree ID="Main">'
           f'<Script code="{escape(code)}"/></BehaviorTree></root>')
    try:
        tree = factory.create_tree_from_text(xml)
        tree.tick_while_running(0)
    except RuntimeError:
        return "error"
    board = tree.root_blackboard()
    return {key: btcpp_signature(board, key) for key in board.get_keys()}


def btcpp_signature(board, key):
    text = board.get_string(key)
    try:
        board.get_bool(key)
    except RuntimeError as exc:
        if "std::string" in str(exc):
            return ("str", text)
    # std::to_string writes doubles with a '.', integers without.
    kind = "dbl" if ("." in text or "inf" in text or "nan" in text) else "int"
    return (kind, board.get_double(key))


# ---- ours ------------------------------------------------------------------------------
class DictBlackboard:
    def __init__(self):
        self.entries = {}

    def get(self, key):
        return self.entries[key]

    def has_entry(self, key):
        return key in self.entries

    def set(self, key, value):
        self.entries[key] = value


def run_ours(code):
    board = DictBlackboard()
    try:
        parse_script(code).evaluate(board, {})
    except ScriptError:
        return "error"
    return {key: our_signature(value) for key, value in board.entries.items()}


def our_signature(value):
    if isinstance(value, str):
        return ("str", value)
    return ("int" if isinstance(value, int) else "dbl", float(value))


def same_signature(ours, theirs):
    if ours == "error" or theirs == "error":
        return ours == theirs
    if ours.keys() != theirs.keys():
        return False
    for key, (kind, value) in ours.items():
        other_kind, other_value = theirs[key]
        if kind != other_kind:
            return False
        if isinstance(value, float) and math.isnan(value):
            if not (isinstance(other_value, float) and math.isnan(other_value)):
                return False
        elif value != other_value:
            return False
    return True


def test_random_scripts_match_btcpp():
    rng = random.Random(SEED)
    maker = ScriptMaker(rng)
    factory = behaviortreepy.BehaviorTreeFactory()
    mismatches = []
    outcomes = {"error": 0, "ok": 0}
    for _ in range(CASES):
        code = maker.script()
        ours = run_ours(code)
        theirs = run_btcpp(factory, code)
        outcomes["error" if theirs == "error" else "ok"] += 1
        if not same_signature(ours, theirs):
            mismatches.append(f"{code!r}\n    ours:  {ours}\n    btcpp: {theirs}")
    assert not mismatches, f"{len(mismatches)} of {CASES} differ:\n" + "\n".join(
        mismatches[:15])
    # The draw must exercise both outcomes, or the comparison proves little.
    assert outcomes["ok"] > CASES // 5 and outcomes["error"] > CASES // 10, outcomes


def run_btcpp_condition(factory, code):
    xml = (f'<root BTCPP_format="4"><BehaviorTree ID="Main">'
           f'<ScriptCondition code="{escape(code)}"/></BehaviorTree></root>')
    try:
        return factory.create_tree_from_text(xml).tick_while_running(0).name
    except RuntimeError:
        return "error"


def run_ours_condition(code):
    try:
        return "SUCCESS" if parse_script(code).evaluate_truthy(DictBlackboard(), {}) \
            else "FAILURE"
    except ScriptError:
        return "error"


def test_random_conditions_cast_to_bool_like_btcpp():
    rng = random.Random(SEED + 1)
    maker = ScriptMaker(rng)
    factory = behaviortreepy.BehaviorTreeFactory()
    mismatches = []
    outcomes = {"SUCCESS": 0, "FAILURE": 0, "error": 0}
    for _ in range(CASES // 2):
        code = SETUP + maker.expr(0)[0]
        ours = run_ours_condition(code)
        theirs = run_btcpp_condition(factory, code)
        outcomes[theirs] += 1
        if ours != theirs:
            mismatches.append(f"{code!r}: ours {ours}, btcpp {theirs}")
    assert not mismatches, "\n".join(mismatches[:15])
    assert min(outcomes.values()) > CASES // 40, outcomes
