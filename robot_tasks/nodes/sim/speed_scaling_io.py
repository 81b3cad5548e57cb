"""A UR's speed slider and its broadcaster, as Universal_Robots_ROS2_Driver serves them.

On a UR the teach pendant's speed slider scales how fast the controller executes, and the
driver (kilted branch, `ur_controllers`) exposes it twice:

  srv <ns>/io_and_status_controller/set_speed_slider   ur_msgs/SetSpeedSliderFraction
      a fraction in [0.01, 1.0] sets the slider; anything else is refused (success false)
      (`gpio_controller.cpp`)
  pub <ns>/speed_scaling_state_broadcaster/speed_scaling   std_msgs/Float64
      the scaling in *percent* (the state interface times 100), at `state_publish_rate`
      100 Hz (`speed_scaling_state_broadcaster.cpp`, `ur_controllers.yaml`)

Its joint_trajectory_controller reads the same value from the hardware and advances along
the trajectory at that fraction of its time; in the sim that is the arm controller's
`speed_scaling`, the value JTC's `speed_scaling_input` topic sets too.
"""
from __future__ import annotations

import math

from std_msgs.msg import Float64

from ur_msgs.srv import SetSpeedSliderFraction

SLIDER_SERVICE = "io_and_status_controller/set_speed_slider"
BROADCAST_TOPIC = "speed_scaling_state_broadcaster/speed_scaling"
SLIDER_RANGE = (0.01, 1.0)


class SpeedSliderIO:
    """The slider service and the broadcaster of one simulated UR (see the module docstring)."""

    def __init__(self, node, robot_io):
        self.node, self.io = node, robot_io
        self._pub = node.create_publisher(Float64, robot_io.topic(BROADCAST_TOPIC), 10)
        self._msg = Float64()
        node.create_service(SetSpeedSliderFraction, robot_io.topic(SLIDER_SERVICE), self._on_slider)

    def _on_slider(self, request, response):
        fraction = float(request.speed_slider_fraction)
        low, high = SLIDER_RANGE
        if not (math.isfinite(fraction) and low <= fraction <= high):
            self.node.get_logger().error(f"{self.io.name}: speed slider fraction {fraction} refused: "
                                         f"it must be in [{low}, {high}]")
            response.success = False
            return response

        def set_slider() -> None:
            self.io.robot.controller.speed_scaling = fraction
        try:
            self.node.inbox.call(set_slider)
            response.success = True
            self.node.get_logger().info(f"{self.io.name}: speed slider set to {fraction * 100:.0f} %")
        except Exception as err:  # noqa: BLE001 - the sim is stopping: say so, refuse
            self.node.get_logger().error(f"{self.io.name}: speed slider not set: {err}")
            response.success = False
        return response

    def publish(self) -> None:
        """The scaling in percent (stepping thread, at the joint_state rate)."""
        self._msg.data = float(self.io.robot.controller.speed_scaling) * 100.0
        self._pub.publish(self._msg)
