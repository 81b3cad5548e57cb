"""A small, independent Foxglove WebSocket client (subprotocol foxglove.sdk.v1), for tests
and benches: Python `websockets` speaking the protocol, `rosbags` decoding the CDR.

The protocol, as far as this client needs it: the server sends JSON text frames
`serverInfo` (name, capabilities) and `advertise` (channels: id, topic, encoding,
schemaName, schema, schemaEncoding); the client sends `subscribe`
({"subscriptions": [{"id", "channelId"}]}) and `fetchAsset` ({"uri", "requestId"}); the
server answers with binary frames: opcode 0x01 message data (uint32 subscription id,
uint64 log time ns, payload) and 0x04 fetch-asset response (uint32 request id, uint8
status 0 = ok, uint32 error length, error text, data). Integers are little-endian.
"""
from __future__ import annotations

import asyncio
import json
import re
import struct
import time

import websockets
from rosbags.typesys import Stores, get_types_from_msg, get_typestore

SUBPROTOCOL = "foxglove.sdk.v1"
MESSAGE_DATA, FETCH_ASSET_RESPONSE = 0x01, 0x04


def bridge_port(log_text: str) -> int | None:
    """The port the bridge logged (it listens on ws://127.0.0.1:<port>)."""
    match = re.search(r"ws://127\.0\.0\.1:(\d+)", log_text)
    return int(match.group(1)) if match else None


class FoxgloveClient:
    def __init__(self, websocket):
        self.ws = websocket
        self.server_info: dict = {}
        self.channels: dict[str, dict] = {}        # topic -> channel
        self.messages: dict[int, list] = {}        # subscription id -> [(log_time, payload)]
        self.assets: dict[int, tuple] = {}         # request id -> (status, error, data)
        self._typestore = get_typestore(Stores.EMPTY)

    @classmethod
    async def connect(cls, port: int) -> "FoxgloveClient":
        ws = await websockets.connect(f"ws://127.0.0.1:{port}", subprotocols=[SUBPROTOCOL], max_size=None)
        return cls(ws)

    async def pump(self, until, timeout: float, what: str) -> None:
        """Read frames until `until()` is true; AssertionError after `timeout` s."""
        deadline = time.monotonic() + timeout
        while not until():
            left = deadline - time.monotonic()
            assert left > 0, f"timed out after {timeout} s waiting for {what}"
            try:
                frame = await asyncio.wait_for(self.ws.recv(), min(left, 0.5))
            except asyncio.TimeoutError:
                continue
            self._take(frame)

    def _take(self, frame) -> None:
        if isinstance(frame, str):
            msg = json.loads(frame)
            if msg["op"] == "serverInfo":
                self.server_info = msg
            elif msg["op"] == "advertise":
                for channel in msg["channels"]:
                    self.channels[channel["topic"]] = channel
            return
        if frame[0] == MESSAGE_DATA:
            sub_id, log_time = struct.unpack_from("<IQ", frame, 1)
            self.messages.setdefault(sub_id, []).append((log_time, bytes(frame[13:])))
        elif frame[0] == FETCH_ASSET_RESPONSE:
            request_id, status, length = struct.unpack_from("<IBI", frame, 1)
            error = bytes(frame[10:10 + length]).decode()
            self.assets[request_id] = (status, error, bytes(frame[10 + length:]))

    async def settle(self, seconds: float = 0.5) -> None:
        """Read frames for `seconds`. The SDK's server can refuse a subscription to a channel
        it advertised a moment ago ("attempted to subscribe to unknown channel", seen with
        foxglove-sdk 0.30.3 under load), so wait a little between advertise and subscribe."""
        deadline = time.monotonic() + seconds
        await self.pump(lambda: time.monotonic() >= deadline, seconds + 1.0, "the settle time")

    async def subscribe(self, topics: dict[int, str]) -> None:
        """{subscription id: topic}"""
        subs = [{"id": sub_id, "channelId": self.channels[topic]["id"]} for sub_id, topic in topics.items()]
        await self.ws.send(json.dumps({"op": "subscribe", "subscriptions": subs}))

    async def unsubscribe(self, ids) -> None:
        await self.ws.send(json.dumps({"op": "unsubscribe", "subscriptionIds": list(ids)}))

    async def fetch_asset(self, uri: str, request_id: int) -> None:
        await self.ws.send(json.dumps({"op": "fetchAsset", "uri": uri, "requestId": request_id}))

    def decode(self, topic: str, payload: bytes):
        """CDR payload -> a rosbags message, with the types of the channel's own schema."""
        channel = self.channels[topic]
        assert channel["encoding"] == "cdr" and channel["schemaEncoding"] == "ros2msg", channel
        name = channel["schemaName"]
        if name not in self._typestore.types:
            self._typestore.register(get_types_from_msg(channel["schema"], name))
        return self._typestore.deserialize_cdr(payload, name)

    async def close(self) -> None:
        await self.ws.close()
