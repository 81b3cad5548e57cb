"""The runtime layer's errors: `TreeRuntimeError` and the causes an executor reports."""
from __future__ import annotations

from robot_tasks.errors import RobotTasksError


class TreeRuntimeError(RobotTasksError):
    """Base class of every error robot_tasks.runtime raises on purpose."""


class PluginError(TreeRuntimeError):
    """A plugin module cannot be imported or has no usable register_nodes()."""


class UnknownTreeError(TreeRuntimeError):
    """The target is neither a loaded tree ID nor a readable XML file."""


class TreeLoadError(TreeRuntimeError):
    """The target exists but its XML (or a node in it) is broken; the message says where."""


class InvalidPayloadError(TreeRuntimeError):
    """The payload is not a YAML/JSON mapping of string keys, or a value does not fit."""


class NodeTickError(TreeRuntimeError):
    """A node raised while the tree was ticked; the tree has been halted."""
