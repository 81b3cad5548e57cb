"""The stacking leaves through the real engine: ports in, status and outputs out.

The task's state is in named entries (`layout`, `stacked`, `suspects`, `spawns`,
`holding`, `grasps`, `first_seen`, `cube`, `mode`); a condition only reads them."""
from __future__ import annotations

import copy
import logging

import pytest

from robot_tasks.bt import BehaviorTreeError, BehaviorTreeFactory, NodeStatus
from robot_tasks.tasks import register_nodes
from robot_tasks.tasks.stacking import plan
from robot_tasks.tasks.world_view import seen_by_label

TABLE = 0.625
ORDER = plan.DEFAULT_ORDER


def det(label, x, y, z=TABLE + 0.025):
    return {"label": label, "pose": {"position": {"x": x, "y": y, "z": z}, "orientation": {"w": 1.0}},
            "confidence": 0.9}


SPAWNS = [det("red_cube", 0.4, 0.2), det("blue_cube", 0.6, -0.2), det("green_cube", 0.4, -0.25),
          det("yellow_cube", 0.62, 0.25)]


def tree_of(body: str, **entries):
    factory = BehaviorTreeFactory()
    register_nodes(factory)
    tree = factory.create_tree_from_text(
        f'<root BTCPP_format="4"><BehaviorTree ID="T">{body}</BehaviorTree></root>')
    for key, value in entries.items():
        tree.root_blackboard.set(key, value)
    return tree


def started():
    layout, spawns = plan.start_stacking(seen_by_label(SPAWNS), ORDER)
    return {"layout": layout, "spawns": spawns, "stacked": (), "suspects": (), "holding": "", "grasps": 0}


def at_slot(layout, label, level):
    x, y, z = plan.slot_position(layout, (), level)
    return det(label, x, y, z)


def board_snapshot(tree):
    return {key: copy.deepcopy(value) for key, value in tree.root_blackboard.items()}


