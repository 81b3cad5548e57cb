"""The pure parts of the pyramid task: the shared entries, what rests on what, the targets."""
from __future__ import annotations

import math

import pytest

from robot_tasks.bt import BehaviorTreeFactory, Blackboard, NodeStatus
from robot_tasks.sim.scenes.franka_pyramid import pyramid_slots
from robot_tasks.tasks.pyramid import register_pyramid_nodes
from robot_tasks.tasks.pyramid import shared_board as board
from robot_tasks.tasks.pyramid import targets as geo
from robot_tasks.tasks.pyramid.pyramid_view import PyramidError, free_cubes, top_down_order, walk_labels
from robot_tasks.tasks.world_view import Seen

SLOT_NAMES = ["b0", "b1", "b2", "m0", "m1", "top"]   # pyramid_slots order: bottom row, middle row, top


def pyramid_seen(without=()):
    return {n: Seen(n, (x, y, z + 0.025)) for n, (x, y, z) in zip(SLOT_NAMES, pyramid_slots()) if n not in without}


def test_only_cubes_with_nothing_on_them_are_free():
    assert free_cubes(pyramid_seen()) == {"top"}
    assert free_cubes(pyramid_seen(without={"top"})) == {"m0", "m1"}
    assert free_cubes(pyramid_seen(without={"top", "m0"})) == {"b0", "m1"}        # m1 still rests on b1, b2
    assert free_cubes(pyramid_seen(without={"top", "m0", "m1"})) == {"b0", "b1", "b2"}


def test_top_down_order_is_layers_from_the_top_each_by_y():
    assert top_down_order(pyramid_seen(), SLOT_NAMES) == ["top", "m0", "m1", "b0", "b1", "b2"]
    assert top_down_order(pyramid_seen(without={"m1"}), SLOT_NAMES + ["unseen"]) == ["top", "m0", "b0", "b1", "b2"]


def test_walk_labels_checks_its_indices():
    cubes = ["a", "b", "c"]
    assert walk_labels(cubes, "0;2;1") == ["a", "c", "b"]
    for bad in ("0;1", "0;1;1", "0;x;2", "0;1;3"):
        with pytest.raises(PyramidError, match="walk"):
            walk_labels(cubes, bad)


def test_reserve_first_takes_the_first_available_free_cube_and_keeps_it():
    b = board.DictBoard()
    walk = ["top", "m0", "m1"]
    assert board.reserve_first(b, "panda_1", walk, free={"m0", "m1"}) == "m0"
    assert board.cube_state(b, "m0") == "reserved:panda_1"
    assert board.reserve_first(b, "panda_1", walk, free={"m1"}) == "m0"          # keeps its reservation
    assert board.reserve_first(b, "panda_2", walk, free={"m0"}) is None           # m0 is taken
    assert board.reserve_first(b, "panda_2", walk, free={"m0", "m1"}) == "m1"
    board.mark_placed(b, "m0", "panda_1")
    assert board.reserve_first(b, "panda_1", walk, free={"m0"}) is None           # placed is not available
    assert board.release_reservation(b, "m1", "panda_1") is False
    assert board.release_reservation(b, "m1", "panda_2") and board.cube_state(b, "m1") == "available"


def test_center_lock_has_one_owner():
    b = board.DictBoard()
    assert board.try_lock_center(b, "panda_1") and board.try_lock_center(b, "panda_1")
    assert not board.try_lock_center(b, "panda_2")
    assert not board.unlock_center(b, "panda_2") and board.center_owner(b) == "panda_1"
    assert board.unlock_center(b, "panda_1") and board.center_owner(b) == ""
    assert board.try_lock_center(b, "panda_2")


