"""Shared fixtures: kinematics of both arms are built once per test session (Pinocchio is
fast, but the collision checkers sample 200 configurations each)."""
import numpy as np
import pytest

from robot_tasks.control import ArmKinematics, panda_spec, ur10_spec


@pytest.fixture(scope="session")
def panda():
    spec = panda_spec()
    return spec, ArmKinematics.from_spec(spec)


@pytest.fixture(scope="session")
def ur10():
    spec = ur10_spec()
    return spec, ArmKinematics.from_spec(spec)


@pytest.fixture(params=["panda", "ur10"])
def arm(request, panda, ur10):
    """(spec, kinematics) for each robot in turn."""
    return {"panda": panda, "ur10": ur10}[request.param]


def _near_home_targets(spec, kin, count, spread=0.5, seed=7):
    """Reachable poses: FK of configurations within `spread` rad of the home pose."""
    rng = np.random.default_rng(seed)
    home = np.array(spec.home)
    targets = []
    while len(targets) < count:
        q = np.clip(home + rng.uniform(-spread, spread, kin.dof), kin.lower, kin.upper)
        pose = kin.fk(q)
        if pose.position[2] > 0.05:  # above the floor the robot stands on
            targets.append(pose)
    return targets


@pytest.fixture
def near_home_targets():
    """Function (spec, kin, count, spread=0.5, seed=7) -> list of reachable Poses."""
    return _near_home_targets
