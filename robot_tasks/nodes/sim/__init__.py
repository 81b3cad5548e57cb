"""The ROS face of the PyBullet simulation (the `sim` node), shaped like real drivers.

Per robot, under its namespace `<ns>` (parameter `namespaces.<robot>`, default the
robot's name: `panda`; `panda_1`, `panda_2` in franka_pyramid; `ur10`):
  pub  <ns>/joint_states                                   sensor_msgs/JointState
  pub  <ns>/robot_description            (transient_local) std_msgs/String (URDF)
  action <ns>/joint_trajectory_controller/follow_joint_trajectory  control_msgs/FollowJointTrajectory
  sub  <ns>/joint_trajectory_controller/joint_trajectory   trajectory_msgs/JointTrajectory
  sub  <ns>/joint_trajectory_controller/speed_scaling_input (transient_local) control_msgs/SpeedScalingFactor
  pub  <ns>/joint_trajectory_controller/controller_state   control_msgs/JointTrajectoryControllerState
       (ros2_control's joint_trajectory_controller and its rules: trajectory_controller_io.py)
The Panda's hand, as franka_gripper serves it (franka_gripper_io.py; franka_ros2 jazzy):
  act  <ns>/franka_gripper/homing                          franka_msgs/action/Homing
  act  <ns>/franka_gripper/move                            franka_msgs/action/Move (width, speed)
  act  <ns>/franka_gripper/grasp                           franka_msgs/action/Grasp (success only within the epsilons)
  act  <ns>/franka_gripper/gripper_action                  control_msgs/action/GripperCommand (width = 2 x position)
  srv  <ns>/franka_gripper/stop                            std_srvs/srv/Trigger
  pub  <ns>/franka_gripper/joint_states                    sensor_msgs/JointState (each finger: width / 2)
The UR10's IO controller (ur_io.py; Universal_Robots_ROS2_Driver kilted), with the suction
cup and the belt on its pins (parameters vacuum_output_pin 16, vacuum_sensor_pin 16,
conveyor_output_pin 0):
  srv  <ns>/io_and_status_controller/set_io                ur_msgs/srv/SetIO (digital outputs: vacuum, belt)
  pub  <ns>/io_and_status_controller/io_states             ur_msgs/msg/IOStates (vacuum switch: attached)
With `controller_state: true`, once per control step (the command and the measurement just before
it; a sim-only record for demonstration datasets):
  pub  <ns>/sim/arm_control_steps                          robot_tasks_interfaces/JointControllerState
  pub  <ns>/sim/gripper_control_steps  (Panda)             robot_tasks_interfaces/JointControllerState
Every arm's controller_manager (ros2_control kilted; controller_manager_io.py):
  srv  <ns>/controller_manager/switch_controller           controller_manager_msgs/srv/SwitchController
  srv  <ns>/controller_manager/list_controllers            controller_manager_msgs/srv/ListControllers
An arm with compliant controllers <c> (franka_press: osc, hybrid_press; commanded like FZI's
cartesian_compliance_controller, compliant_io.py):
  sub  <ns>/<c>/target_frame, <ns>/<c>/target_wrench       geometry_msgs/PoseStamped, WrenchStamped
  sub  <ns>/<c>/ft_sensor_wrench                           geometry_msgs/WrenchStamped (unused: see compliant_io.py)
  pub  <ns>/<c>/current_pose, <ns>/<c>/current_twist       geometry_msgs/PoseStamped, TwistStamped (while active)
  srv  <ns>/<c>/get_parameters, set_parameters, list_parameters  rcl_interfaces (stiffness.*, hand_frame_control)
  sub  <ns>/joint_impedance/commands                       std_msgs/Float64MultiArray (joint positions)
  pub  <ns>/franka_robot_state_broadcaster/external_wrench_in_base_frame, .../current_pose
                                  (best effort, depth 1)   geometry_msgs/WrenchStamped, PoseStamped
  pub  <ns>/ground_truth/contact_force, .../tip_pose       WrenchStamped, PoseStamped (grading only)
The UR10's F/T sensor, as its driver offers it (ur_ft_io.py):
  pub  <ns>/force_torque_sensor_broadcaster/wrench         geometry_msgs/WrenchStamped (tool0_controller)
  srv  <ns>/io_and_status_controller/zero_ftsensor         std_srvs/srv/Trigger
Scene-wide (relative to the node's namespace, except /clock):
  pub  /clock                 (best effort, depth 1)       rosgraph_msgs/Clock
  pub  camera/image_raw (rgb8), camera/depth/image_raw (32FC1 m)  sensor_msgs/Image
  pub  camera/camera_info                                  sensor_msgs/CameraInfo
  pub  camera/pose                       (transient_local) geometry_msgs/PoseStamped
  pub  objects                                             robot_tasks_interfaces/ObjectStateArray
  pub  object_markers                                      visualization_msgs/MarkerArray
  srv  reset_scene                                         robot_tasks_interfaces/ResetScene
  srv  perturb_object                                      robot_tasks_interfaces/PerturbObject
Sim time stamps everything; /clock never goes backwards, not even across reset_scene.
Parameters: see params.py.  Modules: node.py (SimNode), loop.py (stepping thread and
executor thread), inbox.py (callbacks -> stepping thread), robot_io.py, franka_gripper_io.py,
ur_io.py, scene_io.py,
perturb.py, trajectory_controller_io.py, controller_io.py (controller_manager_io.py, compliant_io.py,
controller_parameters.py, robot_state_io.py, ur_ft_io.py), convert.py, wire.py (pre-serialized hot topics), bench.py (step rate).
"""
