"""The palletizing leaves on a blackboard, no ROS: perception's detections in, the decision
(`needs_flip`) and corridor poses out; conditions that only read."""
from __future__ import annotations

import math

import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.tasks import register_nodes
from robot_tasks.tasks.palletizing.bins import SeenBin, bin_at_pickup, overlap_depth, seen_bins, slot_taken
from robot_tasks.tasks.palletizing.cell import DEFAULT_CELL as CELL

FLIPPED = (1.0, 0.0, 0.0, 0.0)      # a half turn about x: upside down


def detection(x, y, z, orientation_class="upright", q=(0.0, 0.0, 0.0, 1.0), label="bin"):
    return {"label": label, "id": label, "confidence": 0.9, "orientation_class": orientation_class,
            "pose": {"position": {"x": x, "y": y, "z": z},
                     "orientation": dict(zip(("x", "y", "z", "w"), q))},
            "size": {"x": 0.3, "y": 0.2, "z": 0.12}}


def tree(xml_body, **entries):
    factory = BehaviorTreeFactory()
    register_nodes(factory)
    t = factory.create_tree_from_text(f'<root BTCPP_format="4"><BehaviorTree ID="T">{xml_body}</BehaviorTree></root>')
    for key, value in entries.items():
        t.root_blackboard.set(key, value)
    return t


LOCATE = ('<LocateBinAtPickup detections="{detections}" needs_flip="{needs_flip}" above_pose="{above}" '
          'grip_pose="{grip}" lift_pose="{lift}"/>')


@pytest.mark.parametrize("orientation, flip, lift", [("upright", False, 0.5), ("upside_down", True, 0.3)])
def test_locate_bin_decides_needs_flip_from_perception(orientation, flip, lift):
    dets = [detection(-0.5, 0.8, 0.61), detection(0.30, 0.80, 0.61, orientation)]
    t = tree(LOCATE, detections=dets)
    assert t.tick_once() == NodeStatus.SUCCESS
    bb = t.root_blackboard
    assert bb.get("needs_flip") is flip
    assert bb.get("grip")["x"] == pytest.approx(0.30)
    assert bb.get("lift")["z"] - bb.get("grip")["z"] == pytest.approx(lift)


def test_locate_bin_fails_while_no_bin_waits_at_the_belt_end():
    t = tree(LOCATE, detections=[detection(-0.5, 0.8, 0.61), detection(0.0, -0.8, 0.2)])
    assert t.tick_once() == NodeStatus.FAILURE
    with pytest.raises(BehaviorTreeError, match="detections"):
        tree(LOCATE, detections="not a list").tick_once()


def test_slot_free_only_reads_and_sees_a_bin_in_the_slot():
    in_slot_2 = detection(*CELL.slot_center(2))
    for slot, expected in ((2, NodeStatus.FAILURE), (3, NodeStatus.SUCCESS)):
        t = tree('<SlotFree detections="{detections}" slot_index="{slot_index}"/>',
                 detections=[in_slot_2], slot_index=slot)
        assert t.tick_once() == expected
        assert t.root_blackboard.get("slot_index") == slot          # unchanged
    with pytest.raises(BehaviorTreeError, match="slot_index"):
        tree('<SlotFree detections="{detections}" slot_index="{slot_index}"/>', detections=[], slot_index=9).tick_once()


def test_the_xml_skips_taken_slots_with_a_script_and_stops_when_full():
    skip = ('<Sequence><RetryUntilSuccessful num_attempts="9"><Fallback>'
            '<SlotFree detections="{detections}" slot_index="{slot_index}" _failureIf="slot_index &gt;= 9"/>'
            '<Sequence><Script code="slot_index += 1"/><AlwaysFailure/></Sequence></Fallback>'
            '</RetryUntilSuccessful><SlotTargets slot_index="{slot_index}" above_pose="{a}" place_pose="{p}" '
            'lift_pose="{l}"/></Sequence>')
    taken = [detection(*CELL.slot_center(k)) for k in (1, 2)]
    t = tree(skip, detections=taken, slot_index=1)
    assert t.tick_once() == NodeStatus.SUCCESS
    assert t.root_blackboard.get("slot_index") == 3
    assert t.root_blackboard.get("p")["x"] == pytest.approx(CELL.slot_center(3)[0])
    done = tree('<PlacementCompletesStack slot_index="{slot_index}" slot_count="9"/>', slot_index=9)
    assert done.tick_once() == NodeStatus.SUCCESS
    assert tree('<PlacementCompletesStack slot_index="{slot_index}"/>', slot_index=8).tick_once() == NodeStatus.FAILURE


def test_seen_bins_reads_yaw_and_up_side():
    bins = seen_bins({"objects": [detection(0.3, 0.8, 0.61, "upside_down", FLIPPED),
                                  detection(0.0, 0.0, 0.7, label="red_cube")]})
    assert len(bins) == 1 and bins[0].upside_down and bins[0].yaw == pytest.approx(0.0, abs=1e-9)
    assert bin_at_pickup(bins, CELL) is bins[0]
    assert not slot_taken(bins, CELL, 0)
    x, y, z = CELL.slot_center(5)
    assert slot_taken(seen_bins([detection(x + 0.03, y, z - 0.10)]), CELL, 5)    # height misjudged: still taken


