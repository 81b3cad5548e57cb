"""`robot-tasks sim --snapshot` renders a real PNG; without it the command needs the node."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from robot_tasks import cli
from robot_tasks.commands import sim as sim_command

pytestmark = pytest.mark.sim


def test_snapshot_writes_a_png_of_the_scene(tmp_path, capsys):
    out = tmp_path / "shots" / "stacking.png"
    assert cli.main(["sim", "--scene", "franka_stacking", "--seed", "2", "--snapshot", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    image = np.asarray(Image.open(out))
    assert image.shape == (480, 640, 3)
    # A rendered scene, not a blank frame: many distinct colours, and the red cube is there.
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 500
    red = (image[..., 0] > 150) & (image[..., 1] < 60) & (image[..., 2] < 60)
    assert red.sum() > 20


def test_unknown_scene_and_bad_rtf_are_clear_errors(capsys):
    assert cli.main(["sim", "--scene", "moon_base", "--snapshot", "x.png"]) == 2
    assert "unknown scene 'moon_base'" in capsys.readouterr().err
    assert cli.main(["sim", "--scene", "franka_stacking", "--rtf", "-1"]) == 2
    assert "--rtf" in capsys.readouterr().err


def test_without_snapshot_a_missing_node_is_reported(monkeypatch, capsys):
    monkeypatch.setattr(sim_command, "NODE_MODULE", "robot_tasks.nodes.no_such_sim_node")
    assert cli.main(["sim", "--scene", "franka_stacking"]) == 3
    assert "not built yet" in capsys.readouterr().err
