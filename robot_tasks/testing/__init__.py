"""robot_tasks.testing — test your own trees and nodes against real processes over loopback DDS.

The harness this project's own test suite runs on, public so that a team writing its own
trees, leaves or drivers can test them the same way: real node processes, a real rclpy
node inside the test, loopback DDS with a fresh ROS_DOMAIN_ID, and a check at the end
that no process and no Fast DDS shared-memory segment was left behind.

| module       | job                                                                      |
|--------------|--------------------------------------------------------------------------|
| `launcher.py` | RosTestEnv (domain, log dir, loopback environment), NodeLauncher /       |
|              | NodeProcess (start, log, stop with robot_tasks.process, leak check)       |
| `ros_test_node.py` | RosTestNode (a RosClient with waiting helpers), ActionClients,      |
|              | wait_until                                                                |
| `stack.py`   | NodeStack: a bringup YAML's nodes, each one killable and restartable      |
| `procfs.py`  | what a process holds, read from /proc: shared memory, sockets, CPU, memory |
| `netns.py`   | TwoHosts: two network namespaces joined only by one veth (two computers)  |
| `isolation.py` | the proof they talked only to each other: routes, host interface traffic |
| `two_host_dds.py` | the DDS environment of those hosts: the deployment opt-out        |
| `split_stacking.py` | the stacking demo split over them; `stack_grade.py` grades it    |

It lives in the package, not under `test/`, because the benches (`bench/ros_roundtrip.py`)
and users' own suites import it; `test/conftest.py` only wires it to pytest fixtures.
It needs ROS (rclpy is imported when a RosTestNode is made, not on import).
"""
