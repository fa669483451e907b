# SPDX-License-Identifier: Apache-2.0
"""./limen bench quick: measures 1-6 of Limen on QEMU mps2-an386 (Cortex-M4F),
in the bench and default configurations, beside the reference kernels'
published figures (docs/measuring.md, "The benchmark command").

The images come from bench/ (its CMakeLists.txt); each prints "LMB ..." lines
that this module reads. Measures 3-5 are exact instruction counts of one
event (40-phase sweeps); measures 1 and 2 are averages over 1,000 cycles and
20,000 yields, resolution 0.04 and 0.002 instruction (--exact: each image run
40 times, started 0..39 instructions later, the readings summed: exact);
measure 6 is the .text the measure-1 (equal) image kept from the kernel and
port archive.
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess

CONFIGS = ("bench", "default")
KERNELS = ("ThreadX", "FreeRTOS", "RTX5", "uC/OS-III", "Zephyr")

# (key, measure text, unit, reference figures in KERNELS order; None where
# that kernel has no published figure). Published with the same method on
# the same emulated core: ThreadX 6.4.2, FreeRTOS 11.1.0 (minimal
# configuration), RTX5 5.9.1, uC/OS-III 3.08.02 and Zephyr 4.3.0
# (docs/measuring.md names the source of each).
ROWS = [
    ("m1_equal", "1 producer-consumer cycle, equal", "instr/cycle",
     (1238.04, 2860.12, 2747.12, 2341.36, 1867)),
    ("m1_unique", "1 producer-consumer cycle, unique", "instr/cycle",
     (2701.08, 6151.24, 3138.12, 4232.68, 3110)),
    ("m1_threshold", "1 producer-consumer cycle, threshold", "instr/cycle",
     (1281.04, 3231.12, 2897.08, 2301.36, 1946)),
    ("m2_n2", "2 yield + switch, 2 threads", "instr/yield", (68.00, 61.00, 94.00, 161.03, 94.0)),
    ("m2_n5", "2 yield + switch, 5 threads", "instr/yield", (66.80, 59.80, 113.80, 159.83, 119.8)),
    ("m2_n10", "2 yield + switch, 10 threads", "instr/yield",
     (66.40, 59.40, 148.41, 159.43, 164.4)),
    ("m3", "3 interrupt -> waiting thread", "instr", (128, 200, 240, 298, 163)),
    ("m4_p15_w0", "4 blocking take, newcomer 15, 0 waiters", "instr", (143, 394, 118, 192, 125)),
    ("m4_p15_w1", "4 blocking take, newcomer 15, 13 waiters", "instr", (145, 459, 259, 256, 262)),
    ("m4_p15_w2", "4 blocking take, newcomer 15, 26 waiters", "instr", (145, 524, 402, 321, 403)),
    ("m4_p15_w4", "4 blocking take, newcomer 15, 52 waiters", "instr", (145, 654, 688, 451, 685)),
    ("m4_p1_w0", "4 blocking take, newcomer 1, 0 waiters", "instr", (143, 394, 118, 192, None)),
    ("m4_p1_w1", "4 blocking take, newcomer 1, 13 waiters", "instr", (145, 394, 173, 195, None)),
    ("m4_p1_w2", "4 blocking take, newcomer 1, 26 waiters", "instr", (145, 394, 225, 195, None)),
    ("m4_p1_w4", "4 blocking take, newcomer 1, 52 waiters", "instr", (145, 394, 329, 195, None)),
    ("m5_e1", "5 tick, 1 sleeper times out", "instr", (371, 166, 127, 281, 177)),
    ("m5_e8", "5 tick, 8 sleepers time out", "instr", (959, 502, 519, 561, 1178)),
    ("m5_e16", "5 tick, 16 sleepers time out", "instr", (1631, 886, 1387, 881, 2802)),
    ("m5s_e1", "5s tick, 1 semaphore take times out", "instr", (413, 407, 131, 334, None)),
    ("m5s_e8", "5s tick, 8 semaphore takes time out", "instr", (1337, 820, 551, 789, None)),
    ("m5s_e16", "5s tick, 16 semaphore takes time out", "instr", (2393, 1292, 1451, 1309, None)),
    ("m6", "6 kernel + port .text, measure-1 image", "bytes", (3820, 4132, 5880, 4160, 7321)),
]

# The targets: 1.25x the best reference's throughput, i.e. 0.8x its count.
TARGET_FACTOR = 0.8


def kernel_text(map_path, archive):
    """Bytes of .text input sections the link kept from `archive`, read from
    a GNU ld map (a section name too long for its column puts the address,
    size and source on the next line)."""
    total = 0
    pending = False
    in_map = False
    with open(map_path) as f:
        for line in f:
            if line.startswith("Linker script and memory map"):
                in_map = True
                continue
            if not in_map:
                continue
            m = re.match(r"^ \.text\S*(\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+))?\s*$", line)
            if m and m.group(1) is None:
                pending = True
                continue
            if m:
                size, src = m.group(2), m.group(3)
            else:
                m = re.match(r"^\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)\s*$", line)
                if not (pending and m):
                    pending = False
                    continue
                size, src = m.group(1), m.group(2)
            pending = False
            if f"{archive}(" in src:
                total += int(size, 16)
    return total


def figure(fields):
    """One image's figure: per cycle or yield for measures 1 and 2, the
    interval for measures 3-5."""
    if "cycles" in fields:
        return fields["instructions"] / fields["cycles"]
    if "yields" in fields:
        return fields["instructions"] / fields["yields"]
    return fields["interval"]


def check(key, fields):
    """Returns what is wrong with an image's result, or None."""
    if key.startswith("m1") and fields.get("messages") != 9 * fields.get("cycles", 0):
        return f"{fields.get('messages')} messages in {fields.get('cycles')} cycles"
    if key.startswith("m5") and fields.get("bad_samples") != 0:
        return f"{fields.get('bad_samples')} samples did not wake exactly the expiring threads"
    return None


