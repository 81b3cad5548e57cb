"""Tasks are found by looking (robot_tasks/tasks/catalog.py), and each one found is whole:
its tree, scene, configs, launch file, bench targets and demo."""
import xml.etree.ElementTree as ElementTree

import pytest
from paths import REPO

from robot_tasks.tasks.catalog import UnknownTask, task_names, task_spec, tasks
from robot_tasks.tasks.errors import TaskError


def test_the_six_tasks_are_found():
    assert task_names() == ("banana_bowl", "franka_pick_place", "franka_press", "franka_pyramid", "franka_stacking",
                            "ur10_palletizing")


@pytest.mark.parametrize("spec", tasks(), ids=lambda spec: spec.name)
def test_every_task_has_its_files_targets_and_demo(spec):
    from robot_tasks.sim import scene_names
    from robot_tasks.tasks.episode import DemoTask

    tree = ElementTree.parse(REPO / "trees" / f"{spec.name}.xml").getroot()
    assert tree.get("main_tree_to_execute") == spec.tree_id
    assert spec.name in scene_names()
    for path in (f"config/{spec.name}.yaml", f"config/{spec.name}.real.yaml", f"launch/{spec.name}.launch.xml"):
        assert (REPO / path).is_file(), path
    assert spec.target(None) is not None and all(spec.target(mode) is not None for mode in spec.disturbances)
    assert all(0.0 < percent <= 100.0 for percent in spec.targets.values())
    demo = spec.load_demo()           # every task runs in the one episode runner
    assert isinstance(demo, DemoTask) and (demo.name, demo.tree_id) == (spec.name, spec.tree_id)


@pytest.mark.parametrize("spec", tasks(), ids=lambda spec: spec.name)
def test_every_task_fills_the_runners_roles_with_their_types(spec):
    """The runner calls every method of a rule and a follower without looking first: a
    task's rules and follower must be the base classes' kind (which define them all)."""
    from robot_tasks.tasks.episode import DisturbanceRule, Follower

    demo = spec.load_demo()
    for mode in spec.disturbances:
        rule = demo.make_rule(mode)
        assert isinstance(rule, DisturbanceRule), f"{spec.name} --disturb {mode}: {type(rule).__name__}"
        assert isinstance(rule.log, list) and rule.modes == spec.disturbances and rule.task == spec.name
    if spec.disturbances:        # a rule made by hand for a mode its task lacks says whose modes it knows
        with pytest.raises(ValueError, match=f"^{spec.name}: disturbance 'shake' is not one of "):
            demo.make_rule("shake")
    if demo.follow is not None:
        assert isinstance(demo.follow(), Follower)


def test_an_unknown_task_names_the_known_ones():
    with pytest.raises(UnknownTask, match="no task 'franka_stack'; known: banana_bowl, franka_pick_place, "):
        task_spec("franka_stack")
    assert issubclass(UnknownTask, TaskError)


def test_the_demo_command_refuses_what_a_task_does_not_know(capsys):
    from robot_tasks.cli import main

    assert main(["demo", "franka_press", "--disturb", "drag"]) == 2
    assert "franka_press knows --disturb none, not drag" in capsys.readouterr().err
    assert main(["demo", "franka_stacking", "--object", "lemon"]) == 2
    assert "franka_stacking picks no chosen object, not lemon" in capsys.readouterr().err
