// The monitor page. The server pushes JSON messages over one WebSocket; this file turns
// them into DOM: one <section data-pub> per publisher (or .btlog), one <li data-uid> per
// node. Every text from the tree goes in with textContent (never innerHTML): node names
// and blackboard values come from the tree and are not trusted as markup.
"use strict";

const STATUS_NAMES = ["idle", "running", "success", "failure", "skipped"];
const pubs = new Map();   // pub index -> {section, live, nodes: Map(uid -> li), statuses: Map}
const main = document.getElementById("publishers");
const socketLabel = document.getElementById("socket");
let socket = null;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function log(text) {
  const line = el("div", "", new Date().toLocaleTimeString() + "  " + text);
  const footer = document.getElementById("log");
  footer.prepend(line);
  while (footer.childElementCount > 20) footer.lastElementChild.remove();
}

// ---- one section per publisher ---------------------------------------------------------------
function addPublisher(info) {
  const section = el("section", "publisher");
  section.dataset.pub = info.pub;
  section.append(el("h2", "", (info.live ? "live " : "replay ") + info.label));
  const conn = el("div", "conn", info.live ? "connecting…" : "");
  const paused = el("div", "paused-at");
  const timeline = el("div", "timeline");
  const tree = el("ul", "tree");
  const board = el("div", "blackboard");
  section.append(conn, paused, timeline, tree, board);
  main.append(section);
  pubs.set(info.pub, {section, isLive: info.live, conn, paused, timeline, tree, board,
                      nodes: new Map(), statuses: new Map(), live: new Map(), rec: null, scrubbing: false});
}

// ---- the tree --------------------------------------------------------------------------------
function renderTree(pub, tree) {
  const p = pubs.get(pub);
  p.nodes = new Map();
  p.statuses = new Map();
  p.live = new Map();
  p.rec = null;
  p.scrubbing = false;
  p.timeline.replaceChildren();
  p.tree.replaceChildren(renderNode(p, pub, tree.root));
  p.section.dataset.nodeCount = tree.node_count;
}

function renderNode(p, pub, item) {
  const li = el("li", "node st-idle");
  li.dataset.uid = item.uid;
  li.dataset.status = "0";
  if (item.subtree !== null) li.classList.add("subtree");
  const row = el("div", "row");
  const toggle = el("button", "toggle", item.children.length ? "▾" : "");
  toggle.tabIndex = item.children.length ? 0 : -1;
  toggle.addEventListener("click", () => {
    li.classList.toggle("collapsed");
    toggle.textContent = li.classList.contains("collapsed") ? "▸" : "▾";
  });
  row.append(toggle, el("span", "name", item.name), el("span", "nid", item.id));
  // each port as "name=value", marked with its direction when the node model names it:
  // ← in (the node reads it), → out (it writes it), ↔ inout (both)
  const dirs = item.port_dirs || {};
  const marks = {in: "←", out: "→", inout: "↔"};
  const entries = Object.entries(item.ports);
  if (entries.length) {
    const span = el("span", "ports");
    for (const [k, v] of entries) {
      const port = el("span", "port", (marks[dirs[k]] ? marks[dirs[k]] + " " : "") + k + "=" + v);
      port.dataset.port = k;
      port.dataset.dir = dirs[k] || "";
      span.append(port);
    }
    span.title = entries.map(([k, v]) => (dirs[k] ? dirs[k] + " " : "") + k + "=" + v).join("\n");
    row.append(span);
  }
  if (p.isLive) row.append(actions(pub, item.uid));
  li.append(row);
  p.nodes.set(item.uid, li);
  if (item.children.length) {
    const ul = el("ul", "children");
    for (const child of item.children) ul.append(renderNode(p, pub, child));
    li.append(ul);
  }
  return li;
}

function actions(pub, uid) {
  const box = el("span", "actions");
  const buttons = [["bp", "●", "breakpoint: pause before this node ticks", {op: "breakpoint"}],
                   ["resume", "▶", "resume: let the paused node tick", {op: "resume"}],
                   ["step", "⇥", "step: let the paused node tick, pause at the next node that ticks", {op: "step"}],
                   ["ok", "✓", "fault injection: return SUCCESS instead of ticking", {op: "inject", status: "SUCCESS"}],
                   ["fail", "✗", "fault injection: return FAILURE instead of ticking", {op: "inject", status: "FAILURE"}],
                   ["clear", "⌫", "remove this node's hook", {op: "clear"}]];
  for (const [cls, label, title, command] of buttons) {
    const button = el("button", cls, label);
    button.title = title;
    button.addEventListener("click", () => send(Object.assign({pub, uid}, command)));
    box.append(button);
  }
  return box;
}

