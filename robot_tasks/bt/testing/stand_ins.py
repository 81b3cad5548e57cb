"""Stand-ins for the node types a tree file uses but nobody registered.

BT.CPP substitutes only nodes whose type is registered: the XML is checked as written
before any rule applies. To mock a tree whose leaves live elsewhere (ROS action
clients, a plugin not installed here), their types must exist first. They come from:

1. the file's `<TreeNodesModel>` (with the ports it declares), as
   `robot-tasks tree validate` does; and
2. for an ID used but declared nowhere, a stand-in made from its uses: every attribute
   it is given becomes an untyped in/out port; its kind is the explicit tag's
   (`<Condition ID=...>`), else no children make it an action, one a decorator, more
   a control node.

A stand-in refuses to tick, so a tree that still contains one after the substitution
rules were applied is refused before it runs (`mock_run.create_tree_with_mocks`).
"""
from __future__ import annotations

from pathlib import Path

from ..errors import BehaviorTreeError
from ..manifest import NodeManifest
from ..node import NodeType
from ..ports import RESERVED_ATTRIBUTES, BidirectionalPort, ports_dict
from ..xml.document import XmlElement, parse_xml
from ..xml.parser import KIND_TAGS
from ..xml.placeholders import register_placeholder


def register_stand_ins(factory, path: str | Path) -> list[str]:
    """Register a stand-in for each ID of `path` (and its includes) that is neither
    registered nor declared in a TreeNodesModel; return those IDs."""
    uses: dict[str, list[XmlElement]] = {}
    models: set[str] = set()
    _scan(Path(path), uses, models, set())
    made = []
    for type_id, elements in uses.items():
        if type_id in factory.builders or type_id in models:
            continue
        register_placeholder(factory, _manifest(type_id, elements))
        made.append(type_id)
    return made


def _scan(path: Path, uses: dict, models: set, seen: set) -> None:
    resolved = path.resolve()
    if resolved in seen:
        return
    seen.add(resolved)
    try:
        root = parse_xml(path.read_bytes(), str(path))
    except (OSError, BehaviorTreeError):
        return  # the tree's own loading reports this file, with its line
    for child in root.children:
        if child.tag == "include" and child.get("path"):
            _scan(resolved.parent / child.get("path"), uses, models, seen)
        elif child.tag == "TreeNodesModel":
            models.update(model.get("ID") for model in child.children if model.get("ID"))
        elif child.tag == "BehaviorTree":
            for element in child.children:
                _collect(element, uses)


def _collect(element: XmlElement, uses: dict) -> None:
    if element.tag == "SubTree":
        return
    type_id = element.get("ID") if element.tag in KIND_TAGS else element.tag
    if type_id:
        uses.setdefault(type_id, []).append(element)
    for child in element.children:
        _collect(child, uses)


def _manifest(type_id: str, elements: list[XmlElement]) -> NodeManifest:
    explicit = [KIND_TAGS[element.tag] for element in elements if element.tag in KIND_TAGS]
    children = max(len(element.children) for element in elements)
    kind = explicit[0] if explicit else (NodeType.ACTION if children == 0 else
                                         NodeType.DECORATOR if children == 1 else NodeType.CONTROL)
    names = sorted({name for element in elements for name in element.attrib if name not in RESERVED_ATTRIBUTES
                    and name[:1].isalpha()})
    return NodeManifest(kind, type_id, ports_dict([BidirectionalPort(name) for name in names]),
                        "stand-in for an unregistered node type")
