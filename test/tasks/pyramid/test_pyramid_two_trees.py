"""Two instances of trees/franka_pyramid.xml's PyramidRobot, ticked in random interleavings
against a kinematic fake cell (pyramid_fake_cell.py): the shared blackboard, reservation
and the center lock as the two robots see them.

Each instance is its own Tree whose root blackboard has the shared board as parent (the
BT.CPP way of sharing a blackboard between trees); `@`-keys reach the shared board.
"""
from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest
from paths import REPO
from pyramid_fake_cell import SIZE, TABLE_Z, FakeCell, factory_for

from robot_tasks.bt import Blackboard, NodeStatus
from robot_tasks.tasks.pyramid import view_leaves

TREE_FILE = REPO / "trees" / "franka_pyramid.xml"
ROBOTS = {
    "panda_1": {"base_position": "0;0;0.625", "base_yaw": 0.0, "goal": "0.46;0.28", "walk": "0;1;2;3;4;5",
                "home": "0.25;0.10;1.0;1;0;0;0"},
    "panda_2": {"base_position": "1;0;0.625", "base_yaw": 3.14159265, "goal": "0.54;-0.28", "walk": "0;2;1;5;4;3",
                "home": "0.75;-0.10;1.0;0;1;0;0"},
}
GOALS = {"panda_1": (0.46, 0.28), "panda_2": (0.54, -0.28)}
SURVEY = """<root BTCPP_format="4"><BehaviorTree ID="Survey"><Sequence>
  <TopicToBlackboard topic_name="detections" message_type="robot_tasks_interfaces/msg/DetectedObjectArray"
                     output="{detections}"/>
  <SurveyPyramid detections="{detections}" cubes="{cubes}"
                 labels="red_cube;blue_cube;green_cube;yellow_cube;orange_cube;purple_cube"/>
</Sequence></BehaviorTree></root>"""
CENTER_PHASES = ("approach", "grasp_down", "lift", "restage")


def robot_tree(factory, shared, robot):
    board = Blackboard(parent=shared)
    for key, value in {**ROBOTS[robot], "robot": robot, "stack_size": 3, "move_action": f"{robot}/move_to_pose",
                       "gripper_action": f"{robot}/gripper_command", "joint_states_topic": f"{robot}/joint_states",
                       "description_topic": f"{robot}/robot_description"}.items():
        board.set(key, value)
    return factory.create_tree("PyramidRobot", board)


def two_robot_cell(seed):
    cell = FakeCell.pyramid(seed)
    factory = factory_for(cell)
    factory.register_behavior_tree_from_file(TREE_FILE)
    shared = Blackboard()
    assert factory.create_tree_from_text(SURVEY, shared).tick_once() is NodeStatus.SUCCESS
    return cell, shared, {r: robot_tree(factory, shared, r) for r in ROBOTS}


def nodes_of(tree, registration_id, status=NodeStatus.RUNNING):
    return [n for n in tree.nodes if n.registration_id == registration_id and n.status is status]


class Referee:
    """Checks the rules after every tick and counts what happened."""

    def __init__(self, cell, shared, trees):
        self.cell, self.shared, self.trees = cell, shared, trees
        self.reserved_by: dict[str, set] = {}
        self.in_center: set[str] = set()
        self.waits = {r: 0 for r in trees}
        self.both_in_motion = 0
        self.seen_log = 0

    def check(self):
        for key, value in self.shared.items():
            if key.startswith("cube_state:") and value.startswith("reserved:"):
                self.reserved_by.setdefault(key.split(":", 1)[1], set()).add(value.split(":", 1)[1])
        assert all(len(r) == 1 for r in self.reserved_by.values()), f"a cube reserved twice: {self.reserved_by}"
        for line in self.cell.log[self.seen_log:]:
            robot, verb, what = line.split(" ", 2)
            if verb == "move" and what in CENTER_PHASES:
                self.in_center.add(robot)
            elif verb == "move":
                self.in_center.discard(robot)
        self.seen_log = len(self.cell.log)
        assert len(self.in_center) <= 1, f"both robots in the center: {self.cell.log[-6:]}"
        for robot in self.in_center:
            assert self.shared.get("center_owner") == robot, f"{robot} in the center without the lock"
        for robot, tree in self.trees.items():
            if nodes_of(tree, "AcquireCenterLock") or nodes_of(tree, "ReserveCube"):
                self.waits[robot] += 1
                moving = nodes_of(tree, "MoveToPose") + nodes_of(tree, "GripperCommand")
                assert not moving, f"{robot} waits but runs {[n.name for n in moving]}"
                assert self.cell.arms[robot].moving is None
        if all(a.moving for a in self.cell.arms.values()):
            self.both_in_motion += 1