def test_the_center_lock_takes_turns():
    """The robot that waited goes next, even when the one that left asks again first
    (a failed pick leaves the center and retries at once); a halted wait gives its turn up."""
    b = board.DictBoard()
    assert board.try_lock_center(b, "panda_1")
    assert not board.try_lock_center(b, "panda_2")            # panda_2 waits: its turn is next
    assert board.unlock_center(b, "panda_1")
    assert not board.try_lock_center(b, "panda_1")            # not yours: panda_2 waited
    assert board.center_owner(b) == "" and board.center_next(b) == "panda_2"
    assert board.try_lock_center(b, "panda_2") and board.center_next(b) == ""
    assert not board.try_lock_center(b, "panda_1")
    board.stop_waiting_for_center(b, "panda_1")               # panda_1's wait was halted
    assert board.unlock_center(b, "panda_2")
    assert board.try_lock_center(b, "panda_2")                # nobody waits: whoever asks


def test_a_halted_wait_for_the_center_gives_its_turn_up():
    factory = BehaviorTreeFactory()
    register_pyramid_nodes(factory)
    shared = Blackboard()
    shared.set("center_owner", "panda_1")
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="T"><AcquireCenterLock robot="panda_2"/></BehaviorTree></root>',
        Blackboard(parent=shared))
    assert tree.tick_once() is NodeStatus.RUNNING and shared.get("center_next") == "panda_2"
    tree.halt_tree()
    assert shared.get("center_next") == ""


def test_pick_targets_use_the_scenario_heights_and_a_grip_across_the_rows():
    poses = geo.pick_targets((0.5, 0.05, 0.65), 0.02, robot_yaw=math.pi / 2)
    assert poses["approach_pose"]["z"] == pytest.approx(0.85)
    assert poses["grasp_pose"]["z"] == pytest.approx(0.65)
    assert poses["lift_pose"]["z"] == pytest.approx(0.625 + 0.35)
    assert geo.yaw_of_pose(poses["grasp_pose"]) == pytest.approx(0.02 + math.pi / 2)
    # the facing Panda (base yaw pi) turns the other quarter: its wrist stays near its own forward
    assert geo.grasp_yaw_near(0.02, math.pi + math.pi / 2) == pytest.approx(0.02 - math.pi / 2)


def test_place_targets_put_the_cube_not_the_tool_on_the_goal():
    goal = geo.goal_position((0.46, 0.28), placed=2)
    assert goal[2] == pytest.approx(0.625 + 0.025 + 0.10)
    offset = geo.in_hand_offset((0.505, 0.0, 0.99), (0.5, 0.0, 1.0))       # cube 5 mm off in x, 1 cm low
    poses = geo.place_targets(goal, offset, yaw=0.0)
    assert poses["place_pose"]["x"] == pytest.approx(0.455)
    assert poses["place_pose"]["z"] == pytest.approx(goal[2] + 0.01 + 0.004)
    assert poses["place_approach_pose"]["z"] == poses["retract_pose"]["z"] == pytest.approx(goal[2] + 0.325)
    assert geo.in_hand_offset((0.6, 0.0, 1.0), (0.5, 0.0, 1.0)) == (0.0, 0.0, 0.0)   # not in the hand: ignored
    assert geo.in_hand_offset(None, (0.5, 0.0, 1.0)) == (0.0, 0.0, 0.0)


def test_a_cube_is_on_the_stack_only_at_its_level_over_the_goal():
    goal = geo.goal_position((0.46, 0.28), placed=1)                   # second level: centre z 0.70
    assert geo.on_stack((0.47, 0.29, 0.705), goal)                    # perception's few mm
    assert not geo.on_stack((0.46, 0.33, 0.650), goal)                # slid off the top: on the table beside
    assert not geo.on_stack((0.50, 0.28, 0.700), goal)                # 4 cm aside at the right height
    assert not geo.on_stack((0.46, 0.28, 0.650), goal)                # where the level below is: not this cube
    assert geo.on_stack((0.50, 0.28, 0.700), goal, within=0.05)


def test_settle_watch_wants_two_tenths_of_a_second_within_8_mm():
    watch = geo.SettleWatch(0.2, 0.008)
    for t, x in ((0.0, 0.0), (0.1, 0.05), (0.2, 0.055)):
        watch.add(t, (x, 0.0, 0.0))
    assert not watch.settled                      # the 0.1 s sample is 5 mm away but 0.0 is 5.5 cm away
    watch.add(0.3, (0.056, 0.0, 0.0))
    assert watch.settled                          # 0.1 .. 0.3 s all within 8 mm
    watch.add(0.4, (0.08, 0.0, 0.0))
    assert not watch.settled
    watch.add(0.4, (0.5, 0.0, 0.0))               # the same image again changes nothing
    assert watch.samples[-1][1][0] == 0.08


