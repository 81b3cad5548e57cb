"""The sim node's building blocks without a running node: wire templates, tickers, inbox."""
from __future__ import annotations

import threading

import pytest
from rclpy.serialization import deserialize_message
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState

from robot_tasks.nodes.sim.inbox import Inbox, InboxClosed
from robot_tasks.nodes.sim.loop import Ticker
from robot_tasks.nodes.sim.wire import ControllerStateWire, JointStateWire, ObjectStatesWire, clock_bytes, split_stamp
from robot_tasks.sim.objects import ObjectState
from robot_tasks_interfaces.msg import ObjectStateArray


def test_joint_state_bytes_round_trip_with_new_values():
    names = ["a", "bb", "ccc"]
    wire = JointStateWire(names)
    msg = deserialize_message(wire.serialize(7.25, [1.0, -2.0, 3.5], [0.0, 0.5, 0.0], [9.0, 8.0, 7.0]),
                              JointState)
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (7, 250_000_000)
    assert list(msg.name) == names and list(msg.position) == [1.0, -2.0, 3.5]
    assert list(msg.velocity) == [0.0, 0.5, 0.0] and list(msg.effort) == [9.0, 8.0, 7.0]


def test_controller_state_bytes_round_trip_in_both_modes():
    from robot_tasks_interfaces.msg import JointControllerState

    wire = ControllerStateWire(["f1", "f2"])
    msg = deserialize_message(wire.serialize(3.5, [0.0, 0.0], [0.02, 0.019], [-10.0, -10.0], "force"),
                              JointControllerState)
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (3, 500_000_000) and msg.mode == "force"
    assert list(msg.joint_names) == ["f1", "f2"] and list(msg.feedback.positions) == [0.02, 0.019]
    assert list(msg.error.positions) == [-0.02, -0.019] and list(msg.output) == [-10.0, -10.0]
    back = deserialize_message(wire.serialize(4.0, [0.04, 0.04], [0.04, 0.04], [0.04, 0.04], "position"),
                               JointControllerState)
    assert back.mode == "position" and list(back.reference.positions) == [0.04, 0.04]


def test_object_states_bytes_round_trip():
    states = [ObjectState(f"cube_{k}", "cube", "red", (k, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0),
                          (0.1, 0.2, 0.3), (0.4, 0.5, 0.6), (0.05, 0.05, 0.05), 1.0) for k in range(3)]
    wire = ObjectStatesWire(states, "world")
    msg = deserialize_message(wire.serialize(1.5, states), ObjectStateArray)
    assert msg.header.frame_id == "world" and msg.header.stamp.sec == 1
    assert [o.name for o in msg.objects] == ["cube_0", "cube_1", "cube_2"]
    assert msg.objects[2].pose.position.x == 2.0 and msg.objects[1].twist.angular.z == 0.6
    assert msg.objects[0].size.x == 0.05 and msg.objects[0].label == "cube"


def test_clock_bytes_and_stamp_split():
    msg = deserialize_message(clock_bytes(12.000000001), Clock)
    assert (msg.clock.sec, msg.clock.nanosec) == (12, 1)
    assert split_stamp(0.9999999999) == (1, 0)


def test_ticker_fires_once_per_period_and_skips_ahead_after_a_stall():
    ticker = Ticker(100.0)
    fired = [t / 240 for t in range(240) if ticker.due(t / 240)]
    assert len(fired) == 100
    ticker = Ticker(10.0)
    assert ticker.due(0.0) and not ticker.due(0.05)
    assert ticker.due(5.0) and not ticker.due(5.05) and ticker.due(5.1)
    assert not Ticker(0.0).due(1e9)


def test_inbox_runs_posts_in_order_and_calls_return_results():
    inbox, seen = Inbox(), []
    inbox.post(seen.append, 1)
    inbox.post(seen.append, 2)
    assert inbox
    inbox.drain()
    assert seen == [1, 2] and not inbox
    result = []
    caller = threading.Thread(target=lambda: result.append(inbox.call(lambda x: x * 2, 21)))
    caller.start()
    while not inbox:
        pass
    inbox.drain()
    caller.join(5.0)
    assert result == [42]


