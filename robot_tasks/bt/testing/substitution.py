"""Substitution rules: which nodes a factory replaces, and with what, when it creates a tree
(BT.CPP 4.10 `BehaviorTreeFactory::addSubstitutionRule` and `instantiateTreeNode`).

A rule is `pattern -> replacement`. The replacement is either

- a **registration ID** (str): the node is built by that ID's builder instead, or
- a **TestNodeConfig**: the node becomes a `TestNode` with that configuration.

When the factory creates a node it checks the rules, and the first one whose pattern

1. equals the node's instance **name** (`name="talk"`, or the ID when unnamed), or
2. equals the node's **registration ID** (`"MoveToPose"` replaces every MoveToPose;
   every SubTree node has the ID `"SubTree"`), or
3. matches the node's **full path** with `*`/`?` wildcards (`"pick/*"`),

replaces it. "First" is BT.CPP's map order (see `rule_order.py`), not the order you
added the rules in: avoid two rules that can match the same node, or check which wins
with `matching_rules`.

What the replacement gets and what happens around it:

- the original node's name, UID, full path, blackboard, port remapping (its XML
  attributes, checked against the *original* node's ports) and pre/post conditions;
  the registration ID stays the original one;
- the original must be a registered node type (the XML is checked as written);
- the XML children of a replaced control or decorator are still created (they use
  UIDs and appear in `tree.nodes`), but a leaf replacement does not tick them;
- a replaced `<SubTree>` is not expanded: its BehaviorTree is not instantiated.

Full paths, as BT.CPP builds them: the instance name, prefixed by the path of the
SubTree it is in (`pick/approach`); a node without a `name` attribute gets
`::UID` appended (`Sequence::1`, `pick/MoveToPose::7`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Iterator, Union

from ..errors import SubstitutionError
from .rule_order import UnorderedKeys
from .test_node import TestNode, TestNodeConfig
from .wildcards import wildcards_match

Rule = Union[str, TestNodeConfig]


class SubstitutionRules(Mapping):
    """pattern -> rule, iterated in the order BT.CPP tries them. Read-only here:
    change it through the factory (`add_substitution_rule`, `clear_substitution_rules`)."""

    def __init__(self) -> None:
        self._rules: dict[str, Rule] = {}
        self._order = UnorderedKeys()

    def __getitem__(self, pattern: str) -> Rule:
        return self._rules[pattern]

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._rules)

    def __repr__(self) -> str:
        return f"SubstitutionRules({dict(self.items())!r})"

    def add(self, pattern: str, rule: Rule) -> None:
        if not isinstance(pattern, str):
            raise SubstitutionError(f"a substitution pattern is a string, not {pattern!r}")
        if isinstance(rule, TestNodeConfig):
            rule = rule.copy()  # BT.CPP stores the config by value
        elif not isinstance(rule, str):
            raise SubstitutionError(f"the substitution rule for [{pattern}] must be a registration ID (str) or "
                                    f"a TestNodeConfig, not {type(rule).__name__}")
        self._rules[pattern] = rule
        self._order.add(pattern)

    def clear(self) -> None:
        self._rules.clear()
        self._order.clear()

    def matching_rules(self, name: str, registration_id: str, path: str) -> list[str]:
        """Every pattern that matches this node, the one BT.CPP uses first."""
        return [pattern for pattern in self._order
                if pattern == name or pattern == registration_id or wildcards_match(path, pattern)]

    def first_match(self, name: str, registration_id: str, path: str) -> str | None:
        for pattern in self._order:
            if pattern == name or pattern == registration_id or wildcards_match(path, pattern):
                return pattern
        return None


def build_substitute(factory, pattern: str, rule: Rule, name: str, config):
    """The node that replaces [name] under rule `pattern`."""
    if isinstance(rule, TestNodeConfig):
        return TestNode(name, config, rule)
    builder = factory.builders.get(rule)
    if builder is None:
        raise SubstitutionError(f"Substituted Node ID [{rule}] not found (rule [{pattern}] -> [{rule}]): "
                                f"register it before creating the tree{factory.suggestion(rule)}")
    return builder(name, config)
