# SPDX-License-Identifier: Apache-2.0
"""TraceX-style statistics from a decoded trace (docs/trace.md, "Counters").

Every counter is a count of records of one kind, so that two people count
a trace the same way; docs/trace.md defines each and cites docs/rules.md.
A window is a range of records [first, end) by index; its elapsed time runs
from the first record's timestamp to that of the record at `end` (or the
last record's, for a window that runs to the end of the trace)."""
from dataclasses import dataclass, field, asdict

from . import decode as d

COUNTERS = ("context_switches", "preemptions", "slice_expiries", "relinquishes",
            "resumptions", "suspensions", "interrupts", "wait_timeouts",
            "inheritance_raises", "inversions_bounded", "inversions_unbounded",
            "object_operations", "object_failures", "user_events", "ticks")
WAIT_MUTEX = 3  # a block record's wait kind for a mutex (lmk_wait_kind)
THREAD_COUNTERS = ("runs", "preempted", "slice_expiries", "relinquishes", "resumptions",
                   "suspensions", "wait_timeouts", "inheritance_raises", "inversions_bounded",
                   "inversions_unbounded")
ABANDONED = -5  # LM_ERR_ABANDONED: a mutex acquired from an owner that ended
DELETED = -2    # LM_ERR_DELETED: the object waited on was deleted


@dataclass
class ThreadStats:
    name: str
    runs: int = 0            # switches to it
    preempted: int = 0       # switches away from it that were preemptions (R7.2)
    slice_expiries: int = 0
    relinquishes: int = 0
    resumptions: int = 0
    suspensions: int = 0
    wait_timeouts: int = 0
    inheritance_raises: int = 0
    inversions_bounded: int = 0    # its waits that were bounded inversions
    inversions_unbounded: int = 0  # runs that were unbounded inversions
    cpu: int = 0             # timestamp counts it ran, interrupts excluded
    load: float = 0.0        # cpu / the window's elapsed time
    stopped_by: dict = field(default_factory=dict)  # R7.1 reason -> switches away


@dataclass
class Stats:
    first: int
    end: int
    elapsed: int = 0         # timestamp counts
    elapsed_us: float = 0.0
    counters: dict = field(default_factory=lambda: {c: 0 for c in COUNTERS})
    reasons: dict = field(default_factory=dict)      # R7.1 reason -> switches
    operations: dict = field(default_factory=dict)   # "queue_send OK" -> count
    threads: dict = field(default_factory=dict)      # name -> ThreadStats
    interrupts: dict = field(default_factory=dict)   # irq name -> {"count", "time"}

    def as_dict(self):
        out = asdict(self)
        out["threads"] = {k: asdict(v) for k, v in self.threads.items()}
        return out


def analyse(tr, first=0, end=None):
    """Statistics of records [first, end) of the trace."""
    recs = tr.records
    end = len(recs) if end is None else min(end, len(recs))
    first = max(0, min(first, end))
    st = Stats(first, end)
    if first < end:
        t_end = recs[end].t if end < len(recs) else recs[end - 1].t
        st.elapsed = t_end - recs[first].t
    else:
        t_end = recs[first].t if first < len(recs) else 0
    st.elapsed_us = tr.us(st.elapsed)
    threads = {}

    def th(addr):
        name = tr.thread_name(addr)
        if name not in threads:
            threads[name] = ThreadStats(name)
        return threads[name]

    # Replay from the start: who runs and which handlers are active at any
    # record, so that the window's CPU time starts right; priorities, mutex
    # owners and waits, for the inversions.
    mx = _Mutexes()
    current = None
    isr_stack = []
    since = recs[first].t if first < len(recs) else 0
    c = st.counters

    def charge(upto):
        nonlocal since
        if current is not None and not isr_stack:
            th(current).cpu += upto - since
        elif isr_stack:
            irq = st.interrupts.setdefault(tr.irq_name(isr_stack[-1]), {"count": 0, "time": 0})
            irq["time"] += upto - since
        since = upto

    for r in recs[:end]:
        inside = r.index >= first
        _inversions(tr, r, inside, mx, c, th)
        if r.type == d.SWITCH and current is None:
            current = r.a
        if inside:
            charge(r.t)
        t = r.type
        if t == d.SWITCH:
            current = r.b
            if inside:
                c["context_switches"] += 1
                reason = d.REASONS.get(r.arg, str(r.arg))
                st.reasons[reason] = st.reasons.get(reason, 0) + 1
                th(r.b).runs += 1
                prev = th(r.a)
                prev.stopped_by[reason] = prev.stopped_by.get(reason, 0) + 1
                if r.arg in d.R_PREEMPTS:
                    c["preemptions"] += 1
                    prev.preempted += 1
        elif t == d.ISR_ENTER:
            isr_stack.append(r.h)
            if inside:
                if r.h == d.IRQ_TICK:
                    pass
                c["interrupts"] += 1
                irq = st.interrupts.setdefault(tr.irq_name(r.h), {"count": 0, "time": 0})
                irq["count"] += 1
        elif t == d.ISR_EXIT:
            if isr_stack:
                isr_stack.pop()
        elif not inside:
            continue
        elif t == d.SLICE:
            c["slice_expiries"] += 1
            th(r.a).slice_expiries += 1
        elif t == d.YIELD:
            c["relinquishes"] += 1
            th(r.a).relinquishes += 1
        elif t in (d.READY, d.THREAD_START) or (t == d.THREAD_RESUME and r.status == 0):
            c["resumptions"] += 1
            th(r.a).resumptions += 1
            if t == d.READY and r.status == -1:
                c["wait_timeouts"] += 1
                th(r.a).wait_timeouts += 1
        elif t == d.BLOCK or (t == d.THREAD_SUSPEND and r.status == 0):
            c["suspensions"] += 1
            th(r.a).suspensions += 1
        elif t == d.PRIO:
            if r.arg:
                c["inheritance_raises"] += 1
                th(r.a).inheritance_raises += 1
        elif t == d.OBJ:
            c["object_operations"] += 1
            if r.status != 0:
                c["object_failures"] += 1
            key = f"{d.OPS.get(r.arg, r.arg)} {d.STATUS.get(r.status, r.status)}"
            st.operations[key] = st.operations.get(key, 0) + 1
        elif t == d.USER:
            c["user_events"] += 1
        elif t == d.TICK:
            c["ticks"] += r.a
    if first < end:
        charge(t_end)
    for ts in threads.values():
        ts.load = ts.cpu / st.elapsed if st.elapsed else 0.0
    st.threads = dict(sorted(threads.items()))
    return st


