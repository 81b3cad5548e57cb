"""The `tree_executor` process: run behavior-tree XML files as the ROS 2 action ExecuteTree.

    python -m robot_tasks.nodes.tree_executor --ros-args -p tick_frequency:=100.0 \\
        -p tree_dirs:="['/path/to/my/trees']" -p plugins:="['my_pkg.bt_nodes']"

Reads top to bottom: node.py (TreeExecutorNode: parameters, plugins, trees) ->
server.py (ExecuteTreeServer: the action, the tick timer, tree_status, get_loaded_trees)
-> main.py (the process: spin, and on SIGINT halt the running tree and wait for its
leaves' cancels). The catalog of trees, one run of a tree and plugin loading are
ROS-free: robot_tasks.runtime. The leaves that speak ROS: robot_tasks.ros.leaves.
"""
