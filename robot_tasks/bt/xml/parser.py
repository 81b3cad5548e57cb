"""Load BT.CPP v4 XML documents, check them, and instantiate trees (BT.CPP `xml_parsing.cpp`).

`XmlParser.load_from_text/file` parses a document (and its `<include>`s), reads its
`<TreeNodesModel>`, checks the structural rules (root tag, format, child counts,
known node IDs, depth, the ReactiveSequence/AsyncSequence rule) and registers its
`<BehaviorTree>`s. `instantiate_tree` then builds a Tree, checking ports, literal
conversions, blackboard types, SubTree references, recursion and remapping.
Every error is an XmlError naming the file, the line and the node.
"""
from __future__ import annotations

import warnings
from pathlib import Path

from ..blackboard import EMPTY, Blackboard
from ..control_node import ControlNode
from ..decorator_node import DecoratorNode
from ..decorators.subtree import SubTreeNode
from ..errors import BehaviorTreeError, ScriptError, XmlError
from ..manifest import NodeManifest
from ..node import NodeConfig, NodeType, TreeNode
from ..port_types import connection_allowed, key_name, literal_key, port_key
from ..ports import (
    NO_DEFAULT,
    POST_CONDITIONS,
    PRE_CONDITIONS,
    RESERVED_ATTRIBUTES,
    PortDirection,
    PortInfo,
    convert_from_string,
    convert_value,
    type_name,
)
from ..scripts import compile_script
from ..tree import Subtree, Tree
from .document import XmlElement, parse_xml
from .literals import subtree_literal
from .model_types import type_from_name
from .names import forbidden_character, port_name_problem, tree_id_problem
from .placeholders import register_placeholder

MAX_DEPTH = 256

KIND_TAGS = {"Action": NodeType.ACTION, "Condition": NodeType.CONDITION, "Control": NodeType.CONTROL,
             "Decorator": NodeType.DECORATOR, "SubTree": NodeType.SUBTREE}
PORT_TAGS = {"input_port": PortDirection.INPUT, "output_port": PortDirection.OUTPUT,
             "inout_port": PortDirection.INOUT}


def is_allowed_port_name(name: str) -> bool:
    """BT.CPP `IsAllowedPortName`: starts with an ASCII letter, has none of the forbidden
    characters (`a.b` is not a port but another attribute) and is not reserved."""
    return (bool(name) and name[0].isascii() and name[0].isalpha() and forbidden_character(name) is None
            and name not in RESERVED_ATTRIBUTES)


def pointer_key(text: str) -> str | None:
    """The key of a `{key}` value (spaces trimmed), else None (BT.CPP `isBlackboardPointer`)."""
    stripped = text.strip(" ")
    if len(stripped) >= 3 and stripped[0] == "{" and stripped[-1] == "}":
        return stripped[1:-1]
    return None


def remapped_key(port_name: str, text: str) -> str | None:
    """BT.CPP `getRemappedKey`: `{=}`/`=` -> the port name, `{key}` -> key, else None."""
    if text == "{=}" or text == "=":
        return port_name
    return pointer_key(text)


