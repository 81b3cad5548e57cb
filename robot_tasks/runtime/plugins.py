"""Plugins: Python modules that add node types to a factory.

A plugin is any importable module with a function

    def register_nodes(factory, ros_node=None): ...

The tree_executor node passes its rclpy node as `ros_node` (leaves that speak ROS need
it); `robot-tasks tree validate --plugin` passes none, so a plugin meant for both
accepts it as optional. A one-argument `register_nodes(factory)` is accepted too. The
same rule holds wherever plugins are loaded: this function is the only loader.
"""
from __future__ import annotations

import importlib
import inspect
from typing import Iterable

from robot_tasks.runtime.errors import PluginError


def load_plugin(name: str, factory, ros_node=None) -> None:
    """Import module `name` and let it register its nodes on `factory` (PluginError if not)."""
    try:
        module = importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - any import failure is the plugin's, reported
        raise PluginError(f"can't import plugin module '{name}': {type(exc).__name__}: {exc}") from None
    register = getattr(module, "register_nodes", None)
    if not callable(register):
        raise PluginError(f"plugin module '{name}' has no register_nodes(factory, ros_node=None) function")
    try:
        takes_node = len(inspect.signature(register).parameters) >= 2
    except (TypeError, ValueError):  # a builtin or C function: no signature to read
        takes_node = True
    if takes_node:
        register(factory, ros_node)
    else:
        register(factory)


def load_plugins(names: Iterable[str], factory, ros_node=None) -> None:
    """`load_plugin` for each name, in order (a later plugin may override an earlier ID)."""
    for name in names:
        load_plugin(name, factory, ros_node)
