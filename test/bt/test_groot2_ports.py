"""`free_port_pair`: the pair a test or bench picks for a Groot2 publisher that binds later.

A pair from the kernel's ephemeral range can be taken by any outgoing connection before
the publisher binds it (the publisher then fails with "Address already in use" while a
client or browser is still connecting). So the pair lies below the range, where the
kernel assigns no port by itself."""
import socket

import pytest

from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.bt.groot2 import free_port_pair
from robot_tasks.bt.groot2 import ports as P


def test_a_pair_lies_below_the_ephemeral_range_and_both_ports_bind():
    first_ephemeral, _ = P.ephemeral_port_range()
    pairs = {free_port_pair() for _ in range(20)}
    assert len(pairs) > 1                                     # drawn, not one fixed pair
    for port in pairs:
        assert P.LOWEST_PORT <= port and port + 1 < first_ephemeral
        with socket.socket() as rep, socket.socket() as pub:
            rep.bind(("127.0.0.1", port))
            pub.bind(("127.0.0.1", port + 1))


def test_a_taken_port_is_never_part_of_a_pair(monkeypatch):
    """With the search narrowed to one candidate pair whose second port is taken, there is
    no pair (the error says where it looked); once released, that pair is the answer."""
    port = free_port_pair()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port + 1))
        taken.listen(1)
        monkeypatch.setattr(P, "LOWEST_PORT", port)
        monkeypatch.setattr(P, "ephemeral_port_range", lambda: (port + 2, 60999))
        with pytest.raises(BehaviorTreeError, match=f"below {port + 2} after 5 tries"):
            free_port_pair(attempts=5)
    assert free_port_pair(attempts=5) == port                 # released: the one candidate is free again


def test_the_range_is_read_from_the_kernel_file_with_a_default(tmp_path):
    source = tmp_path / "ip_local_port_range"
    source.write_text("40000\t50000\n")
    assert P.ephemeral_port_range(source) == (40000, 50000)
    source.write_text("garbage")
    assert P.ephemeral_port_range(source) == P.DEFAULT_EPHEMERAL
    assert P.ephemeral_port_range(tmp_path / "missing") == P.DEFAULT_EPHEMERAL
