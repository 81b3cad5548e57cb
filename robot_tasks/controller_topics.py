"""Names of an arm's controller interfaces, relative to the arm's namespace.

The contract between a robot's control loop (the sim, or a real arm's controller_manager and
controllers) and the nodes that use them (compliance_server, the SwitchController leaf):
one place, so the two sides cannot drift apart. Every name and type is a real one:

- controller_manager (ros2_control, kilted): switch/list with controller_manager_msgs;
- a compliant controller `<c>` is commanded like FZI's cartesian_compliance_controller
  (fzi-forschungszentrum-informatik/cartesian_controllers, ros2 branch: topics
  `<c>/target_frame`, `<c>/target_wrench`, `<c>/ft_sensor_wrench`, state feedback
  `<c>/current_pose` / `<c>/current_twist` with `solver.publish_state_feedback`, and its
  parameters `stiffness.*`, `hand_frame_control`), a joint impedance controller like
  ros2_controllers' forward_command_controller (`<c>/commands`);
- the Franka's external wrench as franka_robot_state_broadcaster publishes it (franka_ros2
  v3.4.0: best effort, frame = the base link, the wrench the robot exerts on the
  environment, about the stiffness frame).

See robot_tasks/nodes/sim/controller_io.py for what the sim serves.
"""
SWITCH_SERVICE = "controller_manager/switch_controller"   # controller_manager_msgs/SwitchController
LIST_SERVICE = "controller_manager/list_controllers"      # controller_manager_msgs/ListControllers
TRAJECTORY_CONTROLLER = "joint_trajectory_controller"
TARGET_FRAME_TOPIC = "{controller}/target_frame"           # geometry_msgs/PoseStamped, base frame
TARGET_WRENCH_TOPIC = "{controller}/target_wrench"         # geometry_msgs/WrenchStamped
FT_SENSOR_WRENCH_TOPIC = "{controller}/ft_sensor_wrench"   # geometry_msgs/WrenchStamped (input)
CURRENT_POSE_TOPIC = "{controller}/current_pose"           # geometry_msgs/PoseStamped, base frame
CURRENT_TWIST_TOPIC = "{controller}/current_twist"         # geometry_msgs/TwistStamped
JOINT_COMMANDS_TOPIC = "{controller}/commands"             # std_msgs/Float64MultiArray
SET_PARAMETERS_SERVICE = "{controller}/set_parameters"     # rcl_interfaces/SetParameters
GET_PARAMETERS_SERVICE = "{controller}/get_parameters"     # rcl_interfaces/GetParameters
STIFFNESS_PARAMETERS = ("stiffness.trans_x", "stiffness.trans_y", "stiffness.trans_z",
                        "stiffness.rot_x", "stiffness.rot_y", "stiffness.rot_z")
HAND_FRAME_PARAMETER = "hand_frame_control"    # true: target_wrench in the end-effector axes
FRANKA_STATE = "franka_robot_state_broadcaster"
EXTERNAL_WRENCH_TOPIC = f"{FRANKA_STATE}/external_wrench_in_base_frame"   # WrenchStamped, best effort
FRANKA_POSE_TOPIC = f"{FRANKA_STATE}/current_pose"                         # PoseStamped, best effort
CONTACT_TRUTH_TOPIC = "ground_truth/contact_force"         # geometry_msgs/WrenchStamped (grading)
TIP_TRUTH_TOPIC = "ground_truth/tip_pose"                  # geometry_msgs/PoseStamped (grading)


def under(namespace: str, name: str) -> str:
    """`name` in the arm's namespace ("" = the node's own namespace)."""
    namespace = namespace.strip("/")
    return f"{namespace}/{name}" if namespace else name

# The sim's per-control-step record (its `controller_state` parameter; robot_tasks/nodes/sim/
# robot_io.py), for demonstration datasets: sim-only, under `sim/` so that no name a real
# controller uses (joint_trajectory_controller/controller_state is control_msgs') is taken.
ARM_STATE_TOPIC = "sim/arm_control_steps"          # robot_tasks_interfaces/JointControllerState
GRIPPER_STATE_TOPIC = "sim/gripper_control_steps"  # robot_tasks_interfaces/JointControllerState
