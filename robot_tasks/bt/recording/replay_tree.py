"""The tree a replay ticks: the recorded tree file, its leaves replaced by ReplayLeaves.

`ReplayFactory` is a BehaviorTreeFactory that

- declares every leaf type of the recording with the ports (names, directions, types,
  defaults) the header recorded, so the file loads and types its blackboard exactly as
  in the run -- without importing the leaves' code, ROS, or the robot;
- builds each leaf as a ReplayLeaf (`replay_leaf.py`), through the same hook BT.CPP's
  substitution rules use (`instantiate_tree_node`), except the built-in leaves that only
  compute on the blackboard (`REAL_LEAVES`: Script, ScriptCondition, SetBlackboard,
  UnsetBlackboard, WasEntryUpdated, AlwaysSuccess, AlwaysFailure): they run as written,
  so an edit to one of them in the tree file is replayed too, and checked;
- gives every other node (controls, decorators, SubTrees) its real code.

A leaf type an edited tree adds (unknown to the recording) is declared from the file
(`testing.stand_ins`); it becomes a ReplayLeaf with nothing recorded, which stops the
replay if it is ever ticked.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..factory import BehaviorTreeFactory
from ..manifest import NodeManifest
from ..node import NodeConfig, NodeType, TreeNode
from ..ports import PortDirection, PortInfo, ports_dict
from ..testing.stand_ins import register_stand_ins
from ..tree import Tree
from ..xml.parser import XmlParser
from .file import RecordingError
from .header import type_from_json
from .replay_leaf import ReplayAction, ReplayCondition
from .values import decode

REAL_LEAVES = frozenset({"AlwaysSuccess", "AlwaysFailure", "Script", "ScriptCondition", "SetBlackboard",
                         "UnsetBlackboard", "WasEntryUpdated"})
LEAF_KINDS = (NodeType.ACTION, NodeType.CONDITION)


def _not_built(name, config):
    raise AssertionError("ReplayFactory builds recorded leaf types itself")


class ReplayFactory(BehaviorTreeFactory):
    """See the module docstring. `setup(factory)` may register real node types first
    (a plugin's custom control nodes); `notes` collects what could not be rebuilt."""

    def __init__(self, header: dict, setup: Callable[[BehaviorTreeFactory], None] | None = None):
        super().__init__()
        self.notes: list[str] = []
        if setup is not None:
            setup(self)
        for name, value in (header.get("scripting_enums") or {}).items():
            self.register_scripting_enum(name, value)
        for type_id, spec in (header.get("leaf_types") or {}).items():
            if type_id not in self.builders:
                self.register_builder(self._manifest(type_id, spec), _not_built)

    def _manifest(self, type_id: str, spec: dict) -> NodeManifest:
        ports = []
        for port in spec.get("ports", []):
            try:
                port_type = type_from_json(port.get("type"))
            except ValueError as exc:
                self.notes.append(f"{type_id}.{port['name']}: {exc}; declared generic")
                port_type = None
            extra = {"default": decode(port["default"])} if "default" in port else {}
            ports.append(PortInfo(PortDirection[port["direction"].upper()], port["name"], port_type,
                                  cpp_type=port.get("cpp_type"), **extra))
        return NodeManifest(NodeType(spec.get("kind", "Action")), type_id, ports_dict(ports), "recorded leaf type")

    def instantiate_tree_node(self, name: str, registration_id: str, config: NodeConfig) -> TreeNode:
        manifest = self.manifests.get(registration_id)
        if manifest is None or manifest.type not in LEAF_KINDS or registration_id in REAL_LEAVES:
            return super().instantiate_tree_node(name, registration_id, config)
        config.enums = self.scripting_enums
        if config.manifest is None:
            config.manifest = manifest
        node = (ReplayCondition if manifest.type is NodeType.CONDITION else ReplayAction)(name, config)
        node.registration_id = registration_id
        return node


def create_replay_tree(factory: ReplayFactory, header: dict, tree_file: str | Path | None = None) -> Tree:
    """The recorded main tree, from `tree_file` (default: the recorded file) and the
    recorded files of its subtrees; RecordingError when a file is missing."""
    main = Path(tree_file or header.get("tree_file") or "")
    if not str(main) or not main.is_file():
        raise RecordingError(f"{main or '(none)'}: the tree file to replay does not exist"
                             + ("" if tree_file else " (recorded in the header's tree_file; pass --tree FILE)"))
    register_stand_ins(factory, main)
    parser = XmlParser(factory, placeholders=True)
    parser.load_from_file(main)
    for tree_id, other in (header.get("subtree_files") or {}).items():
        if tree_id not in parser.registered_behavior_trees():
            if not Path(other).is_file():
                raise RecordingError(f"{other}: the file of subtree [{tree_id}] does not exist")
            register_stand_ins(factory, other)
            parser.load_from_file(other)
    tree_id = header.get("tree_id") or None
    if tree_id not in parser.registered_behavior_trees():
        factory.notes.append(f"the file has no BehaviorTree [{tree_id}]; replaying its main tree")
        tree_id = None
    return parser.instantiate_tree(None, tree_id)
