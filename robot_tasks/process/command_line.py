"""Command lines of ROS 2 nodes: the program, then `--ros-args` and its flags.

A ROS 2 node reads its name, namespace, parameters and topic remappings from the end of its
command line, after `--ros-args`:

    python -m robot_tasks.nodes.arm_server --ros-args -r __node:=arm_server -r __ns:=/cell
        --params-file cell.yaml -r joint_states:=panda/joint_states -p robot:='panda'

`-r from:=to` renames (`__node` and `__ns` are the node's own name and namespace),
`--params-file` reads a YAML params file (a later one wins), and `-p name:=value` sets one
parameter, whose value rcl reads as YAML: `true`, `3`, `[a, b]`, `'text'`.

:func:`node_argv` builds the command line of a node of a bringup plan
(:mod:`robot_tasks.process.plan`); :func:`ros_args` builds the flags for any node a test
starts, from Python values (:func:`param_text` writes them as YAML). Both write their `-p`
flags with :func:`parameter_flags`.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from robot_tasks.process.plan import BringupPlan, NodeSpec


def param_text(value) -> str:
    """A parameter value as rcl parses it from ``-p`` (YAML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(param_text(v) for v in value) + "]"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"  # YAML single-quoted: stays a string
    return repr(value)


def parameter_flags(parameters: Iterable[tuple[str, str]]) -> list[str]:
    """``-p name:=text`` for each (name, YAML text) pair."""
    flags: list[str] = []
    for name, text in parameters:
        flags += ["-p", f"{name}:={text}"]
    return flags


def ros_args(name: str | None = None, params: dict | None = None,
             remaps: dict[str, str] | None = None) -> list[str]:
    """Build ``--ros-args`` for a node: its name, ``-p key:=value`` and ``-r from:=to``."""
    out: list[str] = []
    if name:
        out += ["-r", f"__node:={name}"]
    for key, value in (remaps or {}).items():
        out += ["-r", f"{key}:={value}"]
    out += parameter_flags((key, param_text(value)) for key, value in (params or {}).items())
    return ["--ros-args", *out] if out else []


def node_argv(spec: NodeSpec, plan: BringupPlan, params_file: Path, python: str = sys.executable) -> list[str]:
    """The command line of one node: `python -m robot_tasks.nodes.X --ros-args ...`."""
    argv = [python, "-m", spec.module, "--ros-args", "-r", f"__node:={spec.name}"]
    if plan.namespace:
        argv += ["-r", f"__ns:=/{plan.namespace}"]
    argv += ["--params-file", str(params_file)]
    if plan.overlay is not None:               # read second: its values win
        argv += ["--params-file", str(plan.overlay)]
    for rule in spec.remappings:
        argv += ["-r", rule]
    return argv + parameter_flags(spec.parameters)
