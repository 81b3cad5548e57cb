"""Seeded mutation fuzzing of what users write by hand: tree XML, scripts, YAML goals.

A fuzz input is a real file (from trees/, the test trees, the corpus) or a real script,
changed a little: a span deleted, duplicated or truncated, a token of the format
inserted, an attribute value replaced by script soup — plus a few generated bombs
(deep nesting, many siblings, entity expansion, huge attributes). Each input is fed to
the component; the rule checked is the project's: bad input gets one of the project's
own errors (`RobotTasksError`), never another exception, a hang over `limit_s`, or a
RecursionError. `run_fuzz` returns the failures (input, what happened) and the counts.
"""
from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from paths import REPO, SUPPORT

from robot_tasks.errors import RobotTasksError

XML_TOKENS = ["<", ">", "/>", "&", "&&", "\"", "'", "=", "{", "}", "{a}", "<Sequence>", "</Sequence>",
              "<Fallback name='x'>", "</root>", "<root BTCPP_format=\"4\">", "<BehaviorTree ID=\"T\">",
              "\x00", "\u00e9", "\ufeff", "<!-- c -->", "<![CDATA[x]]>", "<?xml version='1.0'?>",
              "<!DOCTYPE r [<!ENTITY a 'b'>]>", "&a;", "&#0;", "&#x41;", "_skipIf=\"x <\"", " ID=\"\"",
              "<SubTree ID=\"Nope\"/>", "<SubTree ID=\"T\"/>", "<Repeat num_cycles=\"-1\">", "<Script code=\"a := \"/>"]
SCRIPT_SOUP = ["a", "b", "1", "0x", "1e999", "'x'", "\"x\"", ":=", "+=", "==", "&&", "||", "!", "?", ":",
               "(", ")", ";", "..", "@", "{", "}", " ", "\\", "9" * 40]


@dataclass
class FuzzReport:
    inputs: int = 0
    accepted: int = 0                 # loaded (or parsed) without error
    refused: int = 0                  # refused with a project error: what bad input should get
    slowest_s: float = 0.0
    failures: list = field(default_factory=list)   # (input excerpt, what went wrong)

    @property
    def ok(self) -> bool:
        return not self.failures


def xml_corpus() -> list[str]:
    files = sorted((REPO / "trees").rglob("*.xml")) + sorted((SUPPORT / "trees").glob("*.xml")) \
        + sorted((REPO / "test" / "bt" / "corpus").glob("*.xml"))
    return [f.read_text() for f in files]


def xml_bombs() -> list[str]:
    deep = "<Sequence>" * 3000 + "<AlwaysSuccess/>" + "</Sequence>" * 3000
    wide = "".join("<AlwaysSuccess/>" for _ in range(5000))      # a big real tree, ~0.15 s
    laughs = ("<?xml version='1.0'?><!DOCTYPE r [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;'>"
              "<!ENTITY c '&b;&b;&b;&b;&b;&b;'>]><root BTCPP_format='4'><BehaviorTree ID='T'>"
              "<Script code='&c;'/></BehaviorTree></root>")
    recursive = ("<root BTCPP_format='4'><BehaviorTree ID='A'><SubTree ID='B'/></BehaviorTree>"
                 "<BehaviorTree ID='B'><SubTree ID='A'/></BehaviorTree></root>")
    return [f"<root BTCPP_format='4'><BehaviorTree ID='T'>{deep}</BehaviorTree></root>",
            f"<root BTCPP_format='4'><BehaviorTree ID='T'><Sequence>{wide}</Sequence></BehaviorTree></root>",
            laughs, recursive,
            "<root BTCPP_format='4'><BehaviorTree ID='T'><Script code='" + "(" * 5000 + "1" + ")" * 5000
            + "'/></BehaviorTree></root>",
            "<root BTCPP_format='4'><BehaviorTree ID='T'><Script code='" + "a:=" * 3000 + "1'/></BehaviorTree></root>",
            "<root BTCPP_format='4'><BehaviorTree ID='T'><Script code='" + "!" * 20000 + "1'/></BehaviorTree></root>"]


