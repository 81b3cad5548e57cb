"""tree_executor: run behavior-tree XML files as the ROS 2 action ExecuteTree.

    python -m robot_tasks.nodes.tree_executor --ros-args -p tick_frequency:=100.0 \\
        -p tree_dirs:="['/path/to/my/trees']" -p plugins:="['my_pkg.bt_nodes']"

Parameters:
  tick_frequency (float, 100.0)   Hz of the tick timer (node clock: honours use_sim_time)
  tree_dirs (string[], [])        extra folders searched (recursively) for *.xml trees,
                                  after the package's own trees/ folder
  include_default_trees (bool, true)  also load the package's trees/ folder
  plugins (string[], [])          Python modules with register_nodes(factory, ros_node)
                                  (or register_nodes(factory)) adding node types
  action_name (string, execute_tree)   name of the ExecuteTree action server
  feedback_rate (float, 10.0)     Hz limit of ExecuteTree feedback
Provides: action ExecuteTree, topic tree_status (TreeStatus), service
get_loaded_trees (GetLoadedTrees), all relative to the node's namespace.

The node is a shell: the library pieces are TreeCatalog (loading, targets, payloads),
TreeRun (one run), ExecuteTreeServer (the ROS interfaces), register_ros_nodes (leaves).
"""
from __future__ import annotations

import importlib
import inspect
import sys
import time

from robot_tasks.ros.dds import configure_loopback_dds
from robot_tasks.ros.log_bridge import forward_python_logging
from robot_tasks.ros.stop_request import StopRequest

CANCEL_WAIT_S = 2.0  # how long a stopping executor waits for its cancel requests to be answered
MIN_FLUSH_S = 0.1
SIGNAL_POLL_S = 0.1


class PluginError(Exception):
    pass


def load_plugin(name: str, factory, ros_node) -> None:
    """Import module `name` and call its register_nodes(factory, ros_node) or register_nodes(factory)."""
    try:
        module = importlib.import_module(name)
    except Exception as exc:
        raise PluginError(f"can't import plugin module '{name}': {type(exc).__name__}: {exc}") from None
    register = getattr(module, "register_nodes", None)
    if not callable(register):
        raise PluginError(f"plugin module '{name}' has no register_nodes(factory, ros_node) function")
    params = inspect.signature(register).parameters
    register(factory, ros_node) if len(params) >= 2 else register(factory)


def build(node):
    """Declare the parameters, load plugins and trees, and create the server on `node`."""
    from rclpy.parameter import Parameter

    from robot_tasks.bt import BehaviorTreeFactory
    from robot_tasks.ros.execute_tree_server import ExecuteTreeServer
    from robot_tasks.ros.leaves import register_ros_nodes
    from robot_tasks.ros.tree_catalog import TreeCatalog, default_tree_dirs

    tick_frequency = node.declare_parameter("tick_frequency", 100.0).value
    extra_dirs = node.declare_parameter("tree_dirs", Parameter.Type.STRING_ARRAY).value or []
    include_default = node.declare_parameter("include_default_trees", True).value
    plugins = node.declare_parameter("plugins", Parameter.Type.STRING_ARRAY).value or []
    action_name = node.declare_parameter("action_name", "execute_tree").value
    feedback_rate = node.declare_parameter("feedback_rate", 10.0).value

    factory = BehaviorTreeFactory()
    register_ros_nodes(factory, node)
    for name in plugins:
        load_plugin(name, factory, node)  # a broken plugin is fatal: its trees could not run
    dirs = (default_tree_dirs() if include_default else []) + list(extra_dirs)
    catalog = TreeCatalog(factory, dirs)
    for problem in catalog.load_all():
        node.get_logger().error(f"tree not loaded: {problem}")
    node.get_logger().info(f"trees: {', '.join(catalog.tree_ids()) or 'none'} "
                           f"(from {', '.join(map(str, catalog.tree_dirs)) or 'no folder'})")
    return ExecuteTreeServer(node, catalog, action_name=action_name, tick_frequency=float(tick_frequency),
                             feedback_rate=float(feedback_rate))


def main(args: list[str] | None = None) -> int:
    configure_loopback_dds()
    import rclpy
    from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
    from rclpy.signals import SignalHandlerOptions

    # Own signal handling: SIGINT/SIGTERM must leave the context alive long enough to
    # halt a running tree, so that its leaves can still send their cancel requests.
    stop = StopRequest().install()
    rclpy.init(args=args if args is not None else sys.argv,
               signal_handler_options=SignalHandlerOptions.NO)
    node = rclpy.create_node("tree_executor")
    forward_python_logging(node.get_logger())  # task leaves log their decisions with `logging`
    executor = SingleThreadedExecutor()
    code = 0
    server = None
    try:
        server = build(node)
        executor.add_node(node)
        while not stop():  # spin_once with a timeout: the stop request is seen within SIGNAL_POLL_S
            executor.spin_once(timeout_sec=SIGNAL_POLL_S)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except (PluginError, ValueError) as exc:  # a bad plugin or parameter: say which, exit 1
        node.get_logger().fatal(str(exc))
        code = 1
    finally:
        if server is not None and rclpy.ok():
            server.shutdown()  # halts a running tree: its leaves send cancel requests
            _spin_until_cancels_answered(executor, node)
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
    return code


def _spin_until_cancels_answered(executor, node) -> None:
    """Spin until the servers answered the leaves' cancel requests (at most CANCEL_WAIT_S),
    and for the result of the halted ExecuteTree goal to go out."""
    from robot_tasks.ros.bt_action_node import pending_cancels

    start = time.monotonic()
    while time.monotonic() - start < CANCEL_WAIT_S:
        if not pending_cancels(node) and time.monotonic() - start >= MIN_FLUSH_S:
            break
        executor.spin_once(timeout_sec=0.02)



if __name__ == "__main__":
    sys.exit(main())
