"""robot_tasks.ros.parameters.declare on a real rclpy node: types, ranges, one error style."""
from __future__ import annotations

import itertools

import pytest

from robot_tasks.ros.errors import ParameterError
from robot_tasks.ros.parameters import declare

_names = itertools.count()


@pytest.fixture(scope="module")
def context(ros_env):
    import rclpy
    from rclpy.context import Context

    ctx = Context()
    rclpy.init(context=ctx, domain_id=ros_env.domain_id)
    yield ctx
    ctx.try_shutdown()


def make_node(context, **overrides):
    import rclpy
    from rclpy.parameter import Parameter

    return rclpy.create_node(f"params_{next(_names)}", context=context,
                             parameter_overrides=[Parameter(k, value=v) for k, v in overrides.items()])


def test_defaults_and_given_values_come_back_typed(context):
    node = make_node(context, rate=240, names=["a", "b"], flag=False, topics=["/tf", "/clock"])
    assert declare(node, "rate", 100.0, "Hz", minimum=0, open_minimum=True) == 240.0   # int accepted
    assert isinstance(declare(node, "rate2", 100.0), float)
    assert declare(node, "names", [""], "joints") == ["a", "b"]
    assert declare(node, "flag", True) is False
    assert declare(node, "count", 8, minimum=0) == 8
    assert declare(node, "dirs", [], kind=str) == []
    assert declare(node, "topics", [], kind=str) == ["/tf", "/clock"]     # an empty default, then set
    assert declare(node, "height", None, kind=float) is None
    node.destroy_node()


def test_description_carries_the_range_and_choices(context):
    node = make_node(context)
    declare(node, "scaling", 0.5, "fraction of the limits", minimum=0.0, maximum=1.0, open_minimum=True)
    declare(node, "mode", "empty", "how to stop", choices=("empty", "hold_point"))
    assert node.describe_parameter("scaling").description == "fraction of the limits (range in (0, 1])"
    assert node.describe_parameter("mode").description == "how to stop (one of empty, hold_point)"
    node.destroy_node()


@pytest.mark.parametrize("given, rule, message", [
    (1.5, dict(minimum=0.0, maximum=1.0, open_minimum=True), "must be a finite number in (0, 1], got 1.5"),
    (-1.0, dict(minimum=0.0), "must be a finite number >= 0, got -1.0"),
    ("fast", dict(), "must be a finite number, got 'fast'"),
    (float("nan"), dict(), "must be a finite number, got nan"),
])
def test_bad_numbers_name_the_node_and_the_parameter(context, given, rule, message):
    node = make_node(context, value=given)
    with pytest.raises(ParameterError) as info:
        declare(node, "value", 0.5, **rule)
    assert str(info.value) == f"{node.get_name()}: parameter 'value' {message}"
    assert info.value.parameter == "value" and info.value.node == node.get_name()
    node.destroy_node()


def test_bad_strings_lists_and_integers(context):
    node = make_node(context, mode="fast", topic="", pose=[1.0, 2.0], width=3.5, joints=[1.0])
    with pytest.raises(ParameterError, match="'mode' must be one of empty, hold_point, got 'fast'"):
        declare(node, "mode", "empty", choices=("empty", "hold_point"))
    with pytest.raises(ParameterError, match="'topic' must be a non-empty string"):
        declare(node, "topic", "x", allow_empty=False)
    with pytest.raises(ParameterError, match=r"'pose' must have 7 values, got 2"):
        declare(node, "pose", [0.0] * 7, length=7)
    with pytest.raises(ParameterError, match=r"'width' must be an integer in \[16, 4096\], got 3.5"):
        declare(node, "width", 320, minimum=16, maximum=4096)
    with pytest.raises(ParameterError, match="'joints' must be a list of strings"):
        declare(node, "joints", ["a"])
    node.destroy_node()


def ranges(descriptor):
    return ([(r.from_value, r.to_value, r.step) for r in descriptor.floating_point_range],
            [(r.from_value, r.to_value, r.step) for r in descriptor.integer_range])


def test_descriptor_carries_the_range_as_rclpy_ranges(context):
    node = make_node(context, rate=240)        # an int for a float: no range check may refuse it
    assert declare(node, "rate", 100.0, minimum=0.0, open_minimum=True) == 240.0
    declare(node, "scaling", 0.5, minimum=0.0, maximum=1.0, open_minimum=True)
    declare(node, "count", 8, minimum=0, open_minimum=True, maximum=10, open_maximum=True)
    declare(node, "fraction", 0.5, maximum=1.0)
    declare(node, "height", None, kind=float, minimum=0.0)
    declare(node, "flag", True)
    declare(node, "sizes", [0.1], minimum=0.0)
    inf, big = float("inf"), 2**63 - 1
    assert ranges(node.describe_parameter("rate")) == ([(0.0, inf, 0.0)], [])
    assert ranges(node.describe_parameter("scaling")) == ([(0.0, 1.0, 0.0)], [])  # (0, 1]: inclusive
    assert ranges(node.describe_parameter("count")) == ([], [(1, 9, 0)])         # (0, 10): exact
    assert ranges(node.describe_parameter("fraction")) == ([(-inf, 1.0, 0.0)], [])
    assert ranges(node.describe_parameter("height")) == ([(0.0, inf, 0.0)], [])
    assert ranges(node.describe_parameter("flag")) == ([], [])
    assert ranges(node.describe_parameter("sizes")) == ([], [])                  # lists: text only
    declare(node, "steps", 40, minimum=1)
    assert ranges(node.describe_parameter("steps")) == ([], [(1, big, 0)])
    node.destroy_node()


def test_read_only_unless_the_node_applies_new_values(context):
    from rclpy.parameter import Parameter

    node = make_node(context)
    seen = []
    declare(node, "rate", 100.0, minimum=0.0, open_minimum=True)
    declare(node, "speed", 0.5, minimum=0.0, maximum=1.0, open_minimum=True, on_set=seen.append)
    assert node.describe_parameter("rate").read_only and not node.describe_parameter("speed").read_only

    rate, low, word, fine, whole = node.set_parameters([
        Parameter("rate", value=50.0), Parameter("speed", value=0.0), Parameter("speed", value="x"),
        Parameter("speed", value=0.25), Parameter("speed", value=1)])
    assert rate.reason == "Trying to set a read-only parameter: rate."
    assert low.reason == f"{node.get_name()}: parameter 'speed' must be a finite number in (0, 1], got 0.0"
    assert not word.successful and fine.successful and whole.successful
    assert seen == [0.25, 1.0]                 # checked values: the int arrives as a float
    node.destroy_node()