class XmlParser:
    """Holds the BehaviorTree definitions loaded so far for one factory or one text."""

    def __init__(self, factory, placeholders: bool = False, collect_errors: bool = False):
        """`placeholders`: accept custom IDs declared in a TreeNodesModel (for validation).
        `collect_errors`: record a BehaviorTree that breaks a structural rule in
        `self.errors` and go on with the others, instead of raising at once."""
        self.factory = factory
        self.placeholders = placeholders
        self.collect_errors = collect_errors
        self.errors: list[XmlError] = []
        self.tree_roots: dict[str, XmlElement] = {}
        self.subtree_models: dict[str, dict[str, PortInfo]] = {}
        self.main_tree_id: str | None = None
        self._first_root: XmlElement | None = None
        self._anonymous_count = 0
        self._pending_ids: set = set()
        self.ignored_elements: list[XmlElement] = []

    # ---- loading -----------------------------------------------------------------------
    def load_from_file(self, path) -> None:
        path = Path(path)
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise XmlError(f"can't read the file: {exc.strerror or exc}", str(path), None) from None
        self._load(text, str(path), path.resolve().parent, ())

    def load_from_text(self, text: str) -> None:
        self._load(text, "<text>", Path.cwd(), ())

    def registered_behavior_trees(self) -> list[str]:
        return list(self.tree_roots)

    def _load(self, text, file: str, base_dir: Path, include_chain: tuple) -> None:
        root = parse_xml(text, file)
        if root.tag != "root":
            raise XmlError(f"the XML must have a root node called <root>, not <{root.tag}>", file, root.line,
                           root.tag)
        version = root.get("BTCPP_format")
        if version is None:
            warnings.warn(f"{file}:{root.line}: <root> should have the attribute BTCPP_format=\"4\"",
                          stacklevel=3)
        elif version.strip() != "4":
            raise XmlError(f"BTCPP_format=\"{version}\" is not supported: only version 4 files can be read "
                           f"(convert v3 files with BT.CPP's convert_v3_to_v4.py)", file, root.line, "root")
        if self._first_root is None:
            self._first_root = root
            self.main_tree_id = root.get("main_tree_to_execute")

        trees = []
        models = []
        for child in root.children:
            if child.tag == "include":
                self._load_include(child, base_dir, include_chain + (str(Path(file).resolve())
                                                                   if file != "<text>" else file,))
            elif child.tag == "TreeNodesModel":
                models.append(child)
            elif child.tag == "BehaviorTree":
                trees.append(child)
            else:
                # BT.CPP 4.10 skips what it does not know (<Metadata>, Groot2 extras ...)
                self.ignored_elements.append(child)
        if len(models) > 1:
            raise models[1].error("only a single <TreeNodesModel> is supported")
        for model in models:
            self._load_models(model)

        new_ids = []
        self._pending_ids = {tree.get("ID") for tree in trees}
        for tree in trees:
            tree_id = tree.get("ID")
            if tree_id is None:
                if len(trees) > 1 or self.tree_roots:
                    raise tree.error("if you have multiple behavior trees, each of them must have an ID")
                tree_id = f"BehaviorTree_{self._anonymous_count}"
                self._anonymous_count += 1
            elif tree_id_problem(tree_id):
                raise tree.error(f"the BehaviorTree ID [{tree_id}] is not a valid name: "
                                 f"{tree_id_problem(tree_id)} (BT.CPP 4.10 refuses Root and the "
                                 f"characters . / \\ : * ? | < > & \" ' and whitespace)")
            if tree_id in self.factory.builders:
                raise tree.error(f"the BehaviorTree ID [{tree_id}] is already the name of a registered "
                                 f"node type; choose another ID")
            if tree_id in self.tree_roots or any(tree_id == other.get("ID") for other in new_ids):
                previous = self.tree_roots.get(tree_id)
                where = f" (first defined at {previous.file}:{previous.line})" if previous else ""
                raise tree.error(f"BehaviorTree ID [{tree_id}] is defined twice{where}")
            tree.attrib.setdefault("ID", tree_id)
            try:
                self._verify_tree(tree)
            except XmlError as exc:
                if not self.collect_errors:
                    raise
                self.errors.append(exc)
                continue
            new_ids.append(tree)
        for tree in new_ids:
            self.tree_roots[tree.get("ID")] = tree

    def _load_include(self, element: XmlElement, base_dir: Path, include_chain: tuple) -> None:
        if element.get("ros_pkg"):
            raise element.error("<include ros_pkg=...> needs a ROS package index; use a path relative to "
                                "the including file instead")
        rel_path = element.get("path")
        if not rel_path:
            raise element.error("<include> needs the attribute [path]")
        path = Path(rel_path)
        if not path.is_absolute():
            path = base_dir / path
        resolved = str(path.resolve())
        if resolved in include_chain:
            raise element.error(f"recursive <include> of '{rel_path}'")
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise element.error(f"can't read the included file '{path}': {exc.strerror or exc}") from None
        self._load(text, str(path), path.resolve().parent, include_chain)

    def _load_models(self, models: XmlElement) -> None:
        for model in models.children:
            kind = KIND_TAGS.get(model.tag)
            if kind is None:
                raise model.error(f"expecting <Action>, <Condition>, <Control>, <Decorator> or <SubTree> "
                                  f"inside <TreeNodesModel>, found <{model.tag}>")
            model_id = model.get("ID")
            if not model_id:
                raise model.error(f"<{model.tag}> inside <TreeNodesModel> needs the attribute [ID]")
            ports: dict[str, PortInfo] = {}
            for port in model.children:
                direction = PORT_TAGS.get(port.tag)
                if direction is None:
                    continue  # <MetadataFields>, <description> ...: Groot-only information
                name = port.get("name")
                if not name:
                    raise port.error(f"<{port.tag}> of model [{model_id}] needs the attribute [name]")
                problem = port_name_problem(name)
                if problem:
                    raise port.error(f"the port name [{name}] of model [{model_id}] is not valid: {problem}")
                default = port.get("default")
                try:
                    ports[name] = PortInfo(direction, name, type_from_name(port.get("type")),
                                           default if default is not None else NO_DEFAULT,
                                           port.text.strip(), cpp_type=port.get("type"))
                except ValueError as exc:
                    raise port.error(str(exc)) from None
            if kind is NodeType.SUBTREE:
                self.subtree_models[model_id] = ports
            elif self.placeholders and model_id not in self.factory.builders:
                register_placeholder(self.factory, NodeManifest(kind, model_id, ports, "placeholder"))

    # ---- structural checks (BT.CPP VerifyXML) -----------------------------------------------
    def _verify_tree(self, tree: XmlElement) -> None:
        if len(tree.children) != 1:
            raise tree.error(f"the tag <BehaviorTree> must have exactly 1 child, it has {len(tree.children)}")
        self._verify_node(tree.children[0], 1)

    def _verify_node(self, element: XmlElement, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise element.error(f"the tree is nested deeper than {MAX_DEPTH} levels")
        tag = element.tag
        count = len(element.children)
        if tag in KIND_TAGS:
            type_id = element.get("ID")
            if not type_id:
                raise element.error(f"the tag <{tag}> must have the attribute [ID]")
            if tag == "SubTree":
                if count:
                    raise element.error("<SubTree> must not have any child")
                if type_id in self.factory.builders:
                    raise element.error(f"<SubTree ID=\"{type_id}\">: [{type_id}] is a node type, not a "
                                        f"BehaviorTree ID")
                return
        else:
            type_id = tag
            if tag == "SubTreePlus":
                raise element.error(self._unknown_id_message(tag))
            if "ID" in element.attrib:
                raise element.error(f"attribute [ID] is not allowed in <{tag}>; use <Action ID=...> or the "
                                    f"compact form <{element.attrib['ID']}>")
        manifest = self.factory.manifests.get(type_id)
        if manifest is None:
            raise element.error(self._unknown_id_message(type_id))
        kind = manifest.type
        if kind is NodeType.CONTROL and count == 0:
            raise element.error(f"the Control node <{type_id}> must have at least 1 child")
        if type_id == "TryCatch" and count < 2:
            raise element.error("TryCatch must have at least 2 children (the last one is the catch block)")
        if kind is NodeType.DECORATOR and count != 1:
            raise element.error(f"the Decorator node <{type_id}> must have exactly 1 child, it has {count}")
        if kind in (NodeType.ACTION, NodeType.CONDITION) and count:
            raise element.error(f"the {kind.value} node <{type_id}> must not have any child")
        if type_id == "ReactiveSequence":
            async_children = [child for child in element.children if _type_id(child) == "AsyncSequence"]
            if len(async_children) > 1:
                raise async_children[1].error("a ReactiveSequence cannot have more than one async child "
                                              "(AsyncSequence)")
        for child in element.children:
            self._verify_node(child, depth + 1)

    def _unknown_id_message(self, type_id: str) -> str:
        if type_id == "SubTreePlus":
            return ("<SubTreePlus> is gone since BT.CPP v4: use <SubTree>, which now does what "
                    "SubTreePlus did (port remapping, _autoremap)")
        if type_id in self.tree_roots or type_id in self._pending_ids:
            return (f"[{type_id}] is a BehaviorTree, not a node type: use <SubTree ID=\"{type_id}\"/>")
        return f"unknown node type [{type_id}]{self.factory.suggestion(type_id)}"

    # ---- instantiation -------------------------------------------------------------------
    def instantiate_tree(self, blackboard: Blackboard | None = None, tree_id: str | None = None) -> Tree:
        if not self.tree_roots:
            root = self._first_root
            ignored = ", ".join(f"<{e.tag}> (line {e.line})" for e in self.ignored_elements)
            hint = f"; these elements were ignored: {ignored}" if ignored else ""
            raise XmlError(f"the <root> has no <BehaviorTree> to create a tree from{hint}",
                           root.file if root else None, root.line if root else None, "root")
        if tree_id is None:
            tree_id = self.main_tree_id
            if not tree_id:
                if len(self.tree_roots) == 1:
                    tree_id = next(iter(self.tree_roots))
                else:
                    root = self._first_root
                    raise XmlError("[main_tree_to_execute] was not specified correctly: with several "
                                   "<BehaviorTree>s, name the main one in <root main_tree_to_execute=...>",
                                   root.file if root else None, root.line if root else None, "root")
        if tree_id not in self.tree_roots:
            root = self._first_root
            known = ", ".join(sorted(self.tree_roots)) or "none"
            raise XmlError(f"can't find a BehaviorTree with ID [{tree_id}] (known: {known})",
                           root.file if root else None, root.line if root else None, "root")
        tree = Tree()
        tree.manifests = dict(self.factory.manifests)
        _TreeBuilder(self, tree).create_subtree(tree_id, "", "", blackboard or Blackboard(), None, (tree_id,), 0)
        return tree


def _type_id(element: XmlElement) -> str:
    return element.get("ID", element.tag) if element.tag in KIND_TAGS else element.tag


class _TreeBuilder:
    """Walks registered BehaviorTree elements and creates the nodes of one Tree."""

    def __init__(self, parser: XmlParser, tree: Tree):
        self.parser = parser
        self.factory = parser.factory
        self.tree = tree

    def create_subtree(self, tree_id, instance_name, prefix, blackboard, parent, ancestry, depth) -> None:
        element = self.parser.tree_roots[tree_id]
        subtree = Subtree(tree_id, instance_name, blackboard)
        self.tree.subtrees.append(subtree)
        self._step(parent, subtree, prefix, element.children[0], ancestry, depth + 1)

    def _step(self, parent, subtree: Subtree, prefix: str, element: XmlElement, ancestry, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise element.error(f"the tree (with its subtrees) is nested deeper than {MAX_DEPTH} levels")
        node = self._create_node(element, subtree.blackboard, parent, prefix)
        subtree.nodes.append(node)
        if element.tag != "SubTree":
            # children are created even under a node a substitution rule made a leaf
            # (BT.CPP does so too: they take UIDs but are never ticked)
            for child in element.children:
                self._step(node, subtree, prefix, child, ancestry, depth + 1)
            return
        if isinstance(node, SubTreeNode):  # a substituted SubTree is not expanded
            self._expand_subtree(node, subtree, element, ancestry, depth)

    def _expand_subtree(self, node, subtree: Subtree, element: XmlElement, ancestry, depth) -> None:
        subtree_id = element.get("ID")
        if subtree_id in ancestry:
            raise element.error(f"recursive SubTree: {' -> '.join(ancestry + (subtree_id,))}")
        if subtree_id not in self.parser.tree_roots:
            known = ", ".join(sorted(self.parser.tree_roots)) or "none"
            raise element.error(f"can't find a BehaviorTree with ID [{subtree_id}] (known: {known})")
        child_board = Blackboard(parent=subtree.blackboard)
        remapping: dict[str, str] = {}
        autoremap = False
        for attribute, value in element.attrib.items():
            if value == "{=}":
                value = "{" + attribute + "}"
            if attribute == "_autoremap":
                try:
                    autoremap = convert_from_string(value, bool)
                except ValueError:
                    raise element.error(f"_autoremap=\"{value}\" is not a boolean") from None
                continue
            if is_allowed_port_name(attribute):
                remapping[attribute] = value
        child_board.autoremap = autoremap
        node.autoremap = autoremap
        model = self.parser.subtree_models.get(subtree_id)
        if model:
            for port_name, port in model.items():
                if port_name not in remapping and not autoremap:
                    if not port.has_default:
                        raise element.error(f"in the <TreeNodesModel> the <SubTree ID=\"{subtree_id}\"> defines "
                                            f"a mandatory port called [{port_name}], but you are not remapping it")
                    remapping[port_name] = port.default_as_string()
        for attribute, value in remapping.items():
            key = pointer_key(value)
            if key is not None:
                child_board.remap(attribute, key)
            else:
                # a constant: stored in the child board, never autoremapped to the parent
                child_board.autoremap = False
                literal = subtree_literal(value)
                child_board.set(attribute, literal)
                entry = child_board.get_entry(attribute)
                entry.declared = literal_key(literal)
                entry.declared_at = f"the literal {attribute}=\"{value}\" of <SubTree ID=\"{subtree_id}\"> " \
                                    f"({element.file}:{element.line})"
                child_board.autoremap = autoremap
        path = subtree.instance_name + "/" if subtree.instance_name else ""
        path += element.get("name") or f"{subtree_id}::{node.uid}"
        node.subtree_path = path
        if any(existing.instance_name == path for existing in self.tree.subtrees):
            raise element.error(f"Duplicate SubTree path detected: '{path}' (as BT.CPP 4.10): give sibling "
                                f"SubTrees different names, or no name (then the path is ID::UID, unique)")
        self.create_subtree(subtree_id, path, path + "/", child_board, node, ancestry + (subtree_id,), depth)

    def _create_node(self, element: XmlElement, blackboard: Blackboard, parent, prefix: str) -> TreeNode:
        tag = element.tag
        is_subtree = tag == "SubTree"
        type_id = element.get("ID") if tag in KIND_TAGS else tag
        instance_name = element.get("name", type_id)
        manifest = None if is_subtree else self.factory.manifests.get(type_id)
        if not is_subtree and manifest is None:
            raise element.error(self.parser._unknown_id_message(type_id))
        enums = self.factory.scripting_enums

        port_remap: dict[str, str] = {}
        other_attributes: dict[str, str] = {}
        for attribute, value in element.attrib.items():
            if not is_allowed_port_name(attribute):
                if attribute not in RESERVED_ATTRIBUTES:
                    other_attributes[attribute] = value  # `_description`, `a.b`, ...
                continue
            if manifest is not None:
                port = manifest.ports.get(attribute)
                if port is None:
                    raise element.error(self._unknown_port_message(attribute, type_id, manifest))
                if pointer_key(value) is None and value not in ("=",) and port.type not in (None, str):
                    try:
                        convert_from_string(value, port.type, enums)
                    except (ValueError, TypeError) as exc:
                        raise element.error(f"the port with name \"{attribute}\" and value \"{value}\" can not "
                                            f"be converted to {type_name(port.type)} ({exc})") from None
            port_remap[attribute] = value

        pre, post, sources = {}, {}, {}
        for attribute in PRE_CONDITIONS + POST_CONDITIONS:
            source = element.get(attribute)
            if source is None:
                continue
            try:
                program = compile_script(source)
            except ScriptError as exc:
                raise element.error(f"error in the script of {attribute}=\"{source}\": {exc}") from None
            (pre if attribute in PRE_CONDITIONS else post)[attribute] = program
            sources[attribute] = source

        uid = len(self.tree.nodes) + 1
        # BT.CPP's full path: an unnamed node gets its UID, so that paths are unique
        path = prefix + instance_name + (f"::{uid}" if instance_name == type_id else "")
        config = NodeConfig(blackboard=blackboard, uid=uid, path=path,
                            manifest=manifest, wake_up=self.tree.wake_up, pre_conditions=pre,
                            post_conditions=post)
        config.condition_sources = sources
        config.other_attributes = other_attributes
        if is_subtree:
            config.input_ports = dict(port_remap)
            registration_id = "SubTree"
        else:
            self._create_typed_entries(element, manifest, port_remap, blackboard)
            for port_name, value in port_remap.items():
                direction = manifest.ports[port_name].direction
                if direction is not PortDirection.OUTPUT:
                    config.input_ports[port_name] = value
                if direction is not PortDirection.INPUT:
                    config.output_ports[port_name] = value
            for port_name, port in manifest.ports.items():
                if not port.has_default:
                    continue
                if port.direction is not PortDirection.OUTPUT and port_name not in config.input_ports:
                    config.input_ports[port_name] = port.default
                if (port.direction is not PortDirection.INPUT and port_name not in config.output_ports
                        and isinstance(port.default, str) and pointer_key(port.default) is not None):
                    config.output_ports[port_name] = port.default
            registration_id = type_id
        try:
            node = self.factory.instantiate_tree_node(instance_name, registration_id, config)
        except XmlError:
            raise
        except ScriptError as exc:
            raise element.error(f"script error: {exc}") from None
        except BehaviorTreeError as exc:
            raise element.error(str(exc)) from None
        except Exception as exc:  # a user node's constructor failed: report where
            raise element.error(f"creating the node failed: {type(exc).__name__}: {exc}") from exc
        if isinstance(node, SubTreeNode):
            node.subtree_id = type_id
        self.tree.nodes.append(node)
        if parent is not None:
            if isinstance(parent, ControlNode):
                parent.add_child(node)
            elif isinstance(parent, DecoratorNode):
                parent.set_child(node)
        return node

    def _create_typed_entries(self, element, manifest: NodeManifest, port_remap, blackboard) -> None:
        """Every `{key}` port creates a typed (empty) entry, as BT.CPP does at creation, or
        meets an entry an earlier port typed: BT.CPP 4.10's connection rules decide
        (`port_types.py`); a refused connection names both ports and both types."""
        for port_name, port in manifest.ports.items():
            value = port_remap.get(port_name)
            if value is None:
                continue
            key = remapped_key(port_name, value)
            if key is None:
                continue
            wanted = port_key(port)
            entry = blackboard.get_entry(key)
            if entry is None:
                entry = blackboard.create_entry(key, port.type)
                entry.declared = wanted
                entry.declared_at = f"port [{port_name}] of [{element.describe()}] ({element.file}:{element.line})"
                continue
            if not connection_allowed(entry.declared, wanted, port.direction):
                by = f" by {entry.declared_at}" if entry.declared_at else ""
                raise element.error(
                    f"the port [{port_name}] ({port.direction.name.lower()}, type [{key_name(wanted)}]) can't use "
                    f"the blackboard entry [{key}]: it was created with type [{key_name(entry.declared)}]{by}. "
                    f"BT.CPP 4.10 connects only the same type, a generic port, an entry created as std::string, "
                    f"or an input port's polymorphic cast")
            adopt_runtime_type(entry, port.type)

    @staticmethod
    def _unknown_port_message(attribute: str, type_id: str, manifest: NodeManifest) -> str:
        import difflib

        declared = sorted(manifest.ports)
        close = difflib.get_close_matches(attribute, declared, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        ports = ", ".join(declared) or "none"
        return (f"a port with name [{attribute}] is found in the XML but not in the provided_ports() of "
                f"[{type_id}]{hint}; declared ports: {ports}")


def adopt_runtime_type(entry, port_type) -> None:
    """The Python side of a port meeting an existing entry: an untyped entry starts
    converting writes to the first typed port's type (its value converted now), unless
    it was declared std::string (text stays text and each reader converts it, as in
    BT.CPP) or its value does not convert (then the read fails at tick time, as in BT.CPP;
    the load-time rules have already said yes)."""
    if entry.type is not None or port_type is None or port_type is str or entry.declared == "std::string":
        return
    if entry.value is not EMPTY:
        try:
            entry.value = convert_value(entry.value, port_type)
        except (ValueError, TypeError):
            return
    entry.type = port_type
