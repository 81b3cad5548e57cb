"""A controller's parameter services, served by the sim under the controller's name.

In ros2_control every controller is a node named after it, in the controller_manager's
namespace, and its parameters are set at run time through that node's standard services:

  srv  <ns>/<controller>/get_parameters    rcl_interfaces/GetParameters
  srv  <ns>/<controller>/set_parameters    rcl_interfaces/SetParameters
  srv  <ns>/<controller>/list_parameters   rcl_interfaces/ListParameters

(`ros2 param set /panda/hybrid_press stiffness.trans_x 800.0` uses them.) The sim's
controllers live inside the sim node, so the sim serves these three services for each of
them with the same names and types; a parameter is a `ControllerParameter`: a name, its
current value (read on the stepping thread) and, unless it is read-only, a setter that
applies a new value there or raises CommandRejected with the reason (the response's
`reason`, `successful` false), as a controller's on-set-parameters callback refuses.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rcl_interfaces.msg import ListParametersResult, SetParametersResult
from rcl_interfaces.srv import GetParameters, ListParameters, SetParameters
from rclpy.parameter import Parameter, parameter_value_to_python

from robot_tasks.nodes.sim.inbox import InboxClosed
from robot_tasks.sim.errors import CommandRejected


@dataclass(frozen=True)
class ControllerParameter:
    name: str
    read: Callable[[], object]                    # stepping thread: the current value
    write: Callable[[object], None] | None = None  # stepping thread; None = read-only


class ParameterServices:
    """get/set/list_parameters of one controller (`topic` maps a relative name under <ns>)."""

    def __init__(self, node, topic: Callable[[str], str], controller: str, parameters):
        self.node, self.controller = node, controller
        self.parameters = {p.name: p for p in parameters}
        self._log = node.get_logger()
        node.create_service(GetParameters, topic(f"{controller}/get_parameters"), self._on_get)
        node.create_service(SetParameters, topic(f"{controller}/set_parameters"), self._on_set)
        node.create_service(ListParameters, topic(f"{controller}/list_parameters"), self._on_list)

    def _on_get(self, request, response):
        def read():
            return [self.parameters[n].read() if n in self.parameters else None for n in request.names]
        try:
            values = self.node.inbox.call(read)
        except (InboxClosed, TimeoutError):
            values = [None] * len(request.names)
        response.values = [Parameter(n, value=v).get_parameter_value() if v is not None
                           else Parameter(n).get_parameter_value() for n, v in zip(request.names, values)]
        return response

    def _on_set(self, request, response):
        def write():
            return [self._set_one(p.name, parameter_value_to_python(p.value)) for p in request.parameters]
        try:
            response.results = self.node.inbox.call(write)
        except (InboxClosed, TimeoutError) as err:
            response.results = [SetParametersResult(successful=False, reason=str(err))
                                for _ in request.parameters]
        return response

    def _set_one(self, name: str, value) -> SetParametersResult:
        parameter = self.parameters.get(name)
        if parameter is None:
            return SetParametersResult(successful=False, reason=f"parameter '{name}' is not declared "
                                                               f"by controller '{self.controller}'")
        if parameter.write is None:
            return SetParametersResult(successful=False, reason=f"parameter '{name}' is read-only")
        try:
            parameter.write(value)
        except (CommandRejected, TypeError, ValueError) as err:
            reason = getattr(err, "reason", str(err))
            self._log.warning(f"{self.controller}: {name} = {value!r} refused: {reason}")
            return SetParametersResult(successful=False, reason=reason)
        self._log.info(f"{self.controller}: {name} = {value!r}")
        return SetParametersResult(successful=True)

    def _on_list(self, request, response):
        prefixes = list(request.prefixes)
        names = [n for n in self.parameters if not prefixes or any(n.startswith(p) for p in prefixes)]
        response.result = ListParametersResult(names=names, prefixes=sorted(
            {n.rsplit(".", 1)[0] for n in names if "." in n}))
        return response
