# SPDX-License-Identifier: Apache-2.0
"""`limen trace ...`: summary, export and HTML timeline of a trace file.
Tables through rich when it is installed (the README's virtual
environment), plain text otherwise; --json everywhere."""
import json
import os
import sys

from . import analysis, ctf, decode, export, html, live, trx
from .progress import Steps

SHOWN = (("context_switches", "context switches"), ("preemptions", "preemptions"),
         ("slice_expiries", "time-slice expiries"), ("relinquishes", "relinquishes"),
         ("resumptions", "resumptions"), ("suspensions", "suspensions"),
         ("interrupts", "interrupts"), ("wait_timeouts", "wait timeouts"),
         ("inheritance_raises", "inheritance raises"),
         ("inversions_bounded", "inversions, bounded"),
         ("inversions_unbounded", "inversions, unbounded"),
         ("object_operations", "object operations"), ("user_events", "user events"),
         ("ticks", "ticks"))


def _table(title, header, rows, out):
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
        print(title, file=out)
        for row in [header] + rows:
            print("  " + "  ".join(str(v).rjust(w) if i else str(v).ljust(w)
                                  for i, (v, w) in enumerate(zip(row, widths))), file=out)
        return
    t = Table(title=title, title_justify="left")
    for i, h in enumerate(header):
        t.add_column(h, justify="left" if i == 0 else "right")
    for row in rows:
        t.add_row(*[str(v) for v in row])
    Console(file=out, width=max(100, 14 * len(header))).print(t)


def summary_dict(tr, st, cycles=None):
    out = {"timestamp_hz": tr.timestamp_hz, "records": len(tr.records),
           "dropped": tr.dropped, "window": st.as_dict()}
    if cycles is not None:
        out["cycles"] = [c.as_dict() for c in cycles]
    return out


def print_summary(tr, st, cycles=None, out=sys.stdout, title="Trace"):
    unit = "µs"
    print(f"{title}: {len(tr.records)} records, {tr.dropped} dropped, timestamps at "
          f"{tr.timestamp_hz} Hz; window records {st.first}..{st.end}, "
          f"{st.elapsed_us:.3f} {unit}", file=out)
    rows = [[label, st.counters[key]] for key, label in SHOWN]
    header = ["counter", "window"]
    if cycles:
        header += ["per cycle (min)", "per cycle (max)"]
        for row, (key, _) in zip(rows, SHOWN):
            vals = [c.counters[key] for c in cycles]
            row += [min(vals), max(vals)]
    _table("System", header, rows, out)
    trows = [[n, t.runs, t.preempted, t.slice_expiries, t.relinquishes, t.resumptions,
              t.suspensions, t.wait_timeouts, f"{tr.us(t.cpu):.3f}", f"{100 * t.load:.1f} %"]
             for n, t in st.threads.items()]
    _table("Threads", ["thread", "runs", "preempted", "slices", "relinquishes",
                       "resumptions", "suspensions", "timeouts", f"CPU {unit}", "load"],
           trows, out)
    if st.interrupts:
        _table("Interrupts", ["interrupt", "count", f"time {unit}"],
               [[k, v["count"], f"{tr.us(v['time']):.3f}"] for k, v in st.interrupts.items()],
               out)
    if st.operations:
        _table("Object operations", ["operation result", "count"],
               [[k, v] for k, v in sorted(st.operations.items())], out)


def window_arg(tr, text):
    if not text:
        return 0, len(tr.records)
    a, _, b = text.partition(":")
    return int(a or 0), int(b) if b else len(tr.records)


def cmd_summary(args):
    with Steps("summary", 3 if args.cycles else 2) as p:
        p.step("decoding")
        tr = decode.load(args.file)
        first, end = window_arg(tr, args.window)
        p.step("counting")
        st = analysis.analyse(tr, first, end)
        if args.cycles:
            p.step("counting per cycle")
        cyc = analysis.cycles(tr, args.cycles) if args.cycles else None
    if args.json:
        print(json.dumps(summary_dict(tr, st, cyc), indent=1))
    else:
        print_summary(tr, st, cyc, title=os.path.basename(args.file))
    return 0


def cmd_export(args):
    with Steps("export", 2) as p:
        p.step("decoding")
        tr = decode.load(args.file)
        base = os.path.splitext(args.file)[0]
        p.step(f"writing {args.format}")
        if args.format == "ctf":
            out = ctf.write(tr, args.output or base + "-ctf")
        elif args.format == "trx":
            out = trx.write(tr, args.output or base + ".trx")
        else:
            out = args.output or base + ".json"
            with open(out, "w", encoding="utf-8") as f:
                json.dump(export.chrome(tr), f)
    print(out)
    return 0


def cmd_html(args):
    with Steps("html", 2) as p:
        p.step("decoding")
        tr = decode.load(args.file)
        out = args.output or os.path.splitext(args.file)[0] + ".html"
        p.step("rendering the timeline")
        with open(out, "w", encoding="utf-8") as f:
            f.write(html.render(tr, title=args.title or os.path.basename(args.file)))
    print(out)
    return 0


def add_parsers(sub):
    """The `trace` subcommands, under an argparse subparsers object."""
    s = sub.add_parser("summary", help="TraceX-style statistics of a trace")
    s.add_argument("file")
    s.add_argument("--window", metavar="FIRST:END", help="records [FIRST, END) only")
    s.add_argument("--cycles", metavar="EVENT",
                   help="also per cycle between consecutive user events EVENT")
    s.add_argument("--json", action="store_true")
    s.set_defaults(trace_fn=cmd_summary)
    e = sub.add_parser("export", help="Chrome trace-event JSON (Perfetto, chrome://tracing), "
                                      "CTF (Trace Compass, babeltrace2) or TraceX .trx")
    e.add_argument("file")
    e.add_argument("-o", "--output", help="file (CTF: directory) to write")
    e.add_argument("--format", choices=("chrome", "ctf", "trx"), default="chrome")
    e.set_defaults(trace_fn=cmd_export)
    h = sub.add_parser("html", help="a self-contained HTML timeline")
    h.add_argument("file")
    h.add_argument("-o", "--output")
    h.add_argument("--title")
    h.set_defaults(trace_fn=cmd_html)
    live.add_parsers(sub)


def main(argv=None):
    """`limen-trace` (the installed script): the same as `./limen trace`."""
    import argparse
    p = argparse.ArgumentParser(prog="limen-trace", description=__doc__)
    add_parsers(p.add_subparsers(dest="command", required=True))
    args = p.parse_args(argv)
    return args.trace_fn(args)


if __name__ == "__main__":
    sys.exit(main())
