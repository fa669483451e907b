# SPDX-License-Identifier: Apache-2.0
"""A self-contained HTML timeline of a trace: one file, no network access,
opens from disk. A lane per thread and per interrupt; run intervals as
bars, every record as a mark (preemptions in red, switches joined by a
line from lane to lane); wheel to zoom, drag to pan, hover for details,
shift-drag to select a window, whose elapsed time and counts are reported
(counted as `limen trace summary` counts a window: records with
start <= time < end)."""
import html as _html
import json

from . import decode as d
from . import timeline

PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>__TITLE__</title>
<style>
body{font:13px system-ui,sans-serif;margin:0;color:#222}
header{padding:6px 10px;background:#f3f3f3;border-bottom:1px solid #ccc}
header button{margin-left:6px}
#report{padding:6px 10px;min-height:1.4em;background:#fffbe6;border-bottom:1px solid #eee}
#wrap{position:relative}
svg{display:block;user-select:none}
.lane-label{font-size:12px;dominant-baseline:middle}
.lane-bg{fill:#fafafa}.lane-bg.odd{fill:#f0f0f0}
.run{fill:#7aa6d8}.irq{fill:#e0a040}
.mark{stroke:#333;stroke-width:1}
.mark.switch{stroke:#2a6}.mark.preemption{stroke:#d22;stroke-width:2}
.mark.user{stroke:#a3c}.mark.object{stroke:#555}
.swline{stroke:#2a6;stroke-width:1;stroke-dasharray:2,2}
.swline.preemption{stroke:#d22}
.sel{fill:rgba(255,200,0,.25);stroke:#e0a000}
.axis{font-size:11px;fill:#555}
#tip{position:absolute;pointer-events:none;background:#fff;border:1px solid #999;
padding:3px 6px;font-size:12px;display:none;white-space:pre}
</style></head><body>
<header><b>__TITLE__</b> <span id="info"></span>
<button id="reset">Reset zoom</button><button id="clear">Clear selection</button>
<span style="margin-left:12px;color:#666">wheel: zoom, drag: pan, shift-drag: select a window</span>
</header>
<div id="report">No window selected.</div>
<div id="wrap"><svg id="tl" xmlns="http://www.w3.org/2000/svg"></svg><div id="tip"></div></div>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const svg = document.getElementById("tl"), tip = document.getElementById("tip");
const NS = "http://www.w3.org/2000/svg";
const LABEL = 130, LANE = 26, AXIS = 24, PAD = 10;
let W = Math.max(600, window.innerWidth - 20);
const end = Math.max(D.duration, 1e-3);
let v0 = 0, v1 = end, sel = null;
document.getElementById("info").textContent =
  D.lanes.length + " lanes, " + D.recs.length + " records, " + end.toFixed(3) + " µs";
function x(t) { return LABEL + (t - v0) / (v1 - v0) * (W - LABEL - PAD); }
function tAt(px) { return v0 + (px - LABEL) / (W - LABEL - PAD) * (v1 - v0); }
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  (parent || svg).appendChild(e); return e;
}
function laneY(l) { return AXIS + l * LANE; }
function counts(t0, t1) {
  const c = {records: 0, switches: 0, preemptions: 0, object_operations: 0,
             interrupts: 0, user_events: 0};
  for (const r of D.recs) {
    if (r[0] < t0 || r[0] >= t1) continue;
    c.records++;
    if (r[1] === D.types.switch) { c.switches++; if (D.preempt.includes(r[2])) c.preemptions++; }
    else if (r[1] === D.types.object) c.object_operations++;
    else if (r[1] === D.types.isr_enter) c.interrupts++;
    else if (r[1] === D.types.user) c.user_events++;
  }
  c.elapsed_us = +(t1 - t0).toFixed(3);
  return c;
}
function report() {
  const r = document.getElementById("report");
  if (!sel) { r.textContent = "No window selected."; return; }
  const c = counts(sel[0], sel[1]);
  r.innerHTML = "";
  const parts = [["from", sel[0].toFixed(3) + " µs"], ["to", sel[1].toFixed(3) + " µs"],
    ["elapsed", c.elapsed_us.toFixed(3) + " µs"], ["records", c.records],
    ["context switches", c.switches], ["preemptions", c.preemptions],
    ["object operations", c.object_operations], ["interrupts", c.interrupts],
    ["user events", c.user_events]];
  for (const [k, v] of parts) {
    const s = document.createElement("span");
    s.className = "fig"; s.dataset.name = k; s.textContent = k + ": " + v;
    s.style.marginRight = "14px"; r.appendChild(s);
  }
}
function render() {
  W = Math.max(600, window.innerWidth - 20);
  const H = AXIS + D.lanes.length * LANE + 4;
  svg.setAttribute("width", W); svg.setAttribute("height", H);
  svg.replaceChildren();
  const g = el("g", {id: "lanes"});
  D.lanes.forEach((l, i) => {
    el("rect", {class: "lane-bg" + (i % 2 ? " odd" : ""), x: 0, y: laneY(i), width: W,
                height: LANE}, g);
    const t = el("text", {class: "lane-label lane", x: 6, y: laneY(i) + LANE / 2,
                          "data-kind": l.kind, "data-name": l.name}, g);
    t.textContent = (l.kind === "irq" ? "⚡ " : "") + l.name;
  });
  const step = niceStep((v1 - v0) / 8);
  for (let t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
    const a = el("text", {class: "axis", x: x(t), y: 14}); a.textContent = fmt(t);
    el("line", {x1: x(t), x2: x(t), y1: 18, y2: AXIS, stroke: "#999"});
  }
  const vis = (a, b) => b >= v0 && a <= v1;
  const gr = el("g", {id: "runs"});
  for (const r of D.runs) if (vis(r.t0, r.t1)) {
    const e = el("rect", {class: "run", x: x(Math.max(r.t0, v0)), y: laneY(r.lane) + 5,
      width: Math.max(1, x(Math.min(r.t1, v1)) - x(Math.max(r.t0, v0))), height: LANE - 10,
      "data-lane": r.lane}, gr);
    e.dataset.tip = D.lanes[r.lane].name + " runs " + r.t0.toFixed(3) + " – " +
      r.t1.toFixed(3) + " µs (" + (r.t1 - r.t0).toFixed(3) + " µs)\nin: " + (r.in || "-") +
      ", out: " + (r.out || "-");
  }
  for (const r of D.irqs) if (vis(r.t0, r.t1)) {
    const e = el("rect", {class: "irq", x: x(Math.max(r.t0, v0)), y: laneY(r.lane) + 5,
      width: Math.max(1, x(Math.min(r.t1, v1)) - x(Math.max(r.t0, v0))), height: LANE - 10},
      gr);
    e.dataset.tip = D.lanes[r.lane].name + " handler " + (r.t1 - r.t0).toFixed(3) + " µs";
  }
  const gm = el("g", {id: "marks"});
  for (const m of D.marks) if (m.t >= v0 && m.t <= v1) {
    const cls = "mark " + m.type + (m.preemption ? " preemption" : "");
    const e = el("line", {class: cls, x1: x(m.t), x2: x(m.t), y1: laneY(m.lane) + 3,
      y2: laneY(m.lane) + LANE - 3, "data-index": m.index, "data-type": m.type}, gm);
    e.dataset.tip = m.t.toFixed(3) + " µs  #" + m.index + "\n" + m.text;
    if (m.type === "switch" && m.to !== undefined) {
      el("line", {class: "swline" + (m.preemption ? " preemption" : ""), x1: x(m.t),
        x2: x(m.t), y1: laneY(m.lane) + LANE / 2, y2: laneY(m.to) + LANE / 2}, gm);
    }
  }
  if (sel) {
    el("rect", {id: "selection", class: "sel", x: x(Math.max(sel[0], v0)), y: AXIS,
      width: Math.max(1, x(Math.min(sel[1], v1)) - x(Math.max(sel[0], v0))),
      height: D.lanes.length * LANE});
  }
}
function niceStep(s) {
  const p = Math.pow(10, Math.floor(Math.log10(s || 1)));
  for (const m of [1, 2, 5, 10]) if (m * p >= s) return m * p;
  return 10 * p;
}
function fmt(t) { return t >= 1000 ? (t / 1000).toFixed(3) + " ms" : t.toFixed(3) + " µs"; }
let drag = null;
svg.addEventListener("mousedown", e => {
  const r = svg.getBoundingClientRect();
  drag = {x: e.clientX - r.left, v0, v1, select: e.shiftKey};
});
window.addEventListener("mousemove", e => {
  const r = svg.getBoundingClientRect(), px = e.clientX - r.left;
  if (drag) {
    if (drag.select) {
      const a = tAt(drag.x), b = tAt(px);
      sel = [Math.max(0, Math.min(a, b)), Math.min(end, Math.max(a, b))];
      report();
    } else {
      const dt = (px - drag.x) / (W - LABEL - PAD) * (drag.v1 - drag.v0);
      v0 = drag.v0 - dt; v1 = drag.v1 - dt;
    }
    render(); return;
  }
  const t = e.target;
  if (t && t.dataset && t.dataset.tip) {
    tip.style.display = "block"; tip.textContent = t.dataset.tip;
    tip.style.left = (px + 12) + "px"; tip.style.top = (e.clientY - r.top + 12) + "px";
  } else tip.style.display = "none";
});
window.addEventListener("mouseup", () => { drag = null; });
svg.addEventListener("wheel", e => {
  e.preventDefault();
  const r = svg.getBoundingClientRect(), t = tAt(e.clientX - r.left);
  const k = e.deltaY < 0 ? 0.8 : 1.25;
  v0 = t - (t - v0) * k; v1 = t + (v1 - t) * k; render();
}, {passive: false});
document.getElementById("reset").onclick = () => { v0 = 0; v1 = end; render(); };
document.getElementById("clear").onclick = () => { sel = null; report(); render(); };
window.addEventListener("resize", render);
window.limenTimeline = {
  select(a, b) { sel = [a, b]; report(); render(); return counts(a, b); },
  view(a, b) { v0 = a; v1 = b; render(); },
  selection() { return sel ? Object.assign({from: sel[0], to: sel[1]},
                                           counts(sel[0], sel[1])) : null; },
  counts, x, tAt
};
render();
</script></body></html>
"""


def render(tr, title="Limen trace"):
    tl = timeline.build(tr)
    t0 = tr.records[0].t if tr.records else 0
    # Switch marks also say which lane they lead to, for the connector.
    lane_of = {ln["name"]: ln["id"] for ln in tl["lanes"]}
    by_index = {r.index: r for r in tr.records}
    for m in tl["marks"]:
        r = by_index[m["index"]]
        if r.type == d.SWITCH:
            m["to"] = lane_of.get(tr.thread_name(r.b))
    data = dict(tl)
    data["recs"] = [[round(tr.us(r.t - t0), 3), r.type, r.arg] for r in tr.records]
    data["types"] = {name: code for code, name in d.TYPE_NAMES.items()}
    data["preempt"] = list(d.R_PREEMPTS)
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return PAGE.replace("__TITLE__", _html.escape(title)).replace("__DATA__", text)