def run_interleaved(seed, max_ticks=20000):
    cell, shared, trees = two_robot_cell(seed)
    referee = Referee(cell, shared, trees)
    rng = random.Random(seed)
    status = {r: NodeStatus.RUNNING for r in trees}
    for _ in range(max_ticks):
        order = [r for r in trees if status[r] is NodeStatus.RUNNING and rng.random() < 0.7]
        rng.shuffle(order)
        for robot in order:
            status[robot] = trees[robot].tick_exactly_once()
            referee.check()
        cell.after_tick()
        if all(s is not NodeStatus.RUNNING for s in status.values()):
            break
    return cell, shared, trees, status, referee


def run_in_fixed_order(cell, shared, trees, max_ticks=20000):
    """Tick the running trees in dict order, the referee checking after every tick,
    until none runs; their statuses."""
    referee = Referee(cell, shared, trees)
    status = {r: NodeStatus.RUNNING for r in trees}
    for _ in range(max_ticks):
        for robot in trees:
            if status[robot] is NodeStatus.RUNNING:
                status[robot] = trees[robot].tick_exactly_once()
                referee.check()
        cell.after_tick()
        if all(s is not NodeStatus.RUNNING for s in status.values()):
            break
    return status


def stack_at(cell, goal):
    on_goal = [(p[2], n) for n, p in cell.cubes.items() if np.hypot(p[0] - goal[0], p[1] - goal[1]) < 0.01]
    return [n for _z, n in sorted(on_goal)], sorted(z for z, _n in on_goal)


def run_main_tree(cell, tree_id, max_ticks=40000):
    """Tick one tree of the file (FrankaPyramid: both instances in its ParallelAll) to its end."""
    factory = factory_for(cell)
    factory.register_behavior_tree_from_file(TREE_FILE)
    tree = factory.create_tree(tree_id)
    for _ in range(max_ticks):
        status = tree.tick_exactly_once()
        cell.after_tick()
        if status is not NodeStatus.RUNNING:
            break
    return status, tree


def test_at_keys_of_two_trees_meet_in_their_common_parent():
    cell = FakeCell.pyramid(0)
    factory = factory_for(cell)
    xml = """<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
      <Script code="local := name; @seen := @seen + 1"/>
      <SubTree ID="Inner" mine="{local}"/></Sequence></BehaviorTree>
      <BehaviorTree ID="Inner"><Script code="@last := mine"/></BehaviorTree></root>"""
    factory.register_behavior_tree_from_text(xml)
    shared = Blackboard()
    shared.set("seen", 0)
    a, b = Blackboard(parent=shared), Blackboard(parent=shared)
    a.set("name", "a"), b.set("name", "b")
    tree_a, tree_b = factory.create_tree("T", a), factory.create_tree("T", b)
    tree_a.tick_once()
    assert shared.get("seen") == 1 and shared.get("last") == "a"
    tree_b.tick_once()
    assert shared.get("seen") == 2 and shared.get("last") == "b"       # a SubTree's @ is the common parent too
    assert a.get("local") == "a" and b.get("local") == "b"              # plain keys stay in each tree
    assert "local" not in shared


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_two_interleaved_trees_share_the_pyramid_without_conflict(seed):
    cell, shared, trees, status, referee = run_interleaved(seed)
    assert status == {r: NodeStatus.SUCCESS for r in trees}, cell.log[-20:]
    placed = {k.split(":", 1)[1]: v for k, v in shared.items() if k.startswith("cube_state:")}
    assert sorted(placed.values()) == ["placed:panda_1"] * 3 + ["placed:panda_2"] * 3
    for robot, goal in GOALS.items():
        cubes, heights = stack_at(cell, goal)
        assert set(cubes) == {c for c, v in placed.items() if v == f"placed:{robot}"}
        assert heights == pytest.approx([TABLE_Z + SIZE * (k + 0.5) for k in range(3)])
        assert trees[robot].root_blackboard.get("placed") == 3
    # the rules had something to decide: a robot waited, and the two worked in parallel
    assert sum(referee.waits.values()) > 0, referee.waits
    assert referee.both_in_motion > 0