function setStatus(p, uid, status) {
  if (p.statuses.get(uid) === status) return;
  p.statuses.set(uid, status);
  const li = p.nodes.get(uid);
  if (!li) return;
  li.dataset.status = String(status);
  // RUNNING/SUCCESS/FAILURE/SKIPPED: it ticked, so it was released (here or elsewhere). A
  // reset to IDLE is not a tick: the poll after the notice may still bring the resets its
  // parent made in the same tick, just before the pause (a Sequence starting over)
  if (li.classList.contains("paused") && status > 0 && status < 10) clearPause(p, uid);
  for (const name of STATUS_NAMES) li.classList.remove("st-" + name, "was-" + name);
  // 10 + s: IDLE after status s (the publisher keeps it so the page can show "just finished")
  if (status >= 10) li.classList.add("st-idle", "was-" + (STATUS_NAMES[status - 10] || "idle"));
  else li.classList.add("st-" + (STATUS_NAMES[status] || "idle"));
}

function clearPause(p, uid) {
  const li = p.nodes.get(uid);
  if (li) li.classList.remove("paused");
  if (p.paused.dataset.uid === String(uid)) { p.paused.textContent = ""; p.paused.dataset.uid = ""; }
}

// ---- blackboards -----------------------------------------------------------------------------
function renderBoards(p, boards) {
  if (!boards || !Object.keys(boards).length) { p.board.replaceChildren(); return; }
  const parts = [el("h3", "", "Blackboards")];
  for (const [name, entries] of Object.entries(boards || {})) {
    const table = el("table");
    table.dataset.board = name;
    const caption = el("caption", "", name);
    table.append(caption);
    for (const [key, value] of Object.entries(entries || {})) {
      const tr = el("tr");
      tr.dataset.key = key;
      tr.append(el("td", "key", key), valueCell(JSON.stringify(value)));
      table.append(tr);
    }
    parts.push(table);
  }
  p.board.replaceChildren(...parts);
}

// A long value (a robot_description is 30 kB of URDF) is cut to its start; a click shows
// all of it. The whole JSON stays in data-json, for whoever reads the page's DOM.
const SHORT_VALUE = 240;

function valueCell(text) {
  const td = el("td", "value", text);
  td.dataset.json = text;
  if (text.length > SHORT_VALUE) {
    const cut = text.slice(0, SHORT_VALUE) + ` … (${text.length} characters: click to show all)`;
    td.textContent = cut;
    td.classList.add("long");
    td.addEventListener("click", () => {
      td.classList.toggle("open");
      td.textContent = td.classList.contains("open") ? text : cut;
    });
  }
  return td;
}

function renderHooks(p, hooks) {
  p.hookModes = new Map(hooks.filter(h => h.enabled).map(h => [h.uid, h.mode]));
  for (const li of p.nodes.values()) li.classList.remove("hook-breakpoint", "hook-inject");
  for (const hook of hooks) {
    const li = p.nodes.get(hook.uid);
    if (li && hook.enabled) li.classList.add(hook.mode === 0 ? "hook-breakpoint" : "hook-inject");
  }
}

// ---- timelines: a .btlog, or what a live publisher recorded ---------------------------------
const MAX_RECORDED = 20000;

// The statuses after the first `upto` transitions, from `base` (a Map uid -> status byte).
// A node back to IDLE is drawn as "IDLE after its last status" (10 + s), as STATUS does.
function replayed(base, transitions, upto) {
  const statuses = new Map(base);
  for (let i = 0; i < upto; i++) {
    const [, uid, status] = transitions[i];
    const before = statuses.get(uid) || 0;
    statuses.set(uid, status === 0 && before > 0 && before < 10 ? 10 + before : status);
  }
  return statuses;
}

function showAll(p, statuses) {
  for (const [uid, status] of statuses) setStatus(p, uid, status);
}

// A slider over p.rec.transitions; at its right end a live publisher shows live statuses.
function buildTimeline(p, live) {
  const slider = el("input");
  slider.type = "range";
  slider.min = 0;
  slider.className = "scrub";
  const label = el("span", "when");
  const parts = [slider, label];
  if (live) {
    const back = el("button", "to-live", "live");
    back.title = "follow the tree again";
    back.addEventListener("click", () => { slider.value = slider.max; show(); });
    parts.push(back);
  }
  const show = () => {
    const upTo = Number(slider.value);
    const total = p.rec.transitions.length;
    p.scrubbing = live && upTo < total;
    p.section.dataset.position = String(upTo);
    p.section.dataset.scrubbing = p.scrubbing ? "yes" : "no";
    if (live && !p.scrubbing) showAll(p, p.live);
    else showAll(p, replayed(p.rec.base, p.rec.transitions, upTo));
    const usec = upTo ? p.rec.transitions[upTo - 1][0] : 0;
    label.textContent = `${upTo} / ${total} transitions, t = ${(usec / 1e6).toFixed(3)} s` +
      (live ? (p.scrubbing ? " (replaying)" : " (live)") : "");
  };
  slider.addEventListener("input", show);
  p.timeline.replaceChildren(...parts);
  p.slider = slider;
  p.showTimeline = show;
}

