# SPDX-License-Identifier: Apache-2.0
"""The statistics (docs/trace.md, "Counters") checked against the kernel's
own counters and against docs/rules.md applied to the records directly."""
import json
import os
import subprocess
import sys

import pytest

from conftest import CASES, TOOLS
from limentrace import analysis, decode as d

# docs/rules.md and the seeds: per cycle, (switches, preemptions)
PER_CYCLE = {"equal": (4, 0), "unique": (18, 9), "threshold": (4, 0)}


def load(directory, case):
    return d.load(os.path.join(directory, f"pc-{case}.lmtrace"))


def measured(tr, js):
    """The window pc.c measures: from the mark of cycle WARMUP-1 to that of
    cycle WARMUP+CYCLES-1."""
    m = analysis.marks(tr, "cycle")
    return m[js["warmup"] - 1], m[js["warmup"] + js["cycles"] - 1]


@pytest.mark.parametrize("case", CASES)
def test_counters_equal_the_kernels(run, case):
    _, directory, js = run
    tr = load(directory, case)
    kernel = next(c for c in js["cases"] if c["name"] == case)
    st = analysis.analyse(tr, *measured(tr, js))
    assert st.counters["context_switches"] == kernel["context_switches"]
    assert st.counters["preemptions"] == kernel["preemptions"]
    assert st.operations.get("queue_receive OK") == kernel["messages"]
    assert st.operations.get("queue_send OK") == kernel["messages"]
    # The kernel's other counters (lm_kernel_stats, docs/trace.md "Kernel
    # statistics") count the same events as the trace's definitions.
    for counter in ("relinquishes", "resumptions", "suspensions", "interrupts",
                    "wait_timeouts", "slice_expiries"):
        assert st.counters[counter] == kernel[counter], counter
    assert kernel["relinquishes"] == js["cycles"]  # D's one relinquish a cycle
    assert kernel["resumptions"] > 0 and kernel["suspensions"] > 0


def preemptions_by_r7_2(tr, first, end):
    """R7.2 applied to the records: a switch away from a thread (not idle)
    that, since it last started running, did not block, sleep, end or get
    suspended, and whose last relinquish or time-slice expiry (if any) was
    not followed by more of its own work (an object operation or a user
    event outside a handler: the relinquish found no one to give the CPU
    to, R2.3, and it went on)."""
    stopped, gave_up = set(), set()
    current = None
    depth = 0
    count = 0
    for r in tr.records[:end]:
        if r.type == d.ISR_ENTER:
            depth += 1
        elif r.type == d.ISR_EXIT:
            depth -= 1
        elif r.type in (d.BLOCK, d.THREAD_END) or \
                (r.type == d.THREAD_SUSPEND and r.status == 0):
            stopped.add(r.a)
        elif r.type in (d.YIELD, d.SLICE):
            gave_up.add(r.a)
        elif r.type == d.OBJ and depth == 0:
            gave_up.discard(r.b)
        elif r.type == d.USER and depth == 0 and current is not None:
            gave_up.discard(current)
        if r.type == d.SWITCH:
            if r.index >= first and r.a != tr.idle and r.a not in stopped | gave_up:
                count += 1
            for x in (r.a, r.b):
                stopped.discard(x)
                gave_up.discard(x)
            current = r.b
    return count


@pytest.mark.parametrize("case", CASES)
def test_preemptions_follow_r7_2(run, case):
    _, directory, js = run
    tr = load(directory, case)
    first, end = measured(tr, js)
    st = analysis.analyse(tr, first, end)
    assert preemptions_by_r7_2(tr, first, end) == st.counters["preemptions"]
    switches = sum(1 for r in tr.records[first:end] if r.type == d.SWITCH)
    assert switches == st.counters["context_switches"] == sum(st.reasons.values())


@pytest.mark.parametrize("case", CASES)
def test_per_cycle(run, case):
    _, directory, js = run
    tr = load(directory, case)
    cyc = analysis.cycles(tr, "cycle")
    assert len(cyc) == js["warmup"] + js["cycles"] - 1
    for c in cyc:
        assert (c.counters["context_switches"], c.counters["preemptions"]) == PER_CYCLE[case]
        assert c.counters["relinquishes"] == 1          # D's, once a cycle
        assert c.counters["object_operations"] == 18     # 9 sends, 9 receives
        assert c.operations == {"queue_send OK": 9, "queue_receive OK": 9}
        assert c.elapsed > 0
        # Every switch names its reason; in these cases a consumer stops
        # only by blocking and D only by relinquishing or being preempted.
        assert set(c.reasons) <= {"block", "relinquish", "preemption"}
        assert sum(t.cpu for t in c.threads.values()) <= c.elapsed
        assert c.threads["D"].relinquishes == 1


def test_cpu_time_adds_up(qemu_run):
    """Thread CPU times cover the window: nothing else runs in this run
    (no interrupt is recorded, the idle thread never runs between marks)."""
    tr = load(qemu_run[0], "unique")
    c = analysis.cycles(tr, "cycle")[-1]
    assert sum(t.cpu for t in c.threads.values()) == c.elapsed
    assert abs(sum(t.load for t in c.threads.values()) - 1.0) < 1e-9


