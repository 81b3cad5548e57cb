"""The ROS-free parts of the palletizing demo: per-bin grading and the disturbance rules."""
from __future__ import annotations

import math

import pytest
from defusedxml import ElementTree
from ground_truth import level
from paths import REPO

from robot_tasks.demo.run_watcher import Counted
from robot_tasks.tasks.palletizing.cell import DEFAULT_CELL as CELL
from robot_tasks.tasks.palletizing.disturbance import PalletDisturbanceRule
from robot_tasks.tasks.palletizing.episode import RECOVERIES
from robot_tasks.tasks.palletizing.grade import judge_pallet, pallet_complete

UP, DOWN = (0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 0.0, 0.0)


def full_pallet():
    return {f"bin_{k}": (CELL.slot_center(k), UP) for k in range(9)}


def test_a_full_pallet_of_upright_bins_is_complete_and_flips_are_reported():
    first = {f"bin_{k}": ((0.3, 0.8, 0.61), DOWN if k % 2 else UP) for k in range(9)}
    rows = judge_pallet(full_pallet(), first, releases_one_by_one(range(9)))
    assert pallet_complete(rows) and all(r["ok"] for r in rows)
    assert [r["flipped"] for r in rows] == [bool(k % 2) for k in range(9)]
    assert rows[3]["slot"] == 3 and rows[3]["time"] == 13.0 and rows[3]["yaw_error"] == pytest.approx(0.0)


def releases_one_by_one(order, on_belt=(0.3, 0.8, 0.61)):
    """A Counted per release: bins put into their own slot in `order`, at 10, 11, ... s."""
    positions = {f"bin_{k}": on_belt for k in range(9)}
    releases = []
    for t, k in enumerate(order):
        positions[f"bin_{k}"] = tuple(CELL.slot_center(k))
        releases.append(Counted(10.0 + t, dict(positions)))
    return releases


def test_a_bins_time_is_its_release_into_the_slot_it_ends_in_not_the_kth_release():
    # bin_2 is placed first, bin_0 and bin_1 later; bin_4 is placed, dragged off, placed again
    releases = releases_one_by_one([2, 0, 1, 4])
    moved = dict(releases[-1].positions, bin_4=(0.5, 0.2, 0.06))
    releases.append(Counted(14.0, moved))                  # the next release sees bin_4 gone
    releases.append(Counted(15.0, dict(moved, bin_4=tuple(CELL.slot_center(4)))))
    poses = {name: (p, UP) for name, p in releases[-1].positions.items()}
    rows = {r["bin"]: r for r in judge_pallet(poses, poses, releases)}
    assert [rows[f"bin_{k}"]["time"] for k in (2, 0, 1, 4)] == [10.0, 11.0, 12.0, 15.0]
    assert rows["bin_3"]["slot"] is None and rows["bin_3"]["time"] is None


def test_upside_down_shared_or_missed_slots_are_not_ok():
    poses = full_pallet()
    poses["bin_0"] = (CELL.slot_center(0), DOWN)                          # upside down in its slot
    poses["bin_1"] = (CELL.slot_center(2), UP)                            # shares slot 2 with bin_2
    poses["bin_3"] = ((0.5, 0.2, 0.06), UP)                               # on the floor
    yaw = 0.2
    poses["bin_4"] = (CELL.slot_center(4), (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2)))
    rows = {r["bin"]: r for r in judge_pallet(poses, poses)}
    assert not rows["bin_0"]["ok"] and not rows["bin_0"]["upright"]
    assert not rows["bin_1"]["ok"] and not rows["bin_2"]["ok"]
    assert rows["bin_3"]["slot"] is None and not rows["bin_3"]["ok"]
    assert rows["bin_4"]["ok"] and rows["bin_4"]["yaw_error"] == pytest.approx(yaw, abs=1e-6)
    assert not pallet_complete(list(rows.values()))


def test_drop_fires_once_the_third_bin_is_lifted_off_the_belt():
    rule = PalletDisturbanceRule("drop")
    rule.on_phase_start("lift", 1, 0.0)
    assert not rule.armed
    rule.on_phase_start("lift", 2, 0.0)
    assert rule.due(0.0, level({"bin_2": (0.3, 0.8, 0.65)})) is None               # not high enough yet
    request = rule.due(0.1, level({"bin_2": (0.3, 0.8, 0.9)}))
    assert request == {"object_name": "bin_2", "mode": "DROP", "target": (0.0, 0.0, 0.0)}
    assert rule.due(0.2, level({"bin_2": (0.3, 0.8, 0.9)})) is None                # once


def test_drop_waits_for_a_bin_lifted_over_the_belts_end():
    """Read late (rtf 0), the 3rd bin may be on its way to the jig: it is not dropped over the
    floor; the next bin lifted at the belt's end is."""
    rule = PalletDisturbanceRule("drop")
    rule.on_phase_start("lift", 2, 0.0)
    assert rule.due(0.0, level({"bin_2": (0.6, 0.2, 0.9), "bin_3": (0.3, 0.8, 0.61)})) is None   # over the floor
    request = rule.due(1.0, level({"bin_2": (0.9, -0.1, 0.5), "bin_3": (0.31, 0.79, 0.75)}))
    assert request == {"object_name": "bin_3", "mode": "DROP", "target": (0.0, 0.0, 0.0)}
    assert rule.log[-1] == "bin_2 left the belt's end before the drop: dropping bin_3"


