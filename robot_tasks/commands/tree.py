"""`robot-tasks tree validate FILE...`, `tree show FILE`, `tree test FILE` and `tree model FILE...`.

validate: loads each file with every built-in node registered (plus the node types
of `--plugin` modules, which expose `register_nodes(factory)`), accepts custom IDs
declared in the file's <TreeNodesModel> as placeholders, instantiates every
BehaviorTree, and prints one `file:line: [node] reason` line per problem (exit 1).

show: prints the main tree (subtrees expanded) as indented text with its ports.

test: runs a tree with mocked leaves (BT.CPP substitution rules), no ROS; see
`_tree_test.py`.

model: rewrites each file's <TreeNodesModel> (what Groot2 shows of custom nodes) from the
ports the code declares; see `_tree_model.py`.
"""
from __future__ import annotations

import argparse
import sys

from robot_tasks.runtime.errors import PluginError
from robot_tasks.runtime.plugins import load_plugins


def register(subparsers) -> None:
    parser = subparsers.add_parser("tree", help="check, print or test BehaviorTree.CPP v4 XML trees",
                                   description="Check, print or test BehaviorTree.CPP v4 XML trees.")
    actions = parser.add_subparsers(dest="tree_command", metavar="ACTION")

    validate = actions.add_parser("validate", help="check tree files; exit 1 listing file:line: [node] reason")
    validate.add_argument("files", nargs="+", metavar="FILE")
    _add_plugin_option(validate)
    validate.set_defaults(func=run_validate)

    show = actions.add_parser("show", help="print a tree as indented text with its ports")
    show.add_argument("file", metavar="FILE")
    show.add_argument("--tree", metavar="ID", help="BehaviorTree to show (default: the main tree)")
    _add_plugin_option(show)
    show.set_defaults(func=run_show)

    from robot_tasks.commands._tree_model import add_parser as add_model_parser
    from robot_tasks.commands._tree_test import add_parser as add_test_parser

    add_test_parser(actions)
    add_model_parser(actions)

    def usage(args) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(func=usage)


def _add_plugin_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                        help="import MODULE and call its register_nodes(factory) (repeatable)")



def _make_factory(plugins: list[str]):
    from robot_tasks.bt import BehaviorTreeFactory

    factory = BehaviorTreeFactory()
    load_plugins(plugins, factory)
    return factory


def _load(path: str, plugins: list[str], collect_errors: bool = False):
    from robot_tasks.bt.xml.parser import XmlParser

    parser = XmlParser(_make_factory(plugins), placeholders=True, collect_errors=collect_errors)
    parser.load_from_file(path)
    return parser


def validate_file(path: str, plugins: list[str]) -> tuple[list[str], int]:
    """(error lines, number of nodes checked) for one file."""
    from robot_tasks.bt import BehaviorTreeError

    try:
        parser = _load(path, plugins, collect_errors=True)
    except BehaviorTreeError as exc:
        return [_line(path, exc)], 0
    errors: list[str] = [_line(path, exc) for exc in parser.errors]
    nodes = 0
    for tree_id in parser.registered_behavior_trees():
        try:
            nodes += len(parser.instantiate_tree(None, tree_id).nodes)
        except BehaviorTreeError as exc:
            line = _line(path, exc)
            if line not in errors:
                errors.append(line)
    return errors, nodes


def _line(path: str, exc: Exception) -> str:
    from robot_tasks.bt import XmlError

    return str(exc) if isinstance(exc, XmlError) else f"{path}: {exc}"


def run_validate(args) -> int:
    failed = False
    for path in args.files:
        try:
            errors, nodes = validate_file(path, args.plugin)
        except PluginError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if errors:
            failed = True
            for line in errors:
                print(line)
        else:
            print(f"{path}: OK ({nodes} nodes)")
    return 1 if failed else 0


def run_show(args) -> int:
    from robot_tasks.bt import BehaviorTreeError

    try:
        parser = _load(args.file, args.plugin)
        tree = parser.instantiate_tree(None, args.tree)
    except PluginError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BehaviorTreeError as exc:
        print(_line(args.file, exc))
        return 1
    print(format_tree(tree))
    return 0


def format_tree(tree) -> str:
    """The tree as indented text: one node per line with its ports and conditions."""
    from robot_tasks.bt.ports import value_to_string

    lines = [f"BehaviorTree {tree.subtrees[0].tree_id}"]

    def describe(node) -> str:
        text = node.registration_id
        if hasattr(node, "subtree_id"):   # not a SubTree a substitution rule replaced
            text += f" {node.subtree_id}"
        if node.name not in (node.registration_id, getattr(node, "subtree_id", None)):
            text += f' "{node.name}"'
        config = node.config
        ports = dict(config.input_ports)
        for name, value in config.output_ports.items():
            ports.setdefault(name, value)
        ports.update(getattr(config, "condition_sources", {}))
        if getattr(node, "autoremap", False):
            ports["_autoremap"] = "true"
        if ports:
            text += " " + " ".join(f'{name}="{value_to_string(value)}"' for name, value in ports.items())
        return text

    def walk(node, depth: int) -> None:
        lines.append("  " * depth + describe(node))
        for child in getattr(node, "children", None) or []:
            walk(child, depth + 1)

    walk(tree.root_node, 1)
    return "\n".join(lines)
