"""A browser monitor for any BT.CPP tree: `robot-tasks monitor HOST:PORT ... [--btlog FILE]`.

BehaviorTree.CPP trees (and this project's Python ones) can serve themselves over the
Groot2 protocol: the tree's XML once, node statuses and blackboards on request, and
hooks that pause a node (a breakpoint) or make it return SUCCESS/FAILURE (fault
injection). Groot2 is the desktop client for it; this package is a small web client:
a local server polls each publisher and pushes what changed to a page in the browser.

The page shows every node with its live status, the blackboards, and per node the hook
buttons (breakpoint, resume, step, return SUCCESS/FAILURE, remove); a slider scrubs back
through the transitions the publisher recorded for us (or those of a `.btlog`). The
server polls only while a page is open, because the polling is the publisher's
heartbeat: with no page, the publisher soon disables its hooks and a paused tree goes on.

    browser ──WebSocket /ws── server.py ── watcher.py (one thread per publisher)
                                              └── client.py ──ZMQ REQ/SUB── publisher

| file | job |
|---|---|
| `client.py` | the protocol client (REQ to the port, SUB to port + 1); bytes from `bt.groot2.protocol` |
| `tree_model.py` | FULLTREE XML -> the nested tree the page draws (subtrees under their SubTree node, port directions from its TreeNodesModel) |
| `watcher.py` | one publisher: polls STATUS / BLACKBOARD, records transitions, runs page commands (step too), reports changes |
| `values.py` | MessagePack blackboard values -> JSON |
| `replay.py` | a `.btlog` file -> the tree and its transitions, for the timeline |
| `server.py` | HTTP for the page, the WebSocket, the security checks |
| `static/` | the page: plain HTML, CSS and JavaScript, nothing from the network |

Importing this package needs neither pyzmq nor websockets; running it needs both
(`pip install -e .[monitor]`).
"""
