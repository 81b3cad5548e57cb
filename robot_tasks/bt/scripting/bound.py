"""Scripts compiled for one engine Blackboard: the fast path of Script, ScriptCondition,
Precondition and the `_skipIf`/`_while`/`_post`... attributes.

A node's blackboard never changes after the node is created (as in BT.CPP), so the
script in its XML can be compiled for that board once, at load time. The closures
built here read a variable with one dict lookup in the board's own storage and write
it by updating the entry in place, instead of going through `Blackboard.get`/`set`
(two or three method calls and their '@'/remap checks) on every access. Everything
that is not the common case falls back to the board's methods, so the result is the
same as the protocol path in `compiler.py`, which other callers (and any object with
`get`/`has_entry`/`set`) keep using:

- a key that is not in the board's own storage (remapped, autoremapped, `@root`, or
  missing) is looked up with `get_entry`, which follows BT.CPP's scoping rules;
- a write that the entry's type has to convert (or refuse) goes through `set()`;
- a direct write bumps `sequence_id`, as `set()` does, so `WasEntryUpdated`,
  `SkipUnlessUpdated` and loggers still see every change.

The assignment rules (what type a filled entry keeps) are `compiler.py`'s; only the
blackboard access differs. Operators are shared: `_BoundCompiler` overrides just
`name` and `assignment`, and `comparison` for the commonest condition, one comparison
of variables and numbers (`value < limit`, `count >= 3`): both operands are read inline
and, when they are plain numbers, compared inline; anything else (a string, an empty or
remapped entry, an enum name) takes the general closure, which re-reads them.
"""
from __future__ import annotations

import operator
from typing import Any

from ..blackboard import EMPTY, Blackboard
from . import operators as ops
from .compiler import Evaluator, _Compiler, _numeric_literal, compile_run, compile_test, stored_value
from .syntax_tree import Assignment, Comparison, Name
from .values import FLOAT_EPSILON, MAX_EXACT_INT

_M = MAX_EXACT_INT
_COMPOUND = {"+=": operator.add, "-=": operator.sub, "*=": operator.mul, "/=": operator.truediv}
_COMPARISON_CODES = {"<": 0, ">": 1, "<=": 2, ">=": 3, "==": 4, "!=": 5}


def bound_run(statements, source: str, board: Blackboard) -> Evaluator:
    """`compiler.compile_run`, reading and writing `board` directly. The closures ignore
    the `bb` they are called with; call them with `board`."""
    return compile_run(statements, source, _BoundCompiler(source, board))


def bound_test(statements, source: str, board: Blackboard) -> Evaluator:
    """`compiler.compile_test`, reading and writing `board` directly."""
    return compile_test(statements, source, _BoundCompiler(source, board))


