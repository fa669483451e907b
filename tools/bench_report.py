# SPDX-License-Identifier: Apache-2.0
"""./limen bench report: every benchmark of bench/ in one run, written to
build/bench/results.json (stable names: bench/README.md), report.md and
plots/*.svg (drawn here, no plotting library or network needed).

Steps: measures 1-6 (tools/bench.py quick), Thread-Metric (one period of
1e9 instructions, or --short: two of 1e7), seed 003's series, seed 004's
study, seed 002's suite (tools/bench_seed002.py; --short: a few periods). Every figure is an instruction count under QEMU -icount shift=0 and
repeats exactly, so two runs write identical files.
"""
import html
import json
import os

import bench
import bench_seed002

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#17becf")


def nice_max(v):
    """A round axis maximum at or above v."""
    if v <= 0:
        return 1
    step = 10 ** (len(str(int(v))) - 1)
    for m in (1, 2, 2.5, 5, 10):
        if m * step >= v:
            return m * step
    return 10 * step


def svg_lines(title, xlabel, ylabel, lines):
    """A line plot: lines is [(name, [(x, y), ...])]."""
    w, h, left, right, top, bottom = 720, 420, 70, 190, 40, 50
    pw, ph = w - left - right, h - top - bottom
    xs = [x for _, pts in lines for x, _ in pts]
    ys = [y for _, pts in lines for _, y in pts if y is not None]
    xmax = max(xs) if xs else 1
    ymax = nice_max(max(ys) if ys else 1)

    def px(x):
        return left + pw * x / (xmax or 1)

    def py(y):
        return top + ph - ph * y / ymax

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">'
           f'{html.escape(title)}</text>',
           f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="black"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="black"/>',
           f'<text x="{left + pw / 2}" y="{h - 10}" text-anchor="middle">'
           f'{html.escape(xlabel)}</text>',
           f'<text x="15" y="{top + ph / 2}" text-anchor="middle" '
           f'transform="rotate(-90 15 {top + ph / 2})">{html.escape(ylabel)}</text>']
    for i in range(6):
        y = ymax * i / 5
        out.append(f'<line x1="{left - 4}" y1="{py(y):.1f}" x2="{left + pw}" y2="{py(y):.1f}" '
                   f'stroke="#ddd"/><text x="{left - 6}" y="{py(y) + 4:.1f}" '
                   f'text-anchor="end">{y:,.0f}</text>')
    for x in sorted(set(xs)):
        out.append(f'<text x="{px(x):.1f}" y="{top + ph + 16}" text-anchor="middle" '
                   f'font-size="10">{x}</text>')
    for i, (name, pts) in enumerate(lines):
        c = COLOURS[i % len(COLOURS)]
        pts = [(x, y) for x, y in pts if y is not None]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="2"/>')
        out += [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>' for x, y in pts]
        ly = top + 14 + 18 * i
        out.append(f'<line x1="{left + pw + 15}" y1="{ly - 4}" x2="{left + pw + 35}" '
                   f'y2="{ly - 4}" stroke="{c}" stroke-width="2"/><text x="{left + pw + 40}" '
                   f'y="{ly}">{html.escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_bars(title, ylabel, groups, names):
    """Grouped bars: groups is [(label, [value per name])]."""
    w, h, left, right, top, bottom = 760, 420, 80, 150, 40, 90
    pw, ph = w - left - right, h - top - bottom
    vals = [v for _, vs in groups for v in vs if v is not None]
    ymax = nice_max(max(vals) if vals else 1)
    gw = pw / max(len(groups), 1)
    bw = gw * 0.8 / max(len(names), 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">'
           f'{html.escape(title)}</text>',
           f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="black"/>',
           f'<text x="15" y="{top + ph / 2}" text-anchor="middle" '
           f'transform="rotate(-90 15 {top + ph / 2})">{html.escape(ylabel)}</text>']
    for i in range(6):
        y = ymax * i / 5
        yy = top + ph - ph * y / ymax
        out.append(f'<line x1="{left - 4}" y1="{yy:.1f}" x2="{left + pw}" y2="{yy:.1f}" '
                   f'stroke="#ddd"/><text x="{left - 6}" y="{yy + 4:.1f}" '
                   f'text-anchor="end">{y:,.0f}</text>')
    for g, (label, vs) in enumerate(groups):
        x0 = left + g * gw + gw * 0.1
        for i, v in enumerate(vs):
            if v is None:
                continue
            bh = ph * v / ymax
            out.append(f'<rect x="{x0 + i * bw:.1f}" y="{top + ph - bh:.1f}" width="{bw:.1f}" '
                       f'height="{bh:.1f}" fill="{COLOURS[i % len(COLOURS)]}"/>')
        cx = left + g * gw + gw / 2
        out.append(f'<text x="{cx:.1f}" y="{top + ph + 14}" text-anchor="end" font-size="10" '
                   f'transform="rotate(-30 {cx:.1f} {top + ph + 14})">{html.escape(label)}</text>')
    for i, name in enumerate(names):
        ly = top + 14 + 18 * i
        out.append(f'<rect x="{left + pw + 15}" y="{ly - 10}" width="12" height="12" '
                   f'fill="{COLOURS[i % len(COLOURS)]}"/><text x="{left + pw + 32}" '
                   f'y="{ly}">{html.escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def plots(results, pdir):
    """Writes every plot; returns [(file name, caption)]."""
    os.makedirs(pdir, exist_ok=True)
    made = []

    def write(name, caption, text):
        with open(os.path.join(pdir, name), "w", encoding="utf-8") as f:
            f.write(text)
        made.append((name, caption))

    for name, sb in results["series"]["bench"].items():
        lines = [(cfg, list(zip(results["series"][cfg][name]["x"],
                                results["series"][cfg][name]["instructions"])))
                 for cfg in results["series"]]
        # The longest masked stretch of each point, beside its cost.
        lines += [(f"{cfg} masked", list(zip(results["series"][cfg][name]["x"],
                                             results["series"][cfg][name]["masked"])))
                  for cfg in results["series"]]
        write(f"series_{name}.svg", sb["what"],
              svg_lines(sb["what"], sb["x_name"], "instructions", lines))
    for exp, by in results["study"]["experiments"].items():
        mode, levels = exp.split("/")
        title = f"ready-queue study, {levels} levels ({mode})"
        write(f"study_{mode}_{levels}.svg", title,
              svg_lines(title, "threads", "instructions per decision",
                        [(s, sorted(pts.items())) for s, pts in by.items()]))
    s2 = results["seed002"]
    write("seed002_periodicity.svg", "seed 002: tick to periodic thread and period error",
          svg_bars("Seed 002 periodicity: tick to thread, mean and worst", "instructions",
                   [(f"{cfg} {k}", [p["latency_mean"], p["latency_max"], p["error_worst"]])
                    for cfg in s2 for k, p in s2[cfg]["periodicity"].items()],
                   ["latency mean", "latency worst", "period error worst"]))
    write("seed002_context_switch.svg", "seed 002: context switch, 2 / 5 / 10 threads",
          svg_lines("Seed 002 context switch (yield + switch)", "threads", "instructions per yield",
                    [(cfg, sorted((int(n), v) for n, v in s2[cfg]["context_switch"].items()))
                     for cfg in s2]))
    tm = [r for r in results["thread_metric"]["tests"] if r["references"]]
    names = ["Limen bench", "Limen default"] + list(bench.TM_KERNELS)
    write("thread_metric.svg", "Thread-Metric, events per period",
          svg_bars("Thread-Metric, events per period of 1e9 instructions", "events",
                   [(r["test"], [r.get("limen_bench"), r.get("limen_default")]
                     + [r["references"][k] for k in bench.TM_KERNELS]) for r in tm], names))
    rows = [r for r in results["measures"]["rows"] if r["unit"] == "instr"
            and not r["key"].startswith("m4_p1")]
    write("measures.svg", "measures 3-5 beside the reference kernels",
          svg_bars("Measures 3-5, instructions", "instructions",
                   [(r["key"], [r["limen_bench"], r["limen_default"]]
                     + [r["references"][k] for k in bench.KERNELS]) for r in rows],
                   ["Limen bench", "Limen default"] + list(bench.KERNELS)))
    return made


def report_md(results, made):
    t = results["tools"]
    out = ["# Limen benchmark report", "",
           f"Compiler: {t['compiler']}. QEMU: {t['qemu']}, mps2-an386 (Cortex-M4F), "
           "`-icount shift=0,align=off,sleep=off`: every figure counts guest instructions "
           "(1 instruction = 1 ns of virtual time), not cycles of a real core, and repeats "
           "exactly. Images: `-O2 -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 "
           "-mfloat-abi=hard`, 1 kHz tick. bench = `configs/bench.h` with statistics off; "
           "default = no configuration header. Method: `docs/measuring.md`, "
           "`docs/benchmarks.md`; names in `results.json`: `bench/README.md`.", "",
           "## Measures 1-6 (targets.md)", "",
           "| measure | unit | Limen bench | Limen default | best reference | bench / best | "
           "target | met |", "|---|---|---|---|---|---|---|---|"]
    for r in results["measures"]["rows"]:
        u = r["unit"]
        met = "-" if r["limen_bench"] is None else (
            "yes" if r["limen_bench"] <= r["target"] else "no")
        out.append(f"| {r['measure']} | {u} | {bench.fmt(r['limen_bench'], u)} | "
                   f"{bench.fmt(r['limen_default'], u)} | {bench.fmt(r['best_reference'], u)} "
                   f"({r['best_kernel']}) | {r['bench_ratio']} | "
                   f"{bench.fmt(r['target'], 'instr/cycle')} | {met} |")
    tm = results["thread_metric"]
    out += ["", f"## Thread-Metric (period: {tm['period_instructions']:,} instructions)", "",
            "| test | Limen bench | Limen default | ThreadX | FreeRTOS | Zephyr | bench / best | "
            "target | met |", "|---|---|---|---|---|---|---|---|---|"]
    for r in tm["tests"]:
        refs = r["references"] or {}
        n = lambda v: "-" if v is None else f"{v:,}"  # noqa: E731
        met = "-" if r["target"] is None or r["limen_bench"] is None or \
            tm["period_instructions"] != 10 ** 9 else (
                "yes" if r["limen_bench"] >= r["target"] else "no")
        out.append(f"| {r['test']} | {n(r.get('limen_bench'))} | {n(r.get('limen_default'))} | "
                   + " | ".join(n(refs.get(k)) for k in bench.TM_KERNELS)
                   + f" | {r.get('bench_over_best') or '-'} | {n(r['target'])} | {met} |")
    out += ["", "## Seed 003's series (instructions, exact)", ""]
    for cfg, by in results["series"].items():
        out += [f"{cfg}:", ""]
        for name, s in by.items():
            pts = ", ".join(f"{x}: {y}" for x, y in zip(s["x"], s["instructions"]))
            out.append(f"- `{name}` ({s['what']}; {s['x_name']}): {pts} — {s['shape']}")
        out.append("")
    out += masked_md(results)
    out += ["## Seed 004's ready-queue study (instructions per decision)", ""]
    out.append(bench.study_text(results["study"]["experiments"], []))
    sh = results["study_host"]
    out += ["", f"The same study on the host ({sh['compiler']}, -O2), counted exactly by "
            "callgrind:", ""]
    out.append(bench.study_text(sh["experiments"], []) if sh["experiments"]
               else "not run: " + "; ".join(sh["notes"]))
    out += ["", "## Seed 002's suite (instructions)", "",
            "Context switch: measure 2's images; interrupt to thread: measure 3's; "
            "periodicity: `lm_thread_sleep_until`, tick to thread and period error; "
            "the FFT application's kernel share counted from QEMU's execution log "
            "(`docs/benchmarks.md`).", ""]
    out.append(bench_seed002.text(results["seed002"], []).lstrip("\n"))
    out += ["", "## Plots", ""]
    out += [f"![{c}](plots/{f})" for f, c in made]
    if results["problems"]:
        out += ["", "## Problems", ""] + [f"- {p}" for p in results["problems"]]
    return "\n".join(out) + "\n"


def masked_md(results):
    """The longest interrupt-masked stretch of every series point and of
    measure 5's rows, both configurations, and where it was."""
    out = ["## Longest interrupt-masked stretch (instructions, exact)", "",
           "In each timed operation of the series' images (the measured pass), counted "
           "from QEMU's execution log: the instructions after the one that masks (PRIMASK, "
           "or BASEPRI at the kernel's ceiling) through the one that unmasks, in threads "
           "and handlers alike (`docs/benchmarks.md`).", "",
           "| series | x | bench | default | where (bench): masked at -> unmasked at |",
           "|---|---|---|---|---|"]
    series = results["series"]
    for name, sb in series.get("bench", {}).items():
        sd = series.get("default", {}).get(name, {})
        for i, x in enumerate(sb["x"]):
            d = sd.get("masked", [None] * len(sb["x"]))[i]
            out.append(f"| `{name}` | {sb['x_name']} {x} | {bench.fmt(sb['masked'][i], 'instr')} "
                       f"| {bench.fmt(d, 'instr')} | {bench.masked_site(sb, i)} |")
    out += ["", "Measure 5 (targets.md: the longest masked stretch the same for 1, 8 and 16 "
            "expiries):", "", "| measure | bench | default |", "|---|---|---|"]
    for r in results["measures"]["rows"]:
        if r["key"].startswith("m5"):
            out.append(f"| {r['measure']} | {bench.fmt(r.get('masked_bench'), 'instr')} | "
                       f"{bench.fmt(r.get('masked_default'), 'instr')} |")
    return out + [""]


def masked_rows(rows, series):
    """Measure 5's rows get the longest masked stretch of their images
    (seed 003's tick series run them): masked_bench, masked_default."""
    for r in rows:
        if not r["key"].startswith("m5"):
            continue
        for cfg, by in series.items():
            for name in ("tick_sleep", "tick_sem"):
                s = by.get(name)
                if s is None:
                    continue
                for x, m in zip(s["x"], s["masked"]):
                    if f"{'m5s' if name == 'tick_sem' else 'm5'}_e{x}" == r["key"]:
                        r[f"masked_{cfg}"] = m
    return rows


def report(root, bdir, run, qemu_base, log, short=False):
    """Runs everything, writes the files; returns 0 when nothing failed."""
    steps = 5
    log(f"[1/{steps}] measures 1-6")
    if bench.build(root, bdir, run) != 0:
        return 1
    figures, problems = bench.measure(bdir, qemu_base, log)
    tps, periods = (10, 2) if short else (1000, 1)
    log(f"[2/{steps}] Thread-Metric, {periods} period(s) of {tps * 1000000:,} instructions "
        "(about 3 minutes at full length)")
    got = bench.tm_measure(root, bdir, run, log, qemu_base, periods, tps)
    if got is None:
        return 1
    tm_rows, tm_problems, _ = got
    log(f"[3/{steps}] seed 003's series")
    series, s_problems = bench.measure_series(bdir, qemu_base)
    log(f"[4/{steps}] seed 004's study (mps2-an386, and the host under callgrind)")
    found, st_problems = bench.measure_study(bdir, qemu_base)
    host, host_problems = bench.measure_study_host(root, bdir, run, log)
    log(f"[5/{steps}] seed 002's suite (about 2 minutes of loaded periodicity runs at full "
        "length)")
    s2, s2_problems = bench_seed002.measure_seed002(bdir, qemu_base, log, short)
    results = {
        "tools": {"compiler": bench.tool_version(["arm-none-eabi-gcc", "--version"]),
                  "qemu": bench.tool_version([qemu_base[0], "--version"]),
                  "qemu_command": " ".join(qemu_base) + " <image>.elf"},
        "configs": bench.CONFIG_TEXT,
        "measures": {"rows": masked_rows(bench.rows_with_ratios(figures), series)},
        "thread_metric": {"period_instructions": tps * 1000000, "periods": periods,
                          "tests": tm_rows},
        "series": series,
        "study": {"unit": "instructions per scheduling decision", "experiments": found,
                  "crossovers": bench.study_crossovers(found)},
        # The host run needs valgrind; without it the report says so.
        "study_host": {"unit": "host instructions per scheduling decision (callgrind)",
                       "compiler": bench.tool_version(["cc", "--version"]),
                       "experiments": host, "crossovers": bench.study_crossovers(host),
                       "notes": host_problems},
        "seed002": s2,
        "problems": problems + tm_problems + s_problems + st_problems + s2_problems,
    }
    with open(os.path.join(bdir, "results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    made = plots(results, os.path.join(bdir, "plots"))
    with open(os.path.join(bdir, "report.md"), "w", encoding="utf-8") as f:
        f.write(report_md(results, made))
    log(f"wrote {os.path.join(bdir, 'report.md')}, results.json and {len(made)} plots")
    for p in results["problems"]:
        log(f"bench: {p}")
    return 1 if results["problems"] else 0