function setTimelineLength(p) {
  const atEnd = !p.scrubbing;
  p.slider.max = p.rec.transitions.length;
  if (atEnd) p.slider.value = p.slider.max;
  p.section.dataset.recorded = String(p.rec.transitions.length);
  p.showTimeline();
}

function renderReplay(message) {
  const p = pubs.get(message.pub);
  renderTree(message.pub, message.tree);
  p.rec = {base: new Map([...p.nodes.keys()].map(uid => [uid, 0])), transitions: message.transitions};
  buildTimeline(p, false);
  p.slider.max = message.transitions.length;
  p.slider.value = 0;
  p.showTimeline();
}

// ---- the socket ------------------------------------------------------------------------------
function send(command) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
}

const handlers = {
  hello(m) { main.replaceChildren(); pubs.clear(); for (const info of m.publishers) addPublisher(info); },
  tree(m) { renderTree(m.pub, m.tree); },
  status(m) {
    const p = pubs.get(m.pub);
    // a paused tree changes nothing: a second STATUS change after the notice means it went on
    if (p.paused.dataset.uid && ++p.changesSincePause >= 2) clearPause(p, Number(p.paused.dataset.uid));
    for (const [uid, s] of m.statuses) p.live.set(uid, s);
    if (!p.scrubbing) for (const [uid, s] of m.statuses) setStatus(p, uid, s);
  },
  recording(m) {
    const p = pubs.get(m.pub);
    p.rec = {base: new Map(m.base), transitions: m.transitions.slice(-MAX_RECORDED)};
    p.scrubbing = false;
    buildTimeline(p, true);
    setTimelineLength(p);
  },
  transitions(m) {
    const p = pubs.get(m.pub);
    if (!p.rec) return;
    p.rec.transitions.push(...m.transitions);
    if (p.rec.transitions.length > MAX_RECORDED) {   // keep the newest: fold the oldest into the base
      const drop = p.rec.transitions.length - MAX_RECORDED;
      p.rec.base = replayed(p.rec.base, p.rec.transitions, drop);
      p.rec.transitions = p.rec.transitions.slice(drop);
    }
    setTimelineLength(p);
  },
  blackboard(m) { renderBoards(pubs.get(m.pub), m.boards); },
  hooks(m) {
    const p = pubs.get(m.pub);
    renderHooks(p, m.hooks);
    if (!m.hooks.some(h => h.mode === 0)) { p.paused.textContent = ""; p.paused.dataset.uid = ""; }
  },
  breakpoint(m) {
    const p = pubs.get(m.pub);
    // publishers announce every hook they reach; only a breakpoint (mode 0) waits
    if (p.hookModes && p.hookModes.get(m.uid) !== 0) { log(`node ${m.uid} returned its injected status`); return; }
    for (const li of p.nodes.values()) li.classList.remove("paused");
    const li = p.nodes.get(m.uid);
    if (li) li.classList.add("paused");
    p.paused.dataset.uid = String(m.uid);
    p.changesSincePause = 0;
    p.paused.textContent = `paused before node ${m.uid}` + (li ? ` (${li.querySelector(".name").textContent})` : "");
  },
  connection(m) {
    const p = pubs.get(m.pub);
    p.conn.textContent = m.message;
    p.conn.className = "conn " + (m.ok ? "ok" : "error");
    p.section.dataset.connected = m.ok ? "yes" : "no";
  },
  command(m) {
    if ((m.op === "resume" || m.op === "step" || m.op === "clear") && m.ok && m.pub !== undefined) clearPause(pubs.get(m.pub), m.uid);
    log((m.ok ? "" : "refused: ") + m.message);
  },
  btlog(m) { renderReplay(m); },
};

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws`);
  socket.addEventListener("open", () => { socketLabel.textContent = "connected"; socketLabel.className = "socket ok"; });
  socket.addEventListener("close", () => {
    socketLabel.textContent = "monitor server gone; retrying…";
    socketLabel.className = "socket error";
    setTimeout(connect, 1000);
  });
  socket.addEventListener("message", event => {
    const message = JSON.parse(event.data);
    const handler = handlers[message.type];
    if (handler) handler(message);
  });
}
connect();