def parse(out):
    """The LMB line of an image's output as {name: int or str}."""
    for line in out.splitlines():
        if line.startswith("LMB "):
            fields = {}
            for kv in line.split()[2:]:
                k, _, v = kv.partition("=")
                fields[k] = int(v) if v.isdigit() else v
            return fields
    return None


def run_image(qemu_cmd, elf, timeout, shift=None):
    """Runs one image; shift k (0..39) starts it k instructions later."""
    extra = [] if shift is None else ["-append", f"{shift:02d}"]
    try:
        p = subprocess.run(qemu_cmd + [elf] + extra, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, ""
    return p.returncode, p.stdout.replace("\r\n", "\n")


def measure(bdir, qemu_cmd, log, exact=False, timeout=120):
    """Runs every image of bdir; returns ({config: {key: figure}}, problems).
    exact: measures 1 and 2 from 40 runs each, started 0..39 instructions
    later; their whole-count readings sum to the interval exactly."""
    figures = {cfg: {} for cfg in CONFIGS}
    problems = []
    jobs = []
    for cfg in CONFIGS:
        for key, *_ in ROWS:
            if key == "m6":
                continue
            shifts = range(40) if exact and key[:2] in ("m1", "m2") else [None]
            jobs += [(cfg, key, k) for k in shifts]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(
            lambda job: run_image(qemu_cmd, os.path.join(bdir, f"{job[0]}-{job[1]}.elf"),
                                  timeout, job[2]),
            jobs)
        sums = {}
        for (cfg, key, k), (rc, out) in zip(jobs, results):
            fields = parse(out)
            if rc != 0 or fields is None:
                problems.append(f"{cfg} {key}: exit {rc}, no result ({out.strip()[-200:]!r})")
                continue
            bad = check(key, fields)
            if bad:
                problems.append(f"{cfg} {key}: {bad}")
            if k is None:
                figures[cfg][key] = figure(fields)
                continue
            # Each reading is 40 x whole counts; the 40 counts sum to the
            # interval's instructions.
            total, n, _ = sums.get((cfg, key), (0, 0, fields))
            sums[(cfg, key)] = (total + fields["instructions"] // 40, n + 1, fields)
        for (cfg, key), (total, n, fields) in sums.items():
            if n == 40:
                figures[cfg][key] = figure(dict(fields, instructions=total))
    for cfg in CONFIGS:
        map_path = os.path.join(bdir, f"{cfg}-m1_equal.map")
        size = kernel_text(map_path, f"libkernel_{cfg}.a") if os.path.exists(map_path) else 0
        if size == 0:
            problems.append(f"{cfg} m6: no kernel .text found in {map_path}")
        else:
            figures[cfg]["m6"] = size
    log(f"ran {len(jobs)} images")
    return figures, problems


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()
    except OSError:
        return "unknown"
    return out[0].strip() if out else "unknown"


def rows_with_ratios(figures):
    rows = []
    for key, text, unit, refs in ROWS:
        known = [r for r in refs if r is not None]
        best = min(known)
        best_of = [k for k, r in zip(KERNELS, refs) if r == best]
        b = figures["bench"].get(key)
        d = figures["default"].get(key)
        rows.append({
            "key": key, "measure": text, "unit": unit,
            "limen_bench": b, "limen_default": d,
            "references": {k: r for k, r in zip(KERNELS, refs)},
            "best_reference": best, "best_kernel": "/".join(best_of),
            "bench_ratio": None if b is None else round(b / best, 2),
            "default_ratio": None if d is None else round(d / best, 2),
            "default_over_bench": None if b is None or d is None else round(d / b, 3),
            "target": round(best * TARGET_FACTOR, 2),
        })
    return rows


def fmt(v, unit, exact=False):
    if v is None:
        return "-"
    if unit in ("instr/cycle", "instr/yield"):
        if exact:  # one instruction in 1,000 cycles or 20,000 yields
            return f"{v:,.3f}" if unit == "instr/cycle" else f"{v:,.5f}"
        return f"{v:,.2f}"
    return f"{v:,.0f}" if isinstance(v, float) else f"{v:,}"


def table(rows, header, exact):
    cols = ["measure", "Limen bench", "Limen default", *KERNELS, "best ref.",
            "bench / best", "default / best", "target (0.8x best)"]
    lines = [" | ".join(cols), " | ".join("---" for _ in cols)]
    for r in rows:
        u = r["unit"]
        cells = [f"{r['measure']} ({u})", fmt(r["limen_bench"], u, exact),
                 fmt(r["limen_default"], u, exact),
                 *[fmt(r["references"][k], u) for k in KERNELS],
                 f"{fmt(r['best_reference'], u)} {r['best_kernel']}",
                 "-" if r["bench_ratio"] is None else f"{r['bench_ratio']:.2f}",
                 "-" if r["default_ratio"] is None else f"{r['default_ratio']:.2f}",
                 fmt(r["target"], u if u != "instr" else "instr/cycle")]
        lines.append("| " + " | ".join(cells) + " |")
    lines[0] = "| " + lines[0] + " |"
    lines[1] = "|" + lines[1].replace(" | ", "|") + "|"
    return "\n".join(header + [""] + lines)


def build(root, bdir, run, originals=""):
    """Configures and builds bench/ into bdir; originals: a folder holding
    copies of Thread-Metric's own eight test sources, or "" (none)."""
    toolchain = os.path.join(root, "cmake", "arm-none-eabi.cmake")
    if run(["cmake", "-S", os.path.join(root, "bench"), "-B", bdir, "-G", "Ninja",
            f"-DCMAKE_TOOLCHAIN_FILE={toolchain}", f"-DTM_ORIGINALS={originals}"]) != 0:
        return 1
    return run(["cmake", "--build", bdir])


def quick(root, bdir, run, qemu_base, log, as_json, exact=False):
    """Builds bench/ into bdir, runs every image, prints the table (or JSON).
    Returns 0 when every figure was measured and every image's own check
    passed."""
    if build(root, bdir, run) != 0:
        return 1
    figures, problems = measure(bdir, qemu_base, log, exact)
    rows = rows_with_ratios(figures)
    gcc = tool_version(["arm-none-eabi-gcc", "--version"])
    qemu = tool_version([qemu_base[0], "--version"])
    command = " ".join(qemu_base) + " <image>.elf"
    if as_json:
        print(json.dumps({"compiler": gcc, "qemu": qemu, "qemu_command": command,
                          "exact": exact,
                          "configs": {"bench": "configs/bench.h with LM_CFG_STATS 0",
                                      "default": "no configuration header"},
                          "rows": rows, "problems": problems}, indent=2))
    else:
        header = [
            "Limen measures 1-6 (targets.md method) on QEMU mps2-an386 (Cortex-M4F)",
            f"compiler: {gcc}",
            f"QEMU:     {qemu}",
            f"command:  {command}",
            "bench = configs/bench.h with statistics off; default = no configuration header",
            "figures are guest instructions (-icount), not cycles; measures 3-5 exact, 1 and 2 "
            + ("exact (40 shifted runs each)" if exact
               else "averages (resolution 0.04 and 0.002; --exact: exact)"),
        ]
        print(table(rows, header, exact))
    for p in problems:
        log(f"bench: {p}")
    return 1 if problems else 0


# Thread-Metric (bench/thread-metric/, docs/benchmarks.md). Per test: key,
# name, published figures per period of 1e9 instructions in TM_KERNELS
# order (targets.md; None: not published). Basic processing has none: it
# measures the core, not the kernel.
TM_KERNELS = ("ThreadX", "FreeRTOS", "Zephyr")
TM_ROWS = [
    ("basic", "basic processing", None),
    ("cooperative", "cooperative scheduling", (14285040, 15149664, 8138075)),
    ("preemptive", "preemptive scheduling", (4512448, 3633541, 6201950)),
    ("interrupt", "interrupt processing (NVIC STIR)", (17240663, 8402945, 12999928)),
    ("interrupt_preemption", "interrupt preemption processing (STIR)",
     (3508630, 2732103, 4468724)),
    ("message", "message processing (16-byte messages)", (8064182, 5290744, 5687470)),
    ("synchronization", "synchronization processing", (19999167, 8332918, 20428456)),
    ("memory", "memory allocation (128-byte blocks)", (16948449, 5681537, 14940219)),
]
# Throughput targets: 1.25x the best reference kernel.
TM_TARGET_FACTOR = 1.25
# The suite's own sources, by test (--originals).
TM_ORIGINAL_FILES = {
    "basic": "tm_basic_processing_test.c",
    "cooperative": "tm_cooperative_scheduling_test.c",
    "preemptive": "tm_preemptive_scheduling_test.c",
    "interrupt": "tm_interrupt_processing_test.c",
    "interrupt_preemption": "tm_interrupt_preemption_processing_test.c",
    "message": "tm_message_processing_test.c",
    "synchronization": "tm_synchronization_processing_test.c",
    "memory": "tm_memory_allocation_test.c",
}


def tm_parse(out, original=False):
    """Per-period figures of one Thread-Metric run and what is wrong with
    them: Limen's tests print "TM <name> period=<n> total=<t> ok=<0|1> ...";
    the suite's own print "Time Period Total:  <t>" and "ERROR: ..."."""
    totals, bad = [], []
    for line in out.splitlines():
        if original:
            m = re.match(r"Time Period Total:\s+(\d+)", line)
            if m:
                totals.append(int(m.group(1)))
            elif line.startswith("ERROR"):
                bad.append(line.strip())
            continue
        if line.startswith("TM "):
            fields = dict(kv.partition("=")[::2] for kv in line.split()[2:])
            totals.append(int(fields["total"]))
            if fields.get("ok") != "1":
                bad.append(f"period {fields.get('period')}: counts inconsistent or still "
                           f"({line.strip()})")
    return totals, bad


def tm_measure(root, bdir, run, log, qemu_base, periods=1, ticks_per_second=1000,
               configs=CONFIGS, originals=None):
    """Builds bench/ and runs Limen's eight Thread-Metric tests (and the
    suite's own sources from `originals`, if given); returns (rows,
    problems, notes), or None if the build failed."""
    copies = ""
    if originals:
        copies = os.path.join(bdir, "tm-originals")
        os.makedirs(copies, exist_ok=True)
        for name in TM_ORIGINAL_FILES.values():
            src = os.path.join(originals, name)
            if not os.path.exists(src):
                log(f"bench: {src} not found (--originals names the suite's folder)")
                return None
            shutil.copyfile(src, os.path.join(copies, name))
    if build(root, bdir, run, copies) != 0:
        return None
    jobs = [(cfg, key, False) for cfg in configs for key, *_ in TM_ROWS]
    if originals:
        jobs += [(cfg, key, True) for cfg in configs for key, *_ in TM_ROWS]
    # A period of 1e9 instructions takes QEMU about half a minute of host time.
    timeout = 120 + periods * ticks_per_second * 0.2

    def one(job):
        cfg, key, orig = job
        elf = os.path.join(bdir, f"{cfg}-{'tmo' if orig else 'tm'}_{key}.elf")
        try:
            p = subprocess.run(qemu_base + [elf, "-append", f"{ticks_per_second} {periods}"],
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, ""
        return p.returncode, p.stdout.replace("\r\n", "\n")

    figures = {cfg: {} for cfg in configs}
    suite = {cfg: {} for cfg in configs}
    problems, notes = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for (cfg, key, orig), (rc, out) in zip(jobs, pool.map(one, jobs)):
            totals, bad = tm_parse(out, orig)
            what = f"{cfg} {key}" + (" (suite's source)" if orig else "")
            if rc != 0 or len(totals) != periods:
                msg = f"{what}: exit {rc}, {len(totals)} of {periods} periods reported"
                (notes if orig else problems).append(msg)
                continue
            (notes if orig else problems).extend(f"{what}: {b}" for b in bad)
            (suite if orig else figures)[cfg][key] = totals[-1]
    log(f"ran {len(jobs)} Thread-Metric images, {periods} period(s) of "
        f"{ticks_per_second * 1000000:,} instructions each")
    rows = []
    for key, text, refs in TM_ROWS:
        best = max(refs) if refs else None
        row = {"key": key, "test": text, "unit": "events/period",
               "references": dict(zip(TM_KERNELS, refs)) if refs else None,
               "best_reference": best,
               "best_kernel": "/".join(k for k, r in zip(TM_KERNELS, refs) if r == best)
               if refs else None,
               "target": round(best * TM_TARGET_FACTOR) if refs else None}
        for cfg in configs:
            v = figures[cfg].get(key)
            row[f"limen_{cfg}"] = v
            # Ratios only for the published period length (1e9 instructions).
            row[f"{cfg}_over_best"] = (round(v / best, 3) if best and v and
                                       ticks_per_second == 1000 else None)
            if originals:
                row[f"suite_source_{cfg}"] = suite[cfg].get(key)
        rows.append(row)
    return rows, problems, notes


def thread_metric(root, bdir, run, qemu_base, log, as_json, periods=1, ticks_per_second=1000,
                  configs=CONFIGS, originals=None):
    """Builds bench/ into bdir, runs Limen's eight Thread-Metric tests for
    `periods` reporting periods of `ticks_per_second` ticks each (1,000: one
    second of virtual time, 1e9 instructions), in each configuration, and
    prints the last period's figures beside the reference kernels'.
    originals: a folder with the suite's own test sources, also built against
    the porting layer and run; their figures are printed beside (they are
    never a failure: the suite's basic test reports 0 at -O2, see
    docs/benchmarks.md). Returns 0 when every test reported every period with
    consistent, rising counts."""
    got = tm_measure(root, bdir, run, log, qemu_base, periods, ticks_per_second, configs,
                     originals)
    if got is None:
        return 1
    rows, problems, notes = got
    gcc = tool_version(["arm-none-eabi-gcc", "--version"])
    qemu = tool_version([qemu_base[0], "--version"])
    command = " ".join(qemu_base) + f" <image>.elf -append '{ticks_per_second} {periods}'"
    if as_json:
        print(json.dumps({"compiler": gcc, "qemu": qemu, "qemu_command": command,
                          "period_instructions": ticks_per_second * 1000000,
                          "periods": periods, "figure_period": periods,
                          "configs": {c: CONFIG_TEXT[c] for c in configs},
                          "rows": rows, "problems": problems, "notes": notes}, indent=2))
    else:
        print(tm_table(rows, configs, originals is not None, [
            "Thread-Metric on Limen, QEMU mps2-an386 (Cortex-M4F)",
            f"compiler: {gcc}",
            f"QEMU:     {qemu}",
            f"command:  {command}",
            f"period:   {ticks_per_second} ticks of 1 ms = {ticks_per_second * 1000000:,} "
            f"instructions (-icount shift=0); figure: events in period {periods} of {periods}",
            "bench = configs/bench.h with statistics off; default = no configuration header",
            "reference kernels: targets.md, per period of 1e9 instructions; target = 1.25x the best",
        ]))
    for n in notes:
        log(f"bench (note): {n}")
    for p in problems:
        log(f"bench: {p}")
    return 1 if problems else 0


CONFIG_TEXT = {"bench": "configs/bench.h with LM_CFG_STATS 0",
               "default": "no configuration header"}


def tm_table(rows, configs, originals, header):
    def n(v):
        return "-" if v is None else f"{v:,}"
    cols = ["test"] + [f"Limen {c}" for c in configs]
    if originals:
        cols += [f"suite's source, {c}" for c in configs]
    cols += list(TM_KERNELS) + ["best ref.", "target"] + [f"{c} / best" for c in configs]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        refs = r["references"] or {}
        cells = [r["test"]] + [n(r[f"limen_{c}"]) for c in configs]
        if originals:
            cells += [n(r.get(f"suite_source_{c}")) for c in configs]
        cells += [n(refs.get(k)) for k in TM_KERNELS]
        cells += [f"{n(r['best_reference'])} {r['best_kernel'] or ''}".strip(), n(r["target"])]
        cells += ["-" if r[f"{c}_over_best"] is None else f"{r[f'{c}_over_best']:.2f}"
                  for c in configs]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(header + [""] + lines)


# The cross-check with the reference harness (../shared/bench-reference):
# its images' RESULT lines, by image name, read like ours.
HARNESS_CONFIGS = {"bench": "limen-bench", "default": "limen-default"}


def harness_figures(out_dir):
    """{key: (figure, raw fields)} from a harness configuration's
    results.txt ("<image> RESULT limen <config> <measure> k=v ...")."""
    found = {}
    with open(os.path.join(out_dir, "results.txt")) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 5 or parts[1] != "RESULT":
                continue
            fields = {}
            for kv in parts[5:]:
                k, _, v = kv.partition("=")
                fields[k] = int(v) if v.isdigit() else v
            if "relinquishes" in fields:
                fields["yields"] = fields.pop("relinquishes")
            found[parts[0]] = (figure(fields), fields)
    return found


def crosscheck(root, bdir, run, qemu_base, log, as_json, harness):
    """Builds and runs the reference harness on this tree (LIMEN_SRC=root)
    in both configurations, measures the same with bench/, and compares
    figure by figure. Measures 3-5 are single events timed exactly by both:
    they must be identical. Measure 6 is read from each tool's own linker
    map: identical when both images keep the same kernel objects. Measures 1
    and 2 are single whole-count readings of the timer in both tools (40
    instructions a count); the two images reach their first reading at
    different phases of the count period and their natural ticks fall at
    different points of the run, so they agree when the totals differ by at
    most one count (40 instructions over 1,000 cycles or 20,000 yields).
    Returns 0 when every row agrees."""
    if not os.path.exists(os.path.join(harness, "build.sh")):
        log(f"bench: no reference harness at {harness} (--harness DIR)")
        return 1
    hdir = os.path.join(bdir, "reference-harness")
    env = dict(os.environ, LIMEN_SRC=root)
    for cfg, hcfg in HARNESS_CONFIGS.items():
        for script in ("build.sh", "run.sh"):
            if run(["sh", os.path.join(harness, script), hcfg, hdir], env=env,
                   stderr=subprocess.DEVNULL if script == "run.sh" else None) != 0:
                return 1
    if build(root, bdir, run) != 0:
        return 1
    ours, problems = measure(bdir, qemu_base, log)
    rows = []
    for cfg, hcfg in HARNESS_CONFIGS.items():
        theirs = harness_figures(os.path.join(hdir, hcfg))
        size = kernel_text(os.path.join(hdir, hcfg, "m1_equal.map"), "libkernel.a")
        theirs["m6"] = (size, {})
        for key, text, unit, _ in ROWS:
            a = ours[cfg].get(key)
            b = theirs.get(key, (None, None))[0]
            # Measures 1 and 2 compared by the run's whole instruction count
            # (1,000 cycles, 20,000 yields), the others by the figure.
            reps = {"m1": 1000, "m2": 20000}.get(key[:2], 1)
            ta = None if a is None else round(a * reps)
            tb = None if b is None else round(b * reps)
            if ta is None or tb is None:
                verdict = "missing"
            elif ta == tb:
                verdict = "identical"
            elif reps > 1 and abs(ta - tb) <= LMB_COUNT:
                verdict = "one count"
            else:
                verdict = "DIFFERENT"
            rows.append({"config": cfg, "key": key, "measure": text, "unit": unit,
                         "limen_bench_command": a, "reference_harness": b,
                         "run_instructions": [ta, tb] if reps > 1 else None,
                         "verdict": verdict})
    gcc = tool_version(["arm-none-eabi-gcc", "--version"])
    qemu = tool_version([qemu_base[0], "--version"])
    agree = all(r["verdict"] in ("identical", "one count") for r in rows)
    if as_json:
        print(json.dumps({"compiler": gcc, "qemu": qemu, "harness": harness, "agree": agree,
                          "rows": rows, "problems": problems}, indent=2))
    else:
        lines = ["Cross-check: ./limen bench quick against the reference harness "
                 f"({harness}, LIMEN_SRC={root})",
                 f"compiler: {gcc}", f"QEMU:     {qemu}",
                 "measures 3-6 must be identical; 1 and 2 are single whole-count readings "
                 "in both tools and agree within one count (40 instructions per run)", "",
                 "| configuration | measure | ./limen bench | harness | whole run, instructions "
                 "(./limen bench / harness) | verdict |",
                 "|---|---|---|---|---|---|"]
        for r in rows:
            u = r["unit"]
            run_total = ("-" if r["run_instructions"] is None else
                         " / ".join(fmt(v, "instr") for v in r["run_instructions"]))
            lines.append(f"| {r['config']} | {r['measure']} ({u}) | "
                         f"{fmt(r['limen_bench_command'], u)} | "
                         f"{fmt(r['reference_harness'], u)} | {run_total} | {r['verdict']} |")
        lines.append("")
        lines.append("every figure agrees" if agree else "some figures DISAGREE")
        print("\n".join(lines))
    for p in problems:
        log(f"bench: {p}")
    return 0 if agree and not problems else 1


# Instructions per timer count (bench/common/lmb.h).
LMB_COUNT = 40


# Seed 003's series (bench/apps/m4_take.c, s2-s5, m5_tick.c): one series per
# pattern, the figure (instructions, exact) against the number of waiters,
# mutexes or expiries. Name -> (what, x name, [(x, image)]).
SERIES = {
    **{f"take_newcomer_{p}": (
        f"blocking take, newcomer of priority {p} (waiters at priorities 2-14)",
        "waiters", [(w * 13, f"s1_p{p}_w{w}") for w in (0, 1, 2, 4)])
       for p in (1, 2, 8, 14, 15, 19)},
    "give_most_urgent": ("give that wakes the most urgent waiter (priority 2)", "waiters",
                         [(w * 13, f"s2_w{w}") for w in (1, 2, 4)]),
    "flags_set": ("event-flag set waking the last of N waiters (one bit each)", "waiters",
                  [(n, f"s3_n{n}") for n in (1, 2, 4, 8, 16, 24, 32)]),
    "tick_sleep": ("tick on which N sleeping threads time out", "expiries",
                   [(0, "s4_e0")] + [(e, f"m5_e{e}") for e in (1, 8, 16)]),
    "tick_sem": ("tick on which N semaphore takes time out", "expiries",
                 [(e, f"m5s_e{e}") for e in (1, 8, 16)]),
    "mutex_restore": ("mutex release restoring the owner's priority, N mutexes held with "
                      "waiters", "mutexes", [(n, f"s5_m{n}") for n in (1, 2, 4, 8)]),
}


def series_check(image, fields):
    """What is wrong with a series image's result, or None."""
    if image.startswith("m5") and fields.get("bad_samples") != 0:
        return f"{fields.get('bad_samples')} samples did not wake exactly the expiring threads"
    if image.startswith("s5"):
        want = 20 if fields.get("mutexes") == 1 else 3
        if fields.get("restored") != want:
            return f"owner's priority after the release {fields.get('restored')}, not {want}"
    if "interval" not in fields:
        return "no interval"
    return None


def series_shape(xs, ys):
    """A word on the series' shape: flat, or the rise per unit of x between
    consecutive points (per waiter, mutex or expiry)."""
    if len(set(ys)) == 1:
        return "flat"
    slopes = [(b - a) / (x1 - x0) for x0, x1, a, b in zip(xs, xs[1:], ys, ys[1:])]
    return "per unit: " + ", ".join(f"{s:+.1f}" for s in slopes)


def measure_series(bdir, qemu_base, configs=CONFIGS, timeout=120):
    """Runs every series image, and walks each one's execution log for its
    longest interrupt-masked stretch (tools/bench_masked.py), after the
    walk's known case; returns ({config: {name: {...}}}, problems)."""
    import bench_masked  # pylint: disable=import-outside-toplevel
    jobs = [(cfg, image) for cfg in configs for _, _, pts in SERIES.values()
            for _, image in pts]
    jobs = list(dict.fromkeys(jobs))
    found, masked, problems = {}, {}, []
    logdir = os.path.join(bdir, "masked-logs")

    def one(job):
        cfg, image = job
        elf = os.path.join(bdir, f"{cfg}-{image}.elf")
        rc, out = run_image(qemu_base, elf, timeout)
        fields = parse(out)
        if rc != 0 or fields is None:
            return rc, out, fields, None
        return rc, out, fields, bench_masked.measure_image(qemu_base, elf, logdir,
                                                           fields.get("measured"))

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        known = list(pool.map(lambda cfg: bench_masked.check_known(qemu_base, bdir, cfg),
                              configs))
        problems += [p for ps in known for p in ps]
        for (cfg, image), (rc, out, fields, m) in zip(jobs, pool.map(one, jobs)):
            if rc != 0 or fields is None:
                problems.append(f"{cfg} {image}: exit {rc}, no result ({out.strip()[-200:]!r})")
                continue
            bad = series_check(image, fields)
            if bad:
                problems.append(f"{cfg} {image}: {bad}")
            found[(cfg, image)] = fields.get("interval")
            problems += [f"{cfg} {image}: {p}" for p in m["problems"]]
            if m["longest"] is None and not m["problems"]:
                problems.append(f"{cfg} {image}: no masked stretch in the timed windows")
            masked[(cfg, image)] = m
    result = {}
    for cfg in configs:
        result[cfg] = {}
        for name, (what, xname, pts) in SERIES.items():
            ys = [found.get((cfg, image)) for _, image in pts]
            ms = [masked.get((cfg, image), {}) for _, image in pts]
            result[cfg][name] = {"what": what, "x_name": xname, "x": [x for x, _ in pts],
                                 "instructions": ys,
                                 "shape": None if None in ys else
                                 series_shape([x for x, _ in pts], ys),
                                 "masked": [m.get("longest") for m in ms],
                                 "masked_lock": [m.get("lock") for m in ms],
                                 "masked_unlock": [m.get("unlock") for m in ms]}
    return result, problems


def series(root, bdir, run, qemu_base, log, as_json, configs=CONFIGS):
    """Builds bench/, runs seed 003's series, prints one line per pattern
    (or JSON). Returns 0 when every image reported and passed its check."""
    if build(root, bdir, run) != 0:
        return 1
    result, problems = measure_series(bdir, qemu_base, configs)
    gcc = tool_version(["arm-none-eabi-gcc", "--version"])
    qemu = tool_version([qemu_base[0], "--version"])
    if as_json:
        print(json.dumps({"compiler": gcc, "qemu": qemu, "unit": "instructions",
                          "configs": {c: CONFIG_TEXT[c] for c in configs},
                          "series": result, "problems": problems}, indent=2))
    else:
        print(series_text(result, [
            "Seed 003's series on QEMU mps2-an386 (Cortex-M4F), instructions (exact, 40-phase "
            "sweeps); masked: the longest interrupt-masked stretch in the timed operations "
            "(exact, from QEMU's execution log)", f"compiler: {gcc}", f"QEMU:     {qemu}"]))
    for p in problems:
        log(f"bench: {p}")
    return 1 if problems else 0


def series_text(result, header):
    lines = list(header)
    for cfg, by_name in result.items():
        lines += ["", f"{cfg} ({CONFIG_TEXT[cfg]})"]
        for name, s in by_name.items():
            pts = "  ".join(f"{x}:{'-' if y is None else y}" for x, y in zip(s["x"], s["instructions"]))
            lines.append(f"  {name:<20} {s['x_name']:<9} {pts}   [{s['shape']}]")
            pts = "  ".join(f"{x}:{'-' if y is None else y}" for x, y in zip(s["x"], s["masked"]))
            lines.append(f"  {'':<20} {'masked':<9} {pts}   [longest at "
                         f"{masked_site(s, s['masked'].index(max_masked(s)))}]")
    return "\n".join(lines)


def max_masked(s):
    """The longest masked stretch of a series (None if none measured)."""
    return max((m for m in s["masked"] if m is not None), default=None)


def masked_site(s, i):
    """Where point i's longest masked stretch was: lock -> unlock."""
    if s["masked_lock"][i] is None:
        return "-"
    return f"{s['masked_lock'][i]} -> {s['masked_unlock'][i]}"


# Seed 004's ready-queue study (bench/study/): instructions per scheduling
# decision by structure, against the number of threads.
STUDY_IMAGES = ("study-rq_p32.elf", "study-rq_p64.elf")
# Figures each image prints (bench/study/rq_study.c): 13 thread counts for
# 6 structures at 5, 10 and 20 levels and 5 at 8 levels (32 priorities);
# 6 structures at 50 levels (64).
STUDY_FIGURES = {"study-rq_p32.elf": 13 * (3 * 6 + 5), "study-rq_p64.elf": 13 * 6}


def measure_study(bdir, qemu_base, timeout=600):
    """{"<mode>/<levels>": {structure: {threads: instructions per decision}}}
    and problems."""
    found, problems = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        outs = pool.map(lambda e: run_image(qemu_base, os.path.join(bdir, e), timeout),
                        STUDY_IMAGES)
        for image, (rc, out) in zip(STUDY_IMAGES, outs):
            lines = [ln for ln in out.splitlines() if ln.startswith("RQ ")]
            if rc != 0 or len(lines) != STUDY_FIGURES[image]:
                problems.append(f"{image}: exit {rc}, {len(lines)} of {STUDY_FIGURES[image]} "
                                "figures")
            for ln in lines:
                parts = ln.split()
                f = dict(kv.split("=") for kv in parts[2:])
                exp = found.setdefault(f"{f['mode']}/{f['levels']}", {})
                exp.setdefault(parts[1], {})[int(f["threads"])] = \
                    int(f["instructions"]) / int(f["decisions"])
    return found, problems


def crossover(a, b):
    """The first thread count from which structure b costs less than a (and
    stays so), or None."""
    ns = sorted(set(a) & set(b))
    for i, n in enumerate(ns):
        if all(b[m] < a[m] for m in ns[i:]):
            return n
    return None


STUDY_CROSSOVERS = [("sorted_forward", "red_black"), ("sorted_backward", "red_black"),
                    ("sorted_forward", "sorted_backward"), ("red_black", "multi_list_1"),
                    ("red_black", "multi_list_2"), ("red_black", "limen"),
                    ("sorted_forward", "limen"), ("multi_list_2", "limen")]


def study_crossovers(found):
    out = {}
    for exp, by in found.items():
        out[exp] = {f"{b}_below_{a}_from": crossover(by[a], by[b])
                    for a, b in STUDY_CROSSOVERS if a in by and b in by}
    return out


def study_text(found, header):
    lines = list(header)
    for exp, by in found.items():
        mode, levels = exp.split("/")
        names = list(by)
        ns = sorted(next(iter(by.values())))
        lines += ["", f"{levels} levels, " + ("level k runs 1/2^k as often" if mode == "pow2"
                                               else "level k runs 1/k as often")
                  + " (Limen: strict priority)", "",
                  "| threads | " + " | ".join(names) + " |",
                  "|---|" + "---|" * len(names)]
        for n in ns:
            lines.append(f"| {n} | " + " | ".join(f"{by[s].get(n, 0):.1f}" for s in names)
                         + " |")
        for k, v in study_crossovers({exp: by})[exp].items():
            lines.append(f"  {k.replace('_', ' ')}: {v if v is not None else 'never'}")
    return "\n".join(lines)


def study(root, bdir, run, qemu_base, log, as_json, host=False):
    """Builds bench/, runs seed 004's study, prints a table per experiment
    (or JSON). host: the same sources built for the host and counted by
    callgrind instead. Returns 0 when every figure was measured."""
    if host:
        found, problems = measure_study_host(root, bdir, run, log)
        cc = tool_version(["cc", "--version"])
        vg = tool_version(["valgrind", "--version"])
        if as_json:
            print(json.dumps({"compiler": cc, "counter": vg,
                              "unit": "host instructions per scheduling decision",
                              "experiments": found, "crossovers": study_crossovers(found),
                              "problems": problems}, indent=2))
        else:
            print(study_text(found, [
                "Seed 004's ready-queue study on the host (cc -O2), instructions per "
                "scheduling decision counted by callgrind, 2,000 decisions after 500",
                f"compiler: {cc}", f"counter:  {vg}",
                "loop_only: the measuring loop alone (in every figure)"]))
        for p in problems:
            log(f"bench: {p}")
        return 1 if problems else 0
    if build(root, bdir, run) != 0:
        return 1
    found, problems = measure_study(bdir, qemu_base)
    gcc = tool_version(["arm-none-eabi-gcc", "--version"])
    qemu = tool_version([qemu_base[0], "--version"])
    if as_json:
        print(json.dumps({"compiler": gcc, "qemu": qemu,
                          "unit": "instructions per scheduling decision",
                          "experiments": found, "crossovers": study_crossovers(found),
                          "problems": problems}, indent=2))
    else:
        print(study_text(found, [
            "Seed 004's ready-queue study on QEMU mps2-an386 (Cortex-M4F, -O2): instructions "
            "per scheduling decision (insert + next), 20,000 decisions after 2,000",
            f"compiler: {gcc}", f"QEMU:     {qemu}",
            "loop_only: the measuring loop alone (in every figure)"]))
    for p in problems:
        log(f"bench: {p}")
    return 1 if problems else 0


def measure_study_host(root, bdir, run, log):
    """Seed 004's study built for the host (cc -O2) and counted exactly by
    valgrind's callgrind (collection on around each timed loop only, one
    dump per figure). Returns (experiments as measure_study's, problems)."""
    if shutil.which("valgrind") is None or shutil.which("cc") is None:
        return {}, ["study --host: valgrind or cc not found (./limen setup does not install "
                    "valgrind; apt-get install valgrind)"]
    hdir = os.path.join(bdir, "study-host")
    os.makedirs(hdir, exist_ok=True)
    srcs = sorted(os.path.join(root, "bench", "study", f)
                  for f in os.listdir(os.path.join(root, "bench", "study")) if f.endswith(".c"))
    found, problems = {}, []
    for width, wide in ((32, 0), (64, 1)):
        exe = os.path.join(hdir, f"rq_p{width}")
        if run(["cc", "-O2", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-DRQ_HOST",
                f"-DRQ_WIDE={wide}", f"-DLM_CFG_PRIORITIES={width}",
                "-I" + os.path.join(root, "include"),
                "-I" + os.path.join(root, "ports", "hosted", "include"),
                "-I" + os.path.join(root, "kernel", "include"),
                "-I" + os.path.join(root, "bench", "study"), *srcs, "-o", exe]) != 0:
            return {}, [f"study --host: {exe} did not build"]
        for f in os.listdir(hdir):
            if f.startswith(f"cg{width}."):
                os.remove(os.path.join(hdir, f))
        p = subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                            f"--callgrind-out-file={os.path.join(hdir, f'cg{width}.out')}", exe],
                           capture_output=True, text=True, check=False)
        if p.returncode != 0:
            problems.append(f"study --host p{width}: exit {p.returncode}")
            continue
        counts = {}
        for f in os.listdir(hdir):
            if not f.startswith(f"cg{width}.out."):
                continue
            label = ir = None
            with open(os.path.join(hdir, f)) as fh:
                for line in fh:
                    if line.startswith("desc: Trigger: Client Request: "):
                        label = line[len("desc: Trigger: Client Request: "):].strip()
                    elif line.startswith("summary: "):
                        ir = int(line.split()[1])
            if label is not None and ir is not None:
                counts[label] = ir
        for ln in p.stdout.splitlines():
            if not ln.startswith("RQ "):
                continue
            parts = ln.split()
            f = dict(kv.split("=") for kv in parts[2:])
            if f["label"] not in counts:
                problems.append(f"study --host: no count for {f['label']}")
                continue
            exp = found.setdefault(f"{f['mode']}/{f['levels']}", {})
            exp.setdefault(parts[1], {})[int(f["threads"])] = \
                counts[f["label"]] / int(f["decisions"])
    log(f"study --host: {sum(len(v) for e in found.values() for v in e.values())} figures "
        "counted by callgrind")
    return found, problems
