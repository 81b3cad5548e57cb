"""What a page (or any other local program) can and cannot make the monitor do.

No browser here: a WebSocket client and plain HTTP play the hostile page. The monitor
watches a port where nothing listens (it must say so, not crash). Checked:
- it serves only on 127.0.0.1 and only with `Host: 127.0.0.1:PORT` (DNS rebinding);
- the WebSocket refuses another site's Origin, and a missing one;
- a command names a publisher by index; a host, a string or an out-of-range index is
  refused, as is an unknown op or a fault injection without SUCCESS/FAILURE.
"""
import asyncio
import http.client
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from monitor_session import Monitor  # noqa: E402

from robot_tasks.bt.groot2 import free_port_pair  # noqa: E402
from robot_tasks.monitor.server import CommandRejected, parse_command  # noqa: E402
from robot_tasks.monitor.tree_model import TreeXmlError, parse_fulltree  # noqa: E402

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("text, reason", [
    ('{"op": "breakpoint", "pub": "127.0.0.1:1667", "uid": 1}', "no live publisher"),
    ('{"op": "breakpoint", "pub": 1, "uid": 1}', "no live publisher"),
    ('{"op": "breakpoint", "pub": -1, "uid": 1}', "no live publisher"),
    ('{"op": "breakpoint", "pub": true, "uid": 1}', "no live publisher"),
    ('{"op": "connect", "pub": 0, "uid": 1}', "unknown op"),
    ('{"op": "inject", "pub": 0, "uid": 1, "status": "RUNNING"}', "SUCCESS or FAILURE"),
    ('{"op": "resume", "pub": 0, "uid": 70000}', "bad node uid"),
    ('[1, 2]', "JSON object"),
    ('__import__("os")', "not JSON"),
])
def test_commands_refused(text, reason):
    with pytest.raises(CommandRejected, match=reason):
        parse_command(text, publisher_count=1)


def test_command_accepted():
    assert parse_command('{"op": "inject", "pub": 1, "uid": 9, "status": "FAILURE"}', 2) == (1, "inject", 9, "FAILURE")
    assert parse_command('{"op": "resume", "pub": 0, "uid": 9, "status": "SUCCESS"}', 1) == (0, "resume", 9, None)


def test_tree_model_nests_subtrees():
    xml = """<root BTCPP_format="4"><BehaviorTree ID="Main" _fullpath="">
      <Sequence _uid="1"><SubTree ID="Sub" name="inner" _uid="2" _fullpath="inner" x="{y}"/></Sequence>
      </BehaviorTree><BehaviorTree ID="Sub" _fullpath="inner"><AlwaysSuccess _uid="3"/></BehaviorTree></root>"""
    tree = parse_fulltree(xml)
    sub = tree["root"]["children"][0]
    assert (sub["name"], sub["id"], sub["subtree"], sub["ports"]) == ("inner", "Sub", "inner", {"x": "{y}"})
    assert sub["children"][0]["uid"] == 3 and tree["boards"] == ["Main", "inner"] and tree["node_count"] == 3
    with pytest.raises(TreeXmlError, match="_uid"):
        parse_fulltree('<root><BehaviorTree ID="M"><Sequence/></BehaviorTree></root>')
    with pytest.raises(TreeXmlError, match="does not parse"):
        parse_fulltree('<root><!ENTITY')


def test_origin_host_and_index_checks():
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    with Monitor(f"127.0.0.1:{free_port_pair()}") as monitor:
        assert monitor.url.startswith("http://127.0.0.1:")
        port = int(monitor.url.rstrip("/").rsplit(":", 1)[1])
        origin = f"http://127.0.0.1:{port}"

        def get(host):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/", headers={"Host": host})
            response = connection.getresponse()
            body = response.read()
            connection.close()
            return response.status, body

        status, body = get(f"127.0.0.1:{port}")
        assert status == 200 and b"monitor.js" in body
        assert get(f"attacker.example:{port}")[0] == 403
        assert get(f"localhost:{port}")[0] == 403

        async def session():
            for bad in ("http://attacker.example", f"http://localhost:{port}", None):
                with pytest.raises(InvalidStatus) as refused:
                    async with connect(f"ws://127.0.0.1:{port}/ws", origin=bad):
                        pass
                assert refused.value.response.status_code == 403
            async with connect(f"ws://127.0.0.1:{port}/ws", origin=origin) as ws:
                hello = json.loads(await ws.recv())
                assert hello["type"] == "hello" and len(hello["publishers"]) == 1
                await ws.send(json.dumps({"op": "breakpoint", "pub": "10.0.0.1:1667", "uid": 1}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if message["type"] == "command":
                        break
                assert message["ok"] is False and "no live publisher" in message["message"]
        asyncio.run(session())
        assert monitor.process.poll() is None