def test_the_solo_baseline_stacks_all_six_with_one_robot():
    cell = FakeCell.pyramid(4)
    status, tree = run_main_tree(cell, "FrankaPyramidSolo")
    assert status is NodeStatus.SUCCESS, cell.log[-20:]
    cubes, heights = stack_at(cell, GOALS["panda_1"])
    assert len(cubes) == 6 and heights == pytest.approx([TABLE_Z + SIZE * (k + 0.5) for k in range(6)])
    assert not any(line.startswith("panda_2") for line in cell.log)


def test_the_main_tree_runs_both_instances_to_success():
    cell = FakeCell.pyramid(5)
    status, tree = run_main_tree(cell, "FrankaPyramid")
    assert status is NodeStatus.SUCCESS, cell.log[-20:]
    board = tree.root_blackboard
    assert board.get("placed_panda_1") == 3 and board.get("placed_panda_2") == 3
    assert board.get("done_panda_1") and board.get("done_panda_2")      # Script true (1.0, as in BT.CPP)
    assert board.get("center_owner") == ""


def move_panda_1s_cube_once(cell, trees, offset, when) -> dict:
    """A hook that, the first tick `when(cell)` holds, moves panda_1's current cube by
    `offset` (x, y) and lets it fall; the returned dict then names the cube ("cube")."""
    moved = {}

    def hook(c):
        if moved or not when(c):
            return
        cube = trees["panda_1"].root_blackboard.get("cube")
        c.cubes[cube][:2] += offset
        c.settle(cube)
        moved["cube"] = cube

    cell.hooks.append(hook)
    return moved


def test_a_dragged_reserved_cube_is_waited_for_restaged_and_taken_again():
    cell, shared, trees = two_robot_cell(7)
    dragged = move_panda_1s_cube_once(cell, trees, (-0.12, 0.0), lambda c: c.log.count("panda_1 move approach") >= 2
                                      and c.arms["panda_1"].moving == "approach")
    status = run_in_fixed_order(cell, shared, trees)
    assert dragged, "the drag never happened"
    assert status == {r: NodeStatus.SUCCESS for r in trees}, cell.log[-20:]
    log = cell.log
    assert "panda_1 halted approach" in log
    after = log[log.index("panda_1 halted approach"):]
    assert "panda_1 move restage" in after
    assert after.index("panda_1 move restage") < after.index(f"panda_1 grasp {dragged['cube']}")
    assert shared.get(f"cube_state:{dragged['cube']}") == "placed:panda_1"    # the same reservation, finished
    assert not trees["panda_1"].root_blackboard.get("needs_recovery")


def test_a_cube_that_slides_off_the_stack_is_seen_there_and_stacked_again():
    cell, shared, trees = two_robot_cell(6)
    # panda_1's second cube, just released, slides off the top and lands beside the stack
    slid = move_panda_1s_cube_once(cell, trees, (0.0, 0.08), lambda c: c.log.count("panda_1 move retract") >= 2)
    status = run_in_fixed_order(cell, shared, trees)
    assert slid, "the slide never happened"
    assert status == {r: NodeStatus.SUCCESS for r in trees}, cell.log[-20:]
    after = cell.log[cell.log.index("panda_1 move retract", cell.log.index("panda_1 move retract") + 1):]
    assert "panda_1 move restage" in after, after[:10]
    assert after.index("panda_1 move restage") < after.index(f"panda_1 grasp {slid['cube']}")
    cubes, heights = stack_at(cell, GOALS["panda_1"])
    assert slid["cube"] in cubes and len(cubes) == 3
    assert heights == pytest.approx([TABLE_Z + SIZE * (k + 0.5) for k in range(3)])
    assert shared.get(f"cube_state:{slid['cube']}") == "placed:panda_1"
    assert trees["panda_1"].root_blackboard.get("placed") == 3


def test_a_place_with_no_straight_descent_goes_down_in_joint_space():
    """A bench episode (drop, seed 2) re-grasped a dropped cube, lifted it in joint space and
    then found no straight line down onto its stack, 12 times in a row (PLANNING_FAILED: a
    0.35 rad joint jump at 2 % of the line): the place falls back to a planned motion."""
    cell = FakeCell.pyramid(2)
    cell.failing |= {("panda_1", "place")}
    status, tree = run_main_tree(cell, "FrankaPyramid")
    assert status is NodeStatus.SUCCESS
    assert tree.root_blackboard.get("placed_panda_1") == 3
    assert cell.log.count("panda_1 failed place") == 3 and cell.log.count("panda_1 move place_joint_space") == 3