def test_inbox_hands_errors_back_and_close_fails_waiting_calls():
    errors = []
    inbox = Inbox(on_error=errors.append)
    inbox.post(lambda: 1 / 0)
    inbox.drain()
    assert isinstance(errors[0], ZeroDivisionError)
    failed = []

    def call():
        try:
            inbox.call(lambda: None)
        except InboxClosed as err:
            failed.append(err)

    caller = threading.Thread(target=call)
    caller.start()
    while not inbox:
        pass
    inbox.close()
    caller.join(5.0)
    assert failed and not caller.is_alive()
    with pytest.raises(InboxClosed):
        inbox.call(lambda: None)


class _CountingCamera:
    def __init__(self):
        self.frames = 0

    def publish(self, _t: float) -> bool:
        self.frames += 1
        return True


class _NodeStandIn:
    """What SteppingLoop reads of a SimNode, with a world that only counts time."""

    def __init__(self, camera_rate: float, cap: float, stream_rate: float = 0.0, stream_cap: float = 0.0):
        from types import SimpleNamespace

        self.params = SimpleNamespace(joint_state_rate=stream_rate, clock_rate=stream_rate, object_rate=0.0,
                                      camera_rate=camera_rate, camera_max_wall_rate=cap, real_time_factor=0.0,
                                      stream_max_wall_rate=stream_cap, controller_state=False,
                                      max_lead=-1.0)   # no commands come: no lead bound
        self.clocks = 0
        self.world = SimpleNamespace(time=0.0, time_step=1.0 / 240.0)
        self.world.step = lambda: setattr(self.world, "time", self.world.time + self.world.time_step)
        self.robots, self.objects, self.camera = [], None, _CountingCamera()
        self.inbox = SimpleNamespace(pending=False, drain=lambda: None)

    def ros_time(self) -> float:
        return self.world.time

    def publish_clock(self, _t: float) -> None:
        self.clocks += 1


class _NoGoals:
    def poll(self, _t: float) -> None:
        pass


class _CountingRobot:
    def __init__(self):
        self.joint_states = self.polls = 0
        self.trajectory_controller = _NoGoals()

    def publish_joint_states(self, _t: float) -> None:
        self.joint_states += 1

    def poll_gripper(self) -> None:
        self.polls += 1


def test_stream_wall_cap_thins_clock_and_joint_states_faster_than_real_time_only():
    import time

    from robot_tasks.nodes.sim.loop import SteppingLoop

    # 10 sim s at 100 Hz: 1000 of each uncapped; capped at 150 per wall second, about 150
    # per wall second the stepping took -- but the gripper is still polled every tick
    results = {}
    for cap in (0.0, 150.0):
        node = _NodeStandIn(0.0, 0.0, stream_rate=100.0, stream_cap=cap)
        robot = _CountingRobot()
        node.robots = [robot]
        started = time.perf_counter()
        loop = SteppingLoop(node)
        loop.run(lambda: False, max_steps=2400)
        results[cap] = (node.clocks, robot.joint_states, robot.polls, loop.gated, time.perf_counter() - started)
    assert results[0.0][:4] == (1000, 1000, 1000, 0)
    clocks, joint_states, polls, gated, wall = results[150.0]
    assert wall < 1.0, "the stand-in should step 10 sim s far faster than real time"
    assert 1 <= clocks <= 150 * wall + 2 and 1 <= joint_states <= 150 * wall + 2
    assert polls == 1000 and gated == 2000 - clocks - joint_states


def test_stream_wall_cap_drops_nothing_at_real_time():
    from robot_tasks.nodes.sim.loop import WallGate

    gate, passed, t = WallGate(150.0), 0, 0.0
    for _ in range(500):                      # 100 Hz in wall time, with 2 ms of jitter
        t += 0.010 + (0.002 if passed % 2 else -0.002)
        if gate.open(t):
            gate.passed(t)
            passed += 1
    assert passed == 500


