"""RosServiceNode: a behavior-tree leaf that calls a ROS 2 service without blocking.

Like :class:`robot_tasks.ros.leaves.action_node.RosActionNode`, in BehaviorTree.ROS2's
style: a subclass names ``service_type``, fills the request (:meth:`set_request`)
and maps the response (:meth:`on_response`). ``on_start`` waits tick by tick for
the service (``wait_for_server_timeout``), sends the request with ``call_async``;
``on_running`` polls the future, failing after ``server_timeout``. A halt simply
forgets the pending call (services cannot be cancelled).

Concrete leaves: ``TriggerService`` (std_srvs/srv/Trigger), ``SetBoolService``
(std_srvs/srv/SetBool), ``ResetScene`` (robot_tasks_interfaces/srv/ResetScene).
"""
from __future__ import annotations

import enum
import time

from robot_tasks.bt import InputPort, NodeStatus, OutputPort, StatefulActionNode
from robot_tasks.bt.errors import BehaviorTreeError


class ServiceNodeErrorCode(enum.IntEnum):
    SERVICE_UNREACHABLE = 1   # no server within wait_for_server_timeout
    SERVICE_TIMEOUT = 2       # no response within server_timeout
    INVALID_REQUEST = 3       # the ports could not be turned into a request
    SERVICE_FAILED = 4        # the response says it did not work (see error_message)


def service_client_for(ros_node, srv_type, service_name: str):
    """One shared client per (node, type, name), created on first use."""
    cache = ros_node.__dict__.setdefault("_robot_tasks_service_clients", {})
    key = (srv_type, service_name)
    client = cache.get(key)
    if client is None:
        client = ros_node.create_client(srv_type, service_name)
        cache[key] = client
    return client


class RosServiceNode(StatefulActionNode):
    """Base class of service-call leaves."""

    service_type = None
    default_service_name = ""

    def __init__(self, name, config, ros_node):
        super().__init__(name, config)
        self.ros_node = ros_node  # None only when registered for validation (see register_nodes)
        self._future = None
        self.last_error = ""

    @classmethod
    def provided_ports(cls):
        return [
            InputPort("service_name", str, default=cls.default_service_name, description="service to call"),
            InputPort("server_timeout", int, default=2000, description="ms to wait for the response"),
            InputPort("wait_for_server_timeout", int, default=2000, description="ms to wait for the service"),
            OutputPort("error_code", str, description="a ServiceNodeErrorCode name on failure"),
            OutputPort("error_message", str, description="why the call failed"),
        ]

    def set_request(self, request) -> bool | None:
        """Fill `request` from the ports; False or ValueError -> INVALID_REQUEST."""
        return True

    def on_response(self, response) -> NodeStatus:
        return NodeStatus.SUCCESS

    def on_start(self) -> NodeStatus:
        if self.ros_node is None:
            raise BehaviorTreeError(f"{self.full_path}: {type(self).__name__} was registered without an "
                                    f"rclpy node; use register_ros_nodes(factory, ros_node)")
        self._future = None
        self.last_error = ""
        try:
            self._name = self.get_input("service_name")
            self._client = service_client_for(self.ros_node, self.service_type, self._name)
            self._deadline = time.monotonic() + self.get_input("wait_for_server_timeout") / 1000.0
        except (BehaviorTreeError, ValueError, TypeError) as exc:
            return self.fail(ServiceNodeErrorCode.INVALID_REQUEST, str(exc))
        return self.on_running()

    def on_running(self) -> NodeStatus:
        now = time.monotonic()
        if self._future is None:
            if not self._client.service_is_ready():
                if now >= self._deadline:
                    return self.fail(ServiceNodeErrorCode.SERVICE_UNREACHABLE,
                                     f"service '{self._name}' not available")
                return NodeStatus.RUNNING
            request = self.service_type.Request()
            try:
                ok = self.set_request(request)
            except (BehaviorTreeError, ValueError, TypeError, AssertionError) as exc:
                return self.fail(ServiceNodeErrorCode.INVALID_REQUEST, str(exc))
            if ok is False:
                return self.fail(ServiceNodeErrorCode.INVALID_REQUEST, "set_request() refused the ports")
            self._future = self._client.call_async(request)
            self._deadline = now + self.get_input("server_timeout") / 1000.0
            return NodeStatus.RUNNING
        if self._future.done():
            future, self._future = self._future, None
            if future.exception() is not None:
                return self.fail(ServiceNodeErrorCode.SERVICE_FAILED, str(future.exception()))
            return self.on_response(future.result())
        if now >= self._deadline:
            self._client.remove_pending_request(self._future)
            self._future = None
            return self.fail(ServiceNodeErrorCode.SERVICE_TIMEOUT, f"no response from '{self._name}'")
        return NodeStatus.RUNNING

    def on_halted(self) -> None:
        if self._future is not None and not self._future.done():
            self._client.remove_pending_request(self._future)
        self._future = None

    def fail(self, error: ServiceNodeErrorCode, message: str) -> NodeStatus:
        self.last_error = f"{error.name}: {message}"  # the executor quotes it in its result message
        self.ros_node.get_logger().warning(f"[{self.full_path}] {error.name}: {message}")
        for port, value in (("error_code", error.name), ("error_message", message)):
            if port in self.config.output_ports:
                self.set_output(port, value)
        return NodeStatus.FAILURE

    def answered(self, ok: bool, message: str) -> NodeStatus:
        """The end of a service that answers with a verdict and a text (std_srvs' Trigger,
        controller_manager's SwitchController): the text goes to the `message` port when
        the tree wires it; SUCCESS when `ok`, else a SERVICE_FAILED failure quoting it."""
        if "message" in self.config.output_ports:
            self.set_output("message", message)
        if not ok:
            return self.fail(ServiceNodeErrorCode.SERVICE_FAILED, message)
        return NodeStatus.SUCCESS


class TriggerService(RosServiceNode):
    """Call a std_srvs/srv/Trigger service; SUCCESS when it answers success=true."""

    def __init__(self, name, config, ros_node):
        from std_srvs.srv import Trigger

        self.service_type = Trigger
        super().__init__(name, config, ros_node)

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [OutputPort("message", str, description="the response message")]

    def on_response(self, response) -> NodeStatus:
        return self.answered(response.success, response.message)


class SetBoolService(TriggerService):
    """Call a std_srvs/srv/SetBool service with `data`; SUCCESS when success=true."""

    def __init__(self, name, config, ros_node):
        from std_srvs.srv import SetBool

        RosServiceNode.__init__(self, name, config, ros_node)
        self.service_type = SetBool

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [InputPort("data", bool, description="the request's data")]

    def set_request(self, request) -> bool:
        request.data = self.get_input("data")
        return True


class ResetScene(TriggerService):
    """Call the sim's ResetScene service (robot_tasks_interfaces/srv/ResetScene)."""

    default_service_name = "reset_scene"

    def __init__(self, name, config, ros_node):
        from robot_tasks_interfaces.srv import ResetScene as Srv

        RosServiceNode.__init__(self, name, config, ros_node)
        self.service_type = Srv

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [
            InputPort("seed", int, default=-1, description="spawn seed; negative = the last one")]

    def set_request(self, request) -> bool:
        request.seed = self.get_input("seed")
        return True
