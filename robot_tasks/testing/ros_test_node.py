"""An rclpy node inside the test, and waiting for what the launched nodes do.

A test of real nodes talks to them as any ROS node would: it publishes, subscribes, sends
goals. :class:`RosTestNode` is that node: a :class:`~robot_tasks.ros.client.RosClient` with
its own rclpy Context (so tests never share or leak the global one), spun by a
SingleThreadedExecutor in a background thread, so callbacks run while the test thread waits.

Everything about other processes arrives *eventually*: a node appears in the graph some
0.1 s after it starts, an action server is ready a moment later, a topic's first message
after that. So a test never sleeps a fixed time; it waits for a condition
(:meth:`RosTestNode.wait_for` and the helpers built on it, :func:`wait_until` without ROS),
always with a timeout, and a failed wait says what was awaited and shows the tail of every
launched process's log -- and fails at once when a launched node dies, the usual reason a
wait would time out.

    with RosTestNode("probe", env, launcher=launcher) as probe:
        probe.wait_for_node("arm_server")
        client = probe.create_action_client(MoveToPose, "move_to_pose")
        probe.wait_for_action_server(MoveToPose, "move_to_pose", client=client)

Imports rclpy lazily (when a RosTestNode is made), so importing this module is cheap.
"""
from __future__ import annotations

import os
import re
import threading
import time
from typing import Callable, Iterable

from robot_tasks.testing.launcher import HarnessError, NodeLauncher, NodeProcess, RosTestEnv
from robot_tasks.testing.procfs import fastdds_segments, fastdds_segments_of

POLL_S = 0.02  # graph polling period: small next to discovery (~0.1 s), cheap on CPU
MATCH_SETTLE_S = 0.5  # s a new action client waits for the server to discover it (wait_for_action_server)


def safe_node_name(prefix: str, name: str) -> str:
    """A valid ROS node name (60 chars at most) from a prefix and a pytest test name:
    ("test", "test_x[a-1]") -> "test_test_x_a_1_"."""
    return re.sub(r"\W", "_", f"{prefix}_{name}")[:60]


def _normalize_node_name(name: str) -> tuple[str, str]:
    """"arm" -> ("/", "arm"); "/robot1/arm" -> ("/robot1", "arm")."""
    name = "/" + name.strip("/")
    ns, _, base = name.rpartition("/")
    return ns or "/", base


