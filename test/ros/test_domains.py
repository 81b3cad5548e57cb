"""robot_tasks.ros.domains: picking a ROS_DOMAIN_ID nobody on this machine uses (no ROS needed)."""
from __future__ import annotations

import random
import socket

import pytest

from robot_tasks.ros import domains
from robot_tasks.ros.dds import LoopbackConfigError


def test_picked_domain_ids_stay_in_the_safe_range():
    rng = random.Random(1)
    nothing_bound: set[int] = set()
    picks = {domains.pick_free_domain_id(rng, bound_ports=nothing_bound) for _ in range(2000)}
    assert min(picks) >= 1 and max(picks) <= 101
    assert len(picks) > 90  # spread over the range, so parallel sessions rarely collide


def test_domain_port_block_matches_the_rtps_port_formula():
    # domain 3: discovery port of participant index 0 is 7400 + 250*3 + 10 = 8160
    ports = domains.domain_ports(3)
    assert ports.start == 8150 and ports.stop == 8400
    assert 7400 + 250 * 3 + 10 + 2 * 31 in ports  # index 31, the top of the profile's range


def test_domains_with_a_bound_port_are_skipped():
    bound = {7400 + 250 * d + 10 for d in range(1, 101)}  # every domain but 101 in use
    assert domains.pick_free_domain_id(random.Random(0), bound_ports=bound) == 101
    assert domains.domains_in_use({7399, 7400 + 250 * 5 + 249, 7400 + 250 * 233}) == {5}


def test_no_free_domain_is_a_clear_error():
    bound = {port for d in range(1, 102) for port in (7400 + 250 * d + 12,)}
    with pytest.raises(LoopbackConfigError, match="every ROS_DOMAIN_ID in 1..101"):
        domains.pick_free_domain_id(bound_ports=bound)


def test_a_bound_discovery_port_is_seen_in_proc_and_its_domain_skipped():
    """Real socket, read back from /proc/net/udp: its domain is never picked."""
    free_now = sorted(set(range(1, 102)) - domains.domains_in_use())
    assert free_now, "no free domain on this machine to test with"
    domain = random.Random(7).choice(free_now)
    port = 7400 + 250 * domain + 10 + 2 * 7  # discovery port of participant index 7
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            pass  # another session took the domain meanwhile: in use either way
        assert port in domains.bound_udp_ports()
        assert domain in domains.domains_in_use()
        picks = {domains.pick_free_domain_id(random.Random(seed)) for seed in range(300)}
    assert domain not in picks


def test_a_reserved_domain_is_not_picked_by_another_session():
    """A test session holds its domain between tests (no node runs then), so a parallel
    session cannot take it and answer the first session's goals."""
    domain = domains.pick_free_domain_id()
    holder = domains.reserve_domain(domain)
    assert holder is not None
    try:
        assert domain in domains.domains_in_use()
        assert all(domains.pick_free_domain_id(random.Random(seed)) != domain for seed in range(200))
    finally:
        holder.close()
    assert domain not in domains.domains_in_use() or domains.reserve_domain(domain) is None  # given back
