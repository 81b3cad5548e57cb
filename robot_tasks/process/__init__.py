"""robot_tasks.process — start nodes as child processes, watch them, stop them.

Every part of the project that runs nodes as processes -- `robot-tasks bringup`, the demos,
the test harness, the benches -- does it with this layer, so a node is started and stopped
the same way everywhere:

| module            | job                                                                  |
|-------------------|----------------------------------------------------------------------|
| `plan.py`         | the bringup YAML: which nodes, with which names, remappings, driver  |
| `command_line.py` | a node's command line: `python -m ... --ros-args -r ... -p ...`      |
| `environment.py`  | what a child inherits: loopback DDS, its parent's death, SIGINT      |
| `group.py`        | process groups: one signal for a node and all it started             |
| `managed.py`      | ManagedProcess: start in its own group, output to a log or a callback, |
|                   | stop with SIGINT, then SIGTERM, then SIGKILL                         |
| `supervisor.py`   | Supervisor: a plan's nodes in order, prefixed output, respawn, stop  |

No ROS import: the nodes are separate processes; their DDS settings come from
:mod:`robot_tasks.ros.dds`.
"""
from robot_tasks.process.command_line import node_argv, param_text, parameter_flags, ros_args
from robot_tasks.process.environment import child_environment, die_with_parent, let_children_receive_sigint
from robot_tasks.process.group import processes_in_group, signal_group
from robot_tasks.process.managed import ManagedProcess, stop_group
from robot_tasks.process.plan import (
    FOXGLOVE_NODE,
    BringupError,
    BringupPlan,
    NodeSpec,
    check_executables,
    foxglove_url,
    load_plan,
    parse_set_option,
    peer_watch_spec,
    with_overrides,
)
from robot_tasks.process.supervisor import Supervisor

__all__ = [
    "FOXGLOVE_NODE", "BringupError", "BringupPlan", "ManagedProcess", "NodeSpec", "Supervisor",
    "check_executables", "child_environment", "die_with_parent", "foxglove_url",
    "let_children_receive_sigint", "load_plan", "node_argv", "param_text", "parameter_flags",
    "parse_set_option", "peer_watch_spec", "processes_in_group", "ros_args", "signal_group",
    "stop_group", "with_overrides",
]
