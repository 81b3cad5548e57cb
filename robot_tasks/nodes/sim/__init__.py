"""The ROS face of the PyBullet simulation (the `sim` node), shaped like real drivers.

Per robot, under its namespace `<ns>` (parameter `namespaces.<robot>`, default the
robot's name: `panda`; `panda_1`, `panda_2` in franka_pyramid; `ur10`):
  pub  <ns>/joint_states                                   sensor_msgs/JointState
  pub  <ns>/robot_description            (transient_local) std_msgs/String (URDF)
  sub  <ns>/joint_trajectory_controller/joint_trajectory   trajectory_msgs/JointTrajectory
  sub  <ns>/gripper_controller/commands  (Panda)           std_msgs/Float64MultiArray [width, max_effort(, 1 = force hold)]
  sub  <ns>/suction/command              (UR10)            std_msgs/Bool
  pub  <ns>/suction/attached             (UR10, transient_local) std_msgs/Bool
With `controller_state: true`, once per control step (the command and the measurement just before it):
  pub  <ns>/joint_trajectory_controller/controller_state   robot_tasks_interfaces/JointControllerState
  pub  <ns>/gripper_controller/controller_state  (Panda)   robot_tasks_interfaces/JointControllerState
An arm with compliant controllers (franka_press; controller_io.py, like controller_manager):
  srv  <ns>/controller_manager/switch_controller           robot_tasks_interfaces/SwitchController
  srv  <ns>/controller_manager/list_controllers            robot_tasks_interfaces/ListControllers
  sub  <ns>/<controller>/command                           std_msgs/Float64MultiArray (flat command)
  pub  <ns>/controller_state, <ns>/ft_sensor/wrench        CompliantControllerState, WrenchStamped
  pub  <ns>/ground_truth/contact_force, .../tip_pose       WrenchStamped, PoseStamped (grading only)
Scene-wide (relative to the node's namespace, except /clock):
  pub  /clock                 (best effort, depth 1)       rosgraph_msgs/Clock
  pub  camera/image_raw (rgb8), camera/depth/image_raw (32FC1 m)  sensor_msgs/Image
  pub  camera/camera_info                                  sensor_msgs/CameraInfo
  pub  camera/pose                       (transient_local) geometry_msgs/PoseStamped
  pub  objects                                             robot_tasks_interfaces/ObjectStateArray
  pub  object_markers                                      visualization_msgs/MarkerArray
  srv  reset_scene                                         robot_tasks_interfaces/ResetScene
  srv  perturb_object                                      robot_tasks_interfaces/PerturbObject
  srv  conveyor/run           (scenes with a conveyor)     std_srvs/SetBool: true runs the belt, false pauses it
Sim time stamps everything; /clock never goes backwards, not even across reset_scene.
Parameters: see params.py.  Modules: node.py (SimNode), loop.py (stepping thread and
executor thread), inbox.py (callbacks -> stepping thread), robot_io.py, scene_io.py,
perturb.py, controller_io.py, convert.py, wire.py (pre-serialized hot topics), bench.py (step rate).
"""
