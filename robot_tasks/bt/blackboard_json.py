"""A blackboard to and from JSON (BT.CPP `ExportBlackboardToJSON` / `ImportBlackboardFromJSON`).

```python
from robot_tasks.bt.blackboard_json import export_blackboard_to_json, import_blackboard_from_json

snapshot = export_blackboard_to_json(tree.root_blackboard)      # {"cube": "red_cube", "level": 1}
import_blackboard_from_json({"level": 2, "mode": "stack"}, other_board)
```

Export writes one JSON value per entry the blackboard itself holds (not its parent's,
not a key remapped to the parent), keys sorted as nlohmann::json sorts them:

| value on the blackboard          | JSON                                   |
|----------------------------------|----------------------------------------|
| str, int, float                  | the same                               |
| bool                             | 1 or 0 -- BT.CPP stores a bool as an integer, and exports it so |
| list/tuple of exportable values  | an array (a bool inside it stays true/false, as a `std::vector<bool>`) |
| dict with str keys of exportable values | an object                       |
| an instance of a type registered with `register_json_type` | its converter's object, plus `"__type": name` |
| an empty entry, or anything else | null (the key is still there)          |

Import goes the other way for each key: an existing entry (even a typed one) takes the
value as it is, as BT.CPP writes it without conversion; a missing key is created --
typed for a number or a bool, generic for the rest. `null` empties the entry. An
object with `"__type"` becomes an instance of the registered type; an array of
such objects a list of them. What cannot be imported (an unknown `"__type"`) is
skipped, as BT.CPP skips it; the function returns `{key: reason}` for those.

Python-only differences, on purpose: dicts and mixed lists are exported (BT.CPP has no
such types and would write null), imported arrays and objects stay Python lists and
dicts (BT.CPP builds a typed vector from the first element, skips empty arrays and
plain objects), and integers keep their size (BT.CPP reads JSON integers as `int`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .blackboard import EMPTY, Blackboard

TYPE_FIELD = "__type"


@dataclass(frozen=True)
class JsonType:
    """How one Python type goes to and from JSON (BT.CPP `JsonExporter::addConverter`)."""

    cls: type
    name: str
    to_json: Callable[[Any], dict]
    from_json: Callable[[dict], Any]


_TYPES_BY_CLASS: dict[type, JsonType] = {}
_TYPES_BY_NAME: dict[str, JsonType] = {}


def register_json_type(cls: type, to_json: Callable[[Any], dict], from_json: Callable[[dict], Any],
                       name: str | None = None) -> None:
    """Make `cls` exportable: `to_json(value)` returns a dict (the `"__type"` field is
    added), `from_json(dict)` rebuilds the value. `name` defaults to the class name."""
    json_type = JsonType(cls, name or cls.__name__, to_json, from_json)
    _TYPES_BY_CLASS[cls] = json_type
    _TYPES_BY_NAME[json_type.name] = json_type


def value_to_json(value: Any) -> Any:
    """The JSON form of one blackboard value (None when BT.CPP would write null)."""
    if isinstance(value, bool):
        return int(value)
    return _item_to_json(value)


def _item_to_json(value: Any) -> Any:
    if value is EMPTY or value is None:
        return None
    if isinstance(value, (bool, str, int, float)):
        return value
    json_type = _TYPES_BY_CLASS.get(type(value))
    if json_type is not None:
        return {**json_type.to_json(value), TYPE_FIELD: json_type.name}
    if isinstance(value, (list, tuple)):
        items = [_item_to_json(item) for item in value]
        return None if any(item is None and original is not None
                           for item, original in zip(items, value)) else items
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        items = {key: _item_to_json(item) for key, item in value.items()}
        return None if any(items[key] is None and value[key] is not None for key in value) else items
    return None


def owned_entries(board: Blackboard):
    """(key, entry) for the entries `board` itself holds. A key remapped (or
    autoremapped) to the parent belongs to the parent, as in BT.CPP, even though our
    blackboard caches it locally."""
    parent = board.parent
    remappings = board.remappings
    for key in board.keys():
        entry = board.get_entry(key)
        if entry is None:
            continue
        if parent is not None and parent.get_entry(remappings.get(key, key)) is entry:
            continue
        yield key, entry


def export_blackboard_to_json(board: Blackboard) -> dict:
    """{key: JSON value} of the entries `board` holds, keys sorted."""
    return {key: value_to_json(entry.value) for key, entry in sorted(owned_entries(board))}


def value_from_json(value: Any) -> Any:
    """The Python value of one JSON value; raises ValueError for an unknown `"__type"`."""
    if isinstance(value, dict) and TYPE_FIELD in value:
        return _typed(value)
    if isinstance(value, list) and value and isinstance(value[0], dict) and TYPE_FIELD in value[0]:
        return [_typed(item) for item in value]
    return value


def _typed(value: dict) -> Any:
    json_type = _TYPES_BY_NAME.get(value[TYPE_FIELD]) if isinstance(value.get(TYPE_FIELD), str) else None
    if json_type is None:
        raise ValueError(f"type [{value.get(TYPE_FIELD)}] is not registered (register_json_type)")
    return json_type.from_json({key: item for key, item in value.items() if key != TYPE_FIELD})


def import_blackboard_from_json(data: dict, board: Blackboard) -> dict[str, str]:
    """Write every key of `data` into `board`; return {key: reason} for the skipped ones."""
    if not isinstance(data, dict):
        raise TypeError(f"import_blackboard_from_json needs a JSON object (dict), got {type(data).__name__}")
    skipped: dict[str, str] = {}
    for key, raw in data.items():
        try:
            value = value_from_json(raw)
        except ValueError as exc:
            skipped[key] = str(exc)
            continue
        entry = board.get_entry(key)
        if entry is None:
            typed = type(value) if isinstance(value, (bool, int, float)) else None
            entry = board.create_entry(key, typed)
        entry.value = EMPTY if value is None else value
        entry.sequence_id += 1
    return skipped
