"""The `arm_server` process: MoveToPose / MoveToJoints for one arm.

    python -m robot_tasks.nodes.arm_server --ros-args -p robot:=panda
    arm_server --ros-args --params-file config/ur10_arm.yaml

Reads top to bottom: parameters.py (every parameter, its default and range) ->
node.py (ArmServer: topics in, action servers) -> execution.py (one goal's life:
validate, wait for state, plan on a worker thread, send ONE trajectory, watch it) with
goal_kinds.py (what differs between the two actions) and conversions.py (messages <->
library types). PLANNED goals avoid the static boxes of the obstacle_* parameters and the
run-time set of the latched `planning_obstacles` topic (ObjectStateArray; each message
replaces the set, a bad one is refused and logged: see node.py). The motion pipeline
itself (IK -> RRT-Connect -> time parameterization) is ROS-free:
robot_tasks.control.motion_pipeline, with robot_tasks.control.planning_scene.
"""
