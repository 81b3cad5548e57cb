#!/usr/bin/env python3
"""What watching a tree in the browser costs the tree, and how fast the page follows it.

`robot-tasks monitor` (robot_tasks/monitor/) is a client of the tree's Groot2Publisher: it
polls STATUS (10 Hz), the blackboards (2 Hz) and the recorded transitions, and pushes what
changed to a page over a WebSocket. The tree pays for that in its own process: the
publisher answers those requests in a thread of the tree's process (under the same GIL),
and while the monitor records, every status change is also appended as a transition.
The page pays in the browser. Two questions, on one generated 1,000-node tree (a Sequence
of 10 chunks, each a Sequence, Fallback or ReactiveSequence of Script / AlwaysSuccess
leaves; the Fallbacks' children are Inverter(AlwaysSuccess) so that every one ticks):

(i)  tick rate: the tree ticked as fast as possible for --seconds, with its publisher and
     - no monitor;
     - no monitor, but the publisher's transition recording on (one client sent Groot2's
       "r start" and nothing more): what the monitor's recording alone costs;
     - a monitor (`robot-tasks monitor`, a child process) but no page: it reaches the
       publisher once (the tree, the hooks, recording on) and then goes quiet;
     - the monitor and a headless Chromium page showing the tree (test/support/cdp.py);
     interleaved over --rounds so load changes on a shared machine hit all alike; ticks/s
     (median) and the ratio to "no monitor".
(ii) the page, on two 1,000-node trees:
     - "chunks": the same tree with a `Pause` leaf ending each chunk (RUNNING once, then
       SUCCESS), so every root tick leaves a different STATUS (one more chunk done; a
       finished chunk's nodes are reset to IDLE by their parent, so a tick changes only a
       dozen statuses between two polls, as in a real task tree);
     - "flat": the worst case for the page, a ParallelAll of 999 Pause leaves: every tick
       turns all of them RUNNING, or all back to IDLE, so each poll can change every node;
     each ticked at --rate Hz for --seconds: the data-status changes the page applies per
     second and in how many DOM update rounds (a MutationObserver in the page counts them).
     Then --latency-samples single ticks at random moments: from the tick's end (this
     process's clock) to the moment the page shows the new status of a marker leaf
     (Date.now() in the page; both are the machine's wall clock).

Bounded: every phase runs a fixed time or count; the monitor and Chromium are our own
children, stopped by their handles. Everything binds 127.0.0.1 (publisher, monitor);
Chromium runs with cdp.py's offline flags.

Run:  PYTHONPATH=. .venv/bin/python bench/monitor.py [--seconds 8] [--rounds 3] [--rate 7]
                                                      [--latency-samples 30]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "test" / "support"))   # cdp.Browser
sys.path.insert(0, str(REPO / "test" / "monitor"))   # monitor_session.Monitor (runs the real command)

NODES = 1000
CHUNKS = 10
KINDS = ("Sequence", "Fallback", "ReactiveSequence")


def tree_xml(pause: bool, nodes: int = NODES, chunks: int = CHUNKS) -> str:
    """A BT.CPP v4 tree of exactly `nodes` nodes: root Sequence > `chunks` x Sequence(chunk)
    > [body (Sequence | Fallback | ReactiveSequence), Pause or AlwaysSuccess]."""
    body_budget = nodes - 1 - 3 * chunks        # root; per chunk: wrapper, body, last leaf
    parts = []
    for c in range(chunks):
        budget = body_budget // chunks + (1 if c < body_budget % chunks else 0)
        kind = KINDS[c % len(KINDS)]
        if kind == "Fallback":   # every child fails but the last, so each one ticks
            pairs, rest = divmod(budget - 1, 2)
            children = ["<Inverter><AlwaysSuccess/></Inverter>"] * pairs
            children.append(f'<Sequence><Script code="c{c} := 0"/></Sequence>' if rest
                            else f'<Script code="c{c} := 0"/>')
        else:
            children = [f'<Script code="c{c} := {i}"/>' if i % 2 == 0 else "<AlwaysSuccess/>" for i in range(budget)]
        last = f'<Pause name="pause{c}"/>' if pause else f'<AlwaysSuccess name="end{c}"/>'
        parts.append(f'<Sequence name="chunk{c}"><{kind} name="body{c}">{"".join(children)}</{kind}>{last}</Sequence>')
    return (f'<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main">'
            f'<Sequence name="all">{"".join(parts)}</Sequence></BehaviorTree></root>')


def flat_xml(nodes: int = NODES) -> str:
    """A ParallelAll of nodes - 1 Pause leaves: all RUNNING after one tick, all done after the next."""
    leaves = "".join(f'<Pause name="p{i}"/>' for i in range(nodes - 1))
    return (f'<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main">'
            f'<ParallelAll name="all">{leaves}</ParallelAll></BehaviorTree></root>')


def new_tree(pause: bool, flat: bool = False):
    from robot_tasks.bt import BehaviorTreeFactory, NodeStatus

    factory = BehaviorTreeFactory()
    # RUNNING on its first tick, SUCCESS on the next: each root tick gets one chunk further
    factory.register_simple_stateful_action("Pause", lambda node: NodeStatus.RUNNING,
                                            lambda node: NodeStatus.SUCCESS)
    tree = factory.create_tree_from_text(flat_xml() if flat else tree_xml(pause))
    assert len(tree.nodes) == NODES, len(tree.nodes)
    return tree


# ---- the page's counters -------------------------------------------------------------------
OBSERVER = """(() => {
  const b = window.__bench = {changes: 0, rounds: 0, seen: {}};
  new MutationObserver(records => {
    const now = Date.now();
    let n = 0;
    for (const r of records) {
      if (r.attributeName !== 'data-status') continue;
      n++;
      const key = r.target.dataset.uid + ':' + r.target.dataset.status;
      if (!(key in b.seen)) b.seen[key] = now;
    }
    if (n) { b.changes += n; b.rounds++; }
  }).observe(document.getElementById('publishers'), {subtree: true, attributes: true,
                                                      attributeFilter: ['data-status']});
  return true; })()"""


def open_page(browser, url: str) -> None:
    browser.navigate(url)
    browser.wait_for(f"document.querySelectorAll('li.node').length === {NODES}", timeout_s=60)
    browser.evaluate(OBSERVER)


def page_counters(browser) -> tuple[int, int]:
    return tuple(browser.evaluate("[window.__bench.changes, window.__bench.rounds]"))


# ---- (i) tick rate ---------------------------------------------------------------------------
def tick_for(tree, seconds: float) -> float:
    """Root ticks per second, ticking as fast as possible for `seconds`."""
    ticks, end = 0, time.perf_counter() + seconds
    started = time.perf_counter()
    while time.perf_counter() < end:
        tree.tick_once()
        ticks += 1
    return ticks / (time.perf_counter() - started)


def tick_rate(seconds: float, rounds: int) -> dict:
    from cdp import Browser
    from monitor_session import Monitor

    from robot_tasks.bt.groot2 import Groot2Publisher, free_port_pair
    from robot_tasks.monitor.client import Groot2Client

    tree = new_tree(pause=False)
    port = free_port_pair()
    configs = ["no monitor", "recording only", "monitor, no page", "monitor + page"]
    rates = {name: [] for name in configs}
    page_changes = []
    with Groot2Publisher(tree, port):
        tree.tick_once()
        for round_ in range(rounds):
            for name in configs:
                if name == "no monitor":
                    rates[name].append(tick_for(tree, seconds))
                    continue
                if name == "recording only":
                    client = Groot2Client("127.0.0.1", port)
                    try:
                        client.start_recording()
                        rates[name].append(tick_for(tree, seconds))
                        client.stop_recording()
                    finally:
                        client.close()
                    continue
                with Monitor(f"127.0.0.1:{port}") as monitor:
                    monitor.read_line(5.0)   # "watching ..."; then one request reaches the publisher
                    time.sleep(2.0)          # its start-up (imports, first request) is not what we time
                    if name == "monitor, no page":
                        rates[name].append(tick_for(tree, seconds))
                        continue
                    with Browser() as browser:
                        open_page(browser, monitor.url)
                        before = page_counters(browser)
                        rates[name].append(tick_for(tree, seconds))
                        after = page_counters(browser)
                        page_changes.append((after[0] - before[0]) / seconds)
            print(f"  round {round_ + 1}/{rounds}: " + ", ".join(f"{n} {rates[n][-1]:.1f}" for n in configs),
                  flush=True)
    return {"rates": rates, "page_changes": page_changes}


# ---- (ii) the page's update rate and latency -------------------------------------------------
def marker_key(tree, flat: bool) -> str:
    """uid:status the page must show after the tick just made (see page_rate)."""
    if flat:   # every leaf alike: the first one, RUNNING or back to IDLE after SUCCESS
        return f"2:{1 if tree.nodes[1].status.value == 1 else 12}"
    pauses = [node for node in tree.nodes if node.name.startswith("pause")]
    running = [node.uid for node in pauses if node.status.value == 1]
    # the chunk this tick ended in: its Pause leaf RUNNING, or all IDLE after the root's end
    return f"{running[0]}:1" if running else f"{pauses[-1].uid}:12"


def page_rate(seconds: float, rate: float, samples: int, flat: bool) -> dict:
    from cdp import Browser
    from monitor_session import Monitor

    from robot_tasks.bt.groot2 import Groot2Publisher, free_port_pair

    tree = new_tree(pause=True, flat=flat)
    port = free_port_pair()
    with Groot2Publisher(tree, port), Monitor(f"127.0.0.1:{port}") as monitor, Browser() as browser:
        open_page(browser, monitor.url)
        # a steady stream: `rate` root ticks a second, each leaving a new STATUS
        stop = threading.Event()
        ticked = [0]

        def ticking():
            period, next_at = 1.0 / rate, time.perf_counter()
            while not stop.is_set():
                tree.tick_once()
                ticked[0] += 1
                next_at += period
                stop.wait(max(0.0, next_at - time.perf_counter()))

        before = page_counters(browser)
        worker = threading.Thread(target=ticking, daemon=True)
        started = time.perf_counter()
        worker.start()
        time.sleep(seconds)
        stop.set()
        worker.join(5.0)
        elapsed = time.perf_counter() - started
        after = page_counters(browser)
        browser.evaluate("new Promise(done => setTimeout(done, 500))")   # let the last poll land
        # latency: one tick at a random moment, then when the page shows it
        latencies = []
        rng = random.Random(1)
        for _ in range(samples):
            time.sleep(rng.uniform(0.15, 0.4))
            browser.evaluate("window.__bench.seen = {}")
            status = tree.tick_once()
            ticked_at = time.time()
            key = marker_key(tree, flat)
            shown = browser.wait_for(f"window.__bench.seen[{json.dumps(key)}]", timeout_s=10)
            latencies.append(shown / 1000.0 - ticked_at)
            assert status.name in ("RUNNING", "SUCCESS")
    return {"ticks": ticked[0], "elapsed": elapsed, "changes": after[0] - before[0], "rounds": after[1] - before[1],
            "latencies": latencies}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="each timed block (default 8)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of (i) (default 3)")
    parser.add_argument("--rate", type=float, default=7.0,
                        help="root ticks/s while the page is timed (default 7: not a divisor of the 10 Hz polls, "
                             "so a flat tree's polls do not all land on the same phase)")
    parser.add_argument("--latency-samples", type=int, default=30)
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 60 or not 0 < args.rounds <= 10 or not 0 < args.rate <= 200 \
            or not 0 < args.latency_samples <= 200:
        parser.error("bounds: --seconds 0-60, --rounds 1-10, --rate 1-200, --latency-samples 1-200")
    from cdp import Browser

    reason = Browser.available()
    if reason:
        print(f"bench/monitor.py: {reason}", file=sys.stderr)
        return 2
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    started = time.perf_counter()
    print(f"(i) a {NODES}-node tree ticked as fast as possible, {args.seconds:g} s per block, "
          f"{args.rounds} interleaved rounds", flush=True)
    first = tick_rate(args.seconds, args.rounds)
    print(f"(ii) the page: two {NODES}-node trees with Pause leaves at {args.rate:g} ticks/s for {args.seconds:g} s, "
          f"then {args.latency_samples} single ticks", flush=True)
    pages = {name: page_rate(args.seconds, args.rate, args.latency_samples, flat=name == "flat")
             for name in ("chunks", "flat")}
    load_after = Path("/proc/loadavg").read_text().split()[:3]

    rates = {name: statistics.median(values) for name, values in first["rates"].items()}
    base = rates["no monitor"]
    print()
    print(f"{'tree ticked with':<20} {'root ticks/s':>12} {'node ticks/s':>13} {'x no monitor':>13}")
    for name, value in rates.items():
        print(f"{name:<20} {value:>12.1f} {value * NODES:>13.0f} {value / base:>13.2f}")
    if first["page_changes"]:
        print(f"  (the page applied {statistics.median(first['page_changes']):.0f} status changes/s meanwhile)")
    print()
    print(f"{'page, tree':<12} {'root ticks/s':>12} {'changes/s':>10} {'rounds/s':>9} {'per round':>9} "
          f"{'latency median':>15} {'p95':>6} {'max':>6}")
    for name, page in pages.items():
        lat = sorted(page["latencies"])
        p95 = lat[min(len(lat) - 1, int(round(0.95 * (len(lat) - 1))))]
        rounds = page["rounds"] / page["elapsed"]
        print(f"{name:<12} {page['ticks'] / page['elapsed']:>12.1f} {page['changes'] / page['elapsed']:>10.0f} "
              f"{rounds:>9.1f} {page['changes'] / max(page['rounds'], 1):>9.0f} "
              f"{statistics.median(lat) * 1000:>12.0f} ms {p95 * 1000:>3.0f} ms {lat[-1] * 1000:>3.0f} ms")
    print("(changes/s: node statuses the page applied; a round: one STATUS message drawn; latency: "
          f"tick -> DOM over {args.latency_samples} single ticks; the monitor polls every 100 ms)")
    print(f"load average before {' '.join(load_before)}, after {' '.join(load_after)}; "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