def test_slot_drags_a_waiting_bin_into_the_next_bins_slot():
    rule = PalletDisturbanceRule("slot")
    rule.on_phase_start("above_slot", 1, 0.0)
    request = rule.due(0.0, level({"bin_1": (0.0, -0.8, 0.5), "bin_3": (-0.4, 0.8, 0.61), "bin_4": (-0.8, 0.8, 0.61)}))
    assert request["object_name"] == "bin_4" and request["mode"] == "DRAG"
    assert request["target"][:2] == pytest.approx(CELL.slot_center(2)[:2])
    with pytest.raises(ValueError, match="drop, slot, tilt"):
        PalletDisturbanceRule("knock")


TREE_LOG = ["1.0 INFO pickup: bin at (0.298, 0.800, 0.610) upright -> pallet", "9.0 INFO place: slot 0",
            "20.0 INFO pickup: bin at (0.298, 0.800, 0.610) upside down -> flip station", "40.0 INFO place: slot 1",
            "52.0 INFO pickup: bin at (0.298, 0.800, 0.610) upright -> pallet"]


@pytest.mark.parametrize("upside_down", [False, True])
def test_tilt_lays_the_bin_the_tree_just_saw_on_the_stop_keeping_its_side_up(upside_down):
    rule = PalletDisturbanceRule("tilt")
    rule.on_phase_start("above_slot", 2, 0.0)                               # phases do not arm it
    rule.on_task_log(TREE_LOG[:4], 0.0)
    assert not rule.armed and rule.due(0.0, {}) is None                     # two placed, no new bin seen yet
    rule.on_task_log(TREE_LOG, 1.0)
    assert rule.armed
    flipped = (1.0, 0.0, 0.0, 0.0)                                          # half a turn about x
    poses = {**level({"bin_1": (0.0, -0.8, 0.2), "bin_3": (-0.5, 0.8, 0.61)}),
             "bin_2": ((0.298, 0.8, 0.61), flipped if upside_down else (0.0, 0.0, 0.0, 1.0))}
    request = rule.due(1.0, poses)
    assert request["object_name"] == "bin_2" and request["mode"] == "DRAG"
    assert request["target"][:2] == pytest.approx(CELL.pickup_xy, abs=0.03)
    x, y, z, w = request["orientation"]
    assert x * x + y * y + z * z + w * w == pytest.approx(1.0)
    up_z = 1.0 - 2.0 * (x * x + y * y)                                      # world z of the bin's z axis
    assert math.degrees(math.acos(abs(up_z))) == pytest.approx(16.0, abs=1e-6)
    assert (up_z < 0) is upside_down
    assert rule.due(2.0, poses) is None                                     # once


def test_tilt_does_nothing_when_no_bin_waits_at_the_belts_end():
    rule = PalletDisturbanceRule("tilt")
    rule.on_task_log(TREE_LOG, 1.0)
    assert rule.due(1.0, level({"bin_3": (-0.5, 0.8, 0.61)})) is None
    assert rule.fired and "nothing tilted" in rule.log[-1]


def test_the_demo_command_knows_each_tasks_disturbances(capsys):
    import argparse

    from robot_tasks.commands import demo

    args = argparse.Namespace(name="ur10_palletizing", seed=0, disturb="knock", out=".", rtf=1.0, timeout=10.0,
                              config=None, object=None, render=True, foxglove=False, gui=False)
    assert demo.run(args) == 2
    assert "ur10_palletizing knows --disturb drop, slot, tilt, not knock" in capsys.readouterr().err
    assert demo.run(argparse.Namespace(**{**vars(args), "disturb": None, "object": "lemon"})) == 2
    assert "ur10_palletizing picks no chosen object, not lemon" in capsys.readouterr().err
    from robot_tasks.tasks.catalog import task_spec
    from robot_tasks.tasks.palletizing import disturbance as pallet_disturbance
    from robot_tasks.tasks.pyramid import disturbance as pyramid_disturbance
    from robot_tasks.tasks.stacking import disturbance
    # the CLI offers what the rules do
    assert task_spec("ur10_palletizing").disturbances == pallet_disturbance.MODES
    assert task_spec("franka_stacking").disturbances == disturbance.MODES
    assert task_spec("franka_pyramid").disturbances == pyramid_disturbance.MODES


def test_a_lost_bin_is_counted_from_the_guards_not_from_the_wait_for_the_attached_topic():
    """The demo's "bin lost" is a guard's BinAttached failing. AttachmentConfirmed checks
    the same topic while it catches up with the suction's answer: its failures are no
    loss (seed 2 undisturbed once reported one), so its check has a name of its own."""
    root = ElementTree.parse(REPO / "trees" / "ur10_palletizing.xml").getroot()
    trees = {bt.get("ID"): bt for bt in root.findall("BehaviorTree")}
    in_wait = [el.get("name") for el in trees["AttachmentConfirmed"].iter("SubTree")]
    guards = [el.get("name", el.get("ID")) for tid, bt in trees.items() if tid != "AttachmentConfirmed"
              for el in bt.iter("SubTree") if el.get("ID") == "BinAttached"]
    lost = [name for (name, status), text in RECOVERIES.items() if text.startswith("bin lost")]
    assert lost == ["BinAttached"] and len(guards) >= 4 and set(guards) == {"BinAttached"}
    assert in_wait == ["attached_yet"]
