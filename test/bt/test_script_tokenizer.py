"""The script tokenizer against BT.CPP 4.10's `script_tokenizer.cpp` rules."""
import pytest

from robot_tasks.bt.scripting.tokenizer import (
    BOOLEAN,
    END,
    ERROR,
    IDENTIFIER,
    INTEGER,
    OPERATOR,
    REAL,
    STRING,
    tokenize,
)


def kinds_and_texts(source):
    return [(t.kind, t.text) for t in tokenize(source)[:-1]]


@pytest.mark.parametrize("source, expected", [
    ("42", [(INTEGER, "42")]),
    ("0x1F", [(INTEGER, "0x1F")]),
    ("0X00ff", [(INTEGER, "0X00ff")]),
    ("3.14", [(REAL, "3.14")]),
    ("3e2", [(REAL, "3e2")]),
    ("3.14e-2", [(REAL, "3.14e-2")]),
    ("2E+3", [(REAL, "2E+3")]),
    ("'hello world '", [(STRING, "hello world ")]),
    ("''", [(STRING, "")]),
    ("true false", [(BOOLEAN, "true"), (BOOLEAN, "false")]),
    ("trueish _x @root a1_b", [(IDENTIFIER, "trueish"), (IDENTIFIER, "_x"),
                               (IDENTIFIER, "@root"), (IDENTIFIER, "a1_b")]),
    # '@' is only valid as the first character: a@b is two identifiers.
    ("a@b", [(IDENTIFIER, "a"), (IDENTIFIER, "@b")]),
    # 65.. is the integer 65 followed by the concat operator.
    ("65..x", [(INTEGER, "65"), (OPERATOR, ".."), (IDENTIFIER, "x")]),
])
def test_literals_and_identifiers(source, expected):
    assert kinds_and_texts(source) == expected


def test_every_operator_is_one_token():
    two = [".." , "&&", "||", "==", "!=", "<=", ">=", ":=", "+=", "-=", "*=", "/="]
    one = list("+-*/&|^~!<>=?:();")
    tokens = kinds_and_texts(" ".join(two + one))
    assert tokens == [(OPERATOR, op) for op in two + one]


def test_two_char_operators_win_over_one_char():
    assert kinds_and_texts("a<=b") == [(IDENTIFIER, "a"), (OPERATOR, "<="), (IDENTIFIER, "b")]
    assert kinds_and_texts("x-=-1") == [(IDENTIFIER, "x"), (OPERATOR, "-="), (OPERATOR, "-"),
                                        (INTEGER, "1")]
    assert kinds_and_texts("!!a") == [(OPERATOR, "!"), (OPERATOR, "!"), (IDENTIFIER, "a")]


@pytest.mark.parametrize("source, bad_text", [
    ("65.", "65."),          # incomplete real
    ("65.43foo", "65.43foo"),
    ("3foo", "3foo"),
    ("0x", "0x"),
    ("0X100g", "0X100g"),
    ("0x100.", "0x100."),
    ("1e", "1e"),
    ("1e+", "1e+"),
    ("'open", "'open"),      # unterminated string
    ("\"dq\"", "\""),        # double quotes are not strings in 4.10
    ("$", "$"),
    ("#", "#"),
    ("é", "é"),              # identifiers are ASCII only
])
def test_malformed_input_becomes_error_token(source, bad_text):
    tokens = tokenize(source)
    errors = [t for t in tokens if t.kind == ERROR]
    assert errors and errors[0].text == bad_text


def test_positions_are_source_offsets_and_end_token_is_last():
    tokens = tokenize("  ab := 'x'\n\t+ 1.5")
    assert [(t.text, t.pos) for t in tokens] == [
        ("ab", 2), (":=", 5), ("x", 8), ("+", 13), ("1.5", 15), ("", 18)]
    assert tokens[-1].kind == END


def test_whitespace_is_only_space_tab_newline_return():
    assert kinds_and_texts(" \t\r\n1") == [(INTEGER, "1")]
    assert kinds_and_texts("\v1")[0][0] == ERROR
