"""The `gripper_server` process: the tree's GripperCommand, served through the gripper's real driver.

    python -m robot_tasks.nodes.gripper_server --ros-args -r __ns:=/panda -p robot:=panda

The server is a client of what a real robot's bringup offers (parameter `backend`):

  franka          franka_gripper (franka_ros2): actions <franka_gripper>/move (franka_msgs/Move)
                  and <franka_gripper>/grasp (franka_msgs/Grasp); opening is a move, closing
                  (PARALLEL or FORCE_HOLD) a grasp, which holds its force as FORCE_HOLD asks
  gripper_action  any control_msgs/GripperCommand action (ros2_controllers' gripper action
                  controllers, franka_gripper's gripper_action); position = width x
                  position_per_width
  set_io          a UR's io_and_status_controller: <io>/set_io (ur_msgs/SetIO) switches the
                  vacuum valve's digital output, <io>/io_states (ur_msgs/IOStates) brings the
                  vacuum switch's input (object attached)
  in (parallel)   joint_states: the finger joints' sum is the width
  serves          gripper_command (robot_tasks_interfaces/GripperCommand: PARALLEL, SUCTION,
                  FORCE_HOLD)

Modules: node.py (the action and the goal loops), parameters.py, parallel_drivers.py and
io_driver.py (the driver clients; one goal sent to a driver is robot_tasks/ros/driver_goal.py).
The rules that map goals onto drivers and read their answers are ROS-free:
robot_tasks.control.gripper_logic (goal checks) and robot_tasks.control.gripper_drivers.
"""