def test_why_not_free_names_the_reason_of_each_cube():
    from robot_tasks.tasks.pyramid.shared_leaves import why_not_free

    b = board.DictBoard()
    board.mark_placed(b, "b0", "panda_1")
    board.reserve_first(b, "panda_2", ["m0"], free={"m0"})
    seen = pyramid_seen(without={"top", "b2"})
    assert why_not_free(b, ["b0", "m0", "m1", "b1", "b2"], seen) == [
        "b0 placed:panda_1", "m0 reserved:panda_2", "", "b1 under m0+m1", "b2 not seen"]


def test_reserve_cube_gives_up_after_its_timeout_saying_why(caplog):
    """A cube the camera no longer sees cannot become free: the wait ends, it does not hang."""
    import time

    from robot_tasks.bt import BehaviorTreeFactory, Blackboard, NodeStatus
    from robot_tasks.tasks.pyramid import register_pyramid_nodes

    factory = BehaviorTreeFactory()
    register_pyramid_nodes(factory)
    xml = """<root BTCPP_format="4"><BehaviorTree ID="T">
      <ReserveCube robot="panda_2" cubes="{@cubes}" walk="0;1" detections="{detections}" cube="{cube}"
                   timeout="0.3"/></BehaviorTree></root>"""
    shared = Blackboard()
    shared.set("cubes", ["top", "m0"])
    board.mark_placed(SharedBoard(shared), "top", "panda_1")
    local = Blackboard(parent=shared)
    local.set("detections", [{"label": "m1", "pose": {"position": {"x": 0.5, "y": 0.0, "z": 0.7}}}])
    tree = factory.create_tree_from_text(xml, local)
    started = time.monotonic()
    with caplog.at_level("INFO", logger="robot_tasks.tasks.pyramid"):
        status = tree.tick_once()
        while status is NodeStatus.RUNNING and time.monotonic() - started < 5.0:
            time.sleep(0.05)
            status = tree.tick_once()
    assert status is NodeStatus.FAILURE and 0.3 <= time.monotonic() - started < 2.0
    assert "giving up (top placed:panda_1; m0 not seen)" in caplog.text


def test_reserve_cube_fails_hidden_once_an_available_cube_is_unseen_for_hidden_timeout_camera_s():
    """The wait for a cube the camera cannot see ends in FAILURE 'hidden' for the XML to
    branch on, timed by the detections' stamps; seeing the cube again restarts the clock."""
    from robot_tasks.bt import BehaviorTreeFactory, Blackboard, NodeStatus
    from robot_tasks.tasks.pyramid import register_pyramid_nodes

    factory = BehaviorTreeFactory()
    register_pyramid_nodes(factory)
    xml = """<root BTCPP_format="4"><BehaviorTree ID="T">
      <ReserveCube robot="panda_2" cubes="{@cubes}" walk="0;1" detections="{detections}" cube="{cube}"
                   hidden_timeout="2.0" wait_reason="{why}"/></BehaviorTree></root>"""
    shared = Blackboard()
    shared.set("cubes", ["top", "m0"])
    board.mark_placed(SharedBoard(shared), "top", "panda_1")
    local = Blackboard(parent=shared)
    tree = factory.create_tree_from_text(xml, local)
    m0_under = {"label": "m0", "pose": {"position": {"x": 0.5, "y": 0.0, "z": 0.65}}}
    on_m0 = {"label": "other", "pose": {"position": {"x": 0.5, "y": 0.0, "z": 0.70}}}

    def tick(t, objects):
        local.set("detections", {"header": {"stamp": {"sec": t, "nanosec": 0}}, "objects": objects})
        return tree.tick_exactly_once()

    assert [tick(t, []) for t in (10, 11)] == [NodeStatus.RUNNING] * 2          # m0 unseen for 1 s
    assert tick(12, [m0_under, on_m0]) is NodeStatus.RUNNING                   # seen (under another): clock reset
    assert [tick(t, []) for t in (13, 14)] == [NodeStatus.RUNNING] * 2
    assert tick(15, []) is NodeStatus.FAILURE and local.get("why") == "hidden"
    assert tick(16, [m0_under]) is NodeStatus.SUCCESS and local.get("cube") == "m0" and local.get("why") == ""