class RosTestNode:
    """An rclpy node for use inside a test: a RosClient (robot_tasks.ros.client) spun in a
    background thread, with the waiting helpers a test needs.

    The RosClient has its own rclpy Context (so tests never share or leak the global
    one) and a SingleThreadedExecutor. Use this as a context manager or call
    :meth:`close`, which also records the Fast DDS shared memory the process mapped,
    so the launcher can check that nothing is left behind.

    Callbacks run on the executor thread; the test thread waits with
    :meth:`wait_for` / :meth:`wait_future`, never by spinning itself.
    """

    def __init__(self, name: str, env: RosTestEnv, launcher: NodeLauncher | None = None):
        from robot_tasks.ros.client import RosClient

        self.env = env
        self.launcher = launcher
        # the variables are read when the participant is created, i.e. in RosClient
        env.apply_to_current_process()
        self.client = RosClient(name, configure_dds=False, domain_id=env.domain_id)  # Ctrl-C stays pytest's
        self.context, self.node, self.executor = self.client.context, self.client.node, self.client.executor
        self._closed = False
        self.segments: set[str] = set()  # Fast DDS shm files mapped by this process at close()
        self.client.start_thread()

    def __enter__(self) -> "RosTestNode":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Shut down in the documented order; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self.segments = fastdds_segments_of(os.getpid())
        if self.launcher is not None:
            self.launcher.watched_segments |= self.segments
        try:
            self.client.close()
        except RuntimeError as exc:                 # the spin thread did not stop
            raise HarnessError(str(exc)) from None

    def leftover_segments(self) -> set[str]:
        """After close() *and* after every other participant it talked to has stopped:
        shm files it had mapped that still exist and that no other context of this
        process maps (empty when everything shut down cleanly). With other nodes still
        running, their own segments (which this node mapped to write to them) count too,
        so prefer NodeLauncher.watched_segments, checked by stop_all()."""
        return (self.segments & fastdds_segments()) - fastdds_segments_of(os.getpid())

    # -- waiting ---------------------------------------------------------------
    def wait_for(self, predicate: Callable[[], bool], what: str, timeout: float = 10.0) -> float:
        """Poll `predicate` until true; return the seconds it took.

        Raises HarnessError after `timeout` s, or as soon as a launched process
        dies, with the tails of all process logs.
        """
        start = time.monotonic()
        deadline = start + timeout
        while True:
            if predicate():
                return time.monotonic() - start
            if self.launcher:
                self.launcher.check_alive(what)
            if time.monotonic() >= deadline:
                logs = self.launcher.describe_all() if self.launcher else ""
                raise HarnessError(f"timed out after {timeout:.1f} s waiting for {what} "
                                   f"(ROS_DOMAIN_ID={self.env.domain_id})\n{logs}")
            time.sleep(POLL_S)

    def wait_for_node(self, name: str, timeout: float = 10.0) -> float:
        """Wait until a node called `name` ("arm" or "/ns/arm") is in the graph."""
        ns, base = _normalize_node_name(name)
        return self.wait_for(
            lambda: (base, ns) in self.node.get_node_names_and_namespaces(),
            f"node '{name}' to appear in the ROS graph", timeout)

    def wait_for_publisher(self, topic: str, timeout: float = 10.0, count: int = 1) -> float:
        """Wait until `topic` has at least `count` publishers."""
        return self.wait_for(lambda: self.node.count_publishers(topic) >= count,
                             f"{count} publisher(s) on topic '{topic}'", timeout)

    def wait_for_subscriber(self, topic: str, timeout: float = 10.0, count: int = 1) -> float:
        """Wait until `topic` has at least `count` subscribers."""
        return self.wait_for(lambda: self.node.count_subscribers(topic) >= count,
                             f"{count} subscriber(s) on topic '{topic}'", timeout)

    def wait_for_action_server(self, action_type, action_name: str, timeout: float = 10.0,
                               client=None) -> float:
        """Wait until an `action_type` server named `action_name` is ready.

        Uses `client` (an rclpy ActionClient on this node) if given, else a
        temporary one, made and destroyed on the executor thread (see
        :meth:`create_action_client`).
        """
        own = client is None
        client = client or self.create_action_client(action_type, action_name)
        try:
            waited = self.wait_for(client.server_is_ready, f"action server '{action_name}'", timeout)
            # ready means this side found the server; the server may not have found the client
            # yet, and Fast DDS drops a response to a client it has not matched
            # (ros2/rmw_fastrtps#467): a client younger than MATCH_SETTLE_S waits until it is not
            made = getattr(client, "_robot_tasks_made_at", None)
            if made is not None and time.monotonic() - made < MATCH_SETTLE_S:
                time.sleep(MATCH_SETTLE_S - (time.monotonic() - made))
            return waited
        finally:
            if own:
                self.destroy_action_clients([client])

    # -- action clients ----------------------------------------------------------
    def run_on_executor(self, function: Callable[[], object], what: str, timeout: float = 10.0):
        """Run `function` on the executor thread (between callbacks); return its result."""
        return self.wait_future(self.executor.create_task(function), timeout, what)

    def create_action_client(self, action_type, action_name: str):
        """An rclpy ActionClient on this node, created on the executor thread.

        Why: rclpy 9.1.2's ActionClient adds itself to the node before it sets its
        ``_lock``, so the spinning executor can pick up a half-built client; and
        destroy() clears its handle while the node still lists it. Done from the test
        thread while the node spins, either can kill the spin thread (AttributeError),
        after which every wait of the test times out, now and then, under load. Destroy
        it with :meth:`destroy_action_clients`, or keep it for the node's lifetime.
        """
        from rclpy.action import ActionClient

        client = self.run_on_executor(lambda: ActionClient(self.node, action_type, action_name),
                                      f"creating an action client for '{action_name}'")
        client._robot_tasks_made_at = time.monotonic()
        return client

    def destroy_action_clients(self, clients: Iterable) -> None:
        """Destroy ActionClients of this node on the executor thread."""
        clients = list(clients)
        if clients:
            self.run_on_executor(lambda: [c.destroy() for c in clients],
                                 "destroying the action clients")

    def wait_for_service(self, srv_type, service_name: str, timeout: float = 10.0) -> float:
        """Wait until a `srv_type` service named `service_name` is ready."""
        client = self.node.create_client(srv_type, service_name)
        try:
            return self.wait_for(client.service_is_ready, f"service '{service_name}'", timeout)
        finally:
            self.node.destroy_client(client)

    def wait_future(self, future, timeout: float = 10.0, what: str = "a ROS future"):
        """Block the test thread until an rclpy Future is done; return its result."""
        done = threading.Event()
        future.add_done_callback(lambda _f: done.set())
        start = time.monotonic()
        while not done.wait(POLL_S):
            if self.launcher:
                self.launcher.check_alive(what)
            if time.monotonic() - start > timeout:
                logs = self.launcher.describe_all() if self.launcher else ""
                raise HarnessError(f"timed out after {timeout:.1f} s waiting for {what}\n{logs}")
        if future.exception() is not None:
            raise future.exception()
        return future.result()


class ActionClients:
    """The ActionClients a test makes on a RosTestNode, all destroyed by :meth:`destroy_all`
    (the ``action_clients`` fixture calls it at teardown); created and destroyed on the
    node's executor thread (see :meth:`RosTestNode.create_action_client`)."""

    def __init__(self, ros_node: RosTestNode):
        self.ros_node = ros_node
        self.clients: list = []

    def create(self, action_type, action_name: str):
        client = self.ros_node.create_action_client(action_type, action_name)
        self.clients.append(client)
        return client

    def wait_for_server(self, action_type, action_name: str, timeout: float = 10.0):
        """Wait until the server is ready; return the (kept) client that saw it."""
        client = self.create(action_type, action_name)
        self.ros_node.wait_for_action_server(action_type, action_name, timeout=timeout, client=client)
        return client

    def destroy_all(self) -> None:
        clients, self.clients = self.clients, []
        self.ros_node.destroy_action_clients(clients)


def wait_until(predicate: Callable[[], bool], what: str, timeout: float,
               processes: Iterable[NodeProcess] = ()) -> float:
    """Poll `predicate` without ROS (e.g. for a log line or a file); return seconds taken."""
    start = time.monotonic()
    while not predicate():
        for proc in processes:
            if not proc.is_running():
                raise HarnessError(f"{proc.name} exited while waiting for {what}\n{proc.describe()}")
        if time.monotonic() - start > timeout:
            logs = "\n".join(p.describe() for p in processes)
            raise HarnessError(f"timed out after {timeout:.1f} s waiting for {what}\n{logs}")
        time.sleep(POLL_S)
    return time.monotonic() - start
