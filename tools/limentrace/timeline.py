# SPDX-License-Identifier: Apache-2.0
"""The trace as a timeline: a lane per thread and per interrupt, the
intervals each thread ran and each handler was active, and every record as
a mark on the lane where it happened. Times in microseconds from the first
record. The HTML timeline and the Chrome export draw this."""
from . import decode as d


def build(tr):
    recs = tr.records
    t0 = recs[0].t if recs else 0
    us = lambda t: round(tr.us(t - t0), 3)  # noqa: E731
    lanes, index = [], {}

    def lane(key, name, kind):
        if key not in index:
            index[key] = len(lanes)
            lanes.append({"id": len(lanes), "name": name, "kind": kind})
        return index[key]

    # Threads in the order they appear, interrupts after them.
    for r in recs:
        if r.type == d.SWITCH:
            lane(("t", r.a), tr.thread_name(r.a), "thread")
            lane(("t", r.b), tr.thread_name(r.b), "thread")
        elif r.type in (d.THREAD_CREATE, d.THREAD_START):
            lane(("t", r.a), tr.thread_name(r.a), "thread")
    for r in recs:
        if r.type == d.ISR_ENTER:
            lane(("i", r.h), tr.irq_name(r.h), "irq")
    runs, irqs, marks = [], [], []
    current, since, why_in = None, t0, None
    stack = []  # (irq, lane, start)
    for r in recs:
        if r.type == d.SWITCH:
            if current is None:
                current, since = r.a, t0
            runs.append({"lane": lane(("t", current), tr.thread_name(current), "thread"),
                         "t0": us(since), "t1": us(r.t), "in": why_in,
                         "out": d.REASONS.get(r.arg, str(r.arg))})
            current, since, why_in = r.b, r.t, d.REASONS.get(r.arg, str(r.arg))
        elif r.type == d.ISR_ENTER:
            stack.append((r.h, lane(("i", r.h), tr.irq_name(r.h), "irq"), r.t))
        elif r.type == d.ISR_EXIT and stack:
            irq, ln, start = stack.pop()
            irqs.append({"lane": ln, "t0": us(start), "t1": us(r.t), "irq": irq})
        if stack:
            where = stack[-1][1]
        elif r.type == d.OBJ:
            where = lane(("t", r.b), tr.thread_name(r.b), "thread")
        elif r.type in (d.USER, d.TICK) and current is not None:
            where = lane(("t", current), tr.thread_name(current), "thread")
        elif r.type in (d.USER, d.TICK):
            continue
        else:
            where = lane(("t", r.a), tr.thread_name(r.a), "thread")
        marks.append({"lane": where, "t": us(r.t), "type": d.TYPE_NAMES.get(r.type, str(r.type)),
                      "text": tr.describe(r), "index": r.index,
                      "preemption": r.type == d.SWITCH and r.arg in d.R_PREEMPTS})
    if current is not None and recs:
        runs.append({"lane": index[("t", current)], "t0": us(since), "t1": us(recs[-1].t),
                     "in": why_in, "out": None})
    return {"lanes": lanes, "runs": runs, "irqs": irqs, "marks": marks,
            "duration": us(recs[-1].t) if recs else 0.0,
            "timestamp_hz": tr.timestamp_hz}
