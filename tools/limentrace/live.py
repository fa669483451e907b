# SPDX-License-Identifier: Apache-2.0
"""`limen trace read` and `limen trace live`: a running target's trace
over the GDB remote protocol (remote.py). The live view halts the target
briefly at each refresh, reads the trace buffer, lets the target run on,
and shows, like `top`, every thread with its state, priority, CPU load
and switch counts over the records the buffer holds, and the system's
counters."""
import json
import sys
import time

from . import analysis, decode as d, remote
from .progress import Steps

STATE_AFTER = {"block": "blocked", "sleep": "sleeping", "suspend": "suspended",
               "end": "ended", "relinquish": "ready", "slice": "ready",
               "preemption": "ready", "idle": "ready", "preemption_own": "ready",
               "suspend_isr": "suspended", "end_isr": "ended"}


def threads(tr):
    """{name: {"state", "priority"}} from the last records about each thread."""
    out = {}
    current = None
    for r in tr.records:
        if r.type == d.SWITCH:
            out.setdefault(tr.thread_name(r.a), {})["priority"] = r.h
            out[tr.thread_name(r.a)]["state"] = STATE_AFTER.get(d.REASONS.get(r.arg), "ready")
            out.setdefault(tr.thread_name(r.b), {})["state"] = "running"
            current = r.b
        elif r.type in (d.THREAD_CREATE, d.PRIO):
            out.setdefault(tr.thread_name(r.a), {})["priority"] = r.h
        elif r.type in (d.READY, d.THREAD_START) and r.a != current:
            out.setdefault(tr.thread_name(r.a), {})["state"] = "ready"
        elif r.type == d.BLOCK:
            out.setdefault(tr.thread_name(r.a), {})["state"] = "blocked"
    if current is not None:
        # The running thread until the next switch, even if it has begun
        # to block (halted between its block record and the switch).
        out[tr.thread_name(current)]["state"] = "running"
    return out


def view(tr):
    """What one refresh shows, as a dict (the --json output)."""
    st = analysis.analyse(tr)
    th = threads(tr)
    rows = []
    for name in sorted(set(th) | set(st.threads)):
        s = st.threads.get(name)
        rows.append({"thread": name, "state": th.get(name, {}).get("state", "?"),
                     "priority": th.get(name, {}).get("priority"),
                     "load": round(s.load, 4) if s else 0.0,
                     "runs": s.runs if s else 0, "preempted": s.preempted if s else 0})
    return {"records": len(tr.records), "written": tr.written, "elapsed_us": st.elapsed_us,
            "counters": st.counters, "threads": rows}


def render(v, out):
    lines = [f"Limen target: {v['records']} records in the buffer ({v['written']} written), "
             f"{v['elapsed_us']:.1f} µs",
             "  ".join(f"{k.replace('_', ' ')} {n}" for k, n in v["counters"].items() if n),
             f"{'thread':<12} {'state':<10} {'prio':>5} {'load':>7} {'runs':>6} {'preempted':>10}"]
    for t in v["threads"]:
        prio = "" if t["priority"] is None else t["priority"]
        lines.append(f"{t['thread']:<12} {t['state']:<10} {prio:>5} {100 * t['load']:>6.1f}% "
                     f"{t['runs']:>6} {t['preempted']:>10}")
    out.write("\n".join(lines) + "\n")


def parse_gdb(text):
    host, _, port = text.rpartition(":")
    return host or "localhost", int(port)


def cmd_read(args):
    host, port = parse_gdb(args.gdb)
    with Steps("read", 2) as p:
        p.step(f"connecting to {args.gdb}")
        with remote.Remote(host, port) as r:
            r.halt()
            p.step("reading the buffer")
            data = remote.read_trace(r, args.elf)
            r.detach()
    with open(args.output, "wb") as f:
        f.write(data)
    print(args.output)
    return 0


def cmd_live(args):
    host, port = parse_gdb(args.gdb)
    n = 0
    while args.count == 0 or n < args.count:
        tr = remote.snapshot(host, port, args.elf)
        v = view(tr)
        if args.json:
            print(json.dumps(v), flush=True)
        else:
            if sys.stdout.isatty():
                sys.stdout.write("\x1b[H\x1b[2J")  # refreshed in place, like top
            render(v, sys.stdout)
            sys.stdout.flush()
        n += 1
        if args.count == 0 or n < args.count:
            time.sleep(args.interval)
    return 0


def add_parsers(sub):
    rd = sub.add_parser("read", help="read a running target's trace over GDB's remote protocol")
    rd.add_argument("elf", help="the target's image (for the symbol lmk_trace)")
    rd.add_argument("--gdb", default="localhost:3333", help="GDB server HOST:PORT")
    rd.add_argument("-o", "--output", default="target.lmtrace")
    rd.set_defaults(trace_fn=cmd_read)
    lv = sub.add_parser("live", help="live view of a running target (threads, load, counters)")
    lv.add_argument("elf")
    lv.add_argument("--gdb", default="localhost:3333", help="GDB server HOST:PORT")
    lv.add_argument("--interval", type=float, default=1.0, help="seconds between refreshes")
    lv.add_argument("--count", type=int, default=0, help="refreshes (0: until interrupted)")
    lv.add_argument("--json", action="store_true", help="one JSON object per refresh")
    lv.set_defaults(trace_fn=cmd_live)
