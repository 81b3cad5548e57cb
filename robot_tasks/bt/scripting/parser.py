"""Pratt parser for the script language, matching BT.CPP 4.10's `src/script_parser.cpp`.

Binding powers (higher binds tighter), as in BT.CPP:

    :=  =  +=  -=  *=  /=     2   assignment: the right side is a full expression
    ?:                        4   ternary: the else-branch nests to the right
    ||                        6
    &&                        8
    == != < > <= >=          10   one chain node: `1 < 2 < 3`
    |  ^                     12
    &                        14
    +  -  ..                 16
    *  /                     18
    unary -  !  ~            20   binds tighter than any binary operator

Binary operators are left-associative. After an assignment or a ternary the loop stops,
exactly like BT.CPP, so `c ? a : b = 1` leaves `= 1` unparsed and reports it.

A script is a list of statements. BT.CPP skips any number of `;` after a statement and
does not require one between statements, so `a:=1 b:=2` is two statements; we do the
same. An empty script is an error.
"""
from __future__ import annotations

from ..errors import ScriptError
from .syntax_tree import Assignment, Binary, Comparison, Literal, Name, Node, Ternary, Unary
from .tokenizer import BOOLEAN, END, ERROR, IDENTIFIER, INTEGER, OPERATOR, REAL, STRING, Token, tokenize

ASSIGNMENT_BP = 2
TERNARY_BP = 4
COMPARISON_BP = 10
PREFIX_BP = 20

LEFT_BINDING_POWER = {
    ":=": ASSIGNMENT_BP, "=": ASSIGNMENT_BP, "+=": ASSIGNMENT_BP, "-=": ASSIGNMENT_BP,
    "*=": ASSIGNMENT_BP, "/=": ASSIGNMENT_BP,
    "?": TERNARY_BP,
    "||": 6,
    "&&": 8,
    "==": COMPARISON_BP, "!=": COMPARISON_BP, "<": COMPARISON_BP, ">": COMPARISON_BP,
    "<=": COMPARISON_BP, ">=": COMPARISON_BP,
    "|": 12, "^": 12,
    "&": 14,
    "+": 16, "-": 16, "..": 16,
    "*": 18, "/": 18,
}
ASSIGNMENT_OPERATORS = frozenset([":=", "=", "+=", "-=", "*=", "/="])
COMPARISON_OPERATORS = frozenset(["==", "!=", "<", ">", "<=", ">="])
PREFIX_OPERATORS = frozenset(["-", "!", "~"])

# Deeper nesting than this is rejected with a clear error instead of exhausting Python's
# recursion limit (BT.CPP has no limit; real scripts stay far below it).
MAX_NESTING = 100

INT64_MIN = -(2 ** 63)
INT64_MAX = 2 ** 63 - 1


def _describe(token: Token) -> str:
    return "end of script" if token.kind == END else f"'{token.text}'"


def integer_literal_value(text: str) -> int:
    """Value of an integer token. Like BT.CPP's `std::from_chars` into int64, a literal
    out of int64 range silently becomes 0 (the error code is ignored there)."""
    value = int(text[2:], 16) if text[:2] in ("0x", "0X") else int(text, 10)
    return value if INT64_MIN <= value <= INT64_MAX else 0


class _Parser:
    def __init__(self, source: str):
        self.source = source
        self.tokens = tokenize(source)
        self.index = 0
        self.depth = 0

    # ---- token access --------------------------------------------------------------
    def peek(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        if token.kind != END:
            self.index += 1
        return token

    def error(self, message: str, token: Token) -> ScriptError:
        return ScriptError(message, self.source, token.pos)

    def left_bp(self, token: Token) -> int:
        if token.kind != OPERATOR:
            return -1
        return LEFT_BINDING_POWER.get(token.text, -1)

    # ---- grammar -------------------------------------------------------------------
    def parse_all(self) -> list[Node]:
        statements: list[Node] = []
        while self.peek().kind != END:
            statements.append(self.parse_expression(0))
            while self.peek().kind == OPERATOR and self.peek().text == ";":
                self.advance()
        if not statements:
            raise ScriptError("empty script", self.source, 0)
        return statements

    def parse_expression(self, min_bp: int) -> Node:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(f"expression nested too deeply (limit {MAX_NESTING})", self.peek())
        left = self.parse_prefix()
        while True:
            token = self.peek()
            lbp = self.left_bp(token)
            if lbp < 0 or lbp < min_bp:
                break
            op = token.text
            if op in ASSIGNMENT_OPERATORS:
                self.advance()
                left = Assignment(op, left, self.parse_expression(0), token.pos)
                break
            if op == "?":
                left = self.parse_ternary(left, token)
                break
            if op in COMPARISON_OPERATORS:
                left = self.parse_comparison_chain(left)
                continue
            self.advance()
            left = Binary(op, left, self.parse_expression(lbp + 1), token.pos)
        self.depth -= 1
        return left

    def parse_prefix(self) -> Node:
        token = self.advance()
        kind = token.kind
        if kind == OPERATOR:
            if token.text in PREFIX_OPERATORS:
                return Unary(token.text, self.parse_expression(PREFIX_BP), token.pos)
            if token.text == "(":
                inner = self.parse_expression(0)
                closing = self.peek()
                if closing.kind != OPERATOR or closing.text != ")":
                    raise self.error(f"expected ')' but found {_describe(closing)}", closing)
                self.advance()
                return inner
        elif kind == INTEGER:
            return Literal(integer_literal_value(token.text), token.pos)
        elif kind == REAL:
            return Literal(float(token.text), token.pos)
        elif kind == STRING:
            return Literal(token.text, token.pos)
        elif kind == BOOLEAN:
            # BT.CPP stores true/false as the doubles 1.0/0.0.
            return Literal(1.0 if token.text == "true" else 0.0, token.pos)
        elif kind == IDENTIFIER:
            return Name(token.text, token.pos)
        elif kind == ERROR:
            raise self.error(f"invalid token '{token.text}'", token)
        raise self.error(f"expected an operand but found {_describe(token)}", token)

    def parse_ternary(self, condition: Node, question: Token) -> Node:
        self.advance()  # '?'
        then = self.parse_expression(0)
        colon = self.peek()
        if colon.kind != OPERATOR or colon.text != ":":
            raise self.error(f"expected ':' in ternary expression but found {_describe(colon)}",
                             colon)
        self.advance()
        otherwise = self.parse_expression(TERNARY_BP)
        return Ternary(condition, then, otherwise, question.pos)

    def parse_comparison_chain(self, first: Node) -> Node:
        ops: list[str] = []
        operands: list[Node] = [first]
        positions: list[int] = []
        while self.peek().kind == OPERATOR and self.peek().text in COMPARISON_OPERATORS:
            token = self.advance()
            ops.append(token.text)
            positions.append(token.pos)
            # Operands bind tighter than comparisons, so `a + 1 < b` compares sums.
            operands.append(self.parse_expression(COMPARISON_BP + 1))
        return Comparison(tuple(ops), tuple(operands), tuple(positions))


def parse_statements(source: str) -> list[Node]:
    """Parse `source` into one syntax tree per statement; raise ScriptError with the
    column of the first problem."""
    if not isinstance(source, str):
        raise ScriptError(f"a script must be a string, not {type(source).__name__}")
    return _Parser(source).parse_all()