def mutate(text: str, rng: random.Random, tokens: list[str]) -> str:
    """One random edit of `text` (two or three, one time in four)."""
    for _ in range(1 if rng.random() < 0.75 else rng.randint(2, 3)):
        n = len(text)
        if n == 0:
            return rng.choice(tokens)
        i = rng.randrange(n)
        j = min(n, i + rng.randint(1, 80))
        kind = rng.randrange(6)
        if kind == 0:
            text = text[:i] + text[j:]                          # delete a span
        elif kind == 1:
            text = text[:j] + text[i:j] + text[j:]              # duplicate a span
        elif kind == 2:
            text = text[:i] + rng.choice(tokens) + text[i:]     # insert a token of the format
        elif kind == 3:
            text = text[:i]                                     # truncate
        elif kind == 4:                                         # an attribute value becomes soup
            values = list(re.finditer(r'="([^"]*)"', text))
            if values:
                m = rng.choice(values)
                soup = "".join(rng.choice(SCRIPT_SOUP) for _ in range(rng.randint(0, 8)))
                text = text[:m.start(1)] + soup.replace('"', "'") + text[m.end(1):]
        else:
            text = text[:i] + chr(rng.randrange(1, 0x3000)) + text[i + 1:]   # one character
    return text


def run_fuzz(inputs: Iterable, feed: Callable[[object], object], limit_s: float = 1.0) -> FuzzReport:
    """Feed every input; anything but success or a RobotTasksError within `limit_s` fails.

    The limit is on this thread's CPU time, not the wall clock: it is there to catch an input
    that makes the parser work far too hard (a bomb, a blow-up), and CPU time measures just
    that, while wall time also counts the turns other processes of a busy machine take."""
    report = FuzzReport()
    for text in inputs:
        report.inputs += 1
        start = time.thread_time()
        try:
            feed(text)
            report.accepted += 1
        except RecursionError:
            report.failures.append((str(text)[:200], "RecursionError"))
        except RobotTasksError:
            report.refused += 1
        except Exception as exc:  # noqa: BLE001 - exactly what the fuzzer looks for
            report.failures.append((str(text)[:200], f"{type(exc).__name__}: {exc}"))
        took = time.thread_time() - start
        report.slowest_s = max(report.slowest_s, took)
        if took > limit_s:
            report.failures.append((str(text)[:200], f"took {took:.2f} s of CPU (limit {limit_s} s)"))
    return report


def xml_inputs(count: int, seed: int) -> Iterable[str]:
    rng = random.Random(seed)
    corpus = xml_corpus()
    yield from xml_bombs()
    for _ in range(count):
        yield mutate(rng.choice(corpus), rng, XML_TOKENS)


def load_and_build_every_tree(text: str) -> None:
    """What `robot-tasks tree validate` does with a file: load it (unknown IDs declared in its
    TreeNodesModel become placeholders) and instantiate every BehaviorTree."""
    from robot_tasks.bt import BehaviorTreeFactory
    from robot_tasks.bt.xml.parser import XmlParser
    from robot_tasks.tasks import register_nodes

    factory = BehaviorTreeFactory()
    register_nodes(factory)
    parser = XmlParser(factory, placeholders=True)
    parser.load_from_text(text)
    for tree_id in parser.registered_behavior_trees():
        parser.instantiate_tree(None, tree_id)


def script_inputs(count: int, seed: int) -> Iterable[str]:
    rng = random.Random(seed)
    scripts = [m.group(1) for text in xml_corpus() for m in re.finditer(r'(?:code|if|_skipIf|_successIf|_failureIf|'
                                                                         r'_while|_post|_onSuccess)="([^"]*)"', text)]
    scripts = scripts or ["a := 1"]
    for _ in range(count):
        yield mutate(rng.choice(scripts), rng, SCRIPT_SOUP)


def parse_and_run_script(text: str) -> None:
    from robot_tasks.bt import BehaviorTreeFactory

    tree = BehaviorTreeFactory().create_tree_from_text(
        "<root BTCPP_format='4'><BehaviorTree ID='T'><Script code=\"{}\"/></BehaviorTree></root>".format(
            text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")))
    tree.tick_once()
