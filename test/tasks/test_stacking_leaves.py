"""The stacking leaves through the real engine: ports in, status and outputs out."""
from __future__ import annotations

import pytest

from robot_tasks.bt import BehaviorTreeError, BehaviorTreeFactory, NodeStatus
from robot_tasks.tasks import register_nodes
from robot_tasks.tasks import stacking_plan as plan

TABLE = 0.625


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


def started_memory():
    from robot_tasks.tasks.world_view import seen_by_label

    return plan.start_stacking(seen_by_label(SPAWNS), plan.DEFAULT_ORDER)


def test_init_stacking_writes_memory():
    tree = tree_of('<InitStacking detections="{d}" stack="{s}"/>', d=SPAWNS)
    assert tree.tick_once() is NodeStatus.SUCCESS
    memory = tree.root_blackboard.get("s")
    assert isinstance(memory, plan.StackingMemory) and memory.order == plan.DEFAULT_ORDER
    assert memory.events[0].startswith("start: base at (0.500, 0.000)")


def test_init_stacking_with_given_base_and_order():
    tree = tree_of('<InitStacking detections="{d}" order="blue_cube;red_cube" stack_base="0.3;-0.1" stack="{s}"/>',
                   d=SPAWNS)
    assert tree.tick_once() is NodeStatus.SUCCESS
    memory = tree.root_blackboard.get("s")
    assert memory.base_xy == (0.3, -0.1) and memory.order == ("blue_cube", "red_cube")


def test_init_stacking_fails_when_a_cube_is_not_seen():
    tree = tree_of('<InitStacking detections="{d}" stack="{s}"/>', d=SPAWNS[:3])
    assert tree.tick_once() is NodeStatus.FAILURE


def test_init_stacking_rejects_a_bad_base_naming_the_node():
    tree = tree_of('<InitStacking name="init" detections="{d}" stack_base="0.3" stack="{s}"/>', d=SPAWNS)
    with pytest.raises(BehaviorTreeError, match="init.*stack_base"):
        tree.tick_once()


def test_leaves_refuse_a_stack_entry_that_is_not_the_memory():
    tree = tree_of('<StackIntact name="check" stack="{s}" detections="{d}"/>', s="oops", d=SPAWNS)
    with pytest.raises(BehaviorTreeError, match="check.*StackingMemory"):
        tree.tick_once()


def test_malformed_detections_are_reported_with_the_node_name():
    tree = tree_of('<SelectNextCube name="select" stack="{s}" detections="{d}" cube="{c}"/>',
                   s=started_memory(), d=[{"pose": {}}])
    with pytest.raises(BehaviorTreeError, match="select.*detections"):
        tree.tick_once()


def test_select_next_cube_outputs_the_next_in_order_and_revalidates():
    memory = started_memory()
    memory.stacked = ["red_cube", "blue_cube"]
    red_slot, blue_slot = plan.slot_position(memory, 0), plan.slot_position(memory, 1)
    seen = SPAWNS[2:] + [det("red_cube", *red_slot[:2], red_slot[2]), det("blue_cube", 0.3, 0.3)]
    tree = tree_of('<SelectNextCube stack="{s}" detections="{d}" cube="{c}"/>', s=memory, d=seen)
    assert tree.tick_once() is NodeStatus.SUCCESS
    assert tree.root_blackboard.get("c") == "blue_cube"  # blue was displaced: it is next again
    assert memory.stacked == ["red_cube"] and memory.target == "blue_cube"


def test_select_next_cube_fails_when_the_next_cube_is_not_seen():
    tree = tree_of('<SelectNextCube stack="{s}" detections="{d}" cube="{c}"/>', s=started_memory(), d=SPAWNS[1:])
    assert tree.tick_once() is NodeStatus.FAILURE


def test_stack_complete_only_when_all_booked_and_in_place():
    memory = started_memory()
    memory.stacked = list(plan.DEFAULT_ORDER)
    in_place = [det(label, *plan.slot_position(memory, i)[:2], plan.slot_position(memory, i)[2])
                for i, label in enumerate(plan.DEFAULT_ORDER)]
    tree = tree_of('<StackComplete stack="{s}" detections="{d}"/>', s=memory, d=in_place)
    assert tree.tick_once() is NodeStatus.SUCCESS
    tree.root_blackboard.set("d", in_place[:3] + [det("yellow_cube", 0.3, 0.3)])
    assert tree.tick_once() is NodeStatus.FAILURE
    assert memory.stacked == ["red_cube", "blue_cube", "green_cube"]


def test_pick_targets_and_resync_guard():
    memory = started_memory()
    tree = tree_of('<Sequence><ComputePickTargets stack="{s}" detections="{d}" cube="red_cube" '
                   'pregrasp_pose="{pre}" grasp_pose="{g}"/>'
                   '<CubeStillInPlace stack="{s}" detections="{d2}" cube="red_cube"/></Sequence>',
                   s=memory, d=SPAWNS, d2=SPAWNS)
    assert tree.tick_once() is NodeStatus.SUCCESS
    assert tree.root_blackboard.get("pre")["z"] == pytest.approx(TABLE + 0.125)
    assert memory.first_seen == pytest.approx((0.4, 0.2, TABLE + 0.025))
    guard = tree_of('<CubeStillInPlace stack="{s}" detections="{d}" cube="red_cube"/>', s=memory,
                    d=[det("red_cube", 0.46, 0.2)])
    assert guard.tick_once() is NodeStatus.FAILURE
    assert memory.events[-1].startswith("pickup_resync: red_cube moved 0.060")
    guard.root_blackboard.set("d", [])  # occluded: no evidence
    assert guard.tick_once() is NodeStatus.SUCCESS


