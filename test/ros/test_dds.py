"""robot_tasks.ros.dds: the loopback DDS settings (no ROS processes needed)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from robot_tasks.ros import dds

REPO_CONFIG = Path(__file__).resolve().parents[2] / "config" / "fastdds_localhost.xml"
KEYS = ("ROS_DOMAIN_ID", "ROS_LOG_DIR", "ROS_AUTOMATIC_DISCOVERY_RANGE",
        "FASTDDS_DEFAULT_PROFILES_FILE", "ROS_LOCALHOST_ONLY")


@pytest.fixture
def clean_env(monkeypatch):
    """Let a test change the ROS variables of this process; restored afterwards."""
    for key in KEYS:
        monkeypatch.setenv(key, "placeholder")
        monkeypatch.delenv(key)
    return monkeypatch


def test_settings_point_at_the_shipped_profile(tmp_path):
    settings = dds.loopback_dds_settings(7, tmp_path / "logs")
    assert settings == {
        "ROS_AUTOMATIC_DISCOVERY_RANGE": "SYSTEM_DEFAULT",
        "FASTDDS_DEFAULT_PROFILES_FILE": str(REPO_CONFIG),
        "SKIP_DEFAULT_XML_FILE": "1",
        "ROS_DOMAIN_ID": "7",
        "ROS_LOG_DIR": str((tmp_path / "logs").resolve()),
    }


def test_configure_sets_environment_and_creates_log_dir(clean_env, tmp_path):
    clean_env.setenv("ROS_LOCALHOST_ONLY", "1")
    returned = dds.configure_loopback_dds(domain_id=42, log_dir=tmp_path / "l")
    for key, value in returned.items():
        assert os.environ[key] == value
    assert os.environ["ROS_DOMAIN_ID"] == "42"
    assert (tmp_path / "l").is_dir()
    assert "ROS_LOCALHOST_ONLY" not in os.environ


def test_configure_keeps_an_existing_domain_unless_one_is_passed(clean_env):
    clean_env.setenv("ROS_DOMAIN_ID", "17")
    returned = dds.configure_loopback_dds()
    assert "ROS_DOMAIN_ID" not in returned and "ROS_LOG_DIR" not in returned
    assert os.environ["ROS_DOMAIN_ID"] == "17"
    dds.configure_loopback_dds(domain_id=18)
    assert os.environ["ROS_DOMAIN_ID"] == "18"


@pytest.mark.parametrize("bad", [-1, 233, "5", 1.0, True])
def test_bad_domain_id_is_rejected(bad):
    with pytest.raises(dds.LoopbackConfigError, match="ROS_DOMAIN_ID"):
        dds.loopback_dds_settings(bad)


def test_profile_is_looked_up_in_the_install_share_dirs_too():
    share = Path("share") / "robot_tasks" / "config" / "fastdds_localhost.xml"
    candidates = dds._profile_candidates()
    assert candidates[0] == REPO_CONFIG
    assert Path(sys.prefix) / share in candidates


def test_missing_profile_lists_where_it_looked(tmp_path):
    with pytest.raises(dds.LoopbackConfigError, match="not found"):
        dds.loopback_dds_settings(profile_file=tmp_path / "nope.xml")


def test_shipped_profile_passes_the_check():
    dds.check_profile(REPO_CONFIG)


@pytest.mark.parametrize("old, new, complaint", [
    ("<useBuiltinTransports>false", "<useBuiltinTransports>true", "useBuiltinTransports"),
    ("<interfaceWhiteList>\n          <address>127.0.0.1</address>", "<interfaceWhiteList>\n"
     "          <address>192.0.2.2</address>", "white-listed"),
    ("<initialPeersList>\n            <locator><udpv4><address>127.0.0.1",
     "<initialPeersList>\n            <locator><udpv4><address>239.255.0.1", "239.255.0.1"),
    ('is_default_profile="true"', 'is_default_profile="false"', "is_default_profile"),
    ("<maxInitialPeersRange>32</maxInitialPeersRange>", "", "maxInitialPeersRange.*none"),
    ("<maxInitialPeersRange>32<", "<maxInitialPeersRange>4<", "maxInitialPeersRange.*got 4"),
    ("</dds>", "", "cannot parse"),
])
def test_edited_profile_is_refused(tmp_path, old, new, complaint):
    text = REPO_CONFIG.read_text()
    assert old in text
    edited = tmp_path / "edited.xml"
    edited.write_text(text.replace(old, new))
    with pytest.raises(dds.LoopbackConfigError, match=complaint):
        dds.loopback_dds_settings(profile_file=edited)


def test_profile_with_entity_expansion_is_refused(tmp_path):
    bomb = tmp_path / "bomb.xml"
    bomb.write_text('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><dds>&a;</dds>')
    with pytest.raises(dds.LoopbackConfigError, match="cannot parse"):
        dds.check_profile(bomb)
