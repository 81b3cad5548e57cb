"""The `compliance_server` process: the CompliantMove action, served on top of the sim's
(or a real arm's) compliant controllers.

    python -m robot_tasks.nodes.compliance_server --ros-args -p robot_namespace:=panda

A tree asks for "this pose in the wall frame, 10 N along its normal, this stiffness, over
1.5 s"; the server switches the arm to the requested controller (controller_manager-style
service), glides the controller's target there by streaming its command topic at
`command_rate`, reads the F/T sensor and the controller state for feedback, and ends with
the measured normal force and pose error. The control law itself runs in the robot's
control loop (the sim), never here: only targets cross DDS, never torques.

parameters.py (what it is configured with), goal_check.py (a goal -> a checked
CompliantMove, or INVALID_GOAL with the reason), node.py (topics, services, the action).
The arm_server's contract is unchanged: it still sends trajectories, which the sim's
trajectory controller accepts only while it is the active controller.
"""
