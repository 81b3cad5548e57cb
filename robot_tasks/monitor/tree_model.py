"""Turn Groot2's FULLTREE XML into the nested tree the page draws.

FULLTREE is a BT.CPP v4 `<root>` in which every node carries `_uid` (the number the
STATUS buffer and the hooks use) and every `<BehaviorTree>` a `_fullpath` (the
subtree instance: "" for the main tree, "work", "work/inner" ...). A SubTree node
is a leaf in the XML; the subtree it runs is the `<BehaviorTree>` whose `_fullpath`
is that node's `_fullpath`. Nesting that body under the SubTree node gives the tree as
it runs, which is what the page shows (subtrees collapsible).

The same names identify blackboards in the BLACKBOARD request: the main tree by its
ID, every subtree by its `_fullpath`.

The output is plain data (dicts, lists, strings, ints) so it goes to the page as JSON:
    {"id": "Main", "boards": ["Main", "work"], "node_count": 9,
     "root": {"uid": 1, "id": "Sequence", "name": "main_seq", "ports": {...},
              "subtree": None, "children": [...]}}
"""
from __future__ import annotations

import defusedxml.ElementTree as SafeET

HIDDEN_ATTRIBUTES = {"name", "_uid", "_fullpath", "ID"}


class TreeXmlError(ValueError):
    """The XML is not a FULLTREE (no BehaviorTree, a node without `_uid` ...)."""


def parse_fulltree(xml_text: str) -> dict:
    try:
        root = SafeET.fromstring(xml_text)
    except SafeET.ParseError as exc:
        raise TreeXmlError(f"the tree XML does not parse: {exc}") from None
    bodies = {}
    order = []
    for element in root.findall("BehaviorTree"):
        path = element.get("_fullpath", "")
        bodies[path] = element
        order.append(element)
    if not order:
        raise TreeXmlError("the tree XML has no <BehaviorTree>")
    main = bodies.get("", order[0])
    main_id = main.get("ID", "")
    count = [0]

    def node(element, depth: int) -> dict:
        if depth > 200:   # a cycle of subtree paths would never end: stop with a clear error
            raise TreeXmlError("the tree XML nests deeper than 200 levels")
        uid = element.get("_uid")
        if uid is None or not uid.isdigit():
            raise TreeXmlError(f"<{element.tag}> has no numeric _uid")
        count[0] += 1
        registration_id = element.get("ID", element.tag) if element.tag == "SubTree" else element.tag
        item = {"uid": int(uid), "id": registration_id, "kind": element.tag,
                "name": element.get("name") or _instance_name(element) or element.tag,
                "ports": {k: v for k, v in element.attrib.items() if k not in HIDDEN_ATTRIBUTES},
                "subtree": None, "children": []}
        if element.tag == "SubTree":
            path = element.get("_fullpath", "")
            item["subtree"] = path
            body = bodies.get(path)
            if body is not None and len(body):
                item["children"] = [node(body[0], depth + 1)]
        else:
            item["children"] = [node(child, depth + 1) for child in element]
        return item

    if not len(main):
        raise TreeXmlError(f"the main tree '{main_id}' is empty")
    tree = node(main[0], 0)
    boards = [main_id] + [path for path in bodies if path]
    return {"id": main_id, "boards": boards, "node_count": count[0], "root": tree}


def _instance_name(element) -> str:
    """A SubTree without `name` is shown by its instance path's last part (BT.CPP names it so)."""
    path = element.get("_fullpath", "") if element.tag == "SubTree" else ""
    return path.rsplit("/", 1)[-1].split("::")[0] if path else ""


def all_uids(tree: dict) -> list[int]:
    """Every node uid of a parsed tree, depth first."""
    out, stack = [], [tree["root"]]
    while stack:
        item = stack.pop()
        out.append(item["uid"])
        stack.extend(reversed(item["children"]))
    return out
