"""Bad input gives a ScriptError, never another exception or a hang.

Random strings built from the language's own pieces (and some junk) are parsed and,
when they parse, evaluated on a small blackboard. Any exception other than ScriptError
is a bug. Bounded: a few thousand short inputs, deterministic seed.
"""
import random

from robot_tasks.bt.errors import ScriptError
from robot_tasks.bt.scripting import is_valid_script, parse_script

PIECES = ["a", "b", "s", "e", "@a", "RED", "nope", "0", "1", "7", "0x1F", "2.5", "1e3",
          "'x'", "''", "'3'", "true", "false", "+", "-", "*", "/", "..", "&", "|", "^",
          "&&", "||", "!", "~", "==", "!=", "<", ">", "<=", ">=", "?", ":", ":=", "=",
          "+=", "-=", "*=", "/=", "(", ")", ";", " ", "\n", "$", "'", ".", "0x", "65."]


class Board:
    def __init__(self):
        self.entries = {"a": 3, "b": 2.5, "s": "txt", "@a": 1, "e": None}

    def get(self, key):
        value = self.entries[key]
        if value is None:
            raise KeyError(key)
        return value

    def has_entry(self, key):
        return key in self.entries

    def set(self, key, value):
        self.entries[key] = value


def test_random_token_soup_only_raises_script_errors():
    rng = random.Random(7)
    parsed = evaluated = 0
    for _ in range(4000):
        source = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        ok, message = is_valid_script(source)
        try:
            program = parse_script(source)
        except ScriptError as exc:
            assert not ok and message == str(exc)
            continue
        assert ok and message == ""
        parsed += 1
        try:
            program.evaluate(Board(), {"RED": 1})
            evaluated += 1
        except ScriptError:
            pass
    # The soup must reach the evaluator often enough to mean something.
    assert parsed > 150 and evaluated > 80, (parsed, evaluated)


def test_random_bytes_only_raise_script_errors():
    rng = random.Random(11)
    for _ in range(2000):
        source = "".join(chr(rng.randint(0, 0x2FF)) for _ in range(rng.randint(0, 20)))
        try:
            parse_script(source).evaluate(Board(), {})
        except ScriptError:
            pass


def test_long_flat_scripts_are_fine():
    program = parse_script("; ".join(f"v{i} := {i}" for i in range(2000)))
    board = Board()
    assert program.evaluate(board, {}) == 1999
    assert board.entries["v1234"] == 1234
