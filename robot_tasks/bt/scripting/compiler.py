"""Turn syntax trees into nested closures, once, at parse time.

Each compiled node is a function `evaluate(blackboard, enums) -> value`. Evaluating a
script is then a handful of Python calls: no tokens, no tree walking, no dispatch on node
kinds. The closures inline the common case (numbers that are plain int/float) and fall
back to `operators.py` for everything else, so the fast path and the full semantics
cannot drift apart: the fast path only ever handles cases whose answer is obvious.

The blackboard protocol used here is deliberately small:
    bb.get(key)        -> value; KeyError if the entry is missing or empty
    bb.has_entry(key)  -> True if the entry exists (even empty)
    bb.set(key, value) -> create or update
`bound.py` subclasses the compiler for nodes: the same operators, with variables read
from one engine Blackboard's entries directly.
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ..errors import ScriptError
from . import operators as ops
from .syntax_tree import Assignment, Binary, Comparison, Literal, Name, Node, Ternary, Unary
from .values import FLOAT_EPSILON, MAX_EXACT_INT

Evaluator = Callable[[Any, Any], Any]

# Deepest syntax tree we compile; evaluation recurses once per level (see parser.py).
MAX_TREE_DEPTH = 200

_M = MAX_EXACT_INT
_ORDERED_FAILS = {"<": operator.ge, ">": operator.le, "<=": operator.gt, ">=": operator.lt}


def compile_run(statements, source: str, compiler=None) -> Evaluator:
    """`run(bb, enums)`: every statement in order, returning the last value.
    `compiler` (a `_Compiler`) decides how names reach the blackboard; the default goes
    through get/has_entry/set."""
    compiler = compiler or _Compiler(source)
    compiled = tuple(compiler.compile(_checked(node, source)) for node in statements)
    if len(compiled) == 1:
        return compiled[0]

    def run(bb, enums):
        value = None
        for statement in compiled:
            value = statement(bb, enums)
        return value
    return run


def compile_test(statements, source: str, compiler=None) -> Evaluator:
    """`test(bb, enums)`: the script's result cast to bool the way ScriptCondition and
    `_skipIf`/`_while`/... do (BT.CPP's `cast<bool>`); a final comparison gives its
    verdict directly, without the detour through 1.0/0.0."""
    from .program import script_truthy  # the cast's error path (imported late: no cycle)

    compiler = compiler or _Compiler(source)
    *prefix_nodes, last_node = statements
    if isinstance(last_node, Comparison):
        last_test = compiler.comparison(_checked(last_node, source), as_bool=True)
    else:
        last_value = compiler.compile(_checked(last_node, source))

        def last_test(bb, enums):
            value = last_value(bb, enums)
            if value.__class__ is float and value >= 0.0:
                return value != 0.0
            return script_truthy(value, source)
    if not prefix_nodes:
        return last_test
    prefix = tuple(compiler.compile(_checked(node, source)) for node in prefix_nodes)

    def test(bb, enums):
        for statement in prefix:
            statement(bb, enums)
        return last_test(bb, enums)
    return test


def _checked(node: Node, source: str) -> Node:
    _check_depth(node, source)
    return node


def check_depth(statements, source: str) -> None:
    """Raise ScriptError if a statement is too deep to compile (done at parse time)."""
    for node in statements:
        _check_depth(node, source)


def _check_depth(root: Node, source: str) -> None:
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise ScriptError(f"expression too deep (more than {MAX_TREE_DEPTH} levels)",
                              source, node.pos)
        for child in _children(node):
            stack.append((child, depth + 1))


def _children(node: Node) -> tuple:
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Comparison):
        return node.operands
    if isinstance(node, Ternary):
        return (node.condition, node.then, node.otherwise)
    if isinstance(node, Assignment):
        return (node.target, node.value)
    return ()


def _numeric_literal(node: Node):
    """The value of an int/float literal small enough to be exact as a double, else None."""
    if isinstance(node, Literal) and node.value.__class__ in (int, float):
        if node.value.__class__ is float or -_M <= node.value <= _M:
            return node.value
    return None


class _Compiler:
    def __init__(self, source: str):
        self.source = source

    def fail(self, message: str, pos: int) -> ScriptError:
        return ScriptError(message, self.source, pos)

    def compile(self, node: Node) -> Evaluator:
        if isinstance(node, Literal):
            return self.literal(node)
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, Unary):
            return self.unary(node)
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, Comparison):
            return self.comparison(node)
        if isinstance(node, Ternary):
            return self.ternary(node)
        if isinstance(node, Assignment):
            return self.assignment(node)
        raise TypeError(f"unknown syntax node {node!r}")

    # ---- leaves ----------------------------------------------------------------------
    def literal(self, node: Literal) -> Evaluator:
        value = node.value

        def evaluate_literal(bb, enums):
            return value
        return evaluate_literal

    def name(self, node: Name) -> Evaluator:
        key = node.name
        fail = self.fail
        pos = node.pos

        def evaluate_name(bb, enums):
            # Enum names win over blackboard keys, as in BT.CPP's ExprName.
            if enums and key in enums:
                return float(enums[key])
            try:
                return bb.get(key)
            except KeyError:
                if bb.has_entry(key):
                    return None  # exists but empty: operators report "not initialized"
                raise fail(f"variable not found: [{key}]", pos) from None
        return evaluate_name

    # ---- operators -------------------------------------------------------------------
    def unary(self, node: Unary) -> Evaluator:
        operand = self.compile(node.operand)
        op = node.op
        fail = self.fail
        pos = node.pos
        negate = op == "-"

        def evaluate_unary(bb, enums):
            value = operand(bb, enums)
            if negate and value.__class__ is float:
                return -value
            try:
                return ops.unary(op, value)
            except ops.OperatorError as exc:
                raise fail(str(exc), pos) from None
        return evaluate_unary

    def binary(self, node: Binary) -> Evaluator:
        left = self.compile(node.left)
        right = self.compile(node.right)
        op = node.op
        fail = self.fail
        pos = node.pos

        def slow(lv, rv):
            try:
                return ops.binary(op, lv, rv)
            except ops.OperatorError as exc:
                raise fail(str(exc), pos) from None

        # The fast paths accept only float, and int small enough to be exact as a double;
        # Python then computes exactly what C++ computes on the two doubles.
        constant = _numeric_literal(node.right)
        if constant is not None and op in ("+", "-", "*"):
            # `x + 1`: fold the literal into the closure, saving a call per evaluation.
            compute = {"+": operator.add, "-": operator.sub, "*": operator.mul}[op]
            rv_constant = float(constant)

            def evaluate_binary(bb, enums):
                lv = left(bb, enums)
                lc = lv.__class__
                if lc is float or (lc is int and -_M <= lv <= _M):
                    return compute(float(lv), rv_constant)
                return slow(lv, constant)
        elif op == "+":
            def evaluate_binary(bb, enums):
                lv = left(bb, enums)
                rv = right(bb, enums)
                lc = lv.__class__
                rc = rv.__class__
                if (lc is float or (lc is int and -_M <= lv <= _M)) and \
                        (rc is float or (rc is int and -_M <= rv <= _M)):
                    return float(lv + rv)
                return slow(lv, rv)
        elif op == "-":
            def evaluate_binary(bb, enums):
                lv = left(bb, enums)
                rv = right(bb, enums)
                lc = lv.__class__
                rc = rv.__class__
                if (lc is float or (lc is int and -_M <= lv <= _M)) and \
                        (rc is float or (rc is int and -_M <= rv <= _M)):
                    return float(lv - rv)
                return slow(lv, rv)
        elif op == "*":
            def evaluate_binary(bb, enums):
                lv = left(bb, enums)
                rv = right(bb, enums)
                lc = lv.__class__
                rc = rv.__class__
                if (lc is float or (lc is int and -_M <= lv <= _M)) and \
                        (rc is float or (rc is int and -_M <= rv <= _M)):
                    return float(lv) * float(rv)
                return slow(lv, rv)
        elif op == "/":
            def evaluate_binary(bb, enums):
                lv = left(bb, enums)
                rv = right(bb, enums)
                lc = lv.__class__
                rc = rv.__class__
                if (lc is float or (lc is int and -_M <= lv <= _M)) and \
                        (rc is float or (rc is int and -_M <= rv <= _M)) and rv != 0:
                    return float(lv) / float(rv)
                return slow(lv, rv)  # includes x/0, which gives inf/nan there
        elif op == "&&" or op == "||":
            is_and = op == "&&"

            def evaluate_binary(bb, enums):
                # Both sides always run: BT.CPP's && and || do not short-circuit.
                lv = left(bb, enums)
                rv = right(bb, enums)
                if lv.__class__ is float and rv.__class__ is float and lv >= 0.0 and rv >= 0.0:
                    if is_and:
                        return 1.0 if (lv != 0.0 and rv != 0.0) else 0.0
                    return 1.0 if (lv != 0.0 or rv != 0.0) else 0.0
                return slow(lv, rv)
        else:
            def evaluate_binary(bb, enums):
                return slow(left(bb, enums), right(bb, enums))
        return evaluate_binary

    def comparison(self, node: Comparison, as_bool: bool = False) -> Evaluator:
        """A comparison (chain) yields 1.0/0.0; `as_bool` gives True/False instead, for
        conditions (`compile_test`), so they skip the cast of a double to bool."""
        operands = [self.compile(operand) for operand in node.operands]
        chain = list(zip(node.ops, operands[1:], node.positions))
        first = operands[0]
        fail = self.fail
        yes, no = (True, False) if as_bool else (1.0, 0.0)

        def link(op, lv, rv, enums, pos):
            try:
                return ops.compare(op, lv, rv, enums)
            except ops.OperatorError as exc:
                raise fail(str(exc), pos) from None

        if len(chain) == 1:
            op, second, pos = chain[0]
            if op in ("==", "!="):
                equal = op == "=="

                def evaluate_comparison(bb, enums):
                    lv = first(bb, enums)
                    rv = second(bb, enums)
                    lc = lv.__class__
                    rc = rv.__class__
                    if (lc is float or (lc is int and -_M <= lv <= _M)) and \
                            (rc is float or (rc is int and -_M <= rv <= _M)):
                        same = abs(lv - rv) <= FLOAT_EPSILON
                    elif lc is str and rc is str:
                        same = lv == rv
                    else:
                        same = link("==", lv, rv, enums, pos)
                    return yes if same is equal else no
                return evaluate_comparison

            # BT.CPP writes '<' as "fail if lv >= rv": keep that form so NaN agrees.
            fails = _ORDERED_FAILS[op]

            def evaluate_comparison(bb, enums):
                lv = first(bb, enums)
                rv = second(bb, enums)
                lc = lv.__class__
                rc = rv.__class__
                if (lc is float or (lc is int and -_M <= lv <= _M)) and \
                        (rc is float or (rc is int and -_M <= rv <= _M)):
                    return no if fails(lv, rv) else yes
                return yes if link(op, lv, rv, enums, pos) else no
            return evaluate_comparison

        def evaluate_chain(bb, enums):
            # Later operands are not evaluated once a link is false, as in BT.CPP.
            lv = first(bb, enums)
            for op, operand, pos in chain:
                rv = operand(bb, enums)
                if not link(op, lv, rv, enums, pos):
                    return no
                lv = rv
            return yes
        return evaluate_chain

    def ternary(self, node: Ternary) -> Evaluator:
        condition = self.compile(node.condition)
        then = self.compile(node.then)
        otherwise = self.compile(node.otherwise)
        fail = self.fail
        pos = node.pos

        def evaluate_ternary(bb, enums):
            value = condition(bb, enums)
            if value.__class__ is float:
                chosen = value != 0.0
            else:
                try:
                    chosen = ops.condition_is_true(value)
                except ops.OperatorError as exc:
                    raise fail(str(exc), pos) from None
            return then(bb, enums) if chosen else otherwise(bb, enums)
        return evaluate_ternary

    def assignment(self, node: Assignment) -> Evaluator:
        op = node.op
        fail = self.fail
        pos = node.pos
        if not isinstance(node.target, Name):
            def evaluate_bad_assignment(bb, enums):
                raise fail(f"the left operand of [{op}] is not a blackboard entry", pos)
            return evaluate_bad_assignment
        key = node.target.name
        value_of = self.compile(node.value)

        def missing_entry():
            return fail(f"the blackboard entry [{key}] doesn't exist yet; to create it, use "
                        f"the operator [:=] instead of [{op}]", pos)

        if op == ":=" or op == "=":
            must_exist = op == "="

            def evaluate_assignment(bb, enums):
                if must_exist and not bb.has_entry(key):
                    raise missing_entry()
                value = value_of(bb, enums)
                try:  # read the entry after the right side ran: it may have changed it
                    old = bb.get(key)
                except KeyError:
                    old = None
                stored = stored_value(key, old, value, enums, op, pos, fail)
                bb.set(key, stored)
                return stored
            return evaluate_assignment

        compute = {"+=": operator.add, "-=": operator.sub, "*=": operator.mul,
                   "/=": operator.truediv}[op]
        is_division = op == "/="

        def evaluate_compound(bb, enums):
            if not bb.has_entry(key):
                raise missing_entry()
            value = value_of(bb, enums)
            try:  # read the entry after the right side ran: it may have changed it
                old = bb.get(key)
            except KeyError:
                old = None
            oc = old.__class__
            vc = value.__class__
            if (oc is float or (oc is int and -_M <= old <= _M)) and \
                    (vc is float or (vc is int and -_M <= value <= _M)) and not is_division:
                result = float(compute(old, value))
                if oc is float:
                    bb.set(key, result)
                    return result
                if result.is_integer() and -_M <= result <= _M:
                    stored = int(result)
                    bb.set(key, stored)
                    return stored
            try:
                stored = ops.compound_value(op, key, old, value)
            except ops.OperatorError as exc:
                raise fail(str(exc), pos) from None
            bb.set(key, stored)
            return stored
        return evaluate_compound


def stored_value(key: str, old: Any, value: Any, enums, op: str, pos: int, fail) -> Any:
    """What `key = value` stores over the entry's `old` value, as BT.CPP's Any::copyInto: the
    same type as is; an int entry stays int for an integral float, a float entry takes an int;
    anything else by the operators' conversion rules. `fail(message, pos)` builds the error."""
    vc = value.__class__
    oc = old.__class__
    if old is None or (oc is vc and (vc is int or vc is float or vc is str)):
        if value is None:
            raise fail(f"the right operand of [{op}] is not initialized", pos)
        return value
    if oc is int and vc is float and value.is_integer() and -_M <= value <= _M:
        return int(value)
    if oc is float and vc is int and -_M <= value <= _M:
        return float(value)
    try:
        return ops.assigned_value(key, old, value, enums)
    except ops.OperatorError as exc:
        raise fail(str(exc), pos) from None
