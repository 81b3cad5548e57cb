"""ur_msgs built from its field lists is ros-industrial's (the UR driver's I/O part).

Upstream: ros-industrial/ur_msgs, branch humble-devel, release 2.6.0 -- the release Humble,
Jazzy and Kilted all ship; files as in ros2-gbp/ur_msgs-release, tag
release/kilted/ur_msgs/2.6.0-1, commit 634e3eba478661894a441a5bf9aa2bc7ca5e13f8 (identical
under release/jazzy/ur_msgs/2.6.0-1 and release/humble/ur_msgs/2.6.0-1). GOLDEN hashes:
rosbags 0.11.9's Typestore.hash_rihs01 (via test/msgs/rihs01.py, which spells out the
generated service parts) of upstream's files as fetched at that commit, computed once in a
scratch script outside the repo -- not from our files, not from our build.
"""
from __future__ import annotations

import pytest
from interface_checks import Golden, check_rosbags_agrees_with_rosidl, check_type, interface_files

PACKAGE = "ur_msgs"

GOLDEN = {
    "ur_msgs/msg/Analog": Golden(
        "RIHS01_cae35bd4fedeab3746fa5ba49fbbdc8d7fa25f84e95526c5403d507a26b2a085",
        fields={"": {"pin": "uint8", "domain": "uint8", "state": "float"}},
        constants={"": {"CURRENT": 0, "VOLTAGE": 1}},
    ),
    "ur_msgs/msg/Digital": Golden(
        "RIHS01_a8355a0e120cf808ea94b00d12acd8c31f4e3b377a8549372e147b2065518d85",
        fields={"": {"pin": "uint8", "state": "boolean"}},
    ),
    "ur_msgs/msg/IOStates": Golden(
        "RIHS01_7a62606d52c4b2aaa3fd3c5bc565cfda9c6fe8c2d69bbc7e3eadccde4cfc2a32",
        fields={"": {"digital_in_states": "sequence<ur_msgs/Digital>",
                     "digital_out_states": "sequence<ur_msgs/Digital>",
                     "flag_states": "sequence<ur_msgs/Digital>",
                     "analog_in_states": "sequence<ur_msgs/Analog>",
                     "analog_out_states": "sequence<ur_msgs/Analog>"}},
    ),
    "ur_msgs/srv/SetIO": Golden(
        "RIHS01_5cb0c89ea4479b2947fccdac0f92dd6636c4b7fc3a312f79ec7fb68a1daa6cd5",
        fields={"Request": {"fun": "int8", "pin": "int8", "state": "float"},
                "Response": {"success": "boolean"}},
        constants={"Request": {
            "PIN_AOUT0": 0, "PIN_AOUT1": 1,
            **{f"PIN_DOUT{i}": i for i in range(8)},
            **{f"PIN_CONF_OUT{i}": 8 + i for i in range(8)},
            "PIN_TOOL_DOUT0": 16, "PIN_TOOL_DOUT1": 17,
            "FUN_SET_DIGITAL_OUT": 1, "FUN_SET_FLAG": 2, "FUN_SET_ANALOG_OUT": 3, "FUN_SET_TOOL_VOLTAGE": 4,
            "STATE_OFF": 0, "STATE_ON": 1,
            "STATE_TOOL_VOLTAGE_0V": 0, "STATE_TOOL_VOLTAGE_12V": 12, "STATE_TOOL_VOLTAGE_24V": 24}},
    ),
    "ur_msgs/srv/SetSpeedSliderFraction": Golden(
        "RIHS01_04ad37ccb229fa4bce24db36230f09f416a1a637d3b29602907f5675125d402a",
        fields={"Request": {"speed_slider_fraction": "double"}, "Response": {"success": "boolean"}},
    ),
}


@pytest.mark.parametrize("full_name", sorted(GOLDEN))
def test_type_is_upstreams(full_name):
    check_type(full_name, GOLDEN[full_name])


def test_every_interface_file_has_a_golden_hash():
    assert sorted(interface_files(PACKAGE)) == sorted(GOLDEN)


def test_rosbags_computes_the_hashes_rosidl_installed():
    """Two implementations, one input (our files): rosidl at build time, rosbags here."""
    assert check_rosbags_agrees_with_rosidl(PACKAGE) >= len(GOLDEN)
