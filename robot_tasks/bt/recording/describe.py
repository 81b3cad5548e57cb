"""Recording events and values as one line of text (for divergence reports and printing)."""
from __future__ import annotations

import json
from typing import Any

MAX_VALUE = 160


def value_text(encoded: Any, limit: int = MAX_VALUE) -> str:
    """An encoded value as compact JSON, cut to `limit` characters."""
    text = json.dumps(encoded, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= limit else f"{text[:limit - 20]}... ({len(text)} chars)"


def _write_text(item: dict) -> str:
    name = item.get("entry", item.get("write"))
    if item.get("unset"):
        return f"removed {name}"
    value = "(same value as before)" if item.get("same") else value_text(item.get("value"))
    via = f" (port {item['port']})" if item.get("port") and item["port"] != name else ""
    times = f" ({item['times']} times)" if item.get("times", 1) > 1 else ""
    return f"{name}{via} = {value}{times}"


def describe(event: dict | None) -> str:
    """One line saying what an event is."""
    if event is None:
        return "nothing (the stream ended)"
    if "tick" in event:
        t = f" (t = {event['t']:.3f} s)" if isinstance(event.get("t"), (int, float)) else ""
        return f"tick {event['tick']} begins{t}"
    if "node" in event:
        return f"{event['node']}: {event.get('was')} -> {event.get('status')}"
    if "leaf" in event:
        if "returned" in event:
            what = f"returned {event['returned']}"
        elif "raised" in event:
            what = f"raised {event['raised']}"
        else:
            what = f"was halted ({event.get('halted')})"
        writes = event.get("writes") or []
        wrote = f", wrote {'; '.join(_write_text(w) for w in writes)}" if writes else ""
        return f"leaf {event['leaf']} {what} (call {event.get('call')}){wrote}"
    if "write" in event:
        return f"the tree (not a leaf) wrote {_write_text(event)}"
    if "unset" in event:
        return f"the tree removed entry {event['unset']}"
    if "timer" in event:
        return f"the timer of {event['timer']} fired"
    if "halt_tree" in event:
        return "the executor halted the whole tree"
    if "end" in event:
        return f"the end of the recording (after tick {event.get('ticks')})"
    return value_text(event)


def subject(event: dict | None) -> str:
    """The node or entry an event is about ('' for ticks and the end)."""
    if not event:
        return ""
    for key in ("node", "leaf", "timer", "write", "unset"):
        if key in event:
            return str(event[key])
    return ""


def why(expected: dict | None, got: dict | None) -> str:
    """The difference between two events, said briefly (the node is named elsewhere)."""
    if got is None:
        return "the replay stopped producing events where the run went on"
    if expected is None:
        return "the replay went on after the recording ended"
    if "tick" in expected and "tick" not in got:
        return f"the replay did more in tick {expected['tick'] - 1} than the run did"
    if "tick" in got and "tick" not in expected:
        return "the replayed tick ended where the run's tick went on"
    if subject(expected) != subject(got):
        ran, replayed = _tails(subject(expected), subject(got))
        return (f"the run went on with {ran or describe(expected)}, "
                f"the replay with {replayed or describe(got)}")
    if "leaf" in expected and "leaf" in got:
        for field in ("returned", "raised", "halted"):
            if expected.get(field) != got.get(field):
                return f"{field} {expected.get(field) or '-'} in the run, {got.get(field) or '-'} in the replay"
        return _writes_differ(expected.get("writes") or [], got.get("writes") or [])
    if "status" in expected:
        return f"went to {expected.get('status')} in the run, to {got.get('status')} in the replay"
    return _writes_differ([expected], [got])


def _tails(a: str, b: str) -> tuple[str, str]:
    """Two paths with their common beginning replaced by '.../' (the rest tells them apart)."""
    parts_a, parts_b = a.split("/"), b.split("/")
    common = 0
    while common < min(len(parts_a), len(parts_b)) - 1 and parts_a[common] == parts_b[common]:
        common += 1
    if common < 2:
        return a, b
    return "/".join(["..."] + parts_a[common - 1:]), "/".join(["..."] + parts_b[common - 1:])


def _writes_differ(expected: list[dict], got: list[dict]) -> str:
    def by_entry(items):
        return {item.get("entry", item.get("write")): item for item in items}
    want, have = by_entry(expected), by_entry(got)
    for name in sorted(set(want) | set(have)):
        if want.get(name) != have.get(name):
            if name not in have:
                return f"the run wrote {_write_text(want[name])}; the replay did not write {name}"
            if name not in want:
                return f"the replay wrote {_write_text(have[name])}; the run did not write {name}"
            return f"the run wrote {_write_text(want[name])}; the replay wrote {_write_text(have[name])}"
    return "the events differ"
