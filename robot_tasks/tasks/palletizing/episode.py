"""The UR10 palletizing demo as a DemoTask (run by robot_tasks/demo/runner.py).

    robot-tasks demo ur10_palletizing --seed 1 --disturb drop --out runs/

Phases are the tree's motion and suction steps (picking, the flip station's two grips,
placing); a recovery is the carried-bin guard firing or a taken slot skipped;
`--disturb` drops the carried bin, takes a slot or lays the next bin tilted on the belt's
stop (pallet_disturbance.py); the end is graded per bin by judge_pallet (pallet_grade.py)
on the sim's ground truth: report["bins"].
"""
from __future__ import annotations

from robot_tasks.tasks.episode import SENT_TRAJECTORY_TOPIC, DemoTask
from robot_tasks.tasks.palletizing.disturbance import PalletDisturbanceRule
from robot_tasks.tasks.palletizing.grade import judge_pallet, pallet_complete

PHASES = ("reach_to_pick", "suction_on", "lift", "to_flip_station", "lay_on_side", "release_on_jig",
          "into_bin", "regrip", "turn_upright", "above_slot", "reach_to_place", "release_on_pallet")
# A guard's BinAttached SubTree failing is a lost bin; AttachmentConfirmed's own check of the
# same topic (named attached_yet) fails while the topic catches up, which is no loss.
RECOVERIES = {("BinAttached", "FAILURE"): "bin lost from the suction: picking it again",
              ("slot_free", "FAILURE"): "slot taken: skipping it"}


def grade(poses: dict, first_poses: dict, releases: list):
    bins = judge_pallet(poses, first_poses, releases)
    summary = (f"{sum(b['ok'] for b in bins)}/{len(bins)} bins upright in their own slot, "
               f"{sum(b['flipped'] for b in bins)} came upside down")
    return "bins", bins, pallet_complete(bins), summary


PALLETIZING = DemoTask(name="ur10_palletizing", tree_id="Ur10Palletizing", phases=PHASES,
                       counted="release_on_pallet", counted_as="placed", recoveries=RECOVERIES,
                       make_rule=PalletDisturbanceRule, grade=grade,
                       bag_topics=(SENT_TRAJECTORY_TOPIC,))
