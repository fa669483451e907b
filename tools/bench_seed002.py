# SPDX-License-Identifier: Apache-2.0
"""./limen bench seed002: seed 002's suite on QEMU mps2-an386 (Cortex-M4F), in
the bench and default configurations (docs/benchmarks.md, "Seed 002's
suite").

- context switch with 2, 5 and 10 threads: measure 2's images (yield +
  switch among equal-priority threads, instructions per yield);
- periodicity: bench/seed002/s2_period.c at 100 and 10 ms, with and without
  a less urgent load, through lm_thread_sleep_until;
- interrupt to thread: measure 3's image (a handler gives a semaphore, the
  waiting thread runs), exact;
- the application: bench/seed002/s2_fft_app.c (1 kHz timer interrupt ->
  queue -> FFT thread -> queue -> console thread), the FFT's and the
  frame's instructions, the peak found, and the share of instructions spent
  in the kernel, counted from QEMU's execution log.

Every figure is a count of guest instructions under -icount shift=0 and
repeats exactly from run to run.
"""
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import tempfile
import threading

import bench

# Periods per run: (full, short) for each period in ticks of 1 ms. The core
# never idles in these images (s2_period.c), so QEMU executes every
# instruction of their virtual time: about 30 s of host time per 1e9.
PERIOD_RUNS = {100: (20, 2), 10: (200, 5)}
FRAMES = (4, 2)
PEAK_BIN = 128  # 125 Hz in 1,024 bins of a 1 kHz sampling (s2_fft_app.c)
PEAK_MHZ = 125000
SAMPLE_PERIOD = 1000000  # instructions between two samples at 1 kHz (1 ns each)
# The idle thread's own instructions: neither kernel work nor application.
IDLE_FUNCTIONS = {"lmk_idle_entry", "lm_port_idle"}
PERIOD_FIELDS = ("bad", "latency_mean_x100", "latency_min", "latency_max", "error_mean_x100",
                 "error_max", "error_lo_biased", "error_hi_biased", "drift", "load_rounds")
FFT_FIELDS = ("frames", "fft_min", "fft_max", "frame_min", "frame_max", "peak_bin", "peak_mhz",
              "wrong_peaks", "samples", "overruns", "sample_period_x100")


def kernel_functions(bdir, cfg):
    """Names of the functions the kernel and port archive defines."""
    out = subprocess.run(["arm-none-eabi-nm", "--defined-only",
                          os.path.join(bdir, f"libkernel_{cfg}.a")],
                         capture_output=True, text=True, check=False).stdout
    return {p[2] for p in (ln.split() for ln in out.splitlines())
            if len(p) == 3 and p[1] in ("T", "t")}


def one_insn_per_tb(qemu_base):
    """QEMU's switch for one instruction per translation block: -singlestep
    up to 7.2, -accel tcg,one-insn-per-tb=on from 8.1 on."""
    m = re.search(r"version (\d+)\.(\d+)", bench.tool_version([qemu_base[0], "--version"]))
    if m and (int(m.group(1)), int(m.group(2))) >= (8, 1):
        return ["-accel", "tcg,one-insn-per-tb=on"]
    return ["-singlestep"]


def count_functions(qemu_base, elf, append, begin, end, timeout=600):
    """Runs elf with one instruction per block and QEMU's execution log
    (-d exec,nochain) written to a pipe, and counts the instructions run by
    each function between the first instruction of `begin` and the first of
    `end` (QEMU names the symbol holding each one). Returns (Counter, rc,
    console output)."""
    counts = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "exec.log")
        os.mkfifo(fifo)
        cmd = qemu_base[:-1] + one_insn_per_tb(qemu_base) + [
            "-d", "exec,nochain", "-D", fifo, qemu_base[-1], elf, "-append", append]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out = []
        reader = threading.Thread(target=lambda: out.append(p.stdout.read()))
        reader.start()
        state = 0  # 0 before `begin`, 1 counting, 2 after `end`
        with open(fifo, encoding="utf-8", errors="replace") as log:
            for line in log:
                if state == 2 or not line.startswith("Trace"):
                    continue
                sym = line[line.rfind(" ") + 1:-1]
                if state == 0:
                    if sym != begin:
                        continue
                    state = 1
                if sym == end:
                    state = 2
                    continue
                counts[sym] += 1
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = 124
        reader.join()
    return counts, rc, (out[0] if out else "").replace("\r\n", "\n")