def test_init_stacking_writes_the_layout_and_empty_bookkeeping(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.stacking")
    tree = tree_of('<InitStacking detections="{d}" layout="{layout}" spawns="{spawns}" stacked="{stacked}" '
                   'suspects="{suspects}"/>', d=SPAWNS)
    assert tree.tick_once() is NodeStatus.SUCCESS
    board = tree.root_blackboard
    assert isinstance(board.get("layout"), plan.StackLayout) and board.get("layout").order == ORDER
    assert board.get("spawns")["blue_cube"] == pytest.approx((0.6, -0.2, TABLE + 0.025))
    assert board.get("stacked") == () and board.get("suspects") == ()
    assert caplog.messages[0].startswith("start: base at (0.500, 0.000)")


def test_init_stacking_with_given_base_and_order():
    tree = tree_of('<InitStacking detections="{d}" order="blue_cube;red_cube" stack_base="0.3;-0.1" '
                   'layout="{layout}" spawns="{spawns}" stacked="{stacked}" suspects="{suspects}"/>', d=SPAWNS)
    assert tree.tick_once() is NodeStatus.SUCCESS
    layout = tree.root_blackboard.get("layout")
    assert layout.base_xy == (0.3, -0.1) and layout.order == ("blue_cube", "red_cube")


def test_init_stacking_fails_when_a_cube_is_not_seen():
    tree = tree_of('<InitStacking detections="{d}" layout="{layout}" spawns="{spawns}" stacked="{stacked}" '
                   'suspects="{suspects}"/>', d=SPAWNS[:3])
    assert tree.tick_once() is NodeStatus.FAILURE
    assert tree.root_blackboard.get("layout", None) is None


def test_init_stacking_rejects_a_bad_base_naming_the_node():
    tree = tree_of('<InitStacking name="init" detections="{d}" stack_base="0.3" layout="{layout}" '
                   'spawns="{spawns}" stacked="{stacked}" suspects="{suspects}"/>', d=SPAWNS)
    with pytest.raises(BehaviorTreeError, match="init.*stack_base"):
        tree.tick_once()


def test_leaves_refuse_a_layout_entry_that_is_not_the_layout():
    tree = tree_of('<StackIntact name="check" layout="{layout}" stacked="{stacked}" detections="{d}"/>',
                   **{**started(), "layout": "oops"}, d=SPAWNS)
    with pytest.raises(BehaviorTreeError, match="check.*StackLayout"):
        tree.tick_once()


@pytest.mark.parametrize("bad", ["red_cube", 3, None, ["red_cube", 1]])
def test_leaves_refuse_a_stacked_entry_that_is_not_a_list_of_labels(bad):
    tree = tree_of('<StackComplete name="done" layout="{layout}" stacked="{stacked}"/>',
                   **{**started(), "stacked": bad})
    with pytest.raises(BehaviorTreeError, match="done.*stacked"):
        tree.tick_once()


def test_malformed_detections_are_reported_with_the_node_name():
    tree = tree_of('<SelectNextCube name="select" layout="{layout}" stacked="{stacked}" holding="{holding}" '
                   'detections="{d}" cube="{c}" mode="{m}"/>', **started(), d=[{"pose": {}}])
    with pytest.raises(BehaviorTreeError, match="select.*detections"):
        tree.tick_once()


SELECT = ('<SelectNextCube layout="{layout}" stacked="{stacked}" holding="{holding}" detections="{d}" '
          'cube="{cube}" mode="{mode}"/>')


def test_reconcile_unbooks_a_displaced_cube_then_select_outputs_it_to_stack():
    entries = started()
    layout = entries["layout"]
    seen = SPAWNS[2:] + [at_slot(layout, "red_cube", 0), det("blue_cube", 0.3, 0.3)]
    tree = tree_of('<Sequence><ReconcileStack layout="{layout}" stacked="{stacked}" suspects="{suspects}" '
                   'holding="{holding}" detections="{d}"/>' + SELECT + '</Sequence>',
                   **{**entries, "stacked": ("red_cube", "blue_cube")}, d=seen)
    assert tree.tick_once() is NodeStatus.SUCCESS
    board = tree.root_blackboard
    assert board.get("stacked") == ("red_cube",)        # blue was displaced: un-booked
    assert (board.get("cube"), board.get("mode")) == ("blue_cube", "stack")


def test_select_chooses_clear_for_a_cube_in_the_stacks_way():
    entries = started()
    layout = entries["layout"]
    seen = [at_slot(layout, "red_cube", 0), at_slot(layout, "green_cube", 1), SPAWNS[1], SPAWNS[3]]
    tree = tree_of(SELECT, **{**entries, "stacked": ("red_cube",)}, d=seen)
    assert tree.tick_once() is NodeStatus.SUCCESS
    assert (tree.root_blackboard.get("cube"), tree.root_blackboard.get("mode")) == ("green_cube", "clear")


def test_select_chooses_look_when_the_next_cube_is_not_seen():
    tree = tree_of(SELECT, **started(), d=SPAWNS[1:])
    assert tree.tick_once() is NodeStatus.SUCCESS
    assert (tree.root_blackboard.get("cube"), tree.root_blackboard.get("mode")) == ("red_cube", "look")


def test_select_fails_when_nothing_is_left():
    tree = tree_of(SELECT, **{**started(), "stacked": ORDER}, d=SPAWNS)
    assert tree.tick_once() is NodeStatus.FAILURE


def test_stack_complete_reads_the_booking_and_changes_nothing():
    entries = started()
    layout = entries["layout"]
    displaced = [at_slot(layout, label, i) for i, label in enumerate(ORDER[:3])] + [det("yellow_cube", 0.3, 0.3)]
    tree = tree_of('<StackComplete layout="{layout}" stacked="{stacked}"/>', **{**entries, "stacked": ORDER},
                   d=displaced)
    before = board_snapshot(tree)
    assert tree.tick_once() is NodeStatus.SUCCESS          # booked complete (ReconcileStack would un-book)
    assert board_snapshot(tree) == before
    tree.root_blackboard.set("stacked", ORDER[:3])
    assert tree.tick_once() is NodeStatus.FAILURE


@pytest.mark.parametrize("body", [
    '<StackIntact layout="{layout}" stacked="{stacked}" detections="{d}"/>',
    '<CubeStillInPlace detections="{d}" cube="red_cube" first_seen="{first_seen}"/>',
    '<HoldingCube holding="{holding}" grasps="{grasps}" detections="{d}" ee_pose="{ee}"/>',
    '<StackComplete layout="{layout}" stacked="{stacked}"/>',
])
def test_conditions_only_read_even_when_they_fail(body):
    entries = started()
    layout = entries["layout"]
    seen = [at_slot(layout, "red_cube", 0), det("blue_cube", 0.3, 0.3), det("red_cube", 0.1, 0.1, 1.5)]
    tree = tree_of(body, **{**entries, "stacked": ("red_cube", "blue_cube"), "holding": "red_cube",
                            "first_seen": (0.4, 0.2, TABLE + 0.025)},
                   d=[at_slot(layout, "red_cube", 0), det("blue_cube", 0.3, 0.3)] if "Stack" in body else seen[1:],
                   ee={"x": 0.5, "y": 0.0, "z": 0.95})
    before = board_snapshot(tree)
    assert tree.tick_once() is NodeStatus.FAILURE
    assert board_snapshot(tree) == before


def test_pick_targets_write_first_seen_and_the_resync_guard_reads_it(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.stacking")
    tree = tree_of('<Sequence><ComputePickTargets layout="{layout}" detections="{d}" cube="red_cube" '
                   'pregrasp_pose="{pre}" grasp_pose="{g}" first_seen="{first_seen}"/>'
                   '<CubeStillInPlace detections="{d2}" cube="red_cube" first_seen="{first_seen}"/></Sequence>',
                   **started(), d=SPAWNS, d2=SPAWNS)
    assert tree.tick_once() is NodeStatus.SUCCESS
    board = tree.root_blackboard
    assert board.get("pre")["z"] == pytest.approx(TABLE + 0.125)
    assert board.get("first_seen") == pytest.approx((0.4, 0.2, TABLE + 0.025))
    guard = tree_of('<CubeStillInPlace detections="{d}" cube="red_cube" first_seen="{first_seen}"/>',
                    first_seen=board.get("first_seen"), d=[det("red_cube", 0.46, 0.2)])
    assert guard.tick_once() is NodeStatus.FAILURE
    assert caplog.messages[-1].startswith("pickup_resync: red_cube moved 0.060")
    guard.root_blackboard.set("d", [])  # occluded: no evidence
    assert guard.tick_once() is NodeStatus.SUCCESS


def test_cube_port_must_name_a_cube_of_the_order():
    tree = tree_of('<ComputePickTargets name="pick" layout="{layout}" detections="{d}" cube="purple_cube" '
                   'pregrasp_pose="{pre}" grasp_pose="{g}" first_seen="{first_seen}"/>', **started(), d=SPAWNS)
    with pytest.raises(BehaviorTreeError, match="pick.*purple_cube"):
        tree.tick_once()


HOLD = '<HoldingCube holding="{holding}" grasps="{grasps}" detections="{d}" ee_pose="{ee}"/>'


def test_grasp_script_books_the_hold_and_the_drop_guard_sees_it_go(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.stacking")
    tree = tree_of('<Sequence><Script code="holding := cube; grasps += 1"/>' + HOLD + '</Sequence>',
                   **started(), cube="red_cube", d=[det("red_cube", 0.5, 0.0, 0.9)],
                   ee={"x": 0.5, "y": 0.0, "z": 0.92})
    board = tree.root_blackboard
    assert tree.tick_once() is NodeStatus.SUCCESS
    assert (board.get("holding"), board.get("grasps")) == ("red_cube", 1)
    hold = tree_of(HOLD, holding="red_cube", grasps=1, d=[det("red_cube", 0.5, 0.0, TABLE + 0.025)],
                   ee={"x": 0.5, "y": 0.0, "z": 0.92})
    assert hold.tick_once() is NodeStatus.FAILURE
    assert caplog.messages[-1].startswith("dropped: red_cube")
    abandon = tree_of('<AbandonTransfer cube="red_cube" holding="{holding}"/>', holding="red_cube")
    assert abandon.tick_once() is NodeStatus.SUCCESS and abandon.root_blackboard.get("holding") == ""
    assert caplog.messages[-1] == "abandon: transfer of red_cube"


def test_holding_cube_is_success_when_nothing_is_held_or_no_tool_pose():
    tree = tree_of(HOLD, **started(), d=SPAWNS)
    assert tree.tick_once() is NodeStatus.SUCCESS       # nothing held
    tree.root_blackboard.set("holding", "red_cube")
    assert tree.tick_once() is NodeStatus.SUCCESS       # ee_pose entry empty: no evidence


OUTS = 'lift_pose="{l}" transport_pose="{t}" lower_pose="{lo}" retract_pose="{r}"'


def test_place_targets_then_mark_stacked_books_it_and_empties_the_hand():
    entries = {**started(), "holding": "red_cube", "suspects": ("red_cube",)}
    tree = tree_of(f'<Sequence><ComputePlaceTargets layout="{{layout}}" stacked="{{stacked}}" detections="{{d}}" '
                   f'cube="red_cube" ee_pose="{{ee}}" first_seen="{{first_seen}}" {OUTS}/>'
                   f'<MarkStacked layout="{{layout}}" cube="red_cube" stacked="{{stacked}}" suspects="{{suspects}}" '
                   f'holding="{{holding}}"/></Sequence>', **entries, d=SPAWNS, ee="0.4;0.2;0.65")
    assert tree.tick_once() is NodeStatus.SUCCESS
    board = tree.root_blackboard
    assert (board.get("lo")["x"], board.get("lo")["y"]) == (0.5, 0.0)
    assert board.get("stacked") == ("red_cube",) and board.get("suspects") == () and board.get("holding") == ""


def test_park_targets_go_to_the_spawn_or_a_free_spot_that_becomes_the_spawn():
    entries = started()
    park = f'<ComputeParkTargets layout="{{layout}}" detections="{{d}}" cube="blue_cube" spawns="{{spawns}}" {OUTS}/>'
    back = tree_of(park, **entries, d=SPAWNS)  # no ee_pose: falls back to the detection
    assert back.tick_once() is NodeStatus.SUCCESS
    assert (back.root_blackboard.get("lo")["x"], back.root_blackboard.get("lo")["y"]) == (0.6, -0.2)
    taken = SPAWNS[:2] + [det("green_cube", 0.62, -0.2), SPAWNS[3]]     # green was knocked onto blue's spawn
    moved = tree_of(park, **entries, d=taken)
    assert moved.tick_once() is NodeStatus.SUCCESS
    spot = moved.root_blackboard.get("spawns")["blue_cube"]
    assert spot != pytest.approx((0.6, -0.2, TABLE + 0.025))
    assert (moved.root_blackboard.get("lo")["x"], moved.root_blackboard.get("lo")["y"]) == pytest.approx(spot[:2])
    assert entries["spawns"]["blue_cube"] == pytest.approx((0.6, -0.2, TABLE + 0.025))   # a new dict was written


def test_stack_check_recovery_marks_the_suspect_and_the_return_unbooks_it(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.stacking")
    entries = {**started(), "stacked": ("red_cube", "blue_cube"), "holding": "green_cube"}
    layout = entries["layout"]
    seen = [at_slot(layout, "red_cube", 0), det("blue_cube", 0.3, 0.3)]
    tree = tree_of('<Fallback><StackIntact layout="{layout}" stacked="{stacked}" detections="{d}"/>'
                   '<MarkDisplaced layout="{layout}" stacked="{stacked}" suspects="{suspects}" holding="{holding}" '
                   'detections="{d}"/></Fallback>', **entries, d=seen)
    assert tree.tick_once() is NodeStatus.SUCCESS
    board = tree.root_blackboard
    assert board.get("suspects") == ("blue_cube",) and board.get("stacked") == ("red_cube", "blue_cube")
    assert caplog.messages[-1] == "stack_check: blue_cube (level 1) displaced while holding green_cube"
    returned = tree_of('<MarkReturned layout="{layout}" cube="green_cube" stacked="{stacked}" detections="{d}" '
                       'holding="{holding}"/>', **entries, d=seen)
    assert returned.tick_once() is NodeStatus.SUCCESS
    assert returned.root_blackboard.get("holding") == "" and returned.root_blackboard.get("stacked") == ("red_cube",)
    assert caplog.messages[-2:] == ["returned: green_cube to its spawn",
                                    "stack_invalid: blue_cube displaced from level 1; re-stack blue_cube"]


def test_mark_cleared_empties_the_hand_and_books_nothing():
    tree = tree_of('<MarkCleared cube="green_cube" holding="{holding}"/>', **{**started(), "holding": "green_cube"})
    assert tree.tick_once() is NodeStatus.SUCCESS
    assert tree.root_blackboard.get("holding") == "" and tree.root_blackboard.get("stacked") == ()


def stamped(objects, t):
    sec = int(t)
    return {"header": {"stamp": {"sec": sec, "nanosec": int(round((t - sec) * 1e9))}}, "objects": objects}


def test_holding_cube_compares_with_the_tool_at_the_image_time(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.stacking")
    hold = tree_of(HOLD, holding="red_cube", grasps=1)
    hb = hold.root_blackboard
    # the tool rises 0.1 m per 0.1 s; images arrive 0.3 s late, showing the cube where the tool was
    for i in range(10):
        t = 5.0 + 0.1 * i
        hb.set("ee", {"x": 0.4, "y": 0.2, "z": 0.65 + 1.0 * (t - 5.0), "stamp": t})
        seen_t = max(5.0, t - 0.3)
        hb.set("d", stamped([det("red_cube", 0.4, 0.2, 0.65 + 1.0 * (seen_t - 5.0))], seen_t))
        assert hold.tick_once() is NodeStatus.SUCCESS, i
    # now the image shows the cube back on the table while the tool was up high: dropped
    hb.set("ee", {"x": 0.4, "y": 0.2, "z": 1.6, "stamp": 6.0})
    hb.set("d", stamped([det("red_cube", 0.4, 0.2, 0.65)], 5.8))
    assert hold.tick_once() is NodeStatus.FAILURE
    assert caplog.messages[-1].startswith("dropped: red_cube")


def test_holding_cube_ignores_images_from_before_the_grasp():
    hold = tree_of(HOLD, holding="red_cube", grasps=1, ee={"x": 0.4, "y": 0.2, "z": 0.9, "stamp": 8.0},
                   d=stamped([det("red_cube", 0.4, 0.2)], 7.0))  # taken before this hold's track began
    assert hold.tick_once() is NodeStatus.SUCCESS


def test_wait_for_fresh_detections():
    tree = tree_of('<WaitForFreshDetections detections="{d}" ee_pose="{ee}" timeout="0.2"/>',
                   d=stamped([], 4.0), ee={"x": 0, "y": 0, "z": 1, "stamp": 4.5})
    board = tree.root_blackboard
    assert tree.tick_once() is NodeStatus.RUNNING       # image (4.0) older than start (4.5)
    board.set("d", stamped([], 4.6))
    assert tree.tick_once() is NodeStatus.SUCCESS
    board.set("d", stamped([], 4.0))
    assert tree.tick_once() is NodeStatus.RUNNING
    import time as _time

    _time.sleep(0.25)
    assert tree.tick_once() is NodeStatus.FAILURE       # timeout
    board.set("d", [])                                  # unstamped: nothing to wait for
    assert tree.tick_once() is NodeStatus.SUCCESS
