"""RIHS01 type hashes of .msg/.srv/.action text, computed by rosbags (not by rosidl).

rosbags (the `record` extra) has its own implementation of the ROS 2 type description hash
(`Typestore.hash_rihs01`) and its own .msg parser. It knows messages only, so a service or
an action is spelled out here as the messages rosidl describes it with (REP 2011,
rosidl_generator_type_description):

- service `pkg/srv/N`: `N_Request`, `N_Response`, `N_Event` (info: service_msgs/ServiceEventInfo,
  request: N_Request[<=1], response: N_Response[<=1]) and `N` itself (request_message,
  response_message, event_message);
- action `pkg/action/N`: `N_Goal`, `N_Result`, `N_Feedback`; the services `N_SendGoal`
  (request: goal_id + goal; response: accepted + stamp) and `N_GetResult` (request: goal_id;
  response: status + result); `N_FeedbackMessage` (goal_id + feedback) and `N` itself (goal,
  result, feedback, send_goal_service, get_result_service, feedback_message).

Two independent implementations (rosidl at build time, rosbags here) agreeing on a hash is
the evidence the tests rely on. Types of other packages (std_msgs, trajectory_msgs,
builtin_interfaces, service_msgs, unique_identifier_msgs ...) come from rosbags' own Kilted
typestore. The hash covers type names and fields only: constants and default values are not
part of it (the tests check those separately).
"""
from __future__ import annotations

from pathlib import Path

from rosbags.interfaces import Nodetype
from rosbags.typesys import Stores, get_types_from_msg, get_typestore

UUID = "unique_identifier_msgs/msg/UUID"


def split_sections(text: str, parts: int) -> list[str]:
    """The sections of a .srv (2) or .action (3) file: split at lines that are only ---."""
    sections: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.strip() == "---":
            sections.append([])
        else:
            sections[-1].append(line)
    assert len(sections) == parts, f"expected {parts} sections, got {len(sections)}"
    return ["\n".join(s) + "\n" for s in sections]


def _unmangle(node):
    """Two fix-ups of rosbags' field definitions before hashing:

    - its parser files a reference to pkg/srv/N under pkg/srv/msg/N: undo that;
    - a .msg `char` is `uint8` in ROS 2 (rosidl's msg -> idl conversion), and rosidl hashes
      it as such; rosbags 0.11 hashes it as CHAR (its ServiceEventInfo's `char[16]
      client_gid`, in every service's _Event, would not match ROS 2's hash otherwise).
    """
    if isinstance(node, str):
        return node.replace("/srv/msg/", "/srv/")
    if isinstance(node, tuple) and len(node) == 2 and node[0] == Nodetype.BASE and node[1][0] == "char":
        return (Nodetype.BASE, ("uint8", node[1][1]))
    if isinstance(node, (tuple, list)):
        return type(node)(_unmangle(x) for x in node)
    return node


class Rihs01:
    """rosbags' Kilted typestore plus the interface definitions added to it."""

    def __init__(self):
        self.store = get_typestore(Stores.ROS2_KILTED)
        self.pending: dict = {}
        self.fixed = False

    def _msg(self, full_name: str, text: str) -> None:
        package, _, name = full_name.split("/")
        # Parsed as pkg/msg/<name>, so that a relative field type (`JointTolerance x`) means
        # pkg/msg/JointTolerance, as in rosidl; then filed under its real namespace.
        ((_, definition),) = get_types_from_msg(text, f"{package}/msg/{name}").items()
        self.pending[full_name] = _unmangle(definition)

    def _service(self, base: str, request: str, response: str) -> None:
        self._msg(f"{base}_Request", request)
        self._msg(f"{base}_Response", response)
        self._msg(f"{base}_Event", f"service_msgs/msg/ServiceEventInfo info\n"
                                   f"{base}_Request[<=1] request\n{base}_Response[<=1] response\n")
        self._msg(base, f"{base}_Request request_message\n{base}_Response response_message\n"
                        f"{base}_Event event_message\n")

    def add(self, full_name: str, text: str) -> None:
        """Add `pkg/msg|srv|action/Name` as defined by the text of its .msg/.srv/.action file."""
        kind = full_name.split("/")[1]
        if kind == "msg":
            self._msg(full_name, text)
        elif kind == "srv":
            self._service(full_name, *split_sections(text, 2))
        elif kind == "action":
            base = full_name
            for part, section in zip(("Goal", "Result", "Feedback"), split_sections(text, 3)):
                self._msg(f"{base}_{part}", section)
            self._service(f"{base}_SendGoal", f"{UUID} goal_id\n{base}_Goal goal\n",
                          "bool accepted\nbuiltin_interfaces/msg/Time stamp\n")
            self._service(f"{base}_GetResult", f"{UUID} goal_id\n", f"int8 status\n{base}_Result result\n")
            self._msg(f"{base}_FeedbackMessage", f"{UUID} goal_id\n{base}_Feedback feedback\n")
            self._msg(base, f"{base}_Goal goal\n{base}_Result result\n{base}_Feedback feedback\n"
                            f"{base}_SendGoal send_goal_service\n{base}_GetResult get_result_service\n"
                            f"{base}_FeedbackMessage feedback_message\n")
        else:
            raise ValueError(f"not a msg, srv or action: {full_name}")

    def add_file(self, package: str, path: Path) -> str:
        """Add pkg's <Name>.msg|srv|action file; returns the full type name."""
        full_name = f"{package}/{path.suffix[1:]}/{path.stem}"
        self.add(full_name, path.read_text())
        return full_name

    def _fielddefs(self) -> dict:
        # hash_rihs01 reads only the field definitions; registering (which generates Python
        # classes) is not needed for hashing and rosbags' class generator knows no srv/ names.
        if not self.fixed:
            self.store.fielddefs.update({k: _unmangle(v) for k, v in self.store.fielddefs.items()})
            self.fixed = True
        self.store.fielddefs.update(self.pending)
        self.pending = {}
        return self.store.fielddefs

    def hash(self, full_name: str) -> str:
        """RIHS01 of a type: its fields and, through them, every type it refers to."""
        self._fielddefs()
        return self.store.hash_rihs01(full_name)

    def fields(self, full_name: str) -> list[tuple[str, object]]:
        return list(self._fielddefs()[full_name][1])

    def constants(self, full_name: str) -> dict[str, object]:
        """{name: value} of the constants rosbags parsed for a type."""
        return {name: value for name, _, value in self._fielddefs()[full_name][0]}
