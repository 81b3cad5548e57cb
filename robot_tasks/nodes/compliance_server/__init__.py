"""The `compliance_server` process: the CompliantMove action, a client of an arm's
controller_manager and compliant controllers — the sim's or a real cell's, the same way.

    python -m robot_tasks.nodes.compliance_server --ros-args -p robot_namespace:=panda

A tree asks for "this pose in the wall frame, 10 N along its normal, this stiffness, over
1.5 s"; the server checks the goal, sets the controller's parameters, switches the arm to the
requested controller through controller_manager, glides the controller's target there by
streaming its target topics at `command_rate`, reads the tool pose and the measured wrench
for feedback, and ends with the measured normal force and pose error. The control law
itself runs in the robot's control loop, never here: only targets cross DDS, never torques.

Interfaces (under the arm's namespace <ns>; node.py says what each is for):
    srv  <ns>/controller_manager/list_controllers    controller_manager_msgs/ListControllers
    srv  <ns>/controller_manager/switch_controller   controller_manager_msgs/SwitchController
    srv  <ns>/<c>/get_parameters, <ns>/<c>/set_parameters   rcl_interfaces (stiffness.*,
                                                     hand_frame_control)
    pub  <ns>/<c>/target_frame                       geometry_msgs/PoseStamped
    pub  <ns>/<c>/target_wrench                      geometry_msgs/WrenchStamped
    sub  <ns>/<c>/current_pose                       geometry_msgs/PoseStamped
    sub  <ns>/franka_robot_state_broadcaster/external_wrench_in_base_frame   WrenchStamped
                                                     (best effort; parameter wrench_topic)
    action compliant_move                            robot_tasks_interfaces/CompliantMove

<c> is a controller commanded like FZI's cartesian_compliance_controller
(fzi-forschungszentrum-informatik/cartesian_controllers, ros2 branch): "osc" and
"hybrid_press" in franka_press. On a real cell both are instances of that controller
(type cartesian_compliance_controller/CartesianComplianceController) with
`solver.publish_state_feedback: true`, robot_base_link = the server's `base_frame`, and for
hybrid_press `stiffness.trans_z: 0` along the tool axis that presses. The F/T input the
controller needs (`<c>/ft_sensor_wrench`, the wrench *on* the sensor) is the cell's wiring
— the Franka's external wrench estimate is the opposite sign and in base axes, so a relay
negates it and states it in the sensor frame; the sim's controllers read their sensor in the
control loop. The Franka's wrench is what the server reads back.

parameters.py (what it is configured with), goal_check.py (a goal -> a checked
CompliantMove, or INVALID_GOAL with the reason; what each controller type takes),
controller_client.py (controller_manager and parameter calls, each with a deadline),
node.py (topics, the action). The arm_server's contract is separate: it sends
FollowJointTrajectory goals, which the trajectory controller refuses while it is inactive.
"""
