"""controller_manager_msgs built from its field lists is ros2_control's (Kilted).

Upstream: ros-controls/ros2_control, branch kilted, commit
cbe7d2c38b716569622786fa9732e3eaca78aca1 (package version 5.16.0); the four files are
byte-identical in ros2-gbp/ros2_control-release, tag release/kilted/controller_manager_msgs/5.16.0-1,
and unchanged on the jazzy branch. GOLDEN hashes: rosbags 0.11.9's Typestore.hash_rihs01 (via
test/msgs/rihs01.py, which spells out the generated service parts) of upstream's files as
fetched at that commit, computed once in a scratch script outside the repo -- not from our
files, not from our build.
"""
from __future__ import annotations

import pytest
from interface_checks import Golden, check_rosbags_agrees_with_rosidl, check_type, interface_files

PACKAGE = "controller_manager_msgs"
STRINGS = "sequence<string>"

GOLDEN = {
    "controller_manager_msgs/msg/ChainConnection": Golden(
        "RIHS01_2daecd1da4b171f48b291c79747657a651eb1ab8821b68e38b1c88c736bba91c",
        fields={"": {"name": "string", "reference_interfaces": STRINGS}},
    ),
    "controller_manager_msgs/msg/ControllerState": Golden(
        "RIHS01_9a8780ab9814b6032978a07c6c7033cf1a7894ac8d948a6fb72afea07b04cc83",
        fields={"": {"name": "string", "state": "string", "type": "string", "is_async": "boolean",
                     "update_rate": "uint16", "claimed_interfaces": STRINGS,
                     "required_command_interfaces": STRINGS, "required_state_interfaces": STRINGS,
                     "is_chainable": "boolean", "is_chained": "boolean",
                     "exported_state_interfaces": STRINGS, "reference_interfaces": STRINGS,
                     "chain_connections": "sequence<controller_manager_msgs/ChainConnection>"}},
    ),
    "controller_manager_msgs/srv/ListControllers": Golden(
        "RIHS01_4f8e36bb1fa5afdeba45c2d56ae6a2097b1493a253f961dd6290c085033bd189",
        fields={"Request": {},
                "Response": {"controller": "sequence<controller_manager_msgs/ControllerState>"}},
    ),
    "controller_manager_msgs/srv/SwitchController": Golden(
        "RIHS01_d4ad10aa5da7808bc522d55d4123d8ef79de73d049d165639d7663ac37cc9895",
        fields={"Request": {"activate_controllers": STRINGS, "deactivate_controllers": STRINGS,
                            "strictness": "int32", "activate_asap": "boolean",
                            "timeout": "builtin_interfaces/Duration"},
                "Response": {"ok": "boolean", "message": "string"}},
        constants={"Request": {"BEST_EFFORT": 1, "STRICT": 2, "AUTO": 3, "FORCE_AUTO": 4}},
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