class SharedBoard:
    """The shared board's keys as a root blackboard holds them (what SharedView writes)."""

    def __init__(self, blackboard):
        self.blackboard = blackboard

    def get(self, key, default=None):
        return self.blackboard.get(key, default)

    def set(self, key, value):
        self.blackboard.set(key, value)


def test_a_booked_cube_seen_away_from_the_goal_was_knocked_off():
    goal, level = (0.54, -0.28), lambda k: 0.625 + 0.025 + 0.05 * k
    booked = {"yellow": (0.541, -0.279, level(0)),        # still at the bottom
              "purple": (0.700, -0.125, level(0)),        # knocked onto the table (seed 1 of the bench)
              "green": None}                              # not seen now: no evidence
    assert geo.knocked_off(booked, goal) == ["purple"]
    assert geo.knocked_off({"a": (0.586, -0.230, level(0))}, goal) == ["a"]          # 6.8 cm aside
    assert geo.knocked_off({"a": (0.560, -0.280, level(0))}, goal) == []             # 2 cm: still on it
    # the bottom one knocked away, the one above fell onto the goal: one level left, on it
    assert geo.knocked_off({"bottom": (0.62, -0.20, level(0)), "top": (0.54, -0.28, level(0))}, goal) == ["bottom"]
    # seen at the goal but higher than any level the booked cubes can make: not on the stack
    assert geo.knocked_off({"a": (0.54, -0.28, level(2))}, goal) == ["a"]


def test_reconcile_own_stack_books_knocked_cubes_available_and_counts_the_rest(caplog):
    from robot_tasks.bt import BehaviorTreeFactory, Blackboard, NodeStatus
    from robot_tasks.tasks.pyramid import register_pyramid_nodes

    factory = BehaviorTreeFactory()
    register_pyramid_nodes(factory)
    xml = """<root BTCPP_format="4"><BehaviorTree ID="T">
      <ReconcileOwnStack robot="panda_2" cubes="{@cubes}" detections="{detections}" goal="0.54;-0.28"
                         placed="{placed}"/></BehaviorTree></root>"""
    shared = Blackboard()
    shared.set("cubes", ["a", "b", "c", "d"])
    view = SharedBoard(shared)
    for cube in ("a", "b"):
        board.mark_placed(view, cube, "panda_2")
    board.mark_placed(view, "c", "panda_1")              # the other robot's: never touched
    local = Blackboard(parent=shared)
    local.set("detections", [{"label": "a", "pose": {"position": {"x": 0.54, "y": -0.28, "z": 0.65}}},
                             {"label": "b", "pose": {"position": {"x": 0.70, "y": -0.12, "z": 0.65}}},
                             {"label": "c", "pose": {"position": {"x": 0.10, "y": 0.10, "z": 0.65}}}])
    tree = factory.create_tree_from_text(xml, local)
    with caplog.at_level("WARNING", logger="robot_tasks.tasks.pyramid"):
        assert tree.tick_once() is NodeStatus.SUCCESS
    assert local.get("placed") == 1
    assert board.cube_state(view, "b") == "available" and board.cube_state(view, "a") == "placed:panda_2"
    assert board.cube_state(view, "c") == "placed:panda_1"
    assert "panda_2's b was knocked off its stack" in caplog.text
    assert tree.tick_once() is NodeStatus.SUCCESS and local.get("placed") == 1    # nothing more to do


def test_two_booked_cubes_on_one_level_leave_the_one_nearer_the_goal():
    goal = (0.54, -0.28)
    # bench drag seed 0: red slid off the second level and leans against blue, 4 cm aside
    assert geo.knocked_off({"blue": (0.54, -0.296, 0.650), "red": (0.54, -0.24, 0.656)}, goal) == ["red"]
    # both within 3 cm, but a level holds one cube
    assert geo.knocked_off({"a": (0.562, -0.28, 0.65), "b": (0.541, -0.28, 0.65)}, goal) == ["a"]
    assert geo.knocked_off({"a": (0.541, -0.28, 0.65), "b": (0.562, -0.28, 0.70)}, goal) == []