def test_a_hand_that_cannot_plan_home_goes_up_in_a_straight_line():
    """A bench episode (drop, seed 5, rtf 0) ended a place with a finger on the table and the
    cube in the hand, unseen: every PLANNED move home was then refused (start in collision),
    12 times, and panda_1 gave up low over the table. The clear-view move and the give-up's
    move home fall back to a straight line, as the arm server suggests."""
    cell = FakeCell.pyramid(2)
    cell.failing |= {("panda_1", "place"), ("panda_1", "place_joint_space"), ("panda_1", "leave_center_home"),
                     ("panda_1", "home_on_give_up")}
    cell.occluders.append(lambda c: {c.arms["panda_1"].holding} - {None})   # the hand hides its cube
    status, _tree = run_main_tree(cell, "FrankaPyramid")
    assert status is NodeStatus.FAILURE                           # no place ever works: panda_1 gives up
    assert cell.log.count("panda_1 failed leave_center_home") >= 1
    assert cell.log.count("panda_1 move leave_center_straight") == cell.log.count("panda_1 failed leave_center_home")
    assert "panda_1 move home_straight_on_give_up" in cell.log


def test_a_pick_blocked_by_what_the_other_robot_must_clear_leaves_it_the_center():
    """A bench episode (drop, seed 5, rtf 0): panda_2's dropped cube came to rest against
    panda_1's reserved one; panda_1's approach ended TOLERANCE_NOT_MET twelve times in a
    row while it held the center, and panda_2, which had to take its cube from there,
    waited for the center all that time. A failed pick now goes home and frees the center
    before the next attempt: here panda_1's approach fails until panda_2 has been in the
    middle once after the first failure (its second cube, when both robots are busy)."""
    cell = FakeCell.pyramid(2)
    blocked = {"from": None, "cleared": False}

    def blocked_until_panda_2_got_in(c):
        if blocked["from"] is None and any(line.startswith("panda_1 release") for line in c.log):
            blocked["from"] = len(c.log)
            c.failing.add(("panda_1", "approach"))
        elif blocked["from"] is not None and not blocked["cleared"] and "panda_1 failed approach" in c.log:
            first = c.log.index("panda_1 failed approach")
            if "panda_2 move approach" in c.log[first:] or "panda_2 move restage" in c.log[first:]:
                c.failing.discard(("panda_1", "approach"))
                blocked["cleared"] = True
    cell.hooks.append(blocked_until_panda_2_got_in)
    status, tree = run_main_tree(cell, "FrankaPyramid")
    assert status is NodeStatus.SUCCESS, cell.log[-12:]
    board = tree.root_blackboard
    assert board.get("placed_panda_1") == 3 and board.get("placed_panda_2") == 3
    first = cell.log.index("panda_1 failed approach")
    left = cell.log.index("panda_1 move leave_center_home", first)
    assert cell.log.index("panda_2 move approach", first) > left       # it went home before panda_2 came in
    assert blocked["cleared"] and cell.log.count("panda_1 failed approach") < 12


def test_a_robot_that_gives_up_leaves_the_center_to_the_other():
    cell = FakeCell.pyramid(2)
    cell.failing |= {("panda_1", "grasp_down"), ("panda_1", "grasp_down_joint_space")}
    status, tree = run_main_tree(cell, "FrankaPyramid")
    assert status is NodeStatus.FAILURE
    board = tree.root_blackboard
    assert board.get("placed_panda_2") == 3 and board.get("done_panda_2")
    assert board.get("placed_panda_1") == 0 and board.get("center_owner") == ""
    assert cell.log.count("panda_1 failed grasp_down") == 12                 # KeepTrying's max_attempts
    # it left the middle before freeing it (CI 2026-12-04: a robot that gave up low over the
    # pyramid blocked the other's approach, which then failed 12 times)
    gave_up = cell.log.index("panda_1 move home_on_give_up")
    assert np.allclose(cell.arms["panda_1"].tool, [0.25, 0.10, 1.0])
    assert any(line.startswith("panda_2 move") for line in cell.log[gave_up:])


