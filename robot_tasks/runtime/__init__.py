"""robot_tasks.runtime — running behavior trees as a service, with no ROS.

What a tree executor needs besides the engine, kept free of ROS so it is unit-tested
without DDS and reusable by any front end (the ROS tree_executor node, the CLI):

| module       | job                                                                 |
|--------------|---------------------------------------------------------------------|
| `catalog.py` | `TreeCatalog`: the trees found in folders, run targets, payloads     |
| `run.py`     | `TreeRun`: one run of one tree, ticked from outside, its status journal |
| `plugins.py` | `load_plugins`: modules whose `register_nodes(factory[, ros_node])` add leaves |
| `errors.py`  | `TreeRuntimeError` and its narrower causes                           |
"""
