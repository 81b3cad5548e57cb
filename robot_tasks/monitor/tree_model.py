"""Turn Groot2's FULLTREE XML into the nested tree the page draws.

FULLTREE is a BT.CPP v4 `<root>` in which every node carries `_uid` (the number the
STATUS buffer and the hooks use) and every `<BehaviorTree>` a `_fullpath` (the
subtree instance: "" for the main tree, "work", "work/inner" ...). A SubTree node
is a leaf in the XML; the subtree it runs is the `<BehaviorTree>` whose `_fullpath`
is that node's `_fullpath`. Nesting that body under the SubTree node gives the tree as
it runs, which is what the page shows (subtrees collapsible).

The same names identify blackboards in the BLACKBOARD request: the main tree by its
ID, every subtree by its `_fullpath`.

FULLTREE also carries the `<TreeNodesModel>`: per registration ID, its ports as
`<input_port>`, `<output_port>` or `<inout_port>`. A node's port attribute says only the
value (`pose="{target}"`); the model says which way it flows, so each node gets
`port_dirs` ({port: "in" | "out" | "inout"}) for the ports its model names (a SubTree's
remapped ports and attributes no model names get none).

The output is plain data (dicts, lists, strings, ints) so it goes to the page as JSON:
    {"id": "Main", "boards": ["Main", "work"], "node_count": 9,
     "root": {"uid": 1, "id": "Sequence", "name": "main_seq", "ports": {...},
              "port_dirs": {...}, "subtree": None, "children": [...]}}
"""
from __future__ import annotations

import defusedxml.ElementTree as SafeET

HIDDEN_ATTRIBUTES = {"name", "_uid", "_fullpath", "ID"}
PORT_TAGS = {"input_port": "in", "output_port": "out", "inout_port": "inout"}


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
    directions = port_directions(root)
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
        ports = {k: v for k, v in element.attrib.items() if k not in HIDDEN_ATTRIBUTES}
        model = directions.get(registration_id, {}) if element.tag != "SubTree" else {}
        item = {"uid": int(uid), "id": registration_id, "kind": element.tag,
                "name": element.get("name") or _instance_name(element) or element.tag,
                "ports": ports, "port_dirs": {k: model[k] for k in ports if k in model},
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


def port_directions(root) -> dict[str, dict[str, str]]:
    """{registration ID: {port: "in" | "out" | "inout"}} from FULLTREE's TreeNodesModel
    (empty when the publisher sends none)."""
    out: dict[str, dict[str, str]] = {}
    for model in root.findall("TreeNodesModel"):
        for entry in model:
            ports = {port.get("name"): PORT_TAGS[port.tag] for port in entry
                     if port.tag in PORT_TAGS and port.get("name")}
            if entry.get("ID") and ports:
                out[entry.get("ID")] = ports
    return out


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
