"""Scripted Groot2 sessions, and the transcript of what the client saw in each.

A scenario is a tree (XML + scripted leaves) and a list of steps. `run(name,
side_class)` builds the tree side on a free port pair of 127.0.0.1, connects the
client, runs the steps and returns the transcript: one entry per step, with bytes
turned into comparable values (header fields, (uid, status) pairs, decoded
MessagePack/JSON, the XML text). Random parts (request ids, the tree UUID,
timestamps) are replaced by checks that they are well formed.
"""
import json
import os
import time

import msgpack
from groot2_client import Groot2Client, free_port_pair

TREE = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="main_seq">
      <Script code="count := 1; label := 'go'; ratio := 0.5"/>
      <SubTree ID="Work" name="work" target="{count}"/>
      <L0 name="slow"/>
      <Inverter><L1 name="check"/></Inverter>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Work">
    <Fallback>
      <ScriptCondition code="target &gt; 5"/>
      <Script code="target += 1; note := 'inner'"/>
    </Fallback>
  </BehaviorTree>
</root>"""
LEAVES = [("L0", "stateful", ("RUNNING", "SUCCESS"), False), ("L1", "action", ("FAILURE",), False)]
SLOW_UID, CHECK_UID = 7, 9  # creation order (depth first through subtrees), checked by the tests


# A second tree for FULLTREE details: unnamed and _autoremap SubTrees, defaults, ports.
TREE_DETAILS = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <Script code="x := 7; msg := 'hi'"/>
      <SubTree ID="Leaf" value="{x}"/>
      <SubTree ID="Leaf" name="second" value="{msg}"/>
      <SubTree ID="Auto" _autoremap="true"/>
      <Precondition if="x == 7"><Repeat num_cycles="2"><AlwaysSuccess/></Repeat></Precondition>
      <Timeout msec="5000"><L1/></Timeout>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Leaf">
    <SetBlackboard output_key="copy" value="{value}"/>
  </BehaviorTree>
  <BehaviorTree ID="Auto">
    <Parallel success_count="1"><Script code="y := x + 1; _private := 1"/><AlwaysFailure/></Parallel>
  </BehaviorTree>
</root>"""
TREES = {"details": TREE_DETAILS}


def hook(uid, mode, desired="SKIPPED", once=False, enabled=True):
    return {"enabled": enabled, "uid": uid, "mode": mode, "once": once, "desired_status": desired, "position": 0}


def unlock(uid, desired, remove):
    return {"uid": uid, "desired_status": desired, "position": 0, "remove_when_done": remove}


SCENARIOS = {
    "details": [("T",), ("tick", "once"), ("B", "Main;Leaf::3;second;Auto::7"), ("S",)],
    "ticks": [("T",), ("S",), ("tick", "once"), ("S",), ("B", "Main;work"), ("tick", "once"), ("S",),
              ("B", "work;nope;Main"), ("tick", "exactly"), ("S",), ("halt",), ("S",), ("B", "nothing")],
    "errors": [("raw", [b"\x02S\x00\x00\x00"]), ("raw", [b"\x02Z\x01\x00\x00\x00"]), ("raw", [b"\x02B\x01\x00\x00\x00"]),
               ("json", "U", unlock(999, "SUCCESS", False)), ("json", "R", {"uid": 999, "position": 0}),
               ("json", "U", unlock(CHECK_UID, "SUCCESS", False)), ("D",), ("A",), ("X",)],
    "breakpoint": [("json", "I", hook(CHECK_UID, 0)), ("D",), ("tick", "once"),
                   ("start_tick", "once"), ("pub",), ("S",), ("json", "U", unlock(CHECK_UID, "SUCCESS", True)),
                   ("finish_tick",), ("S",), ("D",),
                   ("json", "I", [hook(SLOW_UID, 1, "FAILURE"), hook(CHECK_UID, 1, "SUCCESS", once=True)]),
                   ("D",), ("tick", "once"), ("pub",), ("S",), ("D",),
                   ("json", "R", {"uid": SLOW_UID, "position": 0}), ("json", "R", {"uid": SLOW_UID, "position": 0}),
                   ("D",)],
    "recording": [("r", "start"), ("tick", "once"), ("tick", "once"), ("t",), ("t",), ("r", "stop"),
                  ("tick", "once"), ("t",), ("r", "other")],
    "heartbeat": [("json", "I", hook(CHECK_UID, 0)), ("tick", "once"), ("sleep", 3.0), ("tick", "once"),
                  ("tick", "once"), ("pub_none",), ("S",), ("sleep", 0.1), ("start_tick", "once"), ("pub",),
                  ("json", "U", unlock(CHECK_UID, "FAILURE", False)), ("finish_tick",), ("A",)],
}
HEARTBEAT_S = {"heartbeat": 1.0}   # wide margins: the two sides must agree on a loaded machine too


