"""The `state_publisher` process: robot_state_publisher's job for pip installs, plus the
sim's objects and camera, so rviz2, Foxglove and every tf2 tool can draw the cell.

tf2 keeps a tree of coordinate frames from transforms published on two topics:
`/tf` (poses that change, stamped, sent again and again) and `/tf_static` (poses that
never change, transient_local: a late subscriber still gets them). A robot's frames are
its URDF links; this node turns

  <ns>/robot_description (std_msgs/String, latched)  + <ns>/joint_states (sensor_msgs/JointState)

for every robot namespace in `robots` into

  /tf_static   world -> <ns>/<root link> (parameter `base_poses`) and every fixed joint
  /tf          every movable joint, stamped with its joint_states message

and adds world -> `camera_frame` on /tf_static from `camera/pose`, and world -> <object
name> on /tf from the sim's ground-truth `objects` topic (for viewing only: no decision
reads it). Frame names get the robot's namespace as prefix (`panda_1/panda_link0`), so
the two Pandas of franka_pyramid do not collide.

    python -m robot_tasks.nodes.state_publisher --ros-args -p robots:="[panda_1, panda_2]" \
        -p base_poses:="[0.,0.,0.625,0.,0.,0.,1., 1.,0.,0.625,0.,0.,1.,0.]"

The kinematics (Pinocchio FK, the frame tree) is robot_tasks.control.frame_tree; this
package only reads parameters, subscribes, converts and publishes. On a ROS 2 install
the launch files can run the real robot_state_publisher instead (`state_publisher:=ros`).
"""
