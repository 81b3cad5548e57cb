"""The UR's IO controller for one simulated UR10: the suction cup and the belt hang on its pins.

A real UR under Universal_Robots_ROS2_Driver (branch kilted: `ur_controllers/src/
gpio_controller.cpp`, spawned as `io_and_status_controller` by `ur_robot_driver/launch/
ur_control.launch.py`) offers its digital and analog IO as:

  service <ns>/io_and_status_controller/set_io     ur_msgs/srv/SetIO (fun, pin, state) -> success
  pub     <ns>/io_and_status_controller/io_states  ur_msgs/msg/IOStates

with its rules, which this class follows:
* FUN_SET_DIGITAL_OUT with pin 0..17 (standard 0-7, configurable 8-15, tool 16-17) sets
  the output to `state` (non-zero = on) and answers success once the robot confirms it;
  FUN_SET_ANALOG_OUT with pin 0..2 and FUN_SET_TOOL_VOLTAGE answer success too (the sim
  keeps the two analog outputs and ignores the voltage); anything else (FUN_SET_FLAG, a pin
  out of range) answers success=false.
* io_states: 18 digital inputs and 18 digital outputs (index = pin), 2 analog inputs and 2
  analog outputs, no flags; the controller publishes it every control cycle (the sim: at
  its joint_state_rate, and at once when an input changes, while somebody listens).

What is wired to which pin is the cell's choice, written in the cell config (the sim's
`vacuum_output_pin`, `vacuum_sensor_pin`, `conveyor_output_pin`; config/ur10_palletizing.yaml):
* the vacuum valve of the suction cup on an output: on = suction (SuctionGripper.on/off);
* the cup's vacuum switch on an input: true while an object is attached;
* the belt's PLC "run" input on an output: on = the belt runs, off = paused (the World's
  conveyor, if the scene has one). A digital output is how a PLC-driven belt is wired to
  a robot, so a real cell drives its belt through the same `set_io` call.
An output's state in io_states is the device's state (after a reset the vacuum is off and
the belt runs again, as the scene starts).
"""
from __future__ import annotations

import math

from ur_msgs.msg import Analog, Digital, IOStates
from ur_msgs.srv import SetIO

CONTROLLER = "io_and_status_controller"
DIGITAL_PINS = 18
ANALOG_PINS = 2


class UrIO:
    """set_io / io_states of one RobotIO whose robot is a UR (see the module docstring)."""

    def __init__(self, node, robot_io, vacuum_output: int, vacuum_sensor: int, conveyor_output: int):
        self.node, self.io = node, robot_io
        self._log = node.get_logger()
        self.vacuum_output, self.vacuum_sensor, self.conveyor_output = vacuum_output, vacuum_sensor, conveyor_output
        self._outputs = [False] * DIGITAL_PINS          # outputs wired to nothing keep their value
        self._analog_out = [0.0] * ANALOG_PINS
        self._sensor: bool | None = None                 # the vacuum switch as last published
        name = lambda rel: robot_io.topic(f"{CONTROLLER}/{rel}")  # noqa: E731
        self._pub = node.create_publisher(IOStates, name("io_states"), 10)
        node.create_service(SetIO, name("set_io"), self._on_set_io)
        self._msg = IOStates(
            digital_in_states=[Digital(pin=i) for i in range(DIGITAL_PINS)],
            digital_out_states=[Digital(pin=i) for i in range(DIGITAL_PINS)],
            analog_in_states=[Analog(pin=i) for i in range(ANALOG_PINS)],
            analog_out_states=[Analog(pin=i) for i in range(ANALOG_PINS)])

    # --- the devices on the pins (stepping thread) ---------------------------------------
    @property
    def suction(self):
        return self.io.robot.gripper        # looked up each time: a reset builds a new one

    def _conveyor(self):
        return self.io.world.conveyor

    def output(self, pin: int) -> bool:
        if pin == self.vacuum_output:
            return bool(self.suction.enabled)
        conveyor = self._conveyor()
        if pin == self.conveyor_output and conveyor is not None:
            return bool(conveyor.running)
        return self._outputs[pin]

    def input(self, pin: int) -> bool:
        if pin == self.vacuum_sensor:
            return self.suction.state().attached_object != ""
        return False

    def _set_digital(self, pin: int, on: bool) -> bool:
        self._outputs[pin] = on
        if pin == self.vacuum_output and on:
            self.suction.on()
        elif pin == self.vacuum_output:
            self.suction.off()
        conveyor = self._conveyor()
        if pin == self.conveyor_output and conveyor is not None:
            conveyor.running = on
        self.poll(None)
        return True

    def _set_analog(self, pin: int, value: float) -> bool:
        if pin < ANALOG_PINS:
            self._analog_out[pin] = value
        return True

    # --- set_io (executor thread) ----------------------------------------------------------
    def _on_set_io(self, request, response):
        fun, pin, state = int(request.fun), int(request.pin), float(request.state)
        try:
            if fun == SetIO.Request.FUN_SET_DIGITAL_OUT and 0 <= pin < DIGITAL_PINS and math.isfinite(state):
                response.success = bool(self.node.inbox.call(self._set_digital, pin, state != 0.0))
                self._log.info(f"{self.io.name}: Setting digital output '{pin}' to state: '{state:1.0f}'.")
            elif fun == SetIO.Request.FUN_SET_ANALOG_OUT and 0 <= pin <= 2 and math.isfinite(state):
                response.success = bool(self.node.inbox.call(self._set_analog, pin, state))
            elif fun == SetIO.Request.FUN_SET_TOOL_VOLTAGE:
                response.success = True
            else:
                response.success = False
        except Exception as err:  # noqa: BLE001 - the sim is stopping: refuse, say why in the log
            self._log.warning(f"{self.io.name}: set_io refused: {err}")
            response.success = False
        return response

    # --- io_states (stepping thread) --------------------------------------------------------
    def rebind(self) -> None:
        """After World.reset(): the devices were rebuilt (vacuum off, belt as the scene starts)."""
        self._sensor = None
        self.poll(None)

    def poll(self, seconds: float | None) -> None:
        """Publish at once when the vacuum switch changed (an event the server waits for)."""
        sensor = self.input(self.vacuum_sensor)
        if sensor != self._sensor:
            self._sensor = sensor
            self.publish_state(seconds)

    def publish_state(self, _seconds: float | None = None) -> None:
        """io_states (IOStates has no header: nothing to stamp)."""
        if self._pub.get_subscription_count() == 0:
            return
        msg = self._msg
        for pin in range(DIGITAL_PINS):
            msg.digital_in_states[pin].state = self.input(pin)
            msg.digital_out_states[pin].state = self.output(pin)
        for pin in range(ANALOG_PINS):
            msg.analog_out_states[pin].state = float(self._analog_out[pin])
        self._pub.publish(msg)
