"""`robot-tasks tree model FILE...`: refresh a tree file's <TreeNodesModel> from the node
types the code registers.

    robot-tasks tree model trees/franka_stacking.xml

Groot2 shows custom nodes and their ports from this section; when a leaf's ports
change in code, run this so the file matches again (test/tasks/test_stacking_tree_file.py
fails until it does). Only node types the file uses are listed. The ROS leaves are
registered without a ROS node (their ports are class-level), so no ROS is started.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from defusedxml import ElementTree

from robot_tasks.commands._errors import CommandError


def model_xml(tree_text: str) -> str:
    """The <TreeNodesModel> element (indented for <root>) of the custom nodes a tree uses."""
    from robot_tasks.bt import BehaviorTreeFactory, write_tree_nodes_model_xml
    from robot_tasks.ros.leaves import register_ros_nodes
    from robot_tasks.tasks import register_nodes

    factory = BehaviorTreeFactory()
    register_nodes(factory)
    register_ros_nodes(factory, object())
    root = ElementTree.fromstring(tree_text.encode())
    used = {el.tag for bt in root.findall("BehaviorTree") for el in bt.iter()}
    for registration_id in list(factory.manifests):
        if registration_id not in used and registration_id not in factory.builtin_nodes:
            factory.unregister_builder(registration_id)
    written = write_tree_nodes_model_xml(factory)
    inner = written.split("<TreeNodesModel>", 1)[1].split("</TreeNodesModel>", 1)[0]
    return f"<TreeNodesModel>{inner}</TreeNodesModel>"


def refresh(path: Path) -> bool:
    """Rewrite the model section of `path` in place; True when it changed."""
    text = path.read_text()
    pattern = re.compile(r"<TreeNodesModel>.*?</TreeNodesModel>|<!-- TREE_NODES_MODEL -->", re.S)
    if not pattern.search(text):
        raise CommandError(f"{path}: no <TreeNodesModel> (or <!-- TREE_NODES_MODEL --> marker) to replace")
    new = pattern.sub(lambda _m: model_xml(text), text, count=1)
    if new != text:
        path.write_text(new)
    return new != text


def add_parser(actions) -> None:
    model = actions.add_parser("model", help="refresh a tree file's <TreeNodesModel> from the registered node types")
    model.add_argument("files", nargs="+", metavar="FILE")
    model.set_defaults(func=run_model)


def run_model(args) -> int:
    for path in map(Path, args.files):
        try:
            changed = refresh(path)
        except OSError as exc:
            print(f"robot-tasks tree model: {path}: {exc.strerror}", file=sys.stderr)
            return 1
        except CommandError as exc:
            print(f"robot-tasks tree model: {exc}", file=sys.stderr)
            return 1
        print(f"{path}: {'updated' if changed else 'already up to date'}")
    return 0