def describe(reply, kind, uuids):
    """The comparable content of one reply."""
    if reply.is_error:
        return {"error": [frame.decode() for frame in reply.frames]}
    entry = {"frames": len(reply.frames), "header_size": reply.header_size}
    if reply.header_size == 22:
        uuids.append(reply.uuid)
        entry.update(protocol=reply.protocol, type=chr(reply.type), id_echoed=reply.unique_id == describe.last_id,
                     uuid_stable=len(set(uuids)) == 1 and len(reply.uuid) == 16)
    payload = reply.payload[0] if reply.payload else None
    if payload is None:
        return entry
    if kind == "T":
        entry["xml"] = payload.decode()
    elif kind == "S":
        entry["status"] = [[int.from_bytes(payload[i:i + 2], "little"), payload[i + 2]]
                           for i in range(0, len(payload), 3)]
    elif kind == "B":
        entry["blackboards"] = msgpack.unpackb(payload, raw=False)
    elif kind == "D":
        entry["hooks"] = sorted(json.loads(payload), key=lambda h: h["uid"])
    elif kind == "t":
        records = [(int.from_bytes(payload[i:i + 6], "little"), int.from_bytes(payload[i + 6:i + 8], "little"),
                    payload[i + 8]) for i in range(0, len(payload), 9)]
        entry["transitions"] = [[uid, status] for _, uid, status in records]
        entry["times_ordered"] = all(a[0] <= b[0] for a, b in zip(records, records[1:]))
        entry["record_bytes"] = len(payload) % 9 == 0
    elif kind == "r":
        entry["start_time_ok"] = abs(int(payload) / 1e6 - time.time()) < 60
    else:
        entry["payload"] = payload.hex()
    return entry


describe.last_id = None


def run(name, side_class):
    """The transcript of scenario `name` against a tree side class (OurSide/OracleSide)."""
    port = free_port_pair()
    side = side_class(TREES.get(name, TREE), LEAVES, port, heartbeat_s=HEARTBEAT_S.get(name, 5.0))
    client = Groot2Client(port)
    transcript, uuids = [], []
    try:
        client.wait_connected()
        time.sleep(0.2)  # let the SUB connection settle (PUB drops messages before that)
        for step in SCENARIOS[name]:
            transcript.append([_label(step), _run_step(step, side, client, uuids)])
    finally:
        client.close()
        side.close()
    return transcript


def _label(step):
    if step[0] == "raw":
        return ["raw", [frame.hex() for frame in step[1]]]
    return [str(part) for part in step[:2]]


def _run_step(step, side, client, uuids):
    what = step[0]
    if what == "tick":
        return side.tick(step[1])
    if what == "start_tick":
        side.start_tick(step[1])
        return "started"
    if what == "finish_tick":
        return side.finish_tick()
    if what == "halt":
        side.halt()
        return "halted"
    if what == "sleep":
        time.sleep(step[1])
        return "slept"
    if what == "pub":
        frames = client.wait_breakpoint()
        if frames is None:
            return "no notice"
        head = frames[0]
        return {"frames": len(frames), "header_size": len(head), "protocol": head[0], "type": chr(head[1]),
                "uid": frames[1].decode() if len(frames) > 1 else None}
    if what == "pub_none":
        return "no notice" if client.wait_breakpoint(0.2) is None else "notice"
    if what == "raw":
        describe.last_id = None
        return describe(client.raw(step[1]), "raw", uuids)
    kind = step[1] if what == "json" else what
    unique_id = int.from_bytes(os.urandom(4), "little")
    describe.last_id = unique_id
    if what == "json":
        payload = [json.dumps(step[2])]
    else:
        payload = list(step[1:])
    return describe(client.request(kind, *payload, unique_id=unique_id), kind, uuids)
