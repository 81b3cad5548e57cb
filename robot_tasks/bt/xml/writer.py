"""XML writers Groot2 understands (BT.CPP `writeTreeNodesModelXML` / `WriteTreeToXML`).

Writing uses the standard library's ElementTree (only *parsing* untrusted XML needs
defusedxml). Output is indented, with attributes in a stable order.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Iterable

from ..manifest import NodeManifest
from ..node import NodeType, TreeNode
from ..ports import type_name, value_to_string


def _model_element(parent: ET.Element, manifest: NodeManifest) -> None:
    element = ET.SubElement(parent, manifest.type.value, {"ID": manifest.registration_id})
    for port in manifest.ports.values():
        attributes = {"name": port.name}
        if port.cpp_type is not None:
            attributes["type"] = port.cpp_type  # the C++ type BT.CPP declares
        elif port.type is not None:
            attributes["type"] = type_name(port.type)
        if port.has_default:
            attributes["default"] = port.default_as_string()
        port_element = ET.SubElement(element, port.direction.value, attributes)
        if port.description:
            port_element.text = port.description


def _add_models(root: ET.Element, manifests: Iterable[NodeManifest], builtin_ids, include_builtin: bool) -> None:
    models = ET.SubElement(root, "TreeNodesModel")
    for manifest in sorted(manifests, key=lambda m: m.registration_id):
        if manifest.registration_id in builtin_ids and not include_builtin:
            continue
        if manifest.type is NodeType.SUBTREE and manifest.registration_id == "SubTree":
            continue
        _model_element(models, manifest)


def _to_text(root: ET.Element) -> str:
    ET.indent(root, space="  ")
    return ET.tostring(root, encoding="unicode") + "\n"


def write_tree_nodes_model_xml(factory, include_builtin: bool = False) -> str:
    """A `<root><TreeNodesModel>` document listing the factory's node types with
    their ports, so Groot2 can show and edit custom nodes."""
    root = ET.Element("root", {"BTCPP_format": "4"})
    _add_models(root, factory.manifests.values(), factory.builtin_nodes, include_builtin)
    return _to_text(root)


def _node_element(parent: ET.Element, node: TreeNode, add_metadata: bool) -> None:
    config = node.config
    attributes: dict[str, str] = {}
    is_subtree = hasattr(node, "subtree_id")  # a substituted SubTree is written as a plain node
    if is_subtree:
        attributes["ID"] = getattr(node, "subtree_id", "")
    if not (is_subtree and add_metadata):
        attributes["name"] = node.name  # with metadata, BT.CPP names a SubTree by _fullpath only
    if add_metadata:
        attributes["_uid"] = str(node.uid)
        if is_subtree:
            attributes["_fullpath"] = getattr(node, "subtree_path", config.path)
    for port_name, value in config.input_ports.items():
        attributes[port_name] = value_to_string(value)
    for port_name, value in config.output_ports.items():
        attributes.setdefault(port_name, value_to_string(value))
    if getattr(node, "autoremap", False) and not add_metadata:  # BT.CPP's monitor XML omits it
        attributes["_autoremap"] = "true"
    for condition, source in getattr(config, "condition_sources", {}).items():
        attributes[condition] = source
    element = ET.SubElement(parent, node.registration_id or type(node).__name__, attributes)
    if is_subtree:
        return  # its BehaviorTree is written separately
    children = getattr(node, "children", None) or []
    for child in children:
        _node_element(element, child, add_metadata)


def write_tree_to_xml(tree, add_metadata: bool = False, add_builtin_models: bool = False) -> str:
    """The instantiated tree as BT.CPP v4 XML.

    Each subtree becomes a `<BehaviorTree>`; ports are written with their effective
    values (defaults included). With `add_metadata`, nodes get `_uid` and every
    subtree instance is written with `_fullpath` (what Groot2's monitor asks for);
    without it each BehaviorTree ID is written once, so the output loads again.
    """
    main_id = tree.subtrees[0].tree_id if tree.subtrees else ""
    root = ET.Element("root", {"BTCPP_format": "4", "main_tree_to_execute": main_id})
    written: set[str] = set()
    for subtree in tree.subtrees:
        if not add_metadata and subtree.tree_id in written:
            continue
        written.add(subtree.tree_id)
        attributes = {"ID": subtree.tree_id}
        if add_metadata:
            attributes["_fullpath"] = subtree.instance_name
        element = ET.SubElement(root, "BehaviorTree", attributes)
        if subtree.nodes:
            _node_element(element, subtree.nodes[0], add_metadata)
    builtin_ids = _builtin_ids()
    _add_models(root, tree.manifests.values(), builtin_ids, add_builtin_models)
    return _to_text(root)


def _builtin_ids() -> frozenset[str]:
    from ..builtins import BUILTIN_NODES

    return frozenset(BUILTIN_NODES)


__all__ = ["write_tree_nodes_model_xml", "write_tree_to_xml"]
