"""Robot models: joint maps and limits, and robot_description that Pinocchio can load."""
from __future__ import annotations

import pinocchio as pin
import pytest

from robot_tasks.sim import World
from robot_tasks.sim.robots import PANDA_ARM, UR10_ARM, make_panda, make_ur10

pytestmark = pytest.mark.sim


@pytest.mark.parametrize("factory, arm, ee, nq, ngeoms", [(make_panda, PANDA_ARM, "panda_grasptarget", 9, 11),
                                                          (make_ur10, UR10_ARM, "suction_tcp", 6, 10)])
def test_robot_description_loads_in_pinocchio_without_package_dirs(factory, arm, ee, nq, ngeoms):
    with World() as world:
        robot = factory(world)
        model = pin.buildModelFromXML(robot.robot_description)
        assert model.nq == nq and model.existFrame(ee)
        assert [n for n in model.names[1:] if n in arm] == arm
        geom = pin.buildGeomFromUrdfString(model, robot.robot_description, pin.GeometryType.COLLISION)
        assert geom.ngeoms == ngeoms
        # Pinocchio and PyBullet agree on where the end effector is at the home pose.
        q = pin.neutral(model)
        for name, value in robot.home.items():
            jid = model.getJointId(name)
            q[model.joints[jid].idx_q] = value
        data = model.createData()
        pin.framesForwardKinematics(model, data, q)
        pin_pos = data.oMf[model.getFrameId(ee)].translation
        base = robot.base_pose()[0]
        sim_pos = robot.ee_pose()[0]
        assert [a + b for a, b in zip(pin_pos, base)] == pytest.approx(list(sim_pos), abs=1e-3)


def test_joint_maps_limits_and_states():
    with World() as world:
        robot = make_panda(world)
        assert robot.arm_joint_names == PANDA_ARM
        assert robot.joint_names == PANDA_ARM + ["panda_finger_joint1", "panda_finger_joint2"]
        assert robot.limits["panda_joint4"].upper == 0.0 and robot.limits["panda_joint1"].effort == 87
        states = robot.joint_states()
        assert states.names == robot.joint_names and len(states.position) == 9
        assert states.as_dict()["panda_joint4"] == pytest.approx(-2.356, abs=1e-6)
        with pytest.raises(Exception, match="unknown joint 'nope'"):
            robot.joint_states(["nope"])


def test_the_sim_library_imports_without_ros():
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([repo, os.environ.get("PYTHONPATH", "")]))
    code = ("import sys, robot_tasks.sim, robot_tasks.sim.disturb, robot_tasks.sim.snapshot;"
            "robot_tasks.sim.scene_names();"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('rclpy', 'rosidl_runtime_py')];"
            "sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
