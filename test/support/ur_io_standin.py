"""A stand-in for a UR's IO controller (io_and_status_controller), with a vacuum cup on two pins.

Written from Universal_Robots_ROS2_Driver's source (branch kilted,
`ur_controllers/src/gpio_controller.cpp`) and ur_msgs (SetIO.srv, IOStates.msg), not from
this project's servers or sim:

- service `io_and_status_controller/set_io` (ur_msgs/SetIO): FUN_SET_DIGITAL_OUT with pin
  0..17 sets that output (state != 0 = on) and answers success=true; FUN_SET_ANALOG_OUT with
  pin 0..2 and FUN_SET_TOOL_VOLTAGE answer success=true; anything else success=false; while
  the controller is inactive (`active` false) every request answers success=false ("Can't
  accept new requests. Controller is not running.").
- topic `io_and_status_controller/io_states` (ur_msgs/IOStates, reliable, volatile): 18
  digital inputs and outputs (index = pin), 2 analog inputs and outputs, no flags, every
  cycle (`rate` Hz; the real controller publishes at the controller manager's rate).
The cell: a vacuum valve on output `vacuum_output_pin`, its vacuum switch on input
`vacuum_sensor_pin`, on `vacuum_delay` s after the valve opens while `object_under_cup` is
true, off at once when the valve closes. `publish` false: no io_states at all.

Run: python test/support/ur_io_standin.py --ros-args -p object_under_cup:=true
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402  (imports no ROS)
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds()

from rclpy.node import Node  # noqa: E402

from ur_msgs.msg import Analog, Digital, IOStates  # noqa: E402
from ur_msgs.srv import SetIO  # noqa: E402

PINS = 18


class UrIoStandIn(Node):
    def __init__(self):
        super().__init__("ur_io_standin")
        param = lambda name, default: self.declare_parameter(name, default).value  # noqa: E731
        self.active = bool(param("active", True))
        self.object_under_cup = bool(param("object_under_cup", False))
        self.vacuum_output, self.vacuum_sensor = int(param("vacuum_output_pin", 16)), int(param("vacuum_sensor_pin", 16))
        self.vacuum_delay = float(param("vacuum_delay", 0.1))
        self.outputs, self.inputs = [False] * PINS, [False] * PINS
        self.valve_opened = None            # monotonic s the valve opened
        self.set_io_calls = 0
        self.create_service(SetIO, "io_and_status_controller/set_io", self.on_set_io)
        self.pub = self.create_publisher(IOStates, "io_and_status_controller/io_states", 10)
        if param("publish", True):
            self.create_timer(1.0 / float(param("rate", 100.0)), self.publish)
        self.get_logger().info("UR IO stand-in up")

    def on_set_io(self, request, response):
        self.set_io_calls += 1
        if not self.active:
            self.get_logger().error("Can't accept new requests. Controller is not running.")
            response.success = False
            return response
        if request.fun == SetIO.Request.FUN_SET_DIGITAL_OUT and 0 <= request.pin <= 17:
            on = request.state != 0.0
            if request.pin == self.vacuum_output and on and not self.outputs[request.pin]:
                self.valve_opened = time.monotonic()
            self.outputs[request.pin] = on
            response.success = True
        else:
            response.success = request.fun in (SetIO.Request.FUN_SET_ANALOG_OUT, SetIO.Request.FUN_SET_TOOL_VOLTAGE) \
                and (request.fun != SetIO.Request.FUN_SET_ANALOG_OUT or 0 <= request.pin <= 2)
        return response

    def publish(self):
        valve = self.outputs[self.vacuum_output]
        self.inputs[self.vacuum_sensor] = bool(valve and self.object_under_cup and self.valve_opened is not None
                                               and time.monotonic() - self.valve_opened >= self.vacuum_delay)
        self.pub.publish(IOStates(
            digital_in_states=[Digital(pin=i, state=self.inputs[i]) for i in range(PINS)],
            digital_out_states=[Digital(pin=i, state=self.outputs[i]) for i in range(PINS)],
            analog_in_states=[Analog(pin=i) for i in range(2)],
            analog_out_states=[Analog(pin=i) for i in range(2)]))


def main() -> int:
    return run_node(UrIoStandIn, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main())
