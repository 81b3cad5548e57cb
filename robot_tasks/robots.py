"""The robots' and the cell's fixed facts, in one place for every layer.

Joint names are the ones the robots' own descriptions use (franka_description's
`panda_joint1..7` and finger joints; Universal Robots' description for the UR10), so the
same names reach the sim, the kinematics, the servers, the trees and the real drivers. The
home pose is the Panda's "ready" pose of franka_ros2 (0, -pi/4, 0, -3pi/4, 0, pi/2, pi/4),
rounded as the trees write it. The table is pybullet_data's table.urdf: a 5 cm top centred
at z = 0.6, so its surface is at 0.625 m.

Plain constants with no imports, so the pure layers (control, sim, tasks) and the ROS ones
read them without pulling each other in.
"""

PANDA_ARM_JOINTS = tuple(f"panda_joint{i}" for i in range(1, 8))
PANDA_FINGER_JOINTS = ("panda_finger_joint1", "panda_finger_joint2")
PANDA_HOME = (0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785)     # rad, PANDA_ARM_JOINTS order
UR10_ARM_JOINTS = ("shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
                   "wrist_1_joint", "wrist_2_joint", "wrist_3_joint")
TABLE_TOP_Z = 0.625                                              # m, world frame
