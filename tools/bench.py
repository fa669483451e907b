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


def quick(root, bdir, run, qemu_base, log, as_json, exact=False):
    """Builds bench/ into bdir, runs every image, prints the table (or JSON).
    Returns 0 when every figure was measured and every image's own check
    passed."""
    toolchain = os.path.join(root, "cmake", "arm-none-eabi.cmake")
    if run(["cmake", "-S", os.path.join(root, "bench"), "-B", bdir, "-G", "Ninja",
            f"-DCMAKE_TOOLCHAIN_FILE={toolchain}"]) != 0:
        return 1
    if run(["cmake", "--build", bdir]) != 0:
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
