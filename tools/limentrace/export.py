# SPDX-License-Identifier: Apache-2.0
"""Export to the Chrome trace-event format (the JSON object form), which
Perfetto's UI and chrome://tracing open: thread names as metadata events,
one complete ("X") event per run interval and per interrupt handler, and
an instant ("i") event per other record."""
from . import timeline

PID = 1


def chrome(tr, process="Limen"):
    tl = timeline.build(tr)
    ev = [{"ph": "M", "name": "process_name", "pid": PID, "tid": 0,
           "args": {"name": process}}]
    for ln in tl["lanes"]:
        ev.append({"ph": "M", "name": "thread_name", "pid": PID, "tid": ln["id"] + 1,
                   "args": {"name": ln["name"] if ln["kind"] == "thread"
                            else f"interrupt {ln['name']}"}})
        ev.append({"ph": "M", "name": "thread_sort_index", "pid": PID, "tid": ln["id"] + 1,
                   "args": {"sort_index": ln["id"]}})
    for run in tl["runs"]:
        ev.append({"ph": "X", "name": "running", "cat": "thread", "pid": PID,
                   "tid": run["lane"] + 1, "ts": run["t0"],
                   "dur": round(run["t1"] - run["t0"], 3),
                   "args": {"switched_in": run["in"], "stopped": run["out"]}})
    for irq in tl["irqs"]:
        ev.append({"ph": "X", "name": "handler", "cat": "interrupt", "pid": PID,
                   "tid": irq["lane"] + 1, "ts": irq["t0"],
                   "dur": round(irq["t1"] - irq["t0"], 3)})
    for m in tl["marks"]:
        if m["type"] in ("isr_enter", "isr_exit"):
            continue
        ev.append({"ph": "i", "s": "t", "name": m["type"], "cat": "limen", "pid": PID,
                   "tid": m["lane"] + 1, "ts": m["t"],
                   "args": {"record": m["index"], "text": m["text"]}})
    return {"traceEvents": ev, "displayTimeUnit": "ns",
            "otherData": {"timestamp_hz": tr.timestamp_hz, "source": "Limen trace"}}
