"""Split script text into tokens, following BT.CPP 4.10's `src/script_tokenizer.cpp`.

The rules, in the order they are tried at each position:

- whitespace is only space, tab, newline and carriage return;
- `'text'` is a string literal (no escapes; an unterminated quote is an error token);
- a digit starts a number: `0x1F` hex integers, decimal integers, reals with a
  fraction (`1.5`) and/or an exponent (`2e-3`). `65..x` is the integer 65 followed by
  the `..` operator. Malformed numbers (`65.`, `3foo`, `0x`, `1e`) become one error
  token that swallows the trailing garbage, so the parser reports them whole;
- an identifier starts with an ASCII letter, `_` or `@` (only as first character) and
  continues with letters, digits and `_`. `true`/`false` are boolean tokens;
- two-character operators (`.. && || == != <= >= := += -= *= /=`) win over one-character
  ones (`+ - * / & | ^ ~ ! < > = ? : ( ) ;`); any other character is an error token.

Errors are not raised here: the parser raises them with the token's position, so a
script like `a $ b` reports the `$` where the parser meets it.
"""
from __future__ import annotations

from typing import NamedTuple

# Token kinds (plain strings: readable in errors and cheap to compare).
INTEGER = "integer"
REAL = "real"
STRING = "string"
BOOLEAN = "boolean"
IDENTIFIER = "identifier"
OPERATOR = "operator"
ERROR = "error"
END = "end"

_WHITESPACE = frozenset(" \t\n\r")
_DIGITS = frozenset("0123456789")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_IDENT_START = _LETTERS | {"_", "@"}
_IDENT_CHAR = _LETTERS | _DIGITS | {"_"}

TWO_CHAR_OPERATORS = frozenset(
    ["..", "&&", "||", "==", "!=", "<=", ">=", ":=", "+=", "-=", "*=", "/="])
ONE_CHAR_OPERATORS = frozenset("+-*/&|^~!<>=?:();")


class Token(NamedTuple):
    """One token: its kind, its text (string literals without the quotes) and the
    0-based offset of its first character in the source."""

    kind: str
    text: str
    pos: int


def _skip_trailing_garbage(source: str, i: int, n: int) -> int:
    """After a malformed number, swallow identifier characters and dots (BT.CPP does the
    same) so `65.43.1x` is reported as one bad token."""
    while i < n and (source[i] in _IDENT_CHAR or source[i] == "."):
        i += 1
    return i


def _scan_hex(source: str, i: int, n: int) -> tuple[int, bool]:
    """Scan `0x...` starting at the `0`; return (end, ok)."""
    i += 2
    ok = i < n and source[i] in _HEX_DIGITS
    while i < n and source[i] in _HEX_DIGITS:
        i += 1
    # Hex literals have neither a fraction nor an exponent nor a suffix.
    if i < n and (source[i] == "." or source[i] in _IDENT_CHAR):
        return _skip_trailing_garbage(source, i, n), False
    return i, ok


def _scan_decimal(source: str, i: int, n: int) -> tuple[int, bool, bool]:
    """Scan a decimal number; return (end, is_real, ok)."""
    is_real = False
    while i < n and source[i] in _DIGITS:
        i += 1
    if i < n and source[i] == ".":
        following = source[i + 1] if i + 1 < n else ""
        if following == ".":
            pass  # `65..` is the integer 65 followed by the concat operator
        elif following in _DIGITS and following:
            is_real = True
            i += 1
            while i < n and source[i] in _DIGITS:
                i += 1
        else:  # `65.` or `65.x`: an incomplete real
            return _skip_trailing_garbage(source, i + 1, n), False, False
    if i < n and source[i] in "eE":
        is_real = True
        i += 1
        if i < n and source[i] in "+-":
            i += 1
        if i >= n or source[i] not in _DIGITS:
            return i, True, False
        while i < n and source[i] in _DIGITS:
            i += 1
    if i < n and source[i] in _IDENT_START:  # `3foo`, `1.5e3x`
        i += 1
        while i < n and source[i] in _IDENT_CHAR:
            i += 1
        return i, is_real, False
    return i, is_real, True


def tokenize(source: str) -> list[Token]:
    """Return the tokens of `source`, always ending with an END token."""
    tokens: list[Token] = []
    n = len(source)
    i = 0
    while i < n:
        c = source[i]
        if c in _WHITESPACE:
            i += 1
            continue
        start = i
        if c == "'":
            close = source.find("'", i + 1)
            if close < 0:
                tokens.append(Token(ERROR, source[start:], start))
                i = n
            else:
                tokens.append(Token(STRING, source[start + 1:close], start))
                i = close + 1
            continue
        if c in _DIGITS:
            if c == "0" and i + 1 < n and source[i + 1] in "xX":
                i, ok = _scan_hex(source, i, n)
                kind = INTEGER if ok else ERROR
            else:
                i, is_real, ok = _scan_decimal(source, i, n)
                kind = ERROR if not ok else (REAL if is_real else INTEGER)
            tokens.append(Token(kind, source[start:i], start))
            continue
        if c in _IDENT_START:
            i += 1
            while i < n and source[i] in _IDENT_CHAR:
                i += 1
            text = source[start:i]
            kind = BOOLEAN if text in ("true", "false") else IDENTIFIER
            tokens.append(Token(kind, text, start))
            continue
        pair = source[i:i + 2]
        if pair in TWO_CHAR_OPERATORS:
            tokens.append(Token(OPERATOR, pair, start))
            i += 2
            continue
        kind = OPERATOR if c in ONE_CHAR_OPERATORS else ERROR
        tokens.append(Token(kind, c, start))
        i += 1
    tokens.append(Token(END, "", n))
    return tokens