def test_camera_wall_cap_skips_frames_faster_than_real_time_only():
    from robot_tasks.nodes.sim.loop import SteppingLoop

    # 10 sim s stepped in far less than a wall second: uncapped, 50 frames; capped at
    # 5 per wall second, only the first frame of that wall second is rendered
    uncapped, capped = _NodeStandIn(5.0, 0.0), _NodeStandIn(5.0, 5.0)
    for node in (uncapped, capped):
        SteppingLoop(node).run(lambda: False, max_steps=2400)
    assert uncapped.camera.frames == 50
    assert 1 <= capped.camera.frames <= 3


def test_pre_serialized_bytes_are_exactly_the_message_for_a_strict_reader():
    """rclpy's serialize_message leaves buffer garbage after the data; the wire templates cut
    it, so a strict CDR reader (rosbags, reading a recorded bag) takes every message."""
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore

    from robot_tasks.ros.message_schemas import msg_text

    store = get_typestore(Stores.ROS2_KILTED)
    for name in ("JointControllerState", "ObjectState", "ObjectStateArray"):
        store.register(get_types_from_msg(msg_text("robot_tasks_interfaces", name),
                                          f"robot_tasks_interfaces/msg/{name}"))
    joint = store.deserialize_cdr(JointStateWire(["a", "b"]).serialize(1.0, [1.0, 2.0], [0.0, 0.0], [0.0, 0.0]),
                                  "sensor_msgs/msg/JointState")
    assert list(joint.position) == [1.0, 2.0]
    wire = ControllerStateWire(["f1", "f2"])
    for mode in ("position", "force"):
        state = store.deserialize_cdr(wire.serialize(2.0, [0.0, 0.0], [0.01, 0.01], [-5.0, -5.0], mode),
                                      "robot_tasks_interfaces/msg/JointControllerState")
        assert state.mode == mode and list(state.output) == [-5.0, -5.0]
    states = [ObjectState("cube_0", "cube", "red", (1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0), (0.0,) * 3, (0.0,) * 3,
                          (0.05,) * 3, 1.0)]
    array = store.deserialize_cdr(ObjectStatesWire(states, "world").serialize(1.5, states),
                                  "robot_tasks_interfaces/msg/ObjectStateArray")
    assert array.objects[0].name == "cube_0"


class _RefusingRobot(_CountingRobot):
    """Its joint_states publisher fails every other time, as Fast DDS does when a reliable
    write blocks longer than max_blocking_time behind a slow reader."""

    def publish_joint_states(self, t: float) -> None:
        from robot_tasks.nodes.sim.loop import RCLError

        super().publish_joint_states(t)
        if self.joint_states % 2:
            raise RCLError("Failed to publish: cannot publish data, at /project/src/rmw_publish.cpp:120")


def test_a_publication_dds_refuses_is_dropped_and_the_sim_steps_on():
    from types import SimpleNamespace

    from robot_tasks.nodes.sim.loop import SteppingLoop

    node = _NodeStandIn(5.0, 0.0, stream_rate=100.0)
    warnings = []
    node.get_logger = lambda: SimpleNamespace(warning=warnings.append)
    robot = _RefusingRobot()
    node.robots = [robot]
    loop = SteppingLoop(node)
    assert loop.run(lambda: False, max_steps=2400) == 2400
    assert robot.joint_states == 1000 and loop.dropped == 500
    # everything else still went out, the gripper poll of every failed tick included
    assert node.clocks == 1000 and robot.polls == 1000 and node.camera.frames == 50
    assert len(warnings) == 1 and "'joint_states'" in warnings[0] and "cannot publish data" in warnings[0]


# ---- rtf 0's lead bound (lead.py), on a made-up clock ------------------------------------
def _lead(executing=lambda: False, said=None):
    from robot_tasks.nodes.sim.lead import LeadBound

    return LeadBound(0.1, 1 / 240, executing, (said if said is not None else []).append)


