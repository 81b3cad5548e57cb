"""robot_tasks.demo.sent_trajectories without ROS: the limits a run's arm_server used, a bag of
sent trajectories read back, and the audit (BOUNDED exempt from acceleration and jerk) on
trajectories the real planner makes with the new and the old timing."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import yaml

from robot_tasks.control import ArmKinematics, Pose, default_limits_path, load_limits_file, panda_spec
from robot_tasks.control.motion_pipeline import MotionPlanner, PlannerSettings
from robot_tasks.control.motion_request import FrameMap, Motion, MotionDefaults, pose_request
from robot_tasks.demo.sent_trajectories import audit_trajectories, is_bounded, read_sent_trajectories, server_limits

HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
# the old timing's settings (velocity_ramp): no joint limits, a 0.2 s speed ramp
OLD = PlannerSettings(ik_method="dls", ik_restarts=8, max_dq=0.006, min_steps=40, ramp_time=0.2,
                      planning_time=2.0, cartesian_step=0.005)


def request(motion: Motion):
    """A pose goal 0.45, 0.25, 1.0 in the world, tool down, with the arm server's defaults."""
    defaults = MotionDefaults(position_tolerance=0.005, orientation_tolerance=0.02, joint_tolerance=0.005,
                              velocity_scaling=0.5, timeout=30.0)
    return pose_request("world", [0.45, 0.25, 1.0], (1.0, 0.0, 0.0, 0.0), motion,
                        FrameMap("panda_link0", Pose([0.0, 0.0, 0.625])), defaults)


def write_params(run_dir, **arm_server):
    (run_dir / "params").mkdir(parents=True)
    document = {"sim": {"ros__parameters": {"seed": 0}}, "arm_server": {"ros__parameters": arm_server}}
    (run_dir / "params" / "franka_stacking.yaml").write_text(yaml.safe_dump(document))


@pytest.fixture(scope="module")
def panda_run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("run")
    write_params(run_dir, robot="panda", tip_frame="panda_grasptarget")
    return run_dir


@pytest.fixture(scope="module")
def planners(panda_run):
    kin = ArmKinematics.from_spec(panda_spec())
    new = replace(OLD, joint_limits=load_limits_file(default_limits_path("panda")), acceleration_scaling=0.5)
    return MotionPlanner(kin, new), MotionPlanner(kin, OLD), server_limits(panda_run)


def test_the_limits_are_those_the_run_s_arm_server_loaded(tmp_path, panda_run):
    limits = server_limits(panda_run)
    panda = load_limits_file(default_limits_path("panda"))
    assert limits.joint_names == panda.joint_names
    assert np.allclose(limits.acceleration, panda.acceleration) and np.allclose(limits.jerk, panda.jerk)
    # a run whose arm_server names its own limits file is held to that file
    stricter = tmp_path / "stricter.yaml"
    table = yaml.safe_load(default_limits_path("panda").read_text())
    for entry in table["joints"].values():
        entry["acceleration"] /= 2
    stricter.write_text(yaml.safe_dump(table))
    write_params(tmp_path / "other", robot="panda", limits_file=str(stricter))
    assert np.allclose(server_limits(tmp_path / "other").acceleration, panda.acceleration / 2)


def test_the_new_timing_passes_the_old_fails_and_bounded_is_exempt(planners):
    new, old, limits = planners
    sent = [new.plan_pose(HOME, request(Motion.FREE)), new.plan_pose(HOME, request(Motion.BOUNDED)),
            old.plan_pose(HOME, request(Motion.FREE))]
    assert [is_bounded(t) for t in sent] == [False, True, False]

    audit = audit_trajectories(sent[:2], limits)
    assert audit.violations() == [] and audit.interpolations == {"quintic"}
    # the BOUNDED schedule steps at full speed each command (linear interpolation): far over
    # the acceleration limit, which is why only its velocity is held to a limit
    assert audit.reports[1].acceleration.max() > 1.0
    assert 0.0 < audit.worst("velocity")[0] <= 1.0
    assert [row[1] for row in audit.ratios("jerk")] == [0]

    old_audit = audit_trajectories(sent[2:], limits)
    assert old_audit.interpolations == {"cubic"}
    assert {kind for kind, *_ in old_audit.violations()} >= {"jerk"}
    assert old_audit.worst("velocity")[0] <= 1.0


def test_a_bag_of_sent_trajectories_reads_back_in_order(tmp_path, planners):
    """A bag written the way the demo's recorder writes one (rosbag2, MCAP, CDR)."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_typestore

    new, _, _ = planners
    sent = [new.plan_pose(HOME, request(Motion.FREE)), new.plan_pose(HOME, request(Motion.BOUNDED))]
    store = get_typestore(Stores.ROS2_KILTED)
    T = store.types
    msgtype = "trajectory_msgs/msg/JointTrajectory"
    with Writer(tmp_path / "bag", version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        connection = writer.add_connection("/arm_server/sent_trajectory", msgtype, typestore=store)
        for stamp, traj in enumerate(sent):
            accelerations = traj.accelerations or [[] for _ in traj.positions]
            points = [T["trajectory_msgs/msg/JointTrajectoryPoint"](
                positions=np.array(q, float), velocities=np.array(v, float), accelerations=np.array(a, float),
                effort=np.array([], float), time_from_start=T["builtin_interfaces/msg/Duration"](
                    sec=int(t), nanosec=int(round((t - int(t)) * 1e9))))
                for q, v, a, t in zip(traj.positions, traj.velocities, accelerations, traj.time_from_start)]
            header = T["std_msgs/msg/Header"](stamp=T["builtin_interfaces/msg/Time"](sec=0, nanosec=0), frame_id="")
            msg = T[msgtype](header=header, joint_names=list(traj.joint_names), points=points)
            writer.write(connection, stamp + 1, store.serialize_cdr(msg, msgtype))

    back = read_sent_trajectories(tmp_path)
    assert len(back) == 2 and [is_bounded(t) for t in back] == [False, True]
    assert np.allclose(back[0].positions, sent[0].positions) and np.allclose(back[0].accelerations,
                                                                             sent[0].accelerations)
    assert np.allclose(back[1].time_from_start, sent[1].time_from_start, atol=1e-9)
    assert read_sent_trajectories(tmp_path, "arm_server_2") == []      # another server's: none recorded
