"""BehaviorTreeFactory: registers node types and builds trees from XML (BT.CPP `bt_factory.cpp`)."""
from __future__ import annotations

import difflib
import inspect
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Iterable

from .action_nodes import SimpleActionNode, SimpleConditionNode, SimpleStatefulActionNode
from .blackboard import Blackboard
from .builtins import register_builtin_nodes
from .errors import BehaviorTreeError
from .manifest import NodeManifest
from .node import NodeConfig, NodeType, TreeNode
from .ports import PortInfo, ports_dict
from .testing.rules_json import parse_substitution_json
from .testing.substitution import Rule, SubstitutionRules, build_substitute
from .tree import Tree

NodeBuilder = Callable[[str, NodeConfig], TreeNode]


class BehaviorTreeFactory:
    """Knows node types by registration ID and turns XML into Trees.

    ```python
    factory = BehaviorTreeFactory()
    factory.register_simple_action("Say", say, ports=[InputPort("message")])
    tree = factory.create_tree_from_text(xml)
    tree.tick_while_running()
    ```
    """

    def __init__(self) -> None:
        from .xml.parser import XmlParser

        self._builders: dict[str, NodeBuilder] = {}
        self._manifests: dict[str, NodeManifest] = {}
        self.scripting_enums: dict[str, int] = {}
        self._substitution_rules = SubstitutionRules()
        register_builtin_nodes(self)
        self._builtin_ids = frozenset(self._builders)
        self._parser = XmlParser(self)

    # ---- registration ----------------------------------------------------------------
    @property
    def manifests(self) -> dict[str, NodeManifest]:
        return self._manifests

    @property
    def builders(self) -> dict[str, NodeBuilder]:
        return self._builders

    @property
    def builtin_nodes(self) -> frozenset[str]:
        return self._builtin_ids

    def register_builder(self, manifest: NodeManifest, builder: NodeBuilder) -> None:
        """Low-level registration: `builder(name, config)` must return a TreeNode."""
        registration_id = manifest.registration_id
        if registration_id in self._builders:
            raise BehaviorTreeError(f"ID [{registration_id}] already registered")
        if (not isinstance(registration_id, str) or not registration_id
                or any(c.isspace() or c in "<>&\"'{}/" for c in registration_id)):
            raise BehaviorTreeError(f"invalid registration ID [{registration_id}]: it must be a "
                                    f"non-empty name usable as an XML tag")
        self._builders[registration_id] = builder
        self._manifests[registration_id] = manifest

    def unregister_builder(self, registration_id: str) -> bool:
        if registration_id in self._builtin_ids:
            raise BehaviorTreeError(f"you can not remove the builtin registration ID [{registration_id}]")
        self._manifests.pop(registration_id, None)
        return self._builders.pop(registration_id, None) is not None

    def register_node_type(self, cls: type, registration_id: str | None = None, *args: Any,
                           ports: Iterable[PortInfo] | None = None, description: str = "",
                           **kwargs: Any) -> None:
        """Register a TreeNode subclass. Its ports come from `provided_ports()`
        (a static or class method). Extra args are passed to the constructor after
        (name, config), like BT.CPP's `registerNodeType<T>(id, args...)`."""
        if not (isinstance(cls, type) and issubclass(cls, TreeNode)):
            raise TypeError(f"register_node_type needs a TreeNode subclass, got {cls!r}")
        if registration_id is None:
            registration_id = cls.__name__
        declared = ports if ports is not None else cls.provided_ports()
        manifest = NodeManifest(cls.node_type, registration_id, ports_dict(declared),
                                description or (inspect.getdoc(cls) or "").split("\n")[0])
        if args or kwargs:
            def builder(name, config):
                return cls(name, config, *args, **kwargs)
        else:
            builder = cls
        self.register_builder(manifest, builder)

    def register_simple_action(self, registration_id: str, tick_functor: Callable[[TreeNode], Any],
                               ports: Iterable[PortInfo] | None = None, description: str = "") -> None:
        """Register a synchronous action: `tick_functor(node)` returns SUCCESS or FAILURE."""
        manifest = NodeManifest(NodeType.ACTION, registration_id, ports_dict(ports), description)
        self.register_builder(manifest, lambda name, config: SimpleActionNode(name, config, tick_functor))

    def register_simple_condition(self, registration_id: str, tick_functor: Callable[[TreeNode], Any],
                                  ports: Iterable[PortInfo] | None = None, description: str = "") -> None:
        """Register a condition: `tick_functor(node)` returns SUCCESS or FAILURE."""
        manifest = NodeManifest(NodeType.CONDITION, registration_id, ports_dict(ports), description)
        self.register_builder(manifest, lambda name, config: SimpleConditionNode(name, config, tick_functor))

    def register_simple_stateful_action(self, registration_id: str, on_start: Callable, on_running: Callable,
                                        on_halted: Callable | None = None,
                                        ports: Iterable[PortInfo] | None = None, description: str = "") -> None:
        """Register an asynchronous action from on_start(node) / on_running(node) /
        on_halted(node), with StatefulActionNode semantics."""
        manifest = NodeManifest(NodeType.ACTION, registration_id, ports_dict(ports), description)
        self.register_builder(manifest, lambda name, config: SimpleStatefulActionNode(
            name, config, on_start, on_running, on_halted))

    def register_scripting_enum(self, name: str, value: int) -> None:
        """Make `name` usable in scripts (and int ports) as the number `value`."""
        self.scripting_enums[name] = int(value)

    def register_scripting_enums(self, enum_class: type[Enum]) -> None:
        """Register every member of an (Int)Enum class by its name."""
        for member in enum_class:
            self.register_scripting_enum(member.name, int(member.value))

    # ---- substitution rules (mocking; see robot_tasks.bt.testing) ----------------------
    def add_substitution_rule(self, pattern: str, rule: Rule) -> None:
        """Replace, in trees created from now on, the nodes `pattern` matches (their
        name, their registration ID, or their full path with `*`/`?` wildcards) by the
        node type registered as `rule` (a str) or by a TestNode (a TestNodeConfig,
        copied). A pattern added twice keeps the last rule."""
        self._substitution_rules.add(pattern, rule)

    def clear_substitution_rules(self) -> None:
        self._substitution_rules.clear()

    @property
    def substitution_rules(self) -> SubstitutionRules:
        """pattern -> rule (str or TestNodeConfig), in the order rules are tried."""
        return self._substitution_rules

    def load_substitution_rule_from_json(self, json_text: str) -> None:
        """Add the rules of a JSON text in BT.CPP's format (`TestNodeConfigs`,
        `SubstitutionRules`); a SubstitutionError names what is wrong."""
        for pattern, rule in parse_substitution_json(json_text):
            self._substitution_rules.add(pattern, rule)

    # ---- node instantiation ----------------------------------------------------------
    def instantiate_tree_node(self, name: str, registration_id: str, config: NodeConfig) -> TreeNode:
        """Build one node of a tree, or its substitute when a substitution rule
        matches (by name, registration ID, or wildcards on `config.path`)."""
        builder = self._builders.get(registration_id)
        if builder is None:
            raise BehaviorTreeError(f"ID [{registration_id}] not registered{self.suggestion(registration_id)}")
        config.enums = self.scripting_enums
        if config.manifest is None:
            config.manifest = self._manifests[registration_id]
        pattern = None
        if self._substitution_rules:
            pattern = self._substitution_rules.first_match(name, registration_id, config.path)
        if pattern is None:
            node = builder(name, config)
        else:
            node = build_substitute(self, pattern, self._substitution_rules[pattern], name, config)
        if not isinstance(node, TreeNode):
            raise BehaviorTreeError(f"the builder of [{registration_id}] returned {node!r}, not a TreeNode")
        node.registration_id = registration_id
        if pattern is not None:
            node.substituted_by = pattern
        return node

    def suggestion(self, unknown_id: str) -> str:
        """' (did you mean X?)' for a mistyped registration ID, or ''."""
        close = difflib.get_close_matches(unknown_id, list(self._builders), n=1, cutoff=0.6)
        if not close:
            lowered = {key.lower(): key for key in self._builders}
            if unknown_id.lower() in lowered:
                close = [lowered[unknown_id.lower()]]
        return f" (did you mean '{close[0]}'?)" if close else ""

    # ---- trees -----------------------------------------------------------------------
    def register_behavior_tree_from_text(self, xml_text: str) -> None:
        """Load the BehaviorTrees of an XML text, to be created later with create_tree(id)."""
        self._parser.load_from_text(xml_text)

    def register_behavior_tree_from_file(self, path: str | Path) -> None:
        self._parser.load_from_file(path)

    def registered_behavior_trees(self) -> list[str]:
        return self._parser.registered_behavior_trees()

    def clear_registered_behavior_trees(self) -> None:
        from .xml.parser import XmlParser

        self._parser = XmlParser(self)

    def create_tree(self, tree_id: str | None = None, blackboard: Blackboard | None = None) -> Tree:
        """Instantiate a tree registered with register_behavior_tree_from_*."""
        return self._parser.instantiate_tree(blackboard, tree_id)

    def create_tree_from_text(self, xml_text: str, blackboard: Blackboard | None = None) -> Tree:
        """Parse XML text (with its includes, relative to the current directory) and
        instantiate its main tree."""
        from .xml.parser import XmlParser

        parser = XmlParser(self)
        parser.load_from_text(xml_text)
        return parser.instantiate_tree(blackboard)

    def create_tree_from_file(self, path: str | Path, blackboard: Blackboard | None = None) -> Tree:
        from .xml.parser import XmlParser

        parser = XmlParser(self)
        parser.load_from_file(path)
        return parser.instantiate_tree(blackboard)