def test_seen_bins_reads_the_tilt_of_the_face_that_is_up():
    """Perception gives a tilted bin's orientation with z along the normal of its face
    that is up; a body frame of an upside-down bin (z pointing down) means the same face."""
    tilt = math.radians(16.0)
    leaning = (0.0, -math.sin(tilt / 2), 0.0, math.cos(tilt / 2))        # front end raised
    body_flipped = (math.cos(tilt / 2), 0.0, math.sin(tilt / 2), 0.0)    # leaning * flip about x: z down
    for q in (leaning, body_flipped):
        (seen,) = seen_bins([detection(0.32, 0.8, 0.649, "upside_down", q)])
        assert seen.up == pytest.approx((-math.sin(tilt), 0.0, math.cos(tilt)), abs=1e-9)
        assert seen.tilt == pytest.approx(tilt)
    for q in ((0.0, 0.0, 0.0, 0.0), (math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))):   # no face up: level
        assert seen_bins([detection(0.3, 0.8, 0.61, q=q)])[0].up == (0.0, 0.0, 1.0)


def test_locate_bin_reaches_a_tilted_bin_along_its_normal(caplog):
    tilt = math.radians(16.0)
    leaning = (0.0, -math.sin(tilt / 2), 0.0, math.cos(tilt / 2))
    t = tree(LOCATE, detections=[detection(0.32, 0.8, 0.649, "upside_down", leaning)])
    with caplog.at_level("INFO", logger="robot_tasks.tasks.palletizing"):
        assert t.tick_once() == NodeStatus.SUCCESS
    bb = t.root_blackboard
    above, grip = bb.get("above"), bb.get("grip")
    direction = [above[k] - grip[k] for k in "xyz"]
    assert direction[0] < -0.03 and direction[1] == pytest.approx(0.0, abs=1e-9)   # leans back with the face
    assert "tilted 16 deg" in caplog.text
    assert bb.get("needs_flip") is True


def test_overlap_depth_of_rectangles():
    assert overlap_depth((0, 0), 0.0, (0.3, 0.2), (0.32, 0), 0.0, (0.3, 0.2)) == pytest.approx(-0.02)
    assert overlap_depth((0, 0), 0.0, (0.3, 0.2), (0.10, 0), 0.0, (0.3, 0.2)) == pytest.approx(0.20)
    assert overlap_depth((0, 0), 0.0, (0.3, 0.2), (0, 0), 0.7, (0.3, 0.2)) > 0.15
    # turned a quarter: a 0.3 x 0.2 box 0.26 m away along x reaches 0.25 - 0.26 < 0 (apart)
    assert overlap_depth((0, 0), 0.0, (0.3, 0.2), (0.26, 0), math.pi / 2, (0.3, 0.2)) == pytest.approx(-0.01)


def test_a_bin_lying_across_a_slot_takes_it_and_a_neighbour_slightly_off_does_not():
    x, y, _ = CELL.slot_center(2)
    across = SeenBin((x - 0.14, y + 0.05, 0.2), 0.6, False)             # centre 15 cm off, turned
    assert slot_taken([across], CELL, 2)
    nx, ny, _ = CELL.slot_center(1)                                    # slot 2's neighbour in x
    skewed = SeenBin((nx + 0.01, ny, 0.2), math.radians(2.0), False)
    assert slot_taken([skewed], CELL, 1) and not slot_taken([skewed], CELL, 2)
    # the seen footprint counts: a long thing reaches further
    long_one = SeenBin((nx + 0.04, ny, 0.2), 0.0, False, footprint=(0.40, 0.2))
    assert slot_taken([long_one], CELL, 2) and not slot_taken([SeenBin((nx + 0.04, ny, 0.2), 0.0, False)], CELL, 2)


STILL = '<BinStillAtPickup detections="{detections}" grip_pose="{grip}"/>'


def located_grip(dets):
    t = tree(LOCATE, detections=dets)
    assert t.tick_once() == NodeStatus.SUCCESS
    return t.root_blackboard.get("grip")


def test_bin_still_at_pickup_passes_while_the_bin_lies_where_it_was_located():
    dets = [detection(0.30, 0.80, 0.61)]
    grip = located_grip(dets)
    assert tree(STILL, detections=[detection(0.305, 0.80, 0.61)], grip=grip).tick_once() == NodeStatus.SUCCESS
    # no bin seen at the belt's end (the arm hides it): no evidence of a move
    assert tree(STILL, detections=[], grip=grip).tick_once() == NodeStatus.SUCCESS


def test_bin_still_at_pickup_fails_when_the_bin_moved_or_tipped():
    grip = located_grip([detection(0.30, 0.80, 0.61)])
    moved = [detection(0.36, 0.80, 0.61)]
    assert tree(STILL, detections=moved, grip=grip).tick_once() == NodeStatus.FAILURE
    pitch = math.radians(-16.0)       # the demo's tilt: nose up on the stop's edge
    tipped = [detection(0.30, 0.80, 0.64, q=(0.0, math.sin(pitch / 2), 0.0, math.cos(pitch / 2)))]
    assert tree(STILL, detections=tipped, grip=grip).tick_once() == NodeStatus.FAILURE
    with pytest.raises(BehaviorTreeError, match="grip_pose"):
        tree(STILL, detections=moved, grip="nowhere").tick_once()
