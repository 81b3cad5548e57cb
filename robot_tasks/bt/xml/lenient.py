"""Accept the XML that BT.CPP's parser (tinyxml2) accepts, before a strict parser sees it.

Strict XML forbids a raw `<` inside an attribute value and wants every `&` to start
an entity reference. tinyxml2 is more forgiving, and BT.CPP trees rely on it: scripts
are attribute values, so people write `_skipIf="x < 3"` or
`<Precondition if="A>-B && color != BLUE">` without escaping. tinyxml2 also skips
whitespace before the `<?xml ...?>` declaration.

`make_strict(text)` rewrites exactly those spots so that expat (behind defusedxml,
which still refuses DTDs and entity declarations) reads the document the way
tinyxml2 does:
- inside a quoted attribute value, `<` becomes `&lt;`, and an `&` that does not begin
  one of XML's five predefined references or a character reference becomes `&amp;`
  (tinyxml2 keeps unknown references as text, too);
- whitespace before the declaration is moved after it, as newlines, so every line
  keeps its number.
Comments, CDATA, processing instructions and text are copied unchanged; from a
`<!DOCTYPE` on, the rest is copied unchanged, for defusedxml to refuse.
Columns shift where characters were inserted; `original_column` maps them back.

It also catches one mistake early, with a better message than expat's: a script
string written in double quotes inside a double-quoted attribute
(`code="msg := "hi""`), which ends the attribute too soon.
"""
from __future__ import annotations

import re

from ..errors import XmlError

_REFERENCE = re.compile(r"&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);")
_DECLARATION = re.compile(r"\s+(?=<\?xml[\s?])")


class StrictText:
    """The rewritten text plus what is needed to map expat's columns back."""

    def __init__(self, text: str, insertions: dict[int, list[tuple[int, int]]]):
        self.text = text
        self._insertions = insertions  # line -> [(column in new text, chars added)]

    def original_column(self, line: int, column: int) -> int:
        """The 0-based column in the original text of a 0-based column in the new one."""
        shift = 0
        for position, added in self._insertions.get(line, ()):
            if position + added <= column:
                shift += added
        return column - shift


def make_strict(text: str, file: str = "<text>") -> StrictText:
    """Rewrite tinyxml2-only constructs (see the module docstring) into strict XML."""
    moved = _DECLARATION.match(text)
    if moved:
        newlines = moved.group(0).count("\n")
        body = text[moved.end():]
        end = body.find("?>")
        text = body if end < 0 else body[:end + 2] + "\n" * newlines + body[end + 2:]
    return _Rewriter(text, file).run()


class _Rewriter:
    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file
        self.out: list[str] = []
        self.insertions: dict[int, list[tuple[int, int]]] = {}
        self.line = 1
        self.out_column = 0  # column in the rewritten text, on the current line

    def emit(self, chunk: str) -> None:
        self.out.append(chunk)
        newline = chunk.rfind("\n")
        if newline < 0:
            self.out_column += len(chunk)
        else:
            self.line += chunk.count("\n")
            self.out_column = len(chunk) - newline - 1

    def emit_replacement(self, replacement: str) -> None:
        self.insertions.setdefault(self.line, []).append((self.out_column, len(replacement) - 1))
        self.emit(replacement)

    def copy_until(self, start: int, terminator: str) -> int:
        end = self.text.find(terminator, start)
        end = len(self.text) if end < 0 else end + len(terminator)
        self.emit(self.text[start:end])
        return end

    def run(self) -> StrictText:
        text = self.text
        i = 0
        while i < len(text):
            lt = text.find("<", i)
            if lt < 0:
                self.emit(text[i:])
                break
            self.emit(text[i:lt])
            if text.startswith("<!--", lt):
                i = self.copy_until(lt, "-->")
            elif text.startswith("<![CDATA[", lt):
                i = self.copy_until(lt, "]]>")
            elif text.startswith("<?", lt):
                i = self.copy_until(lt, "?>")
            elif text.startswith("<!", lt):
                self.emit(text[lt:])  # a DTD: left to defusedxml, which refuses it
                break
            else:
                i = self.tag(lt)
        return StrictText("".join(self.out), self.insertions)

    def tag(self, start: int) -> int:
        """Copy one start or end tag, rewriting its attribute values."""
        text = self.text
        i = start + 1
        self.emit("<")
        while i < len(text):
            char = text[i]
            if char == ">":
                self.emit(">")
                return i + 1
            if char in "\"'" and self._after_equals(i):
                i = self.attribute_value(i)
                continue
            self.emit(char)
            i += 1
        return i

    def _after_equals(self, i: int) -> bool:
        j = i - 1
        while j >= 0 and self.text[j] in " \t\r\n":
            j -= 1
        return j >= 0 and self.text[j] == "="

    def attribute_value(self, start: int) -> int:
        text = self.text
        quote = text[start]
        end = text.find(quote, start + 1)
        if end < 0:
            end = len(text)
        self.emit(quote)
        i = start + 1
        while i < end:
            char = text[i]
            if char == "<":
                self.emit_replacement("&lt;")
            elif char == "&" and not _REFERENCE.match(text, i):
                self.emit_replacement("&amp;")
            else:
                self.emit(char)
            i += 1
        if end < len(text):
            self.emit(quote)
            self._check_value_end(start, end)
        return end + 1

    def _check_value_end(self, start: int, end: int) -> None:
        """After a closing quote comes space, '/' or '>'; anything else means the value
        held a quote of its own kind (a script string in the wrong quotes)."""
        following = self.text[end + 1:end + 2]
        if following == "" or following in " \t\r\n/>":
            return
        line = self.text.count("\n", 0, end) + 1
        column = end - (self.text.rfind("\n", 0, end) + 1) + 1
        name = re.search(r"([^\s=<]+)\s*=\s*$", self.text[max(0, start - 200):start])
        attribute = f"[{name.group(1)}] " if name else ""
        if self.text[start] == '"':
            hint = ("; inside a double-quoted attribute, write script strings in single quotes "
                    "(msg := 'hello'), or write the quote as &quot;")
        else:
            hint = "; inside a single-quoted attribute, write the quote as &apos;"
        raise XmlError(f"malformed XML at column {column}: the attribute {attribute}ends at a "
                       f"quote inside its value{hint}", self.file, line, column=column)
