"""Live monitoring with Groot2: BT.CPP 4.10's Groot2 protocol over pyzmq + msgpack.

```python
from robot_tasks.bt.groot2 import Groot2Publisher
with Groot2Publisher(tree):          # REP 127.0.0.1:1667, PUB 127.0.0.1:1668
    tree.tick_while_running()
```
Files: `protocol.py` (bytes on the wire), `status_buffer.py` (STATUS and recorded
transitions), `blackboard_dump.py` (BLACKBOARD), `hooks.py` (breakpoints),
`publisher.py` (sockets and threads), `ports.py` (a free port pair). pyzmq and msgpack are imported only when a
publisher is created, so importing this package needs neither.
"""
from .ports import free_port_pair
from .publisher import DEFAULT_PORT, Groot2Error, Groot2Publisher

__all__ = ["DEFAULT_PORT", "Groot2Error", "Groot2Publisher", "free_port_pair"]
