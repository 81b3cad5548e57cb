"""Names of an arm's controller interfaces, relative to the arm's namespace.

The contract between a robot's control loop (the sim, or a real arm's controller_manager)
and the nodes that command its compliant controllers (compliance_server): one place, so the
two sides cannot drift apart. See robot_tasks/nodes/sim/controller_io.py for what each
carries.
"""
SWITCH_SERVICE = "controller_manager/switch_controller"   # robot_tasks_interfaces/SwitchController
LIST_SERVICE = "controller_manager/list_controllers"      # robot_tasks_interfaces/ListControllers
COMMAND_TOPIC = "{controller}/command"                     # std_msgs/Float64MultiArray
FT_TOPIC = "ft_sensor/wrench"                              # geometry_msgs/WrenchStamped
STATE_TOPIC = "controller_state"                           # robot_tasks_interfaces/CompliantControllerState
CONTACT_TRUTH_TOPIC = "ground_truth/contact_force"         # geometry_msgs/WrenchStamped (grading)
TIP_TRUTH_TOPIC = "ground_truth/tip_pose"                  # geometry_msgs/PoseStamped (grading)
TRAJECTORY_CONTROLLER = "joint_trajectory"


def under(namespace: str, name: str) -> str:
    """`name` in the arm's namespace ("" = the node's own namespace)."""
    namespace = namespace.strip("/")
    return f"{namespace}/{name}" if namespace else name
# Position-controlled arms and parallel grippers (robot_tasks/nodes/sim/robot_io.py):
ARM_STATE_TOPIC = "joint_trajectory_controller/controller_state"   # robot_tasks_interfaces/JointControllerState
GRIPPER_STATE_TOPIC = "gripper_controller/controller_state"        # robot_tasks_interfaces/JointControllerState
GRIPPER_FORCE_HOLD = 1.0   # third number of a gripper_controller/commands message: force hold
