"""Substitution rules from JSON, in BT.CPP's own format (`loadSubstitutionRuleFromJSON`).

```json
{
  "TestNodeConfigs": {
    "Picked":   {"return_status": "SUCCESS", "async_delay": 200,
                 "post_script": "holding := 'red_cube'"},
    "Slipped":  {"return_status_script": "attempts > 1 ? SUCCESS : FAILURE",
                 "failure_script": "attempts += 1"}
  },
  "SubstitutionRules": {
    "pick/*":         "Picked",
    "CheckGrasp":     "Slipped",
    "MoveToPose":     "AlwaysSuccess"
  }
}
```

- `TestNodeConfigs` (optional) names configurations. Each needs `return_status`
  (IDLE, RUNNING, SUCCESS, FAILURE or SKIPPED) or `return_status_script`, and may have
  `success_script`, `failure_script`, `post_script` (script text) and `async_delay`
  (milliseconds, a number). Other keys are ignored, as BT.CPP ignores them
  (`unknown_config_keys` lists them, for tools that want to warn).
- `SubstitutionRules` (required) maps a pattern to a name: a TestNodeConfig of this
  text if there is one by that name, otherwise a registration ID (checked when a
  tree is created, not here).
- Rules are added in key order (nlohmann::json keeps objects sorted, and that order
  feeds the rule map), so a file gives the same precedence here as in BT.CPP.

Every error is a SubstitutionError that names the place in the text
(`TestNodeConfigs.Picked.async_delay`). Unlike BT.CPP, which adds rules one by one
until it meets an error, a text with an error adds no rule at all.
"""
from __future__ import annotations

import json
import math
from typing import Any

from ..errors import BehaviorTreeError, SubstitutionError
from .test_node import TestNodeConfig, status_from_name

SCRIPT_FIELDS = ("return_status_script", "post_script", "success_script", "failure_script")
KNOWN_CONFIG_KEYS = frozenset(("return_status", "async_delay") + SCRIPT_FIELDS)


def parse_substitution_json(json_text: str) -> list[tuple[str, Any]]:
    """[(pattern, rule)] in the order BT.CPP adds them; rule is a str or a TestNodeConfig."""
    document = _load(json_text)
    configs = {name: _config(name, body) for name, body in _section(document, "TestNodeConfigs", False).items()}
    rules = []
    for pattern, target in sorted(_section(document, "SubstitutionRules", True).items()):
        if not isinstance(target, str):
            raise SubstitutionError(f"SubstitutionRules.{pattern}: expected the name of a TestNodeConfig or a "
                                    f"registration ID (a string), got {_shown(target)}")
        rules.append((pattern, configs[target] if target in configs else target))
    return rules


def unknown_config_keys(json_text: str) -> list[str]:
    """`TestNodeConfigs.<name>.<key>` for every key BT.CPP would silently ignore."""
    configs = _section(_load(json_text), "TestNodeConfigs", False)
    return [f"TestNodeConfigs.{name}.{key}" for name, body in sorted(configs.items()) if isinstance(body, dict)
            for key in sorted(body) if key not in KNOWN_CONFIG_KEYS]


def _load(json_text: str) -> dict:
    try:
        document = json.loads(json_text)
    except json.JSONDecodeError as exc:
        raise SubstitutionError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(document, dict):
        raise SubstitutionError(f"the rules must be a JSON object with \"SubstitutionRules\", got {_shown(document)}")
    return document


def _section(document: dict, key: str, required: bool) -> dict:
    if key not in document:
        if required:
            raise SubstitutionError(f"missing \"{key}\": the object mapping node names, IDs or path patterns "
                                    f"to a TestNodeConfig name or a registration ID")
        return {}
    section = document[key]
    if not isinstance(section, dict):
        raise SubstitutionError(f"{key}: expected an object, got {_shown(section)}")
    return section


def _config(name: str, body: Any) -> TestNodeConfig:
    where = f"TestNodeConfigs.{name}"
    if not isinstance(body, dict):
        raise SubstitutionError(f"{where}: expected an object, got {_shown(body)}")
    config = TestNodeConfig()
    if "return_status" in body:
        text = _string(body, "return_status", where)
        try:
            config.return_status = status_from_name(text)
        except BehaviorTreeError as exc:
            raise SubstitutionError(f"{where}.return_status: {exc}") from None
    for field in SCRIPT_FIELDS:
        if field in body:
            setattr(config, field, _string(body, field, where))
    if "async_delay" in body:
        config.async_delay = _milliseconds(body["async_delay"], f"{where}.async_delay")
    if "return_status" not in body and not config.return_status_script:
        raise SubstitutionError(f"TestNodeConfig [{name}] must contain return_status or return_status_script")
    return config


def _string(body: dict, field: str, where: str) -> str:
    value = body[field]
    if not isinstance(value, str):
        raise SubstitutionError(f"{where}.{field}: expected a string, got {_shown(value)}")
    return value


def _milliseconds(value: Any, where: str) -> int:
    # nlohmann's get<int>() takes any number (a float is truncated) and a boolean
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    raise SubstitutionError(f"{where}: expected milliseconds (a number), got {_shown(value)}")


def _shown(value: Any) -> str:
    kind = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return f"{kind.get(type(value), 'a number')} ({json.dumps(value)[:60]})"