def test_a_dragged_cube_the_hand_hides_is_watched_from_home_before_the_restage(monkeypatch):
    """CI 2026-12-04 (seed 1, drag): the approach stopped low beside the dragged cube, the
    arm hid it from the camera, and the recovery waited for it to settle where it stood,
    twelve times over, until the robot gave up."""
    cell, shared, trees = two_robot_cell(7)
    # WaitUntilSettled's timeout counts wall seconds; here the cell's clock stands in for them
    monkeypatch.setattr(view_leaves, "time", SimpleNamespace(monotonic=lambda: cell.time))
    dragged = move_panda_1s_cube_once(cell, trees, (-0.12, 0.0), lambda c: c.log.count("panda_1 move approach") >= 2
                                      and c.arms["panda_1"].moving == "approach")

    def panda_1_hides_the_dragged_cube_until_it_goes_home(c):
        stopped = "panda_1 halted approach" in c.log
        gone_home = "panda_1 move home_to_watch" in c.log and c.arms["panda_1"].moving is None
        return {dragged["cube"]} if stopped and not gone_home else set()

    cell.occluders.append(panda_1_hides_the_dragged_cube_until_it_goes_home)
    status = run_in_fixed_order(cell, shared, trees)
    assert dragged, "the drag never happened"
    assert status == {r: NodeStatus.SUCCESS for r in trees}, cell.log[-20:]
    after = cell.log[cell.log.index("panda_1 halted approach"):]
    assert after.index("panda_1 move home_to_watch") < after.index("panda_1 move restage") \
        < after.index(f"panda_1 grasp {dragged['cube']}")
    assert shared.get(f"cube_state:{dragged['cube']}") == "placed:panda_1"


def _panda_2_over_its_stack_hides_the_near_bottom_cubes(cell):
    """What the sim's camera shows (measured in PyBullet): panda_2's fingers, at the
    retract pose over its stack, hide about half of the bottom cube nearest to it; here
    they hide it, and its neighbour, whole."""
    tool = cell.arms["panda_2"].tool
    if np.hypot(tool[0] - GOALS["panda_2"][0], tool[1] - GOALS["panda_2"][1]) > 0.03 or tool[2] < 0.9:
        return set()
    held = {a.holding for a in cell.arms.values()}
    return {n for n, p in cell.cubes.items() if n not in held and p[2] < TABLE_Z + SIZE and p[0] > 0.49
            and abs(p[1]) < 0.1}


def test_a_robot_whose_arm_hides_the_cube_it_waits_for_looks_from_home():
    cell, shared, trees = two_robot_cell(3)
    cell.occluders.append(_panda_2_over_its_stack_hides_the_near_bottom_cubes)
    status = run_in_fixed_order(cell, shared, trees)
    assert status == {r: NodeStatus.SUCCESS for r in trees}, cell.log[-20:]
    assert "panda_2 move home_to_look" in cell.log            # it left its stack to see the cube
    looked = cell.log.index("panda_2 move home_to_look")
    assert any(line.startswith("panda_2 grasp") for line in cell.log[looked:])
    for robot, goal in GOALS.items():
        assert len(stack_at(cell, goal)[0]) == 3


def test_cubes_knocked_off_a_robots_stack_are_booked_free_and_stacked_again():
    """Bench seed 1 (none), 2026-12-04: panda_2's recovery reached beside its stack and
    knocked both cubes off it; the tree kept placing at level 2 over a stack that was gone."""
    cell, shared, trees = two_robot_cell(3)
    knocked = []

    def knock(c):
        if knocked or trees["panda_2"].root_blackboard.get("placed") != 2 or c.arms["panda_2"].moving != "approach":
            return
        for cube, spot in zip(stack_at(c, GOALS["panda_2"])[0], ((0.62, -0.45), (0.72, -0.38))):
            c.cubes[cube][:2] = spot
            c.settle(cube)
            knocked.append(cube)

    cell.hooks.append(knock)
    status = run_in_fixed_order(cell, shared, trees)
    assert len(knocked) == 2, "the knock never happened"
    assert status == {r: NodeStatus.SUCCESS for r in trees}, cell.log[-20:]
    for robot, goal in GOALS.items():
        cubes, heights = stack_at(cell, goal)
        assert len(cubes) == 3 and heights == pytest.approx([TABLE_Z + SIZE * (k + 0.5) for k in range(3)]), robot
        assert trees[robot].root_blackboard.get("placed") == 3
    placed = {k.split(":", 1)[1]: v for k, v in shared.items() if k.startswith("cube_state:")}
    assert sorted(placed.values()) == ["placed:panda_1"] * 3 + ["placed:panda_2"] * 3
    assert all(placed[cube].startswith("placed:") for cube in knocked)      # taken again, by one robot or the other