def test_the_grip_turns_a_quarter_when_a_cube_stands_on_its_closing_axis():
    yaw0 = geo.grasp_yaw_near(0.0, 0.0)              # panda_1's default: fingers close along world y
    assert geo.closing_axis(yaw0) == pytest.approx((0.0, -1.0))
    cube = (0.54, -0.24, 0.65)
    beside_in_y = [(0.54, -0.296, 0.65)]               # a stack's bottom cube 5.6 cm away in y
    turned = geo.grasp_yaw_clear_of(cube, 0.0, 0.0, beside_in_y)
    assert abs(geo.closing_axis(turned)[1]) == pytest.approx(0.0, abs=1e-9)          # now along x
    assert geo.grasp_yaw_clear_of(cube, 0.0, 0.0, [(0.60, -0.24, 0.65)]) == pytest.approx(yaw0)   # in x: keep
    assert geo.grasp_yaw_clear_of(cube, 0.0, 0.0, [(0.54, -0.30, 0.60)]) == pytest.approx(yaw0)   # below: keep
    assert geo.grasp_yaw_clear_of(cube, 0.0, 0.0, [(0.54, -0.40, 0.65)]) == pytest.approx(yaw0)   # far: keep
    # the pyramid's rows run along x, 4 mm gaps: the default grip across them is kept
    row = [(x, 0.0, 0.65) for x in (0.446, 0.554)]
    assert geo.grasp_yaw_clear_of((0.5, 0.0, 0.65), 0.0, 0.0, row) == pytest.approx(yaw0)


def test_the_in_hand_offset_keeps_nothing_along_the_fingers_closing_axis():
    tool = (0.5, 0.0, 1.0)
    # panda_2 (yaw pi) closes along world y; the bench saw readings 1.5 cm off in y there
    closing = geo.closing_axis(math.pi)
    assert geo.in_hand_offset((0.501, -0.015, 1.0), tool, closing=closing) == pytest.approx((0.001, 0.0, 0.0))
    turned = geo.closing_axis(math.pi / 4)                       # a diagonal grip keeps the other diagonal
    offset = geo.in_hand_offset((0.51, 0.01, 0.99), tool, closing=turned)
    assert offset[0] * turned[0] + offset[1] * turned[1] == pytest.approx(0.0, abs=1e-12)
    assert offset[2] == pytest.approx(-0.01)
    assert geo.in_hand_offset((0.6, 0.0, 1.0), tool, closing=closing) == (0.0, 0.0, 0.0)


def test_a_cube_below_the_table_top_fell_off_and_gets_no_pick_poses():
    """Pyramid bench, drop seed 0: a dropped cube bounced onto the floor (seen at z 0.025) and
    panda_2 tried to restage above it for 20 minutes (no IK solution, 7040 tries)."""
    from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
    from robot_tasks.tasks import register_nodes

    assert not geo.fell_off_table((0.5, 0.3, geo.TABLE_Z + 0.025))      # resting on the table
    assert geo.fell_off_table((0.7, 0.42, 0.025))                        # on the floor
    factory = BehaviorTreeFactory()
    register_nodes(factory)
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="T"><PickPoses cube="b0" detections="{detections}" base_yaw="0" '
        'approach_pose="{a}" grasp_pose="{g}" lift_pose="{l}" picked_from="{p}"/></BehaviorTree></root>')

    def detections(z):
        return [{"label": "b0", "id": "b0", "pose": {"position": {"x": 0.6, "y": 0.4, "z": z},
                                                     "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}}}]

    tree.root_blackboard.set("detections", detections(geo.TABLE_Z + 0.025))
    assert tree.tick_once() is NodeStatus.SUCCESS
    tree.root_blackboard.set("detections", detections(0.025))
    assert tree.tick_once() is NodeStatus.FAILURE
