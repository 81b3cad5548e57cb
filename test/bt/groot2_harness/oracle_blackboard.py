"""BT.CPP's ExportBlackboardToJSON as Groot2 receives it (behaviortreepy = BT.CPP 4.8.2).

Run inside a fresh network namespace that has only loopback (BT.CPP binds tcp://*),
with the case as JSON on stdin:
builds the tree of test_blackboard_json.ORACLE_CASE, fills its blackboard through
behaviortreepy's typed setters, ticks it once, asks its Groot2Publisher for the
BLACKBOARD dump of the main tree and prints the decoded payload as JSON.
"""
import json
import sys
from pathlib import Path

import msgpack

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "support"))

import behaviortreepy  # noqa: E402
from groot2_client import Groot2Client  # noqa: E402

PORT = 47667  # a fresh namespace: no one else is there


def main() -> None:
    case = json.loads(sys.stdin.read())
    factory = behaviortreepy.BehaviorTreeFactory()
    board = behaviortreepy.Blackboard.create()
    for key, (kind, value) in case["values"].items():
        getattr(board, f"set_{kind}")(key, value)
    tree = factory.create_tree_from_text(case["xml"], board)
    tree.tick_while_running()
    publisher = behaviortreepy.Groot2Publisher(tree, PORT)
    client = Groot2Client(PORT)
    try:
        client.wait_connected()
        reply = client.request("B", case["names"].encode())
        print(json.dumps(msgpack.unpackb(reply.payload[0], raw=False)))
    finally:
        client.close()
        del publisher


if __name__ == "__main__":
    main()
