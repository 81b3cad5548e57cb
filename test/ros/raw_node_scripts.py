"""Pieces of the bare rclpy child scripts (`python -c ...`) some ROS tests start: they
must not import robot_tasks, so that what they show is rclpy's and Fast DDS's own behaviour."""

# The end of every such script: spin `node` until the test stops the process, then clean up.
SPIN_UNTIL_STOPPED = ("try:\n"
                      "    rclpy.spin(node)\n"
                      "except BaseException:\n"
                      "    pass\n"
                      "finally:\n"
                      "    node.destroy_node(); rclpy.try_shutdown()\n")
