"""The compliance_server's side of controller_manager and of a controller's parameters.

Three kinds of calls, each with a deadline (`switch_timeout` wall seconds), from the
server's async goal coroutine:

- `controllers()`: controller_manager's list_controllers (controller_manager_msgs) ->
  {name: ControllerState};
- `switch_to(name, listed)`: activate `name` and, in the same STRICT request, deactivate
  every active controller that claims a command interface `name` needs — one arm, one
  controller, as controller_manager demands (it refuses to activate a controller while
  another holds its interfaces). ok false -> the manager's message;
- `get_parameters` / `set_parameters` on `<ns>/<controller>/...` (rcl_interfaces): how a
  ros2_control controller's parameters are read and changed at run time.

A service that is not there, or does not answer within the deadline, raises
`ControllerCallFailed` naming it: "no controller_manager" is an error, never a silent wait.
"""
from __future__ import annotations

import time

from rcl_interfaces.srv import GetParameters, SetParameters

from controller_manager_msgs.srv import ListControllers, SwitchController
from robot_tasks.controller_topics import (
    GET_PARAMETERS_SERVICE,
    LIST_SERVICE,
    SET_PARAMETERS_SERVICE,
    SWITCH_SERVICE,
    under,
)
from robot_tasks.ros.async_tools import sleep

POLL_S = 0.01


class ControllerCallFailed(Exception):
    """A controller_manager or parameter service was absent, silent or said no (`refused`)."""

    def __init__(self, message: str, refused: bool = False):
        super().__init__(message)
        self.refused = refused


class ControllerClient:
    def __init__(self, node, namespace: str, timeout: float):
        self.node, self.namespace, self.timeout = node, namespace, timeout
        self.list_client = node.create_client(ListControllers, under(namespace, LIST_SERVICE))
        self.switch_client = node.create_client(SwitchController, under(namespace, SWITCH_SERVICE))
        self._param_clients: dict = {}

    async def call(self, client, request, what: str):
        """The response of `client`, or ControllerCallFailed after `timeout` wall seconds."""
        deadline = time.monotonic() + self.timeout
        name = self.node.resolve_service_name(client.srv_name)
        while not client.service_is_ready():
            if time.monotonic() > deadline:
                raise ControllerCallFailed(f"service '{name}' is not available (waited {self.timeout:g} s)")
            await sleep(self.node, POLL_S)
        future = client.call_async(request)
        while not future.done():
            if time.monotonic() > deadline:
                client.remove_pending_request(future)
                raise ControllerCallFailed(f"no answer from '{name}' to {what} within {self.timeout:g} s")
            await sleep(self.node, POLL_S)
        return future.result()

    # --- controller_manager ------------------------------------------------------------
    async def controllers(self) -> dict:
        response = await self.call(self.list_client, ListControllers.Request(), "list_controllers")
        return {c.name: c for c in response.controller}

    async def switch_to(self, name: str, listed: dict) -> None:
        """Make `name` the arm's active controller (no-op if it is)."""
        if listed[name].state == "active":
            return
        needs = set(listed[name].required_command_interfaces)
        holders = [c.name for c in listed.values()
                   if c.state == "active" and c.name != name and needs & set(c.claimed_interfaces)]
        request = SwitchController.Request(activate_controllers=[name], deactivate_controllers=holders,
                                           strictness=SwitchController.Request.STRICT)
        response = await self.call(self.switch_client, request, f"switch to '{name}'")
        if not response.ok:
            raise ControllerCallFailed(f"controller_manager refused to switch {holders} -> '{name}': "
                                       f"{response.message}", refused=True)

    # --- a controller's parameters -------------------------------------------------------
    def _params(self, controller: str):
        clients = self._param_clients.get(controller)
        if clients is None:
            ns = self.namespace
            clients = self._param_clients[controller] = (
                self.node.create_client(GetParameters, under(ns, GET_PARAMETERS_SERVICE.format(controller=controller))),
                self.node.create_client(SetParameters, under(ns, SET_PARAMETERS_SERVICE.format(controller=controller))))
        return clients

    async def get_parameters(self, controller: str, names) -> list:
        response = await self.call(self._params(controller)[0], GetParameters.Request(names=list(names)),
                                   f"get {list(names)}")
        return list(response.values)

    async def set_parameters(self, controller: str, parameters) -> None:
        """rclpy Parameters; ControllerCallFailed with the controller's reason if one is refused."""
        request = SetParameters.Request(parameters=[p.to_parameter_msg() for p in parameters])
        response = await self.call(self._params(controller)[1], request,
                                   f"set {[p.name for p in parameters]}")
        refused = [f"{p.name}: {r.reason}" for p, r in zip(parameters, response.results) if not r.successful]
        if refused:
            raise ControllerCallFailed(f"controller '{controller}' refused {'; '.join(refused)}", refused=True)
