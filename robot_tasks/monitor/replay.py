"""A `.btlog` file as the page replays it: the tree once, then every transition.

A `.btlog` (BT.CPP's FileLogger2 format, written by `robot_tasks.bt.loggers.FileLogger2`
and by BT.CPP itself) holds the same FULLTREE XML a live publisher sends, then one
record per status change: microseconds since the start, node uid, new status. The
reader is the loggers' own `read_btlog`; this file only reshapes its output for the
page, which replays the records up to the slider's position to show the tree as it
was at that moment.
"""
from __future__ import annotations

from pathlib import Path

from robot_tasks.bt.loggers import read_btlog

from .tree_model import parse_fulltree


def load_btlog(path, index: int) -> dict:
    """The page message for one file (raises BehaviorTreeError / TreeXmlError / OSError)."""
    xml, start_us, records = read_btlog(path)
    return {"type": "btlog", "pub": index, "label": Path(path).name, "tree": parse_fulltree(xml),
            "start_us": start_us, "transitions": [[usec, uid, status] for usec, uid, status in records]}