def test_cube_port_must_name_a_cube_of_the_order():
    tree = tree_of('<MarkHolding name="hold" stack="{s}" cube="purple_cube"/>', s=started_memory())
    with pytest.raises(BehaviorTreeError, match="hold.*purple_cube"):
        tree.tick_once()


def test_holding_cube_guard_and_abandon():
    memory = started_memory()
    tree = tree_of('<Sequence><MarkHolding stack="{s}" cube="red_cube"/>'
                   '<HoldingCube stack="{s}" detections="{d}" ee_pose="{ee}"/></Sequence>',
                   s=memory, d=[det("red_cube", 0.5, 0.0, 0.9)], ee={"x": 0.5, "y": 0.0, "z": 0.92})
    assert tree.tick_once() is NodeStatus.SUCCESS and memory.holding == "red_cube"
    tree.root_blackboard.set("d", [det("red_cube", 0.5, 0.0, TABLE + 0.025)])
    assert tree.tick_once() is NodeStatus.FAILURE
    assert memory.events[-1].startswith("dropped: red_cube")
    abandon = tree_of('<AbandonTransfer stack="{s}"/>', s=memory)
    assert abandon.tick_once() is NodeStatus.SUCCESS and memory.holding is None


def test_holding_cube_is_success_when_nothing_is_held_or_no_tool_pose():
    memory = started_memory()
    tree = tree_of('<HoldingCube stack="{s}" detections="{d}" ee_pose="{ee}"/>', s=memory, d=SPAWNS)
    assert tree.tick_once() is NodeStatus.SUCCESS       # nothing held
    memory.holding = "red_cube"
    assert tree.tick_once() is NodeStatus.SUCCESS       # ee_pose entry empty: no evidence


def test_place_and_return_targets_and_bookkeeping():
    memory = started_memory()
    memory.holding = "red_cube"
    outs = 'lift_pose="{l}" transport_pose="{t}" lower_pose="{lo}" retract_pose="{r}"'
    tree = tree_of(f'<Sequence><ComputePlaceTargets stack="{{s}}" detections="{{d}}" cube="red_cube" '
                   f'ee_pose="{{ee}}" {outs}/><MarkStacked stack="{{s}}" cube="red_cube"/></Sequence>',
                   s=memory, d=SPAWNS, ee="0.4;0.2;0.65")
    assert tree.tick_once() is NodeStatus.SUCCESS
    board = tree.root_blackboard
    assert (board.get("lo")["x"], board.get("lo")["y"]) == (0.5, 0.0)
    assert memory.stacked == ["red_cube"] and memory.holding is None
    memory.holding = "blue_cube"
    back = tree_of(f'<ComputeReturnTargets stack="{{s}}" detections="{{d}}" cube="blue_cube" {outs}/>',
                   s=memory, d=SPAWNS)  # no ee_pose: falls back to the detection
    assert back.tick_once() is NodeStatus.SUCCESS
    assert (back.root_blackboard.get("lo")["x"], back.root_blackboard.get("lo")["y"]) == (0.6, -0.2)


def test_mark_returned_forgets_held_and_displaced():
    memory = started_memory()
    memory.stacked = ["red_cube", "blue_cube"]
    memory.holding = "green_cube"
    red = plan.slot_position(memory, 0)
    tree = tree_of('<Sequence><StackIntact stack="{s}" detections="{d}"/></Sequence>', s=memory,
                   d=[det("red_cube", *red[:2], red[2]), det("blue_cube", 0.3, 0.3)])
    assert tree.tick_once() is NodeStatus.FAILURE
    assert memory.stacked == ["red_cube", "blue_cube"]  # StackIntact only looks
    returned = tree_of('<MarkReturned stack="{s}" detections="{d}"/>', s=memory,
                       d=tree.root_blackboard.get("d"))
    assert returned.tick_once() is NodeStatus.SUCCESS
    assert memory.holding is None and memory.stacked == ["red_cube"]


def stamped(objects, t):
    sec = int(t)
    return {"header": {"stamp": {"sec": sec, "nanosec": int(round((t - sec) * 1e9))}}, "objects": objects}


def test_holding_cube_compares_with_the_tool_at_the_image_time():
    memory = started_memory()
    tree = tree_of('<Sequence><MarkHolding stack="{s}" cube="red_cube"/>'
                   '<HoldingCube stack="{s}" detections="{d}" ee_pose="{ee}"/></Sequence>',
                   s=memory, d=stamped([det("red_cube", 0.4, 0.2)], 5.0), ee={"x": 0.4, "y": 0.2, "z": 0.65, "stamp": 5.0})
    board = tree.root_blackboard
    assert tree.tick_once() is NodeStatus.SUCCESS
    hold = tree_of('<HoldingCube stack="{s}" detections="{d}" ee_pose="{ee}"/>', s=memory)
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
    assert memory.events[-1].startswith("dropped: red_cube")
    assert board is not None


def test_holding_cube_ignores_images_from_before_the_grasp():
    memory = started_memory()
    memory.holding, memory.grasps = "red_cube", 1
    hold = tree_of('<HoldingCube stack="{s}" detections="{d}" ee_pose="{ee}"/>', s=memory,
                   ee={"x": 0.4, "y": 0.2, "z": 0.9, "stamp": 8.0},
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
