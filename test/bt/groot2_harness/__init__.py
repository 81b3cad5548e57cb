"""Test-side tools to compare our Groot2Publisher with BT.CPP's (behaviortreepy).

- `client.py`: a Groot2-like ZMQ client (REQ + SUB, 127.0.0.1 only);
- `scenarios.py`: trees and scripted steps, run through a "tree side" and the client,
  giving a transcript of what the client saw;
- `sides.py`: the tree side for our engine (in this process) and for behaviortreepy
  (a forked process: its C++ tick holds the GIL, so a breakpoint would freeze a
  client living in the same process);
- `oracle_main.py`: runs the scenarios against behaviortreepy inside a fresh network
  namespace with only loopback, because BT.CPP 4.8.2 binds `tcp://*` (all
  interfaces) and cannot be told otherwise.
"""
