"""TreeExecutorNode: the tree_executor's parameters, plugins and trees, and its server.

| parameter             | default        | meaning                                           |
|-----------------------|----------------|---------------------------------------------------|
| tick_frequency        | 100.0 Hz       | tick timer (node clock: honours use_sim_time)      |
| tree_dirs             | []             | extra folders searched (recursively) for *.xml,    |
|                       |                | after the package's own trees/ folder              |
| include_default_trees | true           | also load the package's trees/ folder              |
| plugins               | []             | modules with register_nodes(factory, ros_node)     |
| action_name           | execute_tree   | name of the ExecuteTree action server              |
| feedback_rate         | 10.0 Hz        | limit of ExecuteTree feedback                      |
| groot2_port           | 1667           | Groot2 monitoring of the running tree: ZMQ REP on  |
|                       |                | this port, PUB on +1 (BehaviorTree.ROS2's name and |
|                       |                | default); 0 = off                                  |
| groot2_address        | 127.0.0.1      | where the Groot2 sockets bind                      |
| btlog_dir             | ""             | write a FileLogger2 .btlog of every run here       |
|                       |                | (Groot2 replays it); "" = off                      |
| record_dir            | ""             | record every run here: per tick, what each leaf    |
|                       |                | returned and wrote (<tree>_<time>.replay.jsonl;    |
|                       |                | `robot-tasks replay` re-runs it offline); "" = off |

Provides: action ExecuteTree, topic tree_status (TreeStatus), service get_loaded_trees
(GetLoadedTrees), all relative to the node's namespace. A plugin that cannot be loaded
is fatal (its trees could not run): a PluginError, exit code 2 with the reason.
"""
from __future__ import annotations

from rclpy.node import Node

from robot_tasks.bt import BehaviorTreeFactory
from robot_tasks.bt.groot2 import DEFAULT_PORT as GROOT2_DEFAULT_PORT
from robot_tasks.nodes.tree_executor.server import ExecuteTreeServer
from robot_tasks.ros.leaves import register_ros_nodes
from robot_tasks.ros.log_bridge import forward_python_logging
from robot_tasks.ros.parameters import declare
from robot_tasks.runtime.catalog import TreeCatalog, default_tree_dirs
from robot_tasks.runtime.monitors import RunMonitors, btlog_monitor, groot2_monitor, recording_monitor, watch_hint
from robot_tasks.runtime.plugins import load_plugins


class TreeExecutorNode(Node):
    """Loads trees and plugins from its parameters and serves them as ExecuteTree."""

    def __init__(self, node_name: str = "tree_executor", **kwargs):
        super().__init__(node_name, **kwargs)
        forward_python_logging(self.get_logger())  # task leaves log their decisions with `logging`
        tick_frequency = declare(self, "tick_frequency", 100.0, "Hz of the tick timer", minimum=0.0,
                                 open_minimum=True)
        extra_dirs = declare(self, "tree_dirs", [""], "extra folders of *.xml trees")
        include_default = declare(self, "include_default_trees", True, "also load the package's trees/")
        plugins = declare(self, "plugins", [""], "modules with register_nodes(factory, ros_node)")
        action_name = declare(self, "action_name", "execute_tree", "ExecuteTree action name",
                              allow_empty=False)
        feedback_rate = declare(self, "feedback_rate", 10.0, "Hz limit of ExecuteTree feedback",
                                minimum=0.0, open_minimum=True)

        groot2_port = declare(self, "groot2_port", GROOT2_DEFAULT_PORT, "Groot2 ZMQ port (PUB on +1); 0 = off",
                              minimum=0, maximum=65534)
        groot2_address = declare(self, "groot2_address", "127.0.0.1", "address the Groot2 sockets bind",
                                 allow_empty=False)
        btlog_dir = declare(self, "btlog_dir", "", "folder for a .btlog of every run; '' = off")
        record_dir = declare(self, "record_dir", "", "folder for a recording of every run (robot-tasks "
                                                     "replay); '' = off")
        monitors = []
        if groot2_port:
            monitors.append(groot2_monitor(groot2_port, groot2_address, self.get_logger().warning))
            self.get_logger().info(watch_hint(groot2_address, groot2_port))
        if btlog_dir:
            monitors.append(btlog_monitor(btlog_dir, self.get_logger().warning))
        if record_dir:
            clock = "the tree_executor's ROS clock (sim time under use_sim_time), s"
            monitors.append(recording_monitor(record_dir, [p for p in plugins if p], clock,
                                              self.get_logger().warning))

        factory = BehaviorTreeFactory()
        register_ros_nodes(factory, self)
        load_plugins([p for p in plugins if p], factory, self)
        dirs = (default_tree_dirs() if include_default else []) + [d for d in extra_dirs if d]
        self.catalog = TreeCatalog(factory, dirs)
        for problem in self.catalog.load_all():
            self.get_logger().error(f"tree not loaded: {problem}")
        self.get_logger().info(f"trees: {', '.join(self.catalog.tree_ids()) or 'none'} "
                               f"(from {', '.join(map(str, self.catalog.tree_dirs)) or 'no folder'})")
        self.server = ExecuteTreeServer(self, self.catalog, action_name=action_name,
                                        tick_frequency=tick_frequency, feedback_rate=feedback_rate,
                                        monitors=RunMonitors(monitors))
