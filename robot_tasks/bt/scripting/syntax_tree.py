"""The syntax tree the parser builds; `compiler.py` turns it into closures.

Every node keeps `pos`, the 0-based source offset of the token that names it (the
operator for operations), so runtime errors can point at the failing operator.
`sexpr()` prints a node in prefix form, e.g. `(+ 1 (* 2 3))`: tests use it to pin the
precedence table without evaluating anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


@dataclass(frozen=True)
class Literal:
    value: Any  # int, float or str
    pos: int

    def sexpr(self) -> str:
        return repr(self.value) if isinstance(self.value, str) else str(self.value)


@dataclass(frozen=True)
class Name:
    """A blackboard key (or an enum name); '@' keys are passed through unchanged."""

    name: str
    pos: int

    def sexpr(self) -> str:
        return self.name


@dataclass(frozen=True)
class Unary:
    op: str  # '-', '!' or '~'
    operand: Node
    pos: int

    def sexpr(self) -> str:
        return f"({self.op} {self.operand.sexpr()})"


@dataclass(frozen=True)
class Binary:
    op: str  # + - * / .. & | ^ && ||
    left: Node
    right: Node
    pos: int

    def sexpr(self) -> str:
        return f"({self.op} {self.left.sexpr()} {self.right.sexpr()})"


@dataclass(frozen=True)
class Comparison:
    """A chain `a < b <= c`: len(ops) == len(operands) - 1, one position per op."""

    ops: tuple[str, ...]
    operands: tuple[Node, ...]
    positions: tuple[int, ...]

    @property
    def pos(self) -> int:
        return self.positions[0]

    def sexpr(self) -> str:
        parts = [self.operands[0].sexpr()]
        for op, operand in zip(self.ops, self.operands[1:]):
            parts += [op, operand.sexpr()]
        return "(cmp " + " ".join(parts) + ")"


@dataclass(frozen=True)
class Ternary:
    condition: Node
    then: Node
    otherwise: Node
    pos: int

    def sexpr(self) -> str:
        return f"(? {self.condition.sexpr()} {self.then.sexpr()} {self.otherwise.sexpr()})"


@dataclass(frozen=True)
class Assignment:
    """`target op value`. The target is checked at run time, as BT.CPP does: `1 = 2`
    parses but fails when evaluated."""

    op: str  # := = += -= *= /=
    target: Node
    value: Node
    pos: int

    def sexpr(self) -> str:
        return f"({self.op} {self.target.sexpr()} {self.value.sexpr()})"


Node = Union[Literal, Name, Unary, Binary, Comparison, Ternary, Assignment]
