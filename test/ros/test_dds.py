"""robot_tasks.ros.dds: the loopback DDS settings (no ROS processes needed)."""
from __future__ import annotations

import os
import random
import socket
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


def test_picked_domain_ids_stay_in_the_safe_range():
    rng = random.Random(1)
    nothing_bound: set[int] = set()
    picks = {dds.pick_free_domain_id(rng, bound_ports=nothing_bound) for _ in range(2000)}
    assert min(picks) >= 1 and max(picks) <= 101
    assert len(picks) > 90  # spread over the range, so parallel sessions rarely collide


def test_domain_port_block_matches_the_rtps_port_formula():
    # domain 3: discovery port of participant index 0 is 7400 + 250*3 + 10 = 8160
    ports = dds.domain_ports(3)
    assert ports.start == 8150 and ports.stop == 8400
    assert 7400 + 250 * 3 + 10 + 2 * 31 in ports  # index 31, the top of the profile's range


def test_domains_with_a_bound_port_are_skipped():
    bound = {7400 + 250 * d + 10 for d in range(1, 101)}  # every domain but 101 in use
    assert dds.pick_free_domain_id(random.Random(0), bound_ports=bound) == 101
    assert dds.domains_in_use({7399, 7400 + 250 * 5 + 249, 7400 + 250 * 233}) == {5}


def test_no_free_domain_is_a_clear_error():
    bound = {port for d in range(1, 102) for port in (7400 + 250 * d + 12,)}
    with pytest.raises(dds.LoopbackConfigError, match="every ROS_DOMAIN_ID in 1..101"):
        dds.pick_free_domain_id(bound_ports=bound)


def test_a_bound_discovery_port_is_seen_in_proc_and_its_domain_skipped():
    """Real socket, read back from /proc/net/udp: its domain is never picked."""
    free_now = sorted(set(range(1, 102)) - dds.domains_in_use())
    assert free_now, "no free domain on this machine to test with"
    domain = random.Random(7).choice(free_now)
    port = 7400 + 250 * domain + 10 + 2 * 7  # discovery port of participant index 7
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            pass  # another session took the domain meanwhile: in use either way
        assert port in dds.bound_udp_ports()
        assert domain in dds.domains_in_use()
        picks = {dds.pick_free_domain_id(random.Random(seed)) for seed in range(300)}
    assert domain not in picks


def test_a_reserved_domain_is_not_picked_by_another_session():
    """A test session holds its domain between tests (no node runs then), so a parallel
    session cannot take it and answer the first session's goals."""
    domain = dds.pick_free_domain_id()
    holder = dds.reserve_domain(domain)
    assert holder is not None
    try:
        assert domain in dds.domains_in_use()
        assert all(dds.pick_free_domain_id(random.Random(seed)) != domain for seed in range(200))
    finally:
        holder.close()
    assert domain not in dds.domains_in_use() or dds.reserve_domain(domain) is None  # given back
