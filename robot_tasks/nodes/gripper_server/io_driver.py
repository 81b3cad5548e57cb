"""The gripper server's client of a UR's IO controller: a suction cup on a digital output and input.

Universal_Robots_ROS2_Driver (branch kilted, `ur_controllers/src/gpio_controller.cpp`)
serves `<io_controller>/set_io` (ur_msgs/SetIO: fun, pin, state -> success; success=false
while the controller is inactive or for a pin it has no output for) and publishes
`<io_controller>/io_states` (ur_msgs/IOStates) every control cycle, `digital_in_states[pin]`
being input `pin`. The cup's vacuum valve hangs on `vacuum_output_pin`, its vacuum switch
(on = an object seals the cup) on `vacuum_sensor_pin` (the cell config says which).

io_states is a stream: it is subscribed only while goals run (ServerStreams), and an input
is trusted only from a message younger than `state_timeout` wall seconds.
"""
from __future__ import annotations

import threading
import time

from rclpy.qos import QoSProfile, ReliabilityPolicy

from ur_msgs.msg import IOStates
from ur_msgs.srv import SetIO

IO_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)   # the driver's SystemDefaultsQoS


class IoDriver:
    def __init__(self, node, params):
        self.node, self.params = node, params
        base = params.io_controller.rstrip("/")
        self.state_topic = f"{base}/io_states"
        self.client = node.create_client(SetIO, f"{base}/set_io")
        self.service_name = node.resolve_service_name(f"{base}/set_io")
        self.topic_name = node.resolve_topic_name(self.state_topic)
        self._lock = threading.Lock()
        self._inputs: dict[int, bool] = {}
        self._received = -float("inf")        # monotonic s of the last io_states

    def subscribe(self) -> list:
        """The goal-time stream (for ServerStreams)."""
        return [self.node.create_subscription(IOStates, self.state_topic, self._on_states, IO_QOS)]

    def _on_states(self, msg) -> None:
        with self._lock:
            self._inputs = {int(d.pin): bool(d.state) for d in msg.digital_in_states}
            self._received = time.monotonic()

    def fresh(self) -> bool:
        return time.monotonic() - self._received <= self.params.state_timeout

    def vacuum(self) -> bool | None:
        """The vacuum switch (True: an object is attached); None if io_states lacks the pin."""
        with self._lock:
            return self._inputs.get(self.params.vacuum_sensor_pin)

    def ready(self) -> bool:
        return self.client.service_is_ready()

    def missing(self) -> str:
        return f"no service {self.service_name} (is the UR driver's io_and_status_controller running?)"

    def set_vacuum(self, on: bool):
        """Call set_io for the vacuum valve; returns the response future."""
        request = SetIO.Request(fun=SetIO.Request.FUN_SET_DIGITAL_OUT, pin=self.params.vacuum_output_pin,
                                state=float(SetIO.Request.STATE_ON if on else SetIO.Request.STATE_OFF))
        return self.client.call_async(request)