class _Mutexes:
    """What the records say of mutexes, for the inversions: each thread's
    effective priority (its create, priority and switch records), each
    mutex's owner and lock depth, who waits on which mutex."""

    def __init__(self):
        self.prio = {}      # thread -> effective priority
        self.owner = {}     # mutex -> thread
        self.depth = {}     # mutex -> lock depth
        self.waits = {}     # waiting thread -> mutex
        self.handed = {}    # thread handed a mutex, its lock record to come -> mutex


def _inversions(tr, r, inside, mx, c, th):
    """Priority inversions (docs/trace.md, "Counters"). A bounded one is a
    block record on a mutex whose h is 1: the kernel marks so, when the wait
    begins, the wait of a thread on an inheriting mutex whose owner is less
    urgent, which the inheritance raises (R5.2). A switch to a thread M
    (not idle) is an unbounded inversion if, at that switch, some thread H waits on a mutex whose
    owner is less urgent than M, and M is less urgent than H; counted once
    per switch, however many such waits. The owner is the thread whose
    successful lock record names the mutex (a recursive lock adds a
    level, an unlock takes one away), or the waiter a ready record hands
    it to (OK or ABANDONED) as the kernel does at the unlock or the end of
    the owner; a thread's end drops what it owns and its wait."""
    t = r.type
    prio = mx.prio
    if t in (d.THREAD_CREATE, d.PRIO):
        prio[r.a] = r.h
    elif t == d.SWITCH:
        prio[r.a] = r.h
        pm = prio.get(r.b)
        if pm is not None and r.b != tr.idle and inside:
            for w, m in mx.waits.items():
                o = mx.owner.get(m)
                ph, po = prio.get(w), prio.get(o)
                if None not in (ph, po) and ph < pm < po:
                    c["inversions_unbounded"] += 1
                    th(r.b).inversions_unbounded += 1
                    break
    elif t == d.OBJ and r.arg == 6 and r.status in (0, ABANDONED):  # lock
        if mx.handed.get(r.b) == r.a:
            del mx.handed[r.b]  # the record of a lock the unlock handed over
        elif mx.owner.get(r.a) == r.b:
            mx.depth[r.a] += 1
        else:
            mx.owner[r.a], mx.depth[r.a] = r.b, 1
    elif t == d.OBJ and r.arg == 7 and r.status == 0 and mx.owner.get(r.a) == r.b:
        mx.depth[r.a] -= 1
        if mx.depth[r.a] == 0:
            del mx.owner[r.a], mx.depth[r.a]
    elif t == d.BLOCK and r.arg == WAIT_MUTEX:
        mx.waits[r.a] = r.b
        if r.h == 1 and inside:
            c["inversions_bounded"] += 1
            th(r.a).inversions_bounded += 1
    elif t == d.READY:
        m = mx.waits.pop(r.a, None)
        if m is not None and r.status in (0, ABANDONED):
            mx.owner[m], mx.depth[m] = r.a, 1
            mx.handed[r.a] = m
        elif m is not None and r.status == DELETED:
            mx.owner.pop(m, None)  # the delete took it from its owner first
            mx.depth.pop(m, None)
    elif t in (d.THREAD_END, d.THREAD_DELETE):
        mx.waits.pop(r.a, None)
        mx.handed.pop(r.a, None)
        for m in [m for m, o in mx.owner.items() if o == r.a]:
            del mx.owner[m], mx.depth[m]


def marks(tr, event):
    """Indices of the user events named `event` (a name or a number)."""
    out = []
    for r in tr.records:
        if r.type == d.USER and (tr.event_name(r.h) == event or str(r.h) == str(event)):
            out.append(r.index)
    return out


def cycles(tr, event):
    """Statistics of every cycle between consecutive marks `event`."""
    m = marks(tr, event)
    return [analyse(tr, a, b) for a, b in zip(m, m[1:])]


def window_by_time(tr, t0, t1):
    """The records with t0 <= timestamp < t1 (counts) as a window."""
    first = next((r.index for r in tr.records if r.t >= t0), len(tr.records))
    end = next((r.index for r in tr.records if r.t >= t1), len(tr.records))
    return first, end
