"""SetDigitalOutput leaf: switch one of a robot's digital outputs (ur_msgs/SetIO).

A UR's IO controller (ur_robot_driver's io_and_status_controller, `<io>/set_io`) switches
its digital outputs with FUN_SET_DIGITAL_OUT, a pin and a state; it answers success=false
while the controller is inactive or for a pin it has no output for. What hangs on an
output is the cell's wiring: in ur10_palletizing the belt's PLC takes its "run" signal from
digital out 0 (config/ur10_palletizing.yaml), so the tree runs and pauses the belt with

    <SetDigitalOutput name="pause_conveyor" service_name="ur10/io_and_status_controller/set_io"
                      pin="0" state="false"/>
"""
from __future__ import annotations

from robot_tasks.bt import InputPort, NodeStatus
from robot_tasks.ros.leaves.service_node import RosServiceNode, ServiceNodeErrorCode


class SetDigitalOutput(RosServiceNode):
    """Call ur_msgs/SetIO with FUN_SET_DIGITAL_OUT on `pin`; SUCCESS when it answers success=true."""

    default_service_name = "io_and_status_controller/set_io"

    def __init__(self, name, config, ros_node):
        from ur_msgs.srv import SetIO

        super().__init__(name, config, ros_node)
        self.service_type = SetIO

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [
            InputPort("pin", int, description="digital output: 0-7 standard, 8-15 configurable, 16-17 tool"),
            InputPort("state", bool, description="true = on, false = off"),
        ]

    def set_request(self, request) -> bool:
        pin = self.get_input("pin")
        if not 0 <= pin <= 17:
            raise ValueError(f"pin {pin} is not a digital output (0-17)")
        request.fun = request.FUN_SET_DIGITAL_OUT
        request.pin = pin
        request.state = float(request.STATE_ON if self.get_input("state") else request.STATE_OFF)
        return True

    def on_response(self, response) -> NodeStatus:
        if not response.success:
            return self.fail(ServiceNodeErrorCode.SERVICE_FAILED,
                             f"'{self._name}' refused to switch output {self.get_input('pin')} "
                             f"(success=false: is the IO controller active?)")
        return NodeStatus.SUCCESS