def test_summary_json_cli(host_run):
    path = os.path.join(host_run[0], "pc-unique.lmtrace")
    p = subprocess.run([sys.executable, "-m", "limentrace.cli", "summary", path, "--cycles",
                        "cycle", "--json"], cwd=TOOLS, capture_output=True, text=True,
                       check=True)
    js = json.loads(p.stdout)
    assert js["timestamp_hz"] == 1_000_000
    assert all(c["counters"]["context_switches"] == 18 for c in js["cycles"])
    assert js["window"]["counters"]["context_switches"] == sum(
        1 for r in d.load(path).records if r.type == d.SWITCH)
    p = subprocess.run([sys.executable, "-m", "limentrace.cli", "summary", path,
                        "--window", "10:60"], cwd=TOOLS, capture_output=True, text=True,
                       check=True)
    assert "window records 10..60" in p.stdout and "context switches" in p.stdout


def test_cost_figures_in_docs(qemu_run):
    """docs/trace.md states what a record costs; the run measures it."""
    import re
    from conftest import ROOT
    with open(os.path.join(ROOT, "docs", "trace.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"One record costs\s+(\d+) instructions.*?stopped costs (\d+) instructions",
                  text, re.S)
    js = qemu_run[1]
    assert m and (int(m.group(1)), int(m.group(2))) == \
        (js["record_instructions"], js["stopped_instructions"])


def test_priority_inversions(inversions_trace):
    """H (1) waits on a mutex L (5) owns while M (3) becomes ready: with
    inheritance L is raised and M waits (one bounded inversion); without,
    M runs while H waits (one unbounded inversion, R5.2)."""
    tr = d.load(inversions_trace)
    m = analysis.marks(tr, "phase")
    assert len(m) == 2
    inheriting = analysis.analyse(tr, m[0], m[1]).counters
    plain = analysis.analyse(tr, m[1]).counters
    assert (inheriting["inversions_bounded"], inheriting["inversions_unbounded"]) == (1, 0)
    assert inheriting["inheritance_raises"] == 1
    assert (plain["inversions_bounded"], plain["inversions_unbounded"]) == (0, 1)
    assert plain["inheritance_raises"] == 0
    # The kernel's counts of each phase (LM_CFG_STATS_INVERSIONS), recorded
    # at its end as the user event "kernel" (bounded, unbounded).
    kernel = kernel_counts(tr)
    assert len(kernel) == 2
    assert (kernel[0].a, kernel[0].b) == (inheriting["inversions_bounded"],
                                          inheriting["inversions_unbounded"])
    assert (kernel[1].a, kernel[1].b) == (plain["inversions_bounded"],
                                          plain["inversions_unbounded"])
    # The hosted timestamps go on across the kernel's restart between the phases.
    assert all(b.t > a.t for a, b in zip(tr.records, tr.records[1:]))


def kernel_counts(tr, event="kernel"):
    return [r for r in tr.records if r.type == d.USER and tr.event_name(r.h) == event]


@pytest.mark.parametrize("counter, kernel_field, per_thread_event", [
    ("inversions_unbounded", "b", "thread"),
    ("inversions_bounded", "a", "thread-bounded"),
])
def test_inversions_equal_the_kernels(inversions_mixed_trace, counter, kernel_field,
                                      per_thread_event):
    """A busy run (tests/test_trace.c, trace_inversions_mixed: waits with
    and without inheritance, timeouts, priority changes, owners and
    waiters ended and started again): the unbounded inversions the
    analysis counts in the records (LM_CFG_STATS_INVERSIONS), and the
    bounded ones (the block records the kernel marks, R5.2), equal the
    kernel's counts, in all and per thread."""
    tr = d.load(inversions_mixed_trace)
    st = analysis.analyse(tr)
    (kernel,) = kernel_counts(tr)
    total = getattr(kernel, kernel_field)
    assert st.counters[counter] == total
    assert total > (10 if counter == "inversions_unbounded" else 0)
    per_thread = kernel_counts(tr, per_thread_event)
    assert len(per_thread) == 6
    for r in per_thread:
        assert getattr(st.threads[tr.thread_name(r.a)], counter) == r.b, tr.thread_name(r.a)
    assert sum(getattr(t, counter) for t in st.threads.values()) == total


def test_unbounded_inversions_once_per_switch(inversions_mixed_trace):
    """An unbounded inversion is a switch, not a (switch, wait) pair: no
    switch counts twice, whatever the number of waits it is inside."""
    tr = d.load(inversions_mixed_trace)
    switches = [r for r in tr.records if r.type == d.SWITCH]
    total = analysis.analyse(tr).counters["inversions_unbounded"]
    counted = 0
    for i, r in enumerate(switches):
        before = switches[i - 1].index + 1 if i else 0
        n = analysis.analyse(tr, before, r.index + 1).counters["inversions_unbounded"]
        assert n in (0, 1)
        counted += n
    assert counted == total


def test_hosted_tick_handlers_are_short(inversions_trace):
    """The hosted port stamps a tick handler's entry at the tick it
    announces: entry and exit lie within one tick (1000 µs), not a tick
    apart."""
    from limentrace import timeline
    tr = d.load(inversions_trace)
    tl = timeline.build(tr)
    ticks = [i for i in tl["irqs"] if i["irq"] == d.IRQ_TICK]
    assert len(ticks) >= 6
    assert all(i["t1"] - i["t0"] < 100 for i in ticks), ticks[:3]
