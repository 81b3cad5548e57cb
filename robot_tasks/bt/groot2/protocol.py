"""Groot2's wire format (BT.CPP 4.10 `loggers/groot2_protocol.h`), with no ZMQ in it.

Groot2 talks to a running tree over two ZeroMQ sockets: a REP socket where Groot2
asks and the tree answers, and a PUB socket where the tree announces breakpoints.
Every message is multipart:

- a request's first frame is a 6-byte header, little-endian:
  `uint8 protocol (2) | uint8 request type (a letter) | uint32 request id`;
  some requests carry a second frame (blackboard names, a JSON hook ...);
- a reply's first frame is 22 bytes: the request header echoed (with the protocol
  set to 2) followed by a 16-byte UUID that identifies this tree for the lifetime
  of the publisher; the payload, if any, is the second frame;
- a refused request is answered with two frames: `error` and the reason.

Hooks (breakpoints) travel as JSON objects with the keys `enabled`, `uid`, `mode`
(0 = breakpoint: wait for Groot2, 1 = replace: return `desired_status` at once),
`once`, `desired_status` and `position` (0 = before the tick).
"""
from __future__ import annotations

import os
import random
import struct
from dataclasses import dataclass

from ..status import NodeStatus

PROTOCOL_ID = 2

FULLTREE = ord("T")
STATUS = ord("S")
BLACKBOARD = ord("B")
HOOK_INSERT = ord("I")
HOOK_REMOVE = ord("R")
BREAKPOINT_REACHED = ord("N")
BREAKPOINT_UNLOCK = ord("U")
HOOKS_DUMP = ord("D")
REMOVE_ALL_HOOKS = ord("A")
DISABLE_ALL_HOOKS = ord("X")
TOGGLE_RECORDING = ord("r")
GET_TRANSITIONS = ord("t")

REQUEST_HEADER = struct.Struct("<BBI")  # protocol, type, id: 6 bytes
REQUEST_HEADER_SIZE = REQUEST_HEADER.size
REPLY_HEADER_SIZE = REQUEST_HEADER_SIZE + 16

# The error reasons BT.CPP sends, word for word (Groot2 may show them).
ERROR_WRONG_HEADER = "wrong request header"
ERROR_UNKNOWN_REQUEST = "Request not recognized"
ERROR_MISSING_PART = "must be 2 parts message"
ERROR_UNKNOWN_NODE = "Node ID not found"

IDLE_OFFSET = 10  # STATUS sends an IDLE node as 10 + the status it left (Groot2 colours it)


@dataclass(frozen=True)
class RequestHeader:
    protocol: int
    type: int
    unique_id: int

    def pack(self) -> bytes:
        return REQUEST_HEADER.pack(self.protocol, self.type, self.unique_id)

    @classmethod
    def unpack(cls, frame: bytes) -> "RequestHeader":
        return cls(*REQUEST_HEADER.unpack(frame))

    @classmethod
    def new(cls, request_type: int) -> "RequestHeader":
        """A header with a random id, as a client (or the PUB notice) makes one."""
        return cls(PROTOCOL_ID, request_type, random.getrandbits(32))


def new_tree_uuid() -> bytes:
    """16 random bytes shaped as a version-4 UUID (what BT.CPP's CreateRandomUUID makes)."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x4F) | 0x40
    raw[8] = (raw[8] & 0xBF) | 0x80
    return bytes(raw)


def reply_header(request: RequestHeader, tree_uuid: bytes) -> bytes:
    return RequestHeader(PROTOCOL_ID, request.type, request.unique_id).pack() + tree_uuid


def status_from_text(text: str) -> NodeStatus:
    """BREAKPOINT_UNLOCK's rule: SUCCESS or FAILURE, anything else is SKIPPED."""
    if text == "SUCCESS":
        return NodeStatus.SUCCESS
    if text == "FAILURE":
        return NodeStatus.FAILURE
    return NodeStatus.SKIPPED


def pack_transition(timestamp_usec: int, uid: int, status: int) -> bytes:
    """One recorded transition: 6 bytes of microseconds, uint16 uid, uint8 status."""
    return (timestamp_usec & 0xFFFFFFFFFFFF).to_bytes(6, "little") + struct.pack("<HB", uid, status)


def unpack_transitions(payload: bytes) -> list[tuple[int, int, int]]:
    """(timestamp_usec, uid, status) for each 9-byte record of GET_TRANSITIONS."""
    return [(int.from_bytes(payload[i:i + 6], "little"),) + struct.unpack_from("<HB", payload, i + 6)
            for i in range(0, len(payload) - len(payload) % 9, 9)]


def unpack_status(payload: bytes) -> list[tuple[int, int]]:
    """(uid, status byte) for each 3-byte record of STATUS."""
    return [struct.unpack_from("<HB", payload, i) for i in range(0, len(payload) - len(payload) % 3, 3)]