def kernel_share(bdir, qemu_base, cfg, frames):
    """The FFT application's instructions between its markers (from the first
    sample of the first frame to the last peak written), split into kernel
    (the kernel and port archive), application (everything else: the timer
    handler, the FFT, the threads' own code, the console driver) and the
    idle thread; returns (dict, problem or None)."""
    elf = os.path.join(bdir, f"{cfg}-s2_fft.elf")
    counts, rc, out = count_functions(qemu_base, elf, f"frames={frames}",
                                      "s2_mark_begin", "s2_mark_end")
    fields = bench.parse(out)
    if rc != 0 or not counts or fields is None:
        return None, f"{cfg} s2_fft (execution log): exit {rc}, {sum(counts.values())} instructions"
    share = split_counts(counts, kernel_functions(bdir, cfg), fields["samples"])
    # The image's own figures in this run, compared with the plain run's:
    # one instruction per block must change nothing.
    share["_logged"] = {k: fields.get(k) for k in ("fft_max", "frame_max", "peak_bin")}
    return share, None


def split_counts(counts, kfun, samples):
    """Instructions by function -> kernel (functions of the kernel and port
    archive, `kfun`), idle (the idle thread's loop, though the archive
    defines it) and application (every other function); the share is
    kernel / (kernel + application)."""
    idle = sum(v for s, v in counts.items() if s in IDLE_FUNCTIONS)
    kernel = sum(v for s, v in counts.items() if s in kfun and s not in IDLE_FUNCTIONS)
    app = sum(v for s, v in counts.items() if s not in kfun and s not in IDLE_FUNCTIONS)
    top = sorted(((s, v) for s, v in counts.items() if s in kfun and s not in IDLE_FUNCTIONS),
                 key=lambda sv: (-sv[1], sv[0]))[:8]
    return {"kernel_instructions": kernel, "application_instructions": app,
            "idle_instructions": idle,
            "kernel_share": round(kernel / (kernel + app), 4) if kernel + app else None,
            "kernel_per_sample": round(kernel / samples, 1) if samples else None,
            "samples_counted": samples,
            "top_kernel_functions": dict(top)}