def test_lead_bound_runs_free_until_the_nodes_first_act():
    lead = _lead()
    assert lead.delay(t=50.0, now=0.0) == 0.0      # nobody commanded the sim: no bound


def test_lead_bound_steps_real_time_past_max_lead_and_says_so_once():
    said = []
    lead = _lead(said=said)
    lead.acknowledge(10.0)
    assert lead.delay(10.05, now=100.0) == 0.0     # within max_lead: full speed
    assert lead.delay(10.1, now=100.0) == 0.0      # the bound binds here: the schedule starts now
    assert lead.delay(10.2, now=100.0) == pytest.approx(0.1)    # one sim s per wall s from there
    assert lead.delay(10.2, now=100.1) == pytest.approx(0.0)
    lead.acknowledge(10.3)                          # a command: full speed again
    assert lead.delay(10.35, now=100.15) == 0.0
    lead.delay(10.4, now=100.2)
    assert lead.delay(11.0, now=100.2) == pytest.approx(0.6)
    assert len(said) == 1 and "said once" in said[0]
    assert lead.paced_spells == 2


def test_lead_bound_lets_a_running_command_go_at_full_speed():
    running = [True]
    lead = _lead(executing=lambda: running[0])
    lead.acknowledge(0.0)
    for k in range(1, 100):                         # a 2 s trajectory: never waits
        assert lead.delay(k * 0.02, now=0.0) == 0.0
    running[0] = False            # it ended by 1.98 s: at most max_lead more at full speed
    free = [k * 0.02 for k in range(99, 120) if lead.delay(k * 0.02, now=0.0) == 0.0]
    assert 1.98 <= free[-1] <= 1.98 + 0.1 + 1e-9


def test_lead_bound_does_not_catch_up_after_a_slow_step():
    lead = _lead()
    lead.acknowledge(0.0)
    lead.delay(0.1, now=0.0)
    assert lead.delay(0.11, now=5.0) == 0.0         # a long camera frame: re-anchored, no burst
    assert lead.delay(0.21, now=5.0) == pytest.approx(0.1)


class _RefusedControllerState(_CountingRobot):
    """A robot whose per-step controller state DDS refuses every 100th step (seen once in a
    bench: 'Failed to publish: cannot publish data', and the sim exited)."""

    def __init__(self):
        super().__init__()
        self.records = 0

    def publish_controller_state(self, _t: float) -> None:
        from rclpy._rclpy_pybind11 import RCLError

        self.records += 1
        if self.records % 100 == 0:
            raise RCLError("Failed to publish: cannot publish data")


def test_a_refused_controller_state_is_dropped_and_counted_and_the_sim_steps_on():
    from robot_tasks.nodes.sim.loop import SteppingLoop

    node = _NodeStandIn(0.0, 0.0, stream_rate=100.0)
    node.params.controller_state = True
    node.get_logger = lambda: type("Log", (), {"warning": lambda self, _msg: None})()
    robot = _RefusedControllerState()
    node.robots = [robot]
    loop = SteppingLoop(node)
    loop.run(lambda: False, max_steps=1000)
    assert loop.steps == 1000 and robot.records == 1000
    assert loop.dropped == 10
    assert robot.joint_states == 417                 # the 100 Hz stream went on: t = 0, 0.01, ... 4.16 s


def test_lead_bound_summary_is_read_back_from_a_log():
    from robot_tasks.nodes.sim.lead import paced_in_log

    lead = _lead()
    lead.acknowledge(10.0)
    lead.delay(10.1, now=100.0)                     # a paced spell begins at 10.1 ...
    lead.acknowledge(12.35)                         # ... and ends with the next command
    log = f"[sim] [INFO] [1.5] [sim]: {lead.summary()}\n[sim] [INFO] [1.6] [sim]: stopping\n"
    assert "paced at real time 1 times" in log
    assert lead.paced_sim == pytest.approx(2.25)
    assert paced_in_log(log) == pytest.approx(2.25, abs=0.051)  # printed to 0.1 s
    assert paced_in_log("[sim] [INFO] [1.6] [sim]: stopping\n") is None
