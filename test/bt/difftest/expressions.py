"""Random script expressions that BT.CPP 4.8 (lexy grammar) and 4.10 (Pratt parser) agree on.

Version filter (btcpp-semantics 1.6, 4.9 parser rewrite): the 4.8 grammar groups binary
operators differently from 4.10, confirmed on behaviortreepy 0.1.4 (BT.CPP 4.8.2):
  * ``4 - 1 + 1`` gives 2 in 4.8 (right-grouped) and 4 in 4.10;
  * ``c < 4 || c == 2 && c == 9`` gives 0 in 4.8 (``||`` and ``&&`` at one level) and 1 in 4.10;
  * ``3 & 2 == 2`` binds ``==`` first in 4.8 and ``&`` first in 4.10.
So every operand that is itself a binary operation is parenthesised. Comparison chains
(``1 < c0 < 5``) evaluate the same in both and are kept. Division is left out: it makes
doubles that cannot be stored back into the int counters (an error in both versions,
but it would swamp the trees with errors), and ``%`` does not exist in either.
Values stay integers so blackboard entries compare exactly.
"""

ARITH_OPS = ("+", "-", "*")
COMPARE_OPS = ("==", "!=", "<", ">", "<=", ">=")
BITWISE_OPS = ("&", "|", "^")
STRING_LITERALS = ("a", "b", "ab", "ba")


class ExpressionMaker:
    """Draws expressions over the counters ``c0..c{n-1}`` from a ``random.Random``."""

    def __init__(self, rng, counters, strings=()):
        self.rng = rng
        self.counters = counters
        self.strings = list(strings)  # string keys; compared only with string literals
        self.used = set()  # counters referenced, so SubTree remaps can cover them
        self.in_subtree = False

    def counter(self):
        name = self.rng.choice(self.counters)
        if self.in_subtree and self.rng.random() < 0.1:
            return "@" + name  # the root blackboard, whatever the remapping
        self.used.add(name)
        return name

    def atom(self):
        if self.rng.random() < 0.6:
            return self.counter()
        return str(self.rng.randint(0, 3))

    def arith(self, depth=0):
        """An integer-valued expression."""
        r = self.rng.random()
        if depth >= 2 or r < 0.45:
            return self.atom()
        if r < 0.55:
            return "-" + self.atom()
        if r < 0.65:
            # Bitwise ops need integer operands; the counters always hold integers.
            return f"({self.atom()} {self.rng.choice(BITWISE_OPS)} {self.atom()})"
        left = self._operand(self.arith(depth + 1))
        right = self._operand(self.arith(depth + 1))
        return f"{left} {self.rng.choice(ARITH_OPS)} {right}"

    def string_key(self):
        name = self.rng.choice(self.strings)
        self.used.add(name)
        return name

    def condition(self, depth=0):
        """A boolean-ish expression (anything; the script result is cast to bool)."""
        if self.strings and self.rng.random() < 0.12:
            literal = self.rng.choice(STRING_LITERALS)
            return f"{self.string_key()} {self.rng.choice(('==', '!='))} '{literal}'"
        r = self.rng.random()
        if r < 0.12:
            return self.rng.choice(("true", "false"))
        if r < 0.22:
            return self.arith(1)
        if r < 0.32:
            # Chained comparison: same meaning in 4.8 and 4.10 (checked on behaviortreepy).
            a, b, c = self.atom(), self.atom(), self.atom()
            op = self.rng.choice(("<", "<="))
            return f"{a} {op} {b} {op} {c}"
        if depth < 1 and r < 0.55:
            left = self._operand(self.condition(depth + 1))
            right = self._operand(self.condition(depth + 1))
            return f"{left} {self.rng.choice(('&&', '||'))} {right}"
        if depth < 1 and r < 0.62:
            return f"!({self.condition(depth + 1)})"
        if depth < 1 and r < 0.68:
            cond = self.condition(depth + 1)
            return f"({cond}) ? {self.atom()} : {self.atom()}"
        left = self._operand(self.arith(1))
        right = self._operand(self.arith(1))
        return f"{left} {self.rng.choice(COMPARE_OPS)} {right}"

    def assignment(self):
        """One statement that changes a counter (always an existing, int entry)."""
        if self.strings and self.rng.random() < 0.15:
            return self.string_assignment()
        target = self.counter()
        r = self.rng.random()
        if r < 0.5:
            return f"{target} += {self.rng.randint(1, 3)}"
        if r < 0.6:
            return f"{target} -= {self.rng.randint(1, 2)}"
        if r < 0.8:
            # Bounded so repeated loops cannot overflow into non-integers.
            return f"{target} := ({self.arith(1)}) & 255"
        if r < 0.9:
            return f"{target} = ({self.condition(1)}) ? {self.atom()} : {self.atom()}"
        if self.in_subtree and r < 0.95:
            # Keys starting with '_' stay in the subtree even with _autoremap.
            return f"_p := ({self.arith(1)}) & 255; {target} := _p + 1"
        return f"{target} += 1; {self.counter()} += 1"

    def string_assignment(self):
        """Set or grow a string key (``..`` concatenates)."""
        target = self.string_key()
        r = self.rng.random()
        if r < 0.4:
            return f"{target} := '{self.rng.choice(STRING_LITERALS)}'"
        if r < 0.7:
            return f"{target} = {target} .. '{self.rng.choice(('a', 'b'))}'"
        return f"{target} := ({self.condition(1)}) ? 'a' : 'b'"

    def script(self):
        return "; ".join(self.assignment() for _ in range(self.rng.randint(1, 2)))

    @staticmethod
    def _operand(text):
        return f"({text})" if " " in text else text