def run_fields(qemu_base, elf, append, timeout):
    try:
        p = subprocess.run(qemu_base + [elf, "-append", append], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, None
    return p.returncode, bench.parse(p.stdout.replace("\r\n", "\n"))


def check_period(fields, periods):
    """What is wrong with a periodicity run, or None."""
    if any(f not in fields for f in PERIOD_FIELDS):
        return "a figure is missing"
    if fields["periods"] != periods:
        return f"{fields['periods']} periods run, {periods} asked"
    if fields["bad"] != 0:
        return f"{fields['bad']} wake-ups not LM_OK on their deadline tick"
    if fields["load_rounds"] == 0:
        return "the less urgent thread never ran"
    return None


def check_fft(fields, frames):
    if any(f not in fields for f in FFT_FIELDS):
        return "a figure is missing"
    if fields["frames"] != frames or fields["samples"] < frames * 1024:
        return f"{fields['frames']} frames, {fields['samples']} samples"
    if fields["peak_bin"] != PEAK_BIN or fields["wrong_peaks"] != 0:
        return (f"peak bin {fields['peak_bin']} ({fields['wrong_peaks']} frames wrong), "
                f"not {PEAK_BIN}")
    if fields["overruns"] != 0:
        return f"{fields['overruns']} samples lost (queue full)"
    # The period is read at the receiving thread, from the first sample's
    # receive to the last one's: their paths differ (a wake, or a message
    # already queued) and the timer reads to 40 instructions, so over the
    # 2,047 periods of the shortest run the mean may be off by a fraction
    # of an instruction. A wrong sample rate is off by thousands.
    if abs(fields["sample_period_x100"] - 100 * SAMPLE_PERIOD) > 100:
        return (f"samples {fields['sample_period_x100'] / 100:,.2f} instructions apart, not "
                f"{SAMPLE_PERIOD:,} (1 kHz)")
    return None


def measure_seed002(bdir, qemu_base, log, short=False, configs=bench.CONFIGS):
    """Runs seed 002's suite (images already built); returns (results,
    problems). results: {config: {...}} as results.json's `seed002`."""
    pick = 1 if short else 0
    frames = FRAMES[pick]
    jobs = []
    for cfg in configs:
        jobs += [(cfg, "cs", n, None) for n in (2, 5, 10)]
        jobs.append((cfg, "irq", None, None))
        for period, runs in PERIOD_RUNS.items():
            jobs += [(cfg, "period", (period, load), runs[pick]) for load in (0, 1)]
        jobs.append((cfg, "fft", None, frames))
        jobs.append((cfg, "share", None, frames))
    # The longest first, so the two workers finish together.
    jobs.sort(key=lambda j: (j[1] != "period" or j[2][1] == 0, j[1] != "share"))

    def one(job):
        cfg, kind, arg, n = job
        if kind == "cs":
            return bench.run_image(qemu_base, os.path.join(bdir, f"{cfg}-m2_n{arg}.elf"), 120)
        if kind == "irq":
            return bench.run_image(qemu_base, os.path.join(bdir, f"{cfg}-m3.elf"), 120)
        if kind == "period":
            return run_fields(qemu_base,
                              os.path.join(bdir, f"{cfg}-s2_period_p{arg[0]}_l{arg[1]}.elf"),
                              f"periods={n}", 120 + n * arg[0] * 0.05)
        if kind == "fft":
            return run_fields(qemu_base, os.path.join(bdir, f"{cfg}-s2_fft.elf"),
                              f"frames={n}", 300)
        return kernel_share(bdir, qemu_base, cfg, n)

    res = {cfg: {"context_switch": {}, "interrupt_to_thread": None, "periodicity": {},
                 "fft_app": {}} for cfg in configs}
    problems = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for (cfg, kind, arg, n), got in zip(jobs, pool.map(one, jobs)):
            r = res[cfg]
            if kind in ("cs", "irq"):
                rc, out = got
                fields = bench.parse(out)
                if rc != 0 or fields is None:
                    problems.append(f"{cfg} {kind} {arg or ''}: exit {rc}, no result")
                    continue
                if kind == "cs":
                    r["context_switch"][str(arg)] = round(bench.figure(fields), 3)
                else:
                    r["interrupt_to_thread"] = fields["interval"]
            elif kind == "period":
                rc, fields = got
                name = f"p{arg[0]}_{'load' if arg[1] else 'idle'}"
                bad = (f"exit {rc}, no result" if rc != 0 or fields is None
                       else check_period(fields, n))
                if bad:
                    problems.append(f"{cfg} periodicity {name}: {bad}")
                    continue
                r["periodicity"][name] = {
                    "period_ms": arg[0], "load": bool(arg[1]), "periods": n,
                    "latency_mean": fields["latency_mean_x100"] / 100,
                    "latency_min": fields["latency_min"], "latency_max": fields["latency_max"],
                    "error_mean": fields["error_mean_x100"] / 100,
                    "error_worst": fields["error_max"],
                    "error_min": fields["error_lo_biased"] - 2 ** 31,
                    "error_max": fields["error_hi_biased"] - 2 ** 31,
                    "error_worst_percent": round(100 * fields["error_max"] / (arg[0] * 1e6), 6),
                    "drift": fields["drift"], "load_rounds": fields["load_rounds"]}
            elif kind == "fft":
                rc, fields = got
                bad = (f"exit {rc}, no result" if rc != 0 or fields is None
                       else check_fft(fields, n))
                if bad:
                    problems.append(f"{cfg} fft app: {bad}")
                    continue
                r["fft_app"].update({
                    "frames": n, "points": fields["points"],
                    "fft_instructions": fields["fft_max"],
                    "fft_instructions_min": fields["fft_min"],
                    "frame_instructions": fields["frame_max"],
                    "frame_instructions_min": fields["frame_min"],
                    "peak_bin": fields["peak_bin"], "peak_hz": fields["peak_mhz"] / 1000,
                    "samples": fields["samples"], "overruns": fields["overruns"],
                    "sample_period": fields["sample_period_x100"] / 100})
            else:
                share, bad = got
                if bad:
                    problems.append(bad)
                    continue
                r["fft_app"].update(share)
    for cfg in configs:
        fa = res[cfg]["fft_app"]
        logged = fa.pop("_logged", None)
        if logged and "fft_instructions" in fa and logged != {
                "fft_max": fa["fft_instructions"], "frame_max": fa["frame_instructions"],
                "peak_bin": fa["peak_bin"]}:
            problems.append(f"{cfg} fft app: the execution-log run measured {logged}, the "
                            "plain run other figures")
    log(f"seed 002: ran {len(jobs)} images ({'short' if short else 'full'} runs)")
    return res, problems


def text(res, header):
    lines = list(header)
    cfgs = list(res)
    lines += ["", "| figure | " + " | ".join(f"Limen {c}" for c in cfgs) + " |",
              "|---|" + "---|" * len(cfgs)]

    def row(name, get, f="{:,}"):
        cells = []
        for c in cfgs:
            try:
                v = get(res[c])
            except (KeyError, TypeError):
                v = None
            cells.append("-" if v is None else f.format(v))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    for n in ("2", "5", "10"):
        row(f"context switch, {n} threads (yield + switch, instr/yield)",
            lambda r, n=n: r["context_switch"][n], "{:,.3f}")
    row("interrupt -> waiting thread (instr, exact)", lambda r: r["interrupt_to_thread"])
    for period in (100, 10):
        for load in ("idle", "load"):
            k = f"p{period}_{load}"
            what = f"{period} ms, {'with' if load == 'load' else 'no'} load"
            row(f"periodicity {what}: periods", lambda r, k=k: r["periodicity"][k]["periods"])
            row(f"periodicity {what}: tick -> thread, mean / min / max (instr)",
                lambda r, k=k: "{:,.1f} / {:,} / {:,}".format(
                    r["periodicity"][k]["latency_mean"], r["periodicity"][k]["latency_min"],
                    r["periodicity"][k]["latency_max"]), "{}")
            row(f"periodicity {what}: period error, mean / worst (instr)",
                lambda r, k=k: "{:,.1f} / {:,}".format(
                    r["periodicity"][k]["error_mean"], r["periodicity"][k]["error_worst"]), "{}")
            row(f"periodicity {what}: worst error, % of the period",
                lambda r, k=k: r["periodicity"][k]["error_worst_percent"], "{:.6f}")
    row("FFT app: 1,024-point real FFT (instr)", lambda r: r["fft_app"]["fft_instructions"])
    row("FFT app: frame = FFT + peak + send (instr)",
        lambda r: r["fft_app"]["frame_instructions"])
    row("FFT app: peak found (Hz; bin)", lambda r: "{:.3f}; {}".format(
        r["fft_app"]["peak_hz"], r["fft_app"]["peak_bin"]), "{}")
    row("FFT app: kernel share of the instructions run (idle excluded)",
        lambda r: f"{100 * r['fft_app']['kernel_share']:.1f} %", "{}")
    row("FFT app: kernel / application / idle instructions", lambda r: "{:,} / {:,} / {:,}".format(
        r["fft_app"]["kernel_instructions"], r["fft_app"]["application_instructions"],
        r["fft_app"]["idle_instructions"]), "{}")
    row("FFT app: kernel instructions per sample", lambda r: r["fft_app"]["kernel_per_sample"],
        "{:,.1f}")
    return "\n".join(lines)


def seed002(root, bdir, run, qemu_base, log, as_json, short=False):
    """Builds bench/, runs seed 002's suite, prints the table (or JSON).
    Returns 0 when every image ran and passed its own checks."""
    if bench.build(root, bdir, run) != 0:
        return 1
    res, problems = measure_seed002(bdir, qemu_base, log, short)
    gcc = bench.tool_version(["arm-none-eabi-gcc", "--version"])
    qemu = bench.tool_version([qemu_base[0], "--version"])
    command = " ".join(qemu_base) + " <image>.elf"
    if as_json:
        print(json.dumps({"compiler": gcc, "qemu": qemu, "qemu_command": command,
                          "unit": "instructions", "short": short,
                          "configs": {c: bench.CONFIG_TEXT[c] for c in res},
                          "seed002": res, "problems": problems}, indent=2, sort_keys=True))
    else:
        print(text(res, [
            "Seed 002's suite on QEMU mps2-an386 (Cortex-M4F), guest instructions (-icount)",
            f"compiler: {gcc}", f"QEMU:     {qemu}", f"command:  {command}",
            "bench = configs/bench.h with statistics off; default = no configuration header",
            "kernel share: QEMU's execution log, one instruction per block, each instruction "
            "counted for the function holding it"]))
    for p in problems:
        log(f"bench: {p}")
    return 1 if problems else 0
