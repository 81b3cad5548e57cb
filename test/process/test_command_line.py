"""robot_tasks.process.command_line: `--ros-args` from Python values."""
from __future__ import annotations

from robot_tasks.process import param_text, parameter_flags, ros_args


def test_parameter_values_are_written_as_yaml():
    assert param_text(True) == "true" and param_text(False) == "false"
    assert param_text(1.5) == "1.5" and param_text(3) == "3"
    assert param_text("it's") == "'it''s'"                 # quoted: stays a string, even "true"
    assert param_text(["a", 2, [False]]) == "['a', 2, [false]]"


def test_ros_args_names_remaps_and_sets_parameters():
    assert ros_args() == []
    assert ros_args("arm", {"robot": "panda", "rate": 10}, {"__ns": "/cell"}) == [
        "--ros-args", "-r", "__node:=arm", "-r", "__ns:=/cell", "-p", "robot:='panda'", "-p", "rate:=10"]


def test_parameter_flags_take_yaml_text_as_it_is():
    assert parameter_flags([("peers", "[/sim, /arm]")]) == ["-p", "peers:=[/sim, /arm]"]
