"""py_trees behaviours as leaves of a BT.CPP-style tree.

A py_trees `Behaviour` has a life cycle of its own: `setup()` once before the first
tick (connect to hardware, create publishers ...), then for each run `initialise()`
when it starts, `update()` on every tick while it runs, and `terminate(new_status)`
when it ends: with SUCCESS or FAILURE when it finished by itself, with INVALID when
something higher up interrupted it. Registering one under an XML ID lets existing
py_trees code run unchanged as a leaf:

```python
from robot_tasks.bt.py_trees_leaf import register_py_trees_behaviour
register_py_trees_behaviour(factory, "Wander", WanderBehaviour, ports=[InputPort("speed", float)])
# <Wander name="explore" speed="0.3"/>
```

How the two life cycles line up:
- the behaviour is created when the tree is (one per XML node, named like it) and
  `setup(**setup_kwargs)` is called right then, once;
- each tick of the leaf is one `behaviour.tick_once()`, so py_trees itself decides
  when to call `initialise()` (the behaviour was not RUNNING), `update()` and
  `terminate()` (the result is not RUNNING);
- the result maps SUCCESS/FAILURE/RUNNING to the same NodeStatus; INVALID from
  `update()` is a LogicError (a leaf must say how it went);
- a halt of the RUNNING leaf (a ReactiveSequence, a Timeout, `halt_tree()` ...) is
  py_trees' interruption: `behaviour.stop(Status.INVALID)`, so `terminate(INVALID)`;
- a behaviour that already finished gets no second `terminate(INVALID)` when its
  parent is reset or halted (py_trees' `stop()` sends one to every child that is not
  INVALID): a BT parent resets a finished child to IDLE without halting it;
- inside the behaviour, `self.bt_node` is the tree node, for ports:
  `self.bt_node.get_input("speed")`, `self.bt_node.set_output(...)`.
py_trees is imported only when such a leaf is registered.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from .action_nodes import ActionNodeBase
from .errors import LogicError
from .manifest import NodeManifest
from .node import NodeConfig, NodeType
from .ports import PortInfo, ports_dict
from .status import FAILURE, IDLE, RUNNING, SUCCESS, NodeStatus


class PyTreesLeaf(ActionNodeBase):
    """An action leaf that drives one py_trees Behaviour (see the module docstring)."""

    def __init__(self, name: str, config: NodeConfig | None, make_behaviour: Callable[[str], Any],
                 setup_kwargs: dict):
        super().__init__(name, config)
        from py_trees.common import Status

        self._invalid = Status.INVALID
        self._to_node_status = {Status.SUCCESS: SUCCESS, Status.FAILURE: FAILURE, Status.RUNNING: RUNNING}
        self.behaviour = make_behaviour(name)
        self.behaviour.bt_node = self
        self.behaviour.setup(**setup_kwargs)

    def tick(self) -> NodeStatus:
        behaviour = self.behaviour
        behaviour.tick_once()
        status = self._to_node_status.get(behaviour.status)
        if status is None:
            raise LogicError(f"py_trees behaviour [{self.name}] ended its tick with status "
                             f"{behaviour.status}: update() must return SUCCESS, FAILURE or RUNNING")
        return status

    def halt(self) -> None:
        if self.status is RUNNING and self.behaviour.status is not self._invalid:
            self.behaviour.stop(self._invalid)
        self.status = IDLE


def register_py_trees_behaviour(factory, registration_id: str, behaviour: Callable[[str], Any],
                                ports: Iterable[PortInfo] | None = None, setup_kwargs: dict | None = None,
                                description: str = "") -> None:
    """Register a py_trees Behaviour subclass, or any callable `make(name) -> Behaviour`,
    as the action leaf `registration_id`. `setup_kwargs` go to `setup()`."""
    import py_trees

    if isinstance(behaviour, py_trees.behaviour.Behaviour):
        raise TypeError("register a Behaviour class or factory, not an instance: each XML node needs its own")
    kwargs = dict(setup_kwargs or {})
    manifest = NodeManifest(NodeType.ACTION, registration_id, ports_dict(ports),
                            description or (getattr(behaviour, "__doc__", "") or "").strip().split("\n")[0])
    factory.register_builder(manifest, lambda name, config: PyTreesLeaf(name, config, behaviour, kwargs))


__all__ = ["PyTreesLeaf", "register_py_trees_behaviour"]