class _BoundCompiler(_Compiler):
    def __init__(self, source: str, board: Blackboard):
        super().__init__(source)
        self.board = board

    def name(self, node: Name) -> Evaluator:
        key = node.name
        fail = self.fail
        pos = node.pos
        local = self.board._storage.get  # the board's own entries (never keys with '@')
        scoped = self.board.get_entry    # remaps, autoremap, '@', parents

        def evaluate_name(bb, enums):
            # Enum names win over blackboard keys, as in BT.CPP's ExprName.
            if enums and key in enums:
                return float(enums[key])
            entry = local(key)
            if entry is None:
                entry = scoped(key)
                if entry is None:
                    raise fail(f"variable not found: [{key}]", pos)
            value = entry.value
            return None if value is EMPTY else value  # empty: operators say "not initialized"
        return evaluate_name

    def comparison(self, node: Comparison, as_bool: bool = False) -> Evaluator:
        general = super().comparison(node, as_bool)
        if len(node.ops) != 1:
            return general
        plan = [self._direct_operand(operand) for operand in node.operands]
        if None in plan:
            return general
        (k1, c1), (k2, c2) = plan
        code = _COMPARISON_CODES[node.ops[0]]
        yes, no = (True, False) if as_bool else (1.0, 0.0)
        local = self.board._storage.get
        eps = FLOAT_EPSILON

        def evaluate_direct_comparison(bb, enums):
            if k1 is None:
                lv = c1
            else:
                entry = local(k1)
                if entry is None or (enums and k1 in enums):
                    return general(bb, enums)
                lv = entry.value
            if k2 is None:
                rv = c2
            else:
                entry = local(k2)
                if entry is None or (enums and k2 in enums):
                    return general(bb, enums)
                rv = entry.value
            lc = lv.__class__
            rc = rv.__class__
            if not ((lc is float or (lc is int and -_M <= lv <= _M)) and
                    (rc is float or (rc is int and -_M <= rv <= _M))):
                return general(bb, enums)
            # BT.CPP writes '<' as "fail if lv >= rv" (and so on): the same for NaN
            if code == 0:
                ok = not lv >= rv
            elif code == 1:
                ok = not lv <= rv
            elif code == 2:
                ok = not lv > rv
            elif code == 3:
                ok = not lv < rv
            elif code == 4:
                ok = abs(lv - rv) <= eps
            else:
                ok = not abs(lv - rv) <= eps
            return yes if ok else no
        return evaluate_direct_comparison

    @staticmethod
    def _direct_operand(node):
        """(key, None) for a variable of this board, (None, number) for a number literal
        exact as a double, None for anything else."""
        if isinstance(node, Name) and node.name[:1] != "@":
            return node.name, None
        constant = _numeric_literal(node)
        return None if constant is None else (None, constant)

    def assignment(self, node: Assignment) -> Evaluator:
        if not isinstance(node.target, Name):
            return super().assignment(node)  # the error closure
        op = node.op
        fail = self.fail
        pos = node.pos
        key = node.target.name
        value_of = self.compile(node.value)
        board = self.board
        local = board._storage.get
        scoped = board.get_entry
        board_set = board.set

        def find():
            entry = local(key)
            return scoped(key) if entry is None else entry

        def missing_entry():
            return fail(f"the blackboard entry [{key}] doesn't exist yet; to create it, use "
                        f"the operator [:=] instead of [{op}]", pos)

        def store(entry, stored):
            """Blackboard.set(key, stored) for an entry already found."""
            if entry is not None:
                entry_type = entry.type
                if entry_type is None or stored.__class__ is entry_type:
                    entry.value = stored
                    entry.sequence_id += 1
                    return
            board_set(key, stored)  # creates it, or converts to the entry's type (or refuses)

        if op == ":=" or op == "=":
            must_exist = op == "="

            def evaluate_assignment(bb, enums):
                entry = find()
                if entry is None and must_exist:
                    raise missing_entry()
                value = value_of(bb, enums)
                if entry is None:
                    entry = find()  # the right side may have created it
                old = None if entry is None else entry.value  # read after the right side ran
                if old is EMPTY:
                    old = None
                stored = stored_value(key, old, value, enums, op, pos, fail)
                store(entry, stored)
                return stored
            return evaluate_assignment

        compute = _COMPOUND[op]
        is_division = op == "/="
        constant = _numeric_literal(node.value)  # `count += 1`: no call for the 1
        folded = constant is not None

        def evaluate_compound(bb, enums):
            entry = find()
            if entry is None:
                raise missing_entry()
            value = constant if folded else value_of(bb, enums)
            old = entry.value  # read after the right side ran: it may have changed it
            if old is EMPTY:
                old = None
            oc = old.__class__
            vc = value.__class__
            if (oc is float or (oc is int and -_M <= old <= _M)) and \
                    (vc is float or (vc is int and -_M <= value <= _M)) and not is_division:
                result = float(compute(old, value))
                if oc is float:
                    stored = result
                elif result.is_integer() and -_M <= result <= _M:
                    stored = int(result)
                else:
                    stored = None
                if stored is not None:
                    entry_type = entry.type
                    if entry_type is None or entry_type is oc:
                        entry.value = stored  # store(), inlined: the type is unchanged
                        entry.sequence_id += 1
                    else:
                        store(entry, stored)
                    return stored
            try:
                stored = ops.compound_value(op, key, old, value)
            except ops.OperatorError as exc:
                raise fail(str(exc), pos) from None
            store(entry, stored)
            return stored
        return evaluate_compound


def is_bindable(board: Any) -> bool:
    """Only the engine's own Blackboard (not a subclass, which may override get/set)."""
    return board.__class__ is Blackboard
