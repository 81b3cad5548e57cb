"""Parse XML safely (defusedxml) into a small element tree that remembers line numbers.

The text first goes through `lenient.make_strict`, so what BT.CPP's tinyxml2
accepts (raw `<` and `&&` in attribute values, whitespace before the declaration)
is accepted here too. Entity declarations (billion-laughs bombs) and external
entities/DTDs are still refused by defusedxml; every failure becomes an XmlError
naming the file, the line and, for malformed XML, the column and expat's cause.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree.ElementTree import ParseError

import defusedxml
from defusedxml.ElementTree import DefusedXMLParser

from ..errors import XmlError
from .lenient import make_strict


@dataclass
class XmlElement:
    tag: str
    attrib: dict[str, str]
    line: int
    file: str
    children: list["XmlElement"] = field(default_factory=list)
    text: str = ""

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrib.get(name, default)

    def describe(self) -> str:
        """How errors name this element: `ID` or `name (ID)`."""
        type_id = self.attrib.get("ID") if self.tag in _EXPLICIT_TAGS else self.tag
        type_id = type_id or self.tag
        if self.tag == "BehaviorTree":
            return f"{type_id} (BehaviorTree)" if self.attrib.get("ID") else "BehaviorTree"
        name = self.attrib.get("name")
        return f"{name} ({type_id})" if name and name != type_id else type_id

    def error(self, message: str) -> XmlError:
        return XmlError(message, self.file, self.line, self.describe())


_EXPLICIT_TAGS = frozenset(("Action", "Condition", "Control", "Decorator", "SubTree", "BehaviorTree"))


class _Builder:
    """ElementTree parser target that records the line of every start tag."""

    def __init__(self, file: str):
        self.file = file
        self.expat = None
        self.stack: list[XmlElement] = []
        self.root: XmlElement | None = None

    def start(self, tag, attrib):
        element = XmlElement(tag, dict(attrib), self.expat.CurrentLineNumber, self.file)
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.root = element
        self.stack.append(element)

    def end(self, tag):
        self.stack.pop()

    def data(self, text):
        if self.stack:
            self.stack[-1].text += text

    def close(self):
        return self.root


def _decode(text: str | bytes) -> str | bytes:
    """Text as str (UTF-8, BOM dropped); bytes in another encoding are left to expat."""
    if isinstance(text, str):
        return text
    try:
        return text.decode("utf-8-sig")
    except UnicodeDecodeError:
        return text


def parse_xml(text: str | bytes, file: str = "<text>") -> XmlElement:
    """Parse XML text; return the root element or raise XmlError(file, line)."""
    text = _decode(text)
    strict = make_strict(text, file) if isinstance(text, str) else None
    builder = _Builder(file)
    parser = DefusedXMLParser(target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    builder.expat = parser.parser
    try:
        parser.feed(strict.text if strict is not None else text)
        root = parser.close()
    except ParseError as exc:
        line, column = exc.position if getattr(exc, "position", None) else (None, None)
        if strict is not None and line is not None:
            column = strict.original_column(line, column)
        column = column + 1 if column is not None else None
        reason = str(exc).split(": line")[0]
        where = f" at column {column}" if column is not None else ""
        raise XmlError(f"malformed XML{where}: {reason}", file, line, column=column) from None
    except defusedxml.EntitiesForbidden as exc:
        raise XmlError(f"entity declarations are not allowed (entity '{exc.name}'): possible "
                       f"entity-expansion attack", file, builder.expat.CurrentLineNumber) from None
    except defusedxml.ExternalReferenceForbidden as exc:
        raise XmlError(f"external references are not allowed (system id '{exc.sysid}')", file,
                       builder.expat.CurrentLineNumber) from None
    except defusedxml.DTDForbidden:
        raise XmlError("DOCTYPE declarations (DTDs) are not allowed", file, builder.expat.CurrentLineNumber) from None
    except defusedxml.DefusedXmlException as exc:
        raise XmlError(f"unsafe XML refused: {exc}", file, builder.expat.CurrentLineNumber) from None
    if root is None:
        raise XmlError("the document is empty", file, 1)
    return root
