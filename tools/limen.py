#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""limen: build, run and test Limen.

    ./limen demo [--json]    the producer-consumer experiment (seeds 000/001)
                             on QEMU mps2-an386 (Cortex-M4F); --host: hosted port
    ./limen test             every test, under AddressSanitizer and UBSan; the
                             QEMU boards; examples/external-app; the STM32 image check
    ./limen bench quick      measures 1-6 against the reference kernels [--json]
    ./limen bench thread-metric   the eight Thread-Metric tests, 1 s periods [--json]
    ./limen bench series     seed 003's series: cost against waiters, expiries [--json]
    ./limen bench seed002    seed 002's suite: switch, periodicity, interrupt, FFT app [--json]
    ./limen bench [report]   every benchmark: build/bench/report.md, results.json, plots
    ./limen bench study      seed 004's ready-queue study on Cortex-M4 [--json]
    ./limen bench crosscheck measures 1-6 against the reference harness on this tree
    ./limen cmsis-validate --suite PATH
                             Arm's CMSIS-RTOS2 validation suite (a copy outside
                             this tree) on the CMSIS-RTOS2 layer under QEMU
    ./limen trace record     record the experiment's three cases (QEMU or --host)
    ./limen trace summary F  TraceX-style statistics of a trace [--cycles EVENT] [--json]
    ./limen trace html F     a self-contained HTML timeline; export F: Chrome JSON, CTF, .trx
    ./limen trace live ELF   a running target's trace over GDB's remote protocol, like top
    ./limen setup            install what is missing (Debian, as root)
    ./limen --version        Limen's version (include/limen/version.h)

Standard library only, so it runs before anything is installed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# command on PATH -> Debian package that provides it
HOST_TOOLS = {"cmake": "cmake", "ninja": "ninja-build", "gcc": "gcc", "make": "make"}
ARM_TOOLS = {"arm-none-eabi-gcc": "gcc-arm-none-eabi", "qemu-system-arm": "qemu-system-arm"}
# newlib has no command to look for; it comes with the toolchain here.
ARM_PACKAGES = ["libnewlib-arm-none-eabi"]

# Under -icount shift=0 one guest instruction is 1 ns of virtual time
# (docs/measuring.md); align/sleep off make the run independent of the host.
QEMU_ICOUNT = "shift=0,align=off,sleep=off"
BOARDS = {"mps2-an386": "mps2-an386", "mps2-an385": "mps2-an385", "mps2-an500": "mps2-an500",
          # The Armv6-M port: on a Cortex-M3 (Armv6-M code, plenty of memory)
          # and on the micro:bit's Cortex-M0 (16 KiB of RAM).
          "mps2-an385-v6m": "mps2-an385", "microbit": "microbit",
          # Armv8-M Mainline (ports/armv8m), Secure state as QEMU boots it,
          # and Non-secure behind a small Secure firmware (mps2-an505-ns).
          "mps2-an505": "mps2-an505", "mps2-an505-ns": "mps2-an505",
          "mps3-an547": "mps3-an547"}
# Boards whose RAM cannot hold the event recorder's demo (the demo's second part).
DEMO_NO_TRACE = {"microbit": "16 KiB of RAM cannot hold the event recorder's buffer"}
# The target sweep needs the test timer to place its interrupts
# (tests/target/lmt_timer.h); the micro:bit has none. mps2-an505-ns leaves
# it to mps2-an505 (the same switch path).
SWEEP_BOARDS = sorted(b for b in BOARDS if b not in ("mps2-an505-ns", "microbit"))


def log(msg):
    print(f"[limen] {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    """Run a build step; its output goes to stderr so stdout stays the
    program's own (the demo's --json output is clean). Logs how long it took."""
    log(" ".join(cmd))
    kw.setdefault("stdout", sys.stderr)
    start = time.monotonic()
    rc = subprocess.run(cmd, cwd=ROOT, check=False, **kw).returncode
    log(f"  {os.path.basename(cmd[0])}: {time.monotonic() - start:.1f} s"
        + (f", exit status {rc}" if rc else ""))
    return rc


def project_version():
    """The version, from include/limen/version.h: the one place it is
    written (CMakeLists.txt reads it too)."""
    with open(os.path.join(ROOT, "include", "limen", "version.h"), encoding="utf-8") as f:
        m = re.search(r'^#define LM_VERSION_STRING "(\d+\.\d+\.\d+)"', f.read(), re.M)
    return m.group(1) if m else "unknown"


def setup(tools=HOST_TOOLS, extra=()):
    missing = sorted({pkg for exe, pkg in tools.items() if shutil.which(exe) is None})
    if missing:
        missing += list(extra)
    if not missing:
        return 0
    if os.geteuid() != 0:
        log("missing: " + " ".join(missing))
        log("install them with: sudo apt-get install -y " + " ".join(missing))
        return 1
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(["apt-get", "update"], env=env).returncode != 0:
        return 1
    return subprocess.run(["apt-get", "install", "-y", *missing], env=env).returncode


def versions(cmds=(["gcc", "--version"], ["cmake", "--version"])):
    for cmd in cmds:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()
        log(out[0] if out else f"{cmd[0]}: unknown version")


def build(preset, targets=()):
    if run(["cmake", "--preset", preset]) != 0:
        return 1
    cmd = ["cmake", "--build", "--preset", preset]
    for t in targets:
        cmd += ["--target", t]
    return run(cmd)


def qemu_run(board, elf, timeout=300, cwd=ROOT):
    """Run an image under QEMU (in cwd: where semihosting writes files);
    returns (exit code, console output)."""
    cmd = ["qemu-system-arm", "-M", BOARDS[board], "-nographic", "-monitor", "none",
           "-semihosting-config", "enable=on,target=native", "-icount", QEMU_ICOUNT,
           "-kernel", elf]
    log(" ".join(cmd))
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out
    return p.returncode, p.stdout.replace("\r\n", "\n")


def cmd_demo(args):
    if args.check or args.write:
        return demo_figures(args.write, args.board)
    if args.host:
        if setup() != 0 or build("host-release", ["producer_consumer"]) != 0:
            return 1
        exe = os.path.join(ROOT, "build", "host-release", "examples", "producer_consumer",
                           "producer_consumer")
        versions()
        return subprocess.run([exe] + (["--json"] if args.json else []), cwd=ROOT).returncode
    board = args.board
    if setup({**HOST_TOOLS, **ARM_TOOLS}, ARM_PACKAGES) != 0:
        return 1
    if args.config is None:
        bdir = os.path.join(ROOT, "build", board)
        if build(board, ["producer_consumer"]) != 0:
            return 1
    else:
        # The board's preset with a configuration header from configs/.
        bdir = os.path.join(ROOT, "build", f"{board}-{args.config}")
        header = os.path.join(ROOT, "configs", f"{args.config}.h")
        if run(["cmake", "--preset", board, "-B", bdir, f"-DLIMEN_CONFIG_HEADER={header}",
                "-DLIMEN_BUILD_TESTS=OFF"]) != 0 or \
                run(["cmake", "--build", bdir, "--target", "producer_consumer"]) != 0:
            return 1
    versions([["arm-none-eabi-gcc", "--version"], ["qemu-system-arm", "--version"]])
    elf = os.path.join(bdir, "examples", "producer_consumer", "producer_consumer.elf")
    rc, out = qemu_run(board, elf)
    if rc != 0:
        sys.stderr.write(out)
        log(f"QEMU exited with {rc}")
        return 1
    version = [l for l in out.splitlines() if l.startswith("Limen ")]
    table = [l for l in out.splitlines() if not l.startswith(("JSON: ", "Limen "))]
    js = [l[len("JSON: "):] for l in out.splitlines() if l.startswith("JSON: ")]
    if args.json:
        print(js[-1] if js else "{}")
        return 0
    config = f"configs/{args.config}.h" if args.config else "default configuration"
    print(f"{version[0] if version else 'Limen'} producer-consumer (seeds 000/001) on QEMU "
          f"{board}, -icount {QEMU_ICOUNT}, {config}")
    print("(instructions executed, not cycles of a real core: docs/measuring.md)\n")
    print("\n".join(table))
    print(EXPLANATION)
    if board in DEMO_NO_TRACE:
        print(f"\nNo event trace on {board}: {DEMO_NO_TRACE[board]}.")
        return 0
    return demo_traces(board)


def demo_traces(board):
    """The demo's second part: the three cases recorded with the event
    recorder (examples/producer_consumer/main_trace.c), the statistics of
    one cycle of each from its trace, and an HTML timeline of each."""
    outdir = os.path.join(build_root(), board, "traces")
    files = trace_record(board, outdir)
    if files is None:
        return 1
    from limentrace import analysis, decode, html
    print("\nPer cycle, from the event trace (records between two marks of D's loop, "
          "docs/trace.md):\n")
    print(f"{'case':<10} {'switches':>9} {'preemptions':>12} {'relinquishes':>13} "
          f"{'resumptions':>12} {'suspensions':>12} {'queue ops':>10} {'records':>8}")
    for case in DEMO_CASES:
        tr = decode.load(files[case])
        cyc = analysis.cycles(tr, "cycle")
        c = cyc[-1].counters  # the last whole cycle; every cycle counts the same
        print(f"{case:<10} {c['context_switches']:>9} {c['preemptions']:>12} "
              f"{c['relinquishes']:>13} {c['resumptions']:>12} {c['suspensions']:>12} "
              f"{c['object_operations']:>10} {cyc[-1].end - cyc[-1].first:>8}")
    print("\nTimelines (open in a browser; wheel zooms, drag pans, shift-drag selects):")
    for case in DEMO_CASES:
        out = os.path.splitext(files[case])[0] + ".html"
        with open(out, "w", encoding="utf-8") as f:
            f.write(html.render(decode.load(files[case]), title=f"Limen producer-consumer: {case}"))
        print(f"  {case:<10} {out}")
    return 0


def trace_record(board, outdir):
    """Build and run producer_consumer_trace (board under QEMU, or "host"),
    its traces saved into outdir: {case: path}, or None."""
    os.makedirs(outdir, exist_ok=True)
    if board == "host":
        bdir = build_preset_in("host-release", ["producer_consumer_trace"])
        if bdir is None:
            return None
        exe = os.path.join(bdir, "examples", "producer_consumer", "producer_consumer_trace")
        p = subprocess.run([exe, outdir], capture_output=True, text=True)
        rc, out = p.returncode, p.stdout
    else:
        bdir = build_preset_in(board, ["producer_consumer_trace"])
        if bdir is None:
            return None
        elf = os.path.join(bdir, "examples", "producer_consumer", "producer_consumer_trace.elf")
        # Semihosting writes the files into QEMU's working directory.
        rc, out = qemu_run(board, elf, cwd=outdir)
    if rc != 0:
        sys.stderr.write(out)
        log(f"producer_consumer_trace exited with {rc}")
        return None
    return {c: os.path.join(outdir, f"pc-{c}.lmtrace") for c in DEMO_CASES}


def cmd_trace(args):
    if args.trace_cmd == "record":
        files = trace_record("host" if args.host else args.board,
                             os.path.abspath(args.output))
        if files is None:
            return 1
        print("\n".join(files[c] for c in DEMO_CASES))
        return 0
    return args.trace_fn(args)


DEMO_CASES = ("equal", "unique", "threshold")


def demo_measure(config=None, board="mps2-an386"):
    """The demo image built in build_root() (with configs/<config>.h if
    given) and run under QEMU: (its table, {case: JSON figures}), or None."""
    import json
    if config is None:
        bdir = build_preset_in(board, ["producer_consumer"])
    else:
        bdir = os.path.join(build_root(), f"{board}-{config}")
        header = os.path.join(ROOT, "configs", f"{config}.h")
        if run(["cmake", "--preset", board, "-B", bdir, f"-DLIMEN_CONFIG_HEADER={header}",
                "-DLIMEN_BUILD_TESTS=OFF"]) != 0 or \
                run(["cmake", "--build", bdir, *build_jobs(), "--target",
                     "producer_consumer"]) != 0:
            bdir = None
    if bdir is None:
        return None
    rc, out = qemu_run(board, os.path.join(bdir, "examples", "producer_consumer",
                                           "producer_consumer.elf"))
    js = [l[len("JSON: "):] for l in out.splitlines() if l.startswith("JSON: ")]
    if rc != 0 or not js:
        sys.stderr.write(out)
        log(f"demo ({config or 'default'}): QEMU exited with {rc}")
        return None
    table = "\n".join(l for l in out.splitlines() if not l.startswith(("JSON: ", "Limen ")))
    cases = {c["name"]: c for c in json.loads(js[-1])["cases"]}
    return table, cases


def demo_rules(table, default, bench):
    """Where the documents quote the demo (default and configs/bench.h on
    mps2-an386): README's table and bench figures, CAVEATS, measuring.md."""
    def instr(cases):
        return [thousands(cases[c]["instructions_per_cycle"]) for c in DEMO_CASES]
    rules = [
        ("README.md", r"^```\n(case +messages .*?)\n```$", [table]),
        ("README.md", r"measured \((\S+) / (\S+) / (\S+) instructions\)", instr(bench)),
        ("CAVEATS.md", r"takes\s+(\S+) / (\S+) / (\S+) instructions \(equal / unique / threshold\)",
         instr(default)),
        ("CAVEATS.md", r"and (\S+) /\s+(\S+) /\s+(\S+) with argument checks off", instr(bench)),
        ("docs/measuring.md", r"It runs the three cases in (\S+) / (\S+) / (\S+) instructions\.",
         instr(bench)),
    ]
    for c in DEMO_CASES:
        f = default[c]
        rules.append(("docs/measuring.md", rf"^\| {c} \| (\d+) \| (\d+) \| (\S+) \| ≤",
                      [str(f["context_switches_per_cycle"]), str(f["preemptions_per_cycle"]),
                       thousands(f["instructions_per_cycle"])]))
    return rules


# The boards docs/measuring.md gives figures for, per architecture ("Per
# architecture"): ./limen test checks each board's rows when it runs it.
ARCH_BOARDS = ("mps2-an386", "mps2-an385-v6m", "microbit")


def arch_demo_rules(board, default, bench):
    """docs/measuring.md's per-architecture rows of the demo on `board`."""
    rules = []
    for config, cases in (("default", default), ("bench", bench)):
        rules.append(("docs/measuring.md",
                      rf"^\| [^|\n]+ \| `{board}` [^|\n]*\| {config} \| (\S+) \| (\S+) \| (\S+) \|$",
                      [thousands(cases[c]["instructions_per_cycle"]) for c in DEMO_CASES]))
    return rules


def demo_figures(write=False, board="mps2-an386"):
    """./limen demo --check / --write: the demo's figures on `board`, in
    the default configuration and with configs/bench.h, against the
    documents that quote them (mps2-an386: README, CAVEATS and
    docs/measuring.md; the other boards: docs/measuring.md's rows)."""
    if setup({**HOST_TOOLS, **ARM_TOOLS}, ARM_PACKAGES) != 0:
        return 1
    default, bench = demo_measure(board=board), demo_measure("bench", board=board)
    if default is None or bench is None:
        return 1
    rules = arch_demo_rules(board, default[1], bench[1])
    if board == "mps2-an386":
        rules = demo_rules(default[0], default[1], bench[1]) + rules
    stale = doc_figures(rules, write)
    return figures_verdict(f"demo ({board})", stale, write)


EXPLANATION = """
equal:     A, B, C and D share priority 4 and take turns (round-robin). D fills
           all three queues, relinquishes, and each consumer drains its queue in
           one go: D->A->B->C->D, 4 switches per cycle, no preemption.
unique:    A=1, B=2, C=3 are more urgent than D=4, so each of D's 9 sends wakes
           a consumer that preempts D at once and blocks again after one
           message: 18 switches and 9 preemptions per cycle.
threshold: the same priorities, but D's preemption-threshold is 1: no consumer
           may preempt D while it sends; its relinquish lets them all run:
           back to 4 switches per cycle, with the unique priorities kept.
Seeds 000/001 measured the same counts with ThreadX on real hardware; the
fewer switches, the more messages per million instructions."""


# Boards that are built and checked but not run here (no QEMU model): the
# image each one builds, and the CMake target that checks it
# (tools/check_image.py with the board's memory map, from its board.cmake).
CHECKED_BOARDS = {"stm32f429i-disc1": "producer_consumer", "nucleo-g071rb": "producer_consumer",
                  "b-u585i-iot02a": "producer_consumer"}

EXTERNAL_APP = os.path.join(ROOT, "examples", "external-app")
# What examples/external-app prints, whichever way it was built.
EXTERNAL_APP_OUTPUT = (
    [f"external-app: Limen {project_version()}, headers {project_version()}",
     "external-app: kernel priorities 16: priority 15 LM_OK, priority 16 LM_ERR_PRIORITY"]
    + [line for i in range(1, 6)
       for line in (f"producer: gives item {i}", f"consumer: took item {i}")]
    + ["external-app: 5 items through the semaphore, done"])


def build_root():
    """Where `test` builds: $LIMEN_BUILD_ROOT, else build/ in the tree (the
    presets' own directories)."""
    return os.path.abspath(os.environ.get("LIMEN_BUILD_ROOT") or os.path.join(ROOT, "build"))


def build_jobs():
    """$LIMEN_JOBS: parallel build jobs (default: the build tool's own)."""
    jobs = os.environ.get("LIMEN_JOBS")
    return ["-j", jobs] if jobs else []


def build_preset_in(preset, targets=()):
    """Configure and build a preset in build_root()/<preset>; returns the
    build directory, or None on failure."""
    bdir = os.path.join(build_root(), preset)
    if run(["cmake", "--preset", preset, "-B", bdir]) != 0:
        return None
    cmd = ["cmake", "--build", bdir, *build_jobs()]
    for t in targets:
        cmd += ["--target", t]
    return bdir if run(cmd) == 0 else None


def cmake_build(src, bdir, options, install_prefix=None):
    """Configure src into bdir with options, build it and optionally install."""
    if run(["cmake", "-S", src, "-B", bdir, "-G", "Ninja", *options]) != 0:
        return False
    if run(["cmake", "--build", bdir, *build_jobs()]) != 0:
        return False
    if install_prefix is not None:
        shutil.rmtree(install_prefix, ignore_errors=True)
        return run(["cmake", "--install", bdir, "--prefix", install_prefix]) == 0
    return True


def check_output(what, out):
    lines = [l.rstrip("\r") for l in out.splitlines()]
    if lines != EXTERNAL_APP_OUTPUT:
        sys.stderr.write(out)
        log(f"{what}: unexpected output (expected {len(EXTERNAL_APP_OUTPUT)} lines "
            f"ending with {EXTERNAL_APP_OUTPUT[-1]!r})")
        return False
    log(f"{what}: output as expected")
    return True


def external_app(board=None):
    """examples/external-app built both ways, (a) add_subdirectory of this
    tree and (b) find_package from a `cmake --install` of Limen made with
    the application's configuration header, then run: on the hosted port
    (with the sanitizers) or on a QEMU board. Returns the ways that failed."""
    tag = board or "host"
    root = os.path.join(build_root(), "external-app")
    if board is None:
        common = ["-DCMAKE_BUILD_TYPE=Debug"]
        limen = ["-DLIMEN_PORT=hosted", "-DLIMEN_SANITIZE=ON"]
    else:
        toolchain = os.path.join(ROOT, "cmake", "arm-none-eabi.cmake")
        common = ["-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_TOOLCHAIN_FILE={toolchain}"]
        limen = [f"-DLIMEN_BOARD={board}"]
    failed = []
    for way in ("add_subdirectory", "find_package"):
        what = f"external-app ({way}, {tag})"
        if way == "add_subdirectory":
            bdir = os.path.join(root, f"subdir-{tag}")
            ok = cmake_build(EXTERNAL_APP, bdir,
                             common + limen + [f"-DLIMEN_SOURCE_DIR={ROOT}"])
        else:
            # Limen itself, configured for the application and installed.
            prefix = os.path.join(root, f"prefix-{tag}")
            config = os.path.join(EXTERNAL_APP, "app_limen_config.h")
            ok = cmake_build(ROOT, os.path.join(root, f"limen-{tag}"),
                             common + limen + [f"-DLIMEN_CONFIG_HEADER={config}",
                                               "-DLIMEN_BUILD_TESTS=OFF",
                                               "-DLIMEN_BUILD_EXAMPLES=OFF",
                                               "-DLIMEN_INSTALL=ON"],
                             install_prefix=prefix)
            bdir = os.path.join(root, f"package-{tag}")
            ok = ok and cmake_build(EXTERNAL_APP, bdir,
                                    common + [f"-DCMAKE_PREFIX_PATH={prefix}"])
            if ok and not version_refused(prefix, os.path.join(root, f"package-{tag}-9.0"),
                                          common):
                failed.append("find_package version check")
        if not ok:
            log(f"{what}: build failed")
            failed.append(way)
            continue
        if board is None:
            exe = os.path.join(bdir, "external_app")
            log(exe)
            p = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True, timeout=120)
            sys.stderr.write(p.stderr)
            rc, out = p.returncode, p.stdout
        else:
            rc, out = qemu_run(board, os.path.join(bdir, "external_app.elf"), timeout=120)
        if rc != 0 or not check_output(what, out):
            log(f"{what}: FAILED (exit status {rc})")
            failed.append(way)
    return failed


CMSIS_APP = os.path.join(ROOT, "examples", "cmsis-rtos2-app")
# What examples/cmsis-rtos2-app prints after its first line.
CMSIS_APP_OUTPUT = (
    [f"consumer: reading {n} = {n * 10} (priority {1 if n == 4 else 0})" for n in (4, 1, 2, 3, 5)]
    + ["cmsis-rtos2-app: timer ran 5 times in 10 ticks", "cmsis-rtos2-app: done"])


def cmsis_app_package(board=None):
    """examples/cmsis-rtos2-app, an application written against CMSIS-RTOS2
    only, built through find_package(limen) from the install external_app()
    made (limen::cmsis_rtos2) and run. Returns True if it printed what it
    must."""
    tag = board or "host"
    root = os.path.join(build_root(), "external-app")
    prefix = os.path.join(root, f"prefix-{tag}")
    if board is None:
        common = ["-DCMAKE_BUILD_TYPE=Debug"]
    else:
        common = ["-DCMAKE_BUILD_TYPE=Release",
                  f"-DCMAKE_TOOLCHAIN_FILE={os.path.join(ROOT, 'cmake', 'arm-none-eabi.cmake')}"]
    bdir = os.path.join(root, f"cmsis-app-{tag}")
    if not cmake_build(CMSIS_APP, bdir, common + [f"-DCMAKE_PREFIX_PATH={prefix}"]):
        log(f"cmsis-rtos2-app (find_package, {tag}): build failed")
        return False
    if board is None:
        p = subprocess.run([os.path.join(bdir, "cmsis_rtos2_app")], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
        rc, out = p.returncode, p.stdout
    else:
        rc, out = qemu_run(board, os.path.join(bdir, "cmsis_rtos2_app.elf"), timeout=120)
    lines = [l.rstrip("\r") for l in out.splitlines()][1:]
    if rc != 0 or lines != CMSIS_APP_OUTPUT:
        sys.stderr.write(out)
        log(f"cmsis-rtos2-app (find_package, {tag}): FAILED (exit status {rc})")
        return False
    log(f"cmsis-rtos2-app (find_package, {tag}): output as expected")
    return True


def version_refused(prefix, bdir, common):
    """An application asking the installed package for version 9.0 must be
    refused at configure time, by the package's version file."""
    shutil.rmtree(bdir, ignore_errors=True)
    cmd = ["cmake", "-S", EXTERNAL_APP, "-B", bdir, "-G", "Ninja", *common,
           f"-DCMAKE_PREFIX_PATH={prefix}", "-DLIMEN_WANTED_VERSION=9.0"]
    log(" ".join(cmd) + "   (must fail)")
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode != 0 and 'requested version "9.0"' in out and project_version() in out:
        log(f"find_package(limen 9.0): refused by the {project_version()} install, as it must be")
        return True
    sys.stderr.write(out)
    log(f"find_package(limen 9.0): not refused by the {project_version()} install "
        f"(exit status {p.returncode})")
    return False


def errors_doc_current(bdir):
    """docs/errors.md lists the bad-input sweep's pairs: every table row the
    sweep prints (LMT_BAD_INPUT_TABLE=1) and its pair count must be there."""
    exe = os.path.join(bdir, "tests", "test_bad_input")
    p = subprocess.run([exe], capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, LMT_BAD_INPUT_TABLE="1"))
    with open(os.path.join(ROOT, "docs", "errors.md"), encoding="utf-8") as f:
        doc = f.read()
    missing = [l for l in p.stdout.splitlines() if l.startswith("| ") and l not in doc]
    count = re.search(r"sweep: (\d+) \(call, bad input\) pairs", p.stdout)
    ok = p.returncode == 0 and count is not None and not missing and \
        f"**{count.group(1)} pairs**" in doc
    if not ok:
        log("docs/errors.md does not match the bad-input sweep; "
            "`LMT_BAD_INPUT_TABLE=1 test_bad_input` prints the tables and the count:")
        for l in missing:
            log("  missing: " + l)
    return ok


def release_checks():
    """What a user reads before the code: every source file names its
    licence (tools/check_spdx.py), and README's first screen and
    CHANGELOG.md's latest release name the version of CMakeLists.txt."""
    rc = run([sys.executable, os.path.join("tools", "check_spdx.py")])
    version = project_version()
    stale = doc_figures([
        ("README.md", r"\A(?:[^\n]*\n){0,4}Version (\S+), \[Apache License 2\.0\]", [version]),
        ("CHANGELOG.md", r"^## \[(\d[^\]]*)\]", [version]),
        ("examples/external-app/README.md", r"^external-app: Limen (\S+), headers (\S+)$",
         [version, version]),
    ])
    if stale:
        log(f"version {version} (include/limen/version.h): README's first lines "
            "and the latest release in CHANGELOG.md must name it")
    return 1 if rc or stale else 0


def cmd_test(args):
    """Host tests under the sanitizers and the external application on the
    hosted port; every QEMU board's tests (and the external application on
    mps2-an386); the boards that are only built, with their image checks.
    Builds in $LIMEN_BUILD_ROOT (default build/)."""
    selected = args.board or sorted(BOARDS) + sorted(CHECKED_BOARDS)
    boards = [] if args.host_only else [b for b in selected if b in BOARDS]
    checked = [] if args.host_only else [b for b in selected if b in CHECKED_BOARDS]
    arm = bool(boards or checked)
    tools = {**HOST_TOOLS, **(ARM_TOOLS if arm else {})}
    if setup(tools, ARM_PACKAGES if arm else ()) != 0:
        return 1
    versions()
    log(f"build root: {build_root()}")
    failed = []
    if release_checks() != 0:
        failed.append("licence lines or version (tools/check_spdx.py, README, CHANGELOG.md)")
    bdir = build_preset_in("host-asan")
    if bdir is None or run(["ctest", "--test-dir", bdir, "--output-on-failure",
                            "--timeout", "120", "--no-tests=error"], stdout=None) != 0:
        failed.append("host")
    elif not errors_doc_current(bdir):
        failed.append("docs/errors.md bad-input tables")
    failed += [f"external-app {w} (host)" for w in external_app()]
    if not cmsis_app_package():
        failed.append("cmsis-rtos2-app find_package (host)")
    if cmd_lint(args) != 0:
        failed.append("lint (cppcheck, clang-tidy)")
    if cmd_coverage(args) != 0:
        failed.append("coverage run")
    if cmd_fuzz(argparse.Namespace(what="replay")) != 0:
        failed.append("fuzz corpus replay")
    if arm and cmd_sizes(argparse.Namespace(check="docs/design.md")) != 0:
        failed.append("docs/design.md sizes table")
    if arm and cmd_size(argparse.Namespace(board="mps2-an386", check=True, write=False)) != 0:
        failed.append("footprint figures (./limen size --check: README, CAVEATS)")
    if arm:
        versions([["arm-none-eabi-gcc", "--version"], ["qemu-system-arm", "--version"]])
    for board in boards:
        bdir = build_preset_in(board)
        if bdir is None or run(["ctest", "--test-dir", bdir, "--output-on-failure",
                                "--timeout", "120"], stdout=None) != 0:
            failed.append(board)
        # The Armv6-M figures of docs/measuring.md ("Per architecture").
        if board in ARCH_BOARDS and board != "mps2-an386" and demo_figures(board=board) != 0:
            failed.append(f"demo figures ({board}: ./limen demo --check --board {board})")
        if board == "mps2-an385-v6m" and cmd_size(
                argparse.Namespace(board=board, check=True, write=False)) != 0:
            failed.append(f"footprint figures ({board}: ./limen size --check --board {board})")
        if board == "mps2-an386":
            failed += [f"external-app {w} ({board})" for w in external_app(board)]
            if not cmsis_app_package(board):
                failed.append(f"cmsis-rtos2-app find_package ({board})")
            if demo_figures() != 0:
                failed.append("demo figures (./limen demo --check: README, CAVEATS, "
                              "docs/measuring.md)")
            # A smoke run: every image builds, runs and prints its figure
            # (no threshold on any figure).
            if cmd_bench(argparse.Namespace(what="quick", json=False, exact=False)) != 0:
                failed.append("bench quick")
            # Thread-Metric: every test runs two short periods (10 ms) in
            # both configurations and reports each with consistent,
            # rising counts.
            if cmd_bench(argparse.Namespace(what="thread-metric", json=False, periods=2,
                                            ticks_per_second=10, config="both",
                                            originals=None)) != 0:
                failed.append("bench thread-metric")
            # Seed 003's series and seed 004's study: every image runs and
            # passes its own checks.
            for what in ("series", "study"):
                if cmd_bench(argparse.Namespace(what=what, json=False, host=False)) != 0:
                    failed.append(f"bench {what}")
            # Seed 002's suite, short: every part runs, reports every
            # figure and passes its own checks (the FFT's peak, every
            # periodic wake-up on its deadline tick).
            if cmd_bench(argparse.Namespace(what="seed002", json=False, short=True)) != 0:
                failed.append("bench seed002")
    if "mps2-an386" in boards and trace_tests() != 0:
        failed.append("trace tools (pytest tools/tests)")
    for board in checked:
        image = CHECKED_BOARDS[board]
        # Builds the image, then tools/check_image.py on it (not run).
        if build_preset_in(board, [f"check_image_{image}"]) is None:
            failed.append(f"{board} (image check)")
    if failed:
        log("FAILED: " + ", ".join(failed))
        return 1
    log("all tests passed: host, external-app" + "".join(", " + b for b in boards) +
        "".join(f", {b} (built and checked, not run)" for b in checked))
    return 0


# What the trace tools' tests need in their virtual environment.
TRACE_TEST_PACKAGES = ["pytest", "playwright", "rich", "pyelftools", "tracex-parser"]


def trace_venv():
    """The virtual environment the trace tools' tests run in,
    $LIMEN_BUILD_ROOT/venv (made, and its packages installed from the
    package index, when missing): its python, or None."""
    if subprocess.run([sys.executable, "-c", "import ensurepip"],
                      capture_output=True).returncode != 0 and \
            setup({"(venv support: no command)": "python3-venv"}) != 0:
        return None
    venv = os.path.join(build_root(), "venv")
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py) and run([sys.executable, "-m", "venv", venv]) != 0:
        return None
    if subprocess.run([py, "-c", "import pytest, playwright, rich, elftools, tracex_parser"],
                      capture_output=True).returncode != 0 and \
            run([py, "-m", "pip", "install", "-q", *TRACE_TEST_PACKAGES]) != 0:
        return None
    return py


def trace_tests():
    """pytest tools/tests: the decoder, statistics, export and the HTML
    timeline (in headless Chromium) on traces recorded now, on the hosted
    port and on QEMU mps2-an386 (docs/trace.md)."""
    if setup({"chromium": "chromium", "babeltrace2": "babeltrace2",
              "gdb-multiarch": "gdb-multiarch"}) != 0:
        return 1
    py = trace_venv()
    if py is None:
        log("cannot make the trace tools' virtual environment (python3 -m venv, pip)")
        return 1
    env = dict(os.environ, LIMEN_BUILD_ROOT=build_root())
    return run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                os.path.join(ROOT, "tools", "tests")], stdout=None, env=env)


def doc_figures(rules, write=False):
    """Figures a tool printed against the documents that quote them. rules:
    (file, pattern, values): the pattern's first match in the file (re.M and
    re.S) must have the values as its groups. With write, stale figures are
    rewritten in place. Returns the number of stale figures."""
    stale = 0
    for path, pattern, values in rules:
        full = os.path.join(ROOT, path)
        with open(full, encoding="utf-8") as f:
            text = f.read()
        m = re.search(pattern, text, re.M | re.S)
        if m is None:
            log(f"{path}: no text matching {pattern!r} (where a figure should be)")
            stale += 1
            continue
        if list(m.groups()) == list(values):
            continue
        stale += 1
        if any("\n" in v for v in values):
            log(f"{path}: the block at line {text.count(chr(10), 0, m.start()) + 1} is stale"
                + (" (rewritten)" if write else "; the tool prints:\n" + "\n".join(values)))
        else:
            log(f"{path}: {' / '.join(m.groups())!r} is stale; the tool prints "
                f"{' / '.join(values)!r}" + (" (rewritten)" if write else ""))
        if write:
            for i in range(len(values), 0, -1):
                text = text[:m.start(i)] + values[i - 1] + text[m.end(i):]
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
    return stale


def figures_verdict(what, stale, write):
    if stale == 0:
        log(f"{what}: every figure quoted in the documents matches")
    elif not write:
        log(f"{what}: {stale} stale figure(s); `--write` rewrites them")
    return 1 if stale and not write else 0


def thousands(n):
    return f"{n:,}"


def size_rules(rows, gcc, board="mps2-an386"):
    """Where the documents quote ./limen size: docs/measuring.md's row for
    the board and, for mps2-an386, the README's footprint table (and the
    compiler it names) and CAVEATS' smallest code size."""
    by_name = {name: (text, data, bss) for name, text, data, bss in rows}
    row = [str(v) for name in ("minimal", "full") for v in by_name[name]]
    arch = ("docs/measuring.md",
            rf"^\| [^|\n]+ \| `{board}` [^|\n]*\| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$",
            row)
    if board != "mps2-an386":
        return [arch]
    rules = [arch, ("README.md", r"for\s+Cortex-M4, arm-none-eabi-gcc (\S+)\):", [gcc])]
    for name, (text, data, bss) in by_name.items():
        rules.append(("README.md", rf"^\| {name} [^|\n]*\| (\d+) \| (\d+) \| (\d+) \|$",
                      [str(text), str(data), str(bss)]))
    rules.append(("CAVEATS.md", r"code is (\S+) KiB at its smallest",
                  [f"{by_name['minimal'][0] / 1024:.1f}"]))
    return rules


def cmd_size(args):
    """Kernel code and data of a minimal and a full configuration, from
    arm-none-eabi-size on the kernel's and the port's objects. --check: the
    documents quote these figures (README's table, CAVEATS); --write: make
    them so."""
    if setup({**HOST_TOOLS, **ARM_TOOLS}, ARM_PACKAGES) != 0:
        return 1
    versions([["arm-none-eabi-gcc", "--version"]])
    rows = []
    for name in ("minimal", "full"):
        bdir = os.path.join(build_root(), f"size-{name}" if args.board == "mps2-an386"
                            else f"size-{args.board}-{name}")
        cfg = os.path.join(ROOT, "configs", f"{name}.h")
        if run(["cmake", "-S", ".", "-B", bdir, "-G", "Ninja",
                "-DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake",
                f"-DLIMEN_BOARD={args.board}", "-DCMAKE_BUILD_TYPE=MinSizeRel",
                f"-DLIMEN_CONFIG_HEADER={cfg}", "-DLIMEN_BUILD_TESTS=OFF",
                "-DLIMEN_BUILD_EXAMPLES=OFF"]) != 0:
            return 1
        if run(["cmake", "--build", bdir, "--target", "limen"]) != 0:
            return 1
        out = subprocess.run(["arm-none-eabi-size", "-t", os.path.join(bdir, "liblimen.a")],
                             cwd=ROOT, capture_output=True, text=True).stdout.splitlines()
        total = out[-1].split()
        rows.append((name, int(total[0]), int(total[1]), int(total[2])))
    print(f"Kernel + port on {args.board} (-Os), arm-none-eabi-size:")
    print(f"{'configuration':<14} {'text':>7} {'data':>6} {'bss':>6}")
    for name, text, data, bss in rows:
        print(f"{name:<14} {text:>7} {data:>6} {bss:>6}")
    if not (args.check or args.write):
        return 0
    if args.board not in ("mps2-an386", "mps2-an385-v6m"):
        log("the documents quote the figures of mps2-an386 (Armv7-M) and mps2-an385-v6m (Armv6-M)")
        return 1
    gcc = subprocess.run(["arm-none-eabi-gcc", "-dumpversion"], capture_output=True,
                         text=True).stdout.strip()
    return figures_verdict(f"size ({args.board})",
                           doc_figures(size_rules(rows, gcc, args.board), args.write), args.write)


SIZES_BEGIN = "<!-- sizes:begin (generated by ./limen sizes; checked by ./limen test) -->"
SIZES_END = "<!-- sizes:end -->"
SIZE_OBJECTS = ["thread", "sem", "mutex", "queue", "pqueue", "flags", "pool", "timer", "waitq", "prioq"]
SIZE_PRIORITIES = [8, 32, 64, 256, 1024]


def object_sizes(prio, checks, compact):
    """sizeof() of every control block for Cortex-M4, read with nm -S from
    tools/objsizes.c compiled at the given configuration (compact: the
    wait-queue representation, LM_CFG_WAIT_QUEUE_COMPACT)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "objsizes.o")
        cmd = ["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-std=c11", "-c",
               f"-DLM_CFG_PRIORITIES={prio}", f"-DLM_CFG_ARG_CHECKS={checks}",
               f"-DLM_CFG_WAIT_QUEUE_COMPACT={compact}",
               "-Iinclude", "-Iports/armv7m/include", "tools/objsizes.c", "-o", obj]
        if subprocess.run(cmd, cwd=ROOT).returncode != 0:
            raise SystemExit(1)
        out = subprocess.run(["arm-none-eabi-nm", "-S", "--defined-only", obj],
                             capture_output=True, text=True, check=True).stdout
    sizes = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[3].startswith("lm_sizeof_"):
            sizes[f[3][len("lm_sizeof_"):]] = int(f[1], 16)
    return sizes


def sizes_table():
    """One column per priority count; each cell "table / compact" (the two
    wait-queue representations); the last column without argument checks."""
    cols = [(p, object_sizes(p, 1, 0), object_sizes(p, 1, 1)) for p in SIZE_PRIORITIES]
    p0 = SIZE_PRIORITIES[1]
    off = (object_sizes(p0, 0, 0), object_sizes(p0, 0, 1))
    head = "| control block (table / compact) | " + " | ".join(f"{p} priorities" for p, _, _ in cols)
    head += f" | {p0} priorities, checks off |"
    lines = [head, "|---" * (len(cols) + 2) + "|"]
    names = {"waitq": "wait queue (inside sem, mutex, queue, pqueue, pool)",
             "prioq": "ready queue (one, kernel-wide; always a table)"}
    for o in SIZE_OBJECTS:
        row = f"| `{o}` " if o not in names else f"| {names[o]} "
        row += "".join(f"| {t[o]} / {c[o]} " for _, t, c in cols) + f"| {off[0][o]} / {off[1][o]} |"
        lines.append(row)
    return "\n".join(lines)


def cmd_sizes(args):
    """Control-block sizes in bytes on Cortex-M (32-bit pointers)."""
    if setup({**HOST_TOOLS, **ARM_TOOLS}, ARM_PACKAGES) != 0:
        return 1
    table = sizes_table()
    if not args.check:
        print(table)
        return 0
    doc = open(os.path.join(ROOT, args.check)).read()
    m = re.search(re.escape(SIZES_BEGIN) + r"\n(.*?)\n" + re.escape(SIZES_END), doc, re.S)
    if m is None:
        log(f"{args.check}: no sizes table between the markers")
        return 1
    if m.group(1).strip() != table.strip():
        log(f"{args.check}: the sizes table is out of date; ./limen sizes prints it:")
        print(table)
        return 1
    log(f"{args.check}: sizes table matches the compiled control blocks")
    return 0


LINT_CONFIGS = [  # (port include dir, extra definitions): both ports, checks on and off
    ("ports/hosted/include", []),
    ("ports/armv7m/include", []),
    ("ports/hosted/include", ["-DLM_CFG_ARG_CHECKS=0", "-DLM_CFG_ASSERT=0", "-DLM_CFG_STATS=0"]),
    ("ports/hosted/include", ["-DLM_CFG_PRIORITIES=1024"]),
    ("ports/armv7m/include", ["-DLM_CFG_TRACE=1"]),  # the event recorder compiled in
    ("ports/hosted/include", ["-DLM_CFG_STATS_INVERSIONS=1"]),  # unbounded inversions counted
]


# clang-tidy's count of the warnings it found in system headers and did not
# show: noise, one line per file and configuration. Every other line is kept.
TIDY_NOISE = re.compile(r"^\d+ warnings? generated\.$")


def run_quiet_tidy(cmd):
    """run() for clang-tidy: its findings as they are, without the noise."""
    log(" ".join(cmd))
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    kept = [l for l in (p.stdout + p.stderr).splitlines() if not TIDY_NOISE.match(l)]
    if kept:
        sys.stderr.write("\n".join(kept) + "\n")
    log(f"  clang-tidy: {time.monotonic() - start:.1f} s"
        + (f", exit status {p.returncode}" if p.returncode else ""))
    return p.returncode


def cmd_lint(args):
    """cppcheck and clang-tidy on kernel/, include/ and the CMSIS-RTOS2 layer
    (compat/cmsis-rtos2); any finding fails."""
    if setup({**HOST_TOOLS, "cppcheck": "cppcheck", "clang-tidy": "clang-tidy"}) != 0:
        return 1
    versions([["cppcheck", "--version"], ["clang-tidy", "--version"]])
    kernel = sorted(os.path.join("kernel", f) for f in os.listdir(os.path.join(ROOT, "kernel"))
                    if f.endswith(".c"))
    rc = 0
    if run(["cppcheck", "--enable=warning,style,performance,portability", "--std=c11",
            "--inline-suppr", "--error-exitcode=1", "--force", "-q", "-Iinclude",
            "-Iports/hosted/include", "-Ikernel/include",
            "-ULM_CONFIG_HEADER", "kernel", "include"]) != 0:
        rc = 1
    for port_inc, defs in LINT_CONFIGS:
        if run_quiet_tidy(["clang-tidy", "--quiet", *kernel, "--", "-std=c11", "-Iinclude",
                           f"-I{port_inc}", "-Ikernel/include", *defs]) != 0:
            rc = 1
    # The CMSIS-RTOS2 layer, with each port's system timer on its own port
    # (it needs 56 priorities or more to map each CMSIS level to one).
    layer = os.path.join("compat", "cmsis-rtos2")
    layer_inc = ["-I" + os.path.join(layer, "include"), "-I" + os.path.join(layer, "src")]
    if run(["cppcheck", "--enable=warning,style,performance,portability", "--std=c11",
            "--inline-suppr", "--error-exitcode=1", "--force", "-q", "-Iinclude",
            "-Iports/hosted/include", *layer_inc, "-ULM_CONFIG_HEADER",
            "-ULM_CFG_PRIORITIES", layer]) != 0:
        rc = 1
    # Also with the functional-safety calls (LM_CMSIS_FUSA).
    for port_inc, defs in LINT_CONFIGS[:2] + [("ports/hosted/include", ["-DLM_CFG_PRIORITIES=64"]),
                                              ("ports/hosted/include", ["-DLM_CMSIS_FUSA=1"])]:
        port = "armv7m" if "armv7m" in port_inc else "hosted"
        fault = "fault_arm.c" if port == "armv7m" else "fault_hosted.c"
        src = sorted(os.path.join(layer, "src", f)
                     for f in os.listdir(os.path.join(ROOT, layer, "src"))
                     if f.endswith(".c") and (not f.startswith("systimer_")
                                              or f == f"systimer_{port}.c")
                     and (not f.startswith("fault_") or f == fault))
        if run_quiet_tidy(["clang-tidy", "--quiet", *src, "--", "-std=c11", "-Iinclude",
                           f"-I{port_inc}", *layer_inc, *defs]) != 0:
            rc = 1
    log("lint: clean" if rc == 0 else "lint: findings above")
    return rc


def cmd_coverage(args):
    """Line and branch coverage of kernel/ under the host tests (gcov +
    gcovr). Unoptimised and without sanitizers, so every branch is the
    source's own."""
    if setup({**HOST_TOOLS, "gcovr": "gcovr"}) != 0:
        return 1
    bdir = os.path.join(build_root(), "host-coverage")
    if run(["cmake", "-S", ".", "-B", bdir, "-G", "Ninja", "-DLIMEN_PORT=hosted",
            "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_C_FLAGS=--coverage -O0",
            "-DLIMEN_SANITIZE=OFF"]) != 0:
        return 1
    if run(["cmake", "--build", bdir]) != 0:
        return 1
    for gcda in subprocess.run(["find", bdir, "-name", "*.gcda"], capture_output=True,
                               text=True, cwd=ROOT).stdout.split():
        os.remove(os.path.join(ROOT, gcda))
    if run(["ctest", "--test-dir", bdir, "--timeout", "120", "-E", "_nochecks|_p1024|_mutants"],
           stdout=None) != 0:
        return 1
    versions([["gcov", "--version"], ["gcovr", "--version"]])
    if check_coverage_markers() != 0:
        return 1
    # Only the default configuration's kernel counts: the variant kernels
    # (checks off, 1024 priorities) compile the same files differently.
    # Anything below 100 % fails: docs/coverage.md says what to do instead
    # of lowering the bar (a test, or a decision recorded there).
    rc = run(["gcovr", "-r", ".", "--filter", "kernel/", "--object-directory",
              os.path.join(bdir, "CMakeFiles", "limen.dir"), "--print-summary",
              "--exclude-unreachable-branches", "--exclude-throw-branches",
              "--fail-under-line", "100", "--fail-under-branch", "100",
              os.path.join(bdir, "CMakeFiles", "limen.dir")], stdout=None)
    if rc != 0:
        log("coverage: kernel/ is below 100 % of lines or branches (docs/coverage.md)")
    # The event recorder is compiled only with LM_CFG_TRACE: its code
    # counts in the kernel built that way (tests/variants.cmake).
    trace_objs = os.path.join(bdir, "tests", "CMakeFiles", "limen_trace.dir")
    rc_trace = run(["gcovr", "-r", ".", "--filter", "kernel/trace.c", "--filter",
                    "kernel/include/lmk_trace.h", "--object-directory", trace_objs,
                    "--print-summary", "--exclude-unreachable-branches",
                    "--exclude-throw-branches", "--fail-under-line", "100",
                    "--fail-under-branch", "100", trace_objs], stdout=None)
    if rc_trace != 0:
        log("coverage: kernel/trace.c is below 100 % of lines or branches "
            "(LM_CFG_TRACE kernel, docs/coverage.md)")
    # CPU time is compiled only with LM_CFG_STATS_CPU_TIME: the statistics'
    # code counts in that kernel too (tests/variants.cmake, cputime).
    cpu_objs = os.path.join(bdir, "tests", "CMakeFiles", "limen_cputime.dir")
    rc_cpu = run(["gcovr", "-r", ".", "--filter", "kernel/stats.c", "--filter",
                  "kernel/include/lmk_stats.h", "--object-directory", cpu_objs,
                  "--print-summary", "--exclude-unreachable-branches",
                  "--exclude-throw-branches", "--fail-under-line", "100",
                  "--fail-under-branch", "100", cpu_objs], stdout=None)
    if rc_cpu != 0:
        log("coverage: kernel/stats.c is below 100 % of lines or branches "
            "(LM_CFG_STATS_CPU_TIME kernel, docs/coverage.md)")
    # The unbounded inversions' bookkeeping is compiled only with
    # LM_CFG_STATS_INVERSIONS: it counts in that kernel (variant inv).
    inv_objs = os.path.join(bdir, "tests", "CMakeFiles", "limen_inv.dir")
    rc_inv = run(["gcovr", "-r", ".", "--filter", "kernel/stats.c", "--filter",
                  "kernel/include/lmk_stats.h", "--object-directory", inv_objs,
                  "--print-summary", "--exclude-unreachable-branches",
                  "--exclude-throw-branches", "--fail-under-line", "100",
                  "--fail-under-branch", "100", inv_objs], stdout=None)
    if rc_inv != 0:
        log("coverage: kernel/stats.c is below 100 % of lines or branches "
            "(LM_CFG_STATS_INVERSIONS kernel, docs/coverage.md)")
    # Compact wait queues (LM_CFG_WAIT_QUEUE_COMPACT) are compiled only in
    # the kernels that select them: their code counts in the 64-priority
    # one, where compact is the default (tests/variants.cmake).
    wq_objs = os.path.join(bdir, "tests", "CMakeFiles", "limen_wqc64.dir")
    rc_wq = run(["gcovr", "-r", ".", "--filter", "kernel/waitq.c", "--filter",
                 "kernel/include/waitq.h", "--object-directory", wq_objs,
                 "--print-summary", "--exclude-unreachable-branches",
                 "--exclude-throw-branches", "--fail-under-line", "100",
                 "--fail-under-branch", "100", wq_objs], stdout=None)
    if rc_wq != 0:
        log("coverage: kernel/waitq.c is below 100 % of lines or branches "
            "(compact wait-queue kernel, docs/coverage.md)")
    return rc or rc_trace or rc_cpu or rc_inv or rc_wq


def check_coverage_markers():
    """Every GCOVR_EXCL marker in kernel/ must be a row of the 'Exclusion
    markers' table of docs/coverage.md, and the other way round: compares
    the counts, and prints the markers."""
    found = subprocess.run(["grep", "-rn", "GCOVR_EXCL", "kernel/"], capture_output=True,
                           text=True, cwd=ROOT).stdout.splitlines()
    with open(os.path.join(ROOT, "docs", "coverage.md"), encoding="utf-8") as f:
        doc = f.read()
    section = doc.split("## Exclusion markers", 1)[-1].split("\n## ", 1)[0]
    rows = [ln for ln in section.splitlines()
            if ln.startswith("| `") and "GCOVR_EXCL" in ln]
    for ln in found:
        log("coverage marker: " + ln.split("/*")[0].strip())
    if len(found) != len(rows):
        log(f"coverage: {len(found)} GCOVR_EXCL markers in kernel/, but docs/coverage.md "
            f"lists {len(rows)} under 'Exclusion markers': each marker needs its row and reason")
        return 1
    return 0


def cmd_fuzz(args):
    """libFuzzer on the hosted port (tests/fuzz/README.md): `replay` runs the
    committed corpus once; a number fuzzes for that many seconds."""
    import glob
    tools = {**HOST_TOOLS, "clang": "clang"}
    # The fuzzer runtime has no command to look for: find its archive.
    if not glob.glob("/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a"):
        tools["libclang-rt-14-dev (fuzzer runtime)"] = "libclang-rt-14-dev"
    if setup(tools) != 0:
        return 1
    versions([["clang", "--version"]])
    env = dict(os.environ, BUILD=os.path.join(build_root(), "fuzz"))
    return run(["sh", "tests/fuzz/run.sh", args.what], env=env, stdout=None)


def cmd_model(args):
    """The reference model's long run (tests/model/README.md): seeds
    1..SEEDS, STEPS steps each, under the sanitizers. The test command runs
    seed 1 for 200,000 steps."""
    if setup() != 0:
        return 1
    bdir = build_preset_in("host-asan", ["test_model"])
    if bdir is None:
        return 1
    exe = os.path.join(bdir, "tests", "model", "test_model")
    diverged = []
    for seed in range(1, args.seeds + 1):
        if run([exe, str(seed), str(args.steps)], stdout=None) != 0:
            diverged.append(seed)
    log(f"model: {args.seeds} seeds x {args.steps} steps, "
        f"{len(diverged)} diverged" + (f" (seeds {diverged})" if diverged else ""))
    return 1 if diverged else 0


def cmd_sweep(args):
    """The interrupt-placement sweep (docs/sweep.md): the hosted sweep
    (an interrupt before every kernel basic block of each call, under the
    sanitizers) and the target sweep under QEMU (a timer interrupt at every
    instruction offset). Without --full: what the test command runs (the
    host subset; the target images with the expected failures skipped).
    --full: every scenario and every block on the host, and on the target
    the expected failures too. Tables on stdout, JSON in the build tree."""
    boards = [] if args.host_only else (args.board or ["mps2-an386"])
    tools = {**HOST_TOOLS, **(ARM_TOOLS if boards else {})}
    if setup(tools, ARM_PACKAGES if boards else ()) != 0:
        return 1
    failed = []
    if not args.target_only:
        bdir = build_preset_in("host-asan", ["test_sweep_host"])
        if bdir is None:
            return 1
        js = os.path.join(bdir, "tests", "sweep_host" + ("_full" if args.full else "") + ".json")
        cmd = [os.path.join(bdir, "tests", "test_sweep_host"), "--json", js]
        if args.full:
            cmd.append("--full")
        if run(cmd, stdout=None) != 0:
            failed.append("host sweep")
        log(f"host sweep JSON: {js}")
    for board in boards:
        image = "test_sweep_full" if args.full else "test_sweep"
        bdir = build_preset_in(board, [image])
        if bdir is None:
            failed.append(board)
            continue
        elf = os.path.join(bdir, "tests", "target", image + ".elf")
        rc, out = qemu_run(board, elf, timeout=1800)
        print("\n".join(ln for ln in out.splitlines() if not ln.startswith("#")
                        or ln.startswith("# ")))
        js = os.path.join(bdir, "tests", "target", image + ".json")
        with open(js, "w", encoding="utf-8") as f:
            f.write("[\n" + ",\n".join(ln[len("#json "):] for ln in out.splitlines()
                                       if ln.startswith("#json ")) + "\n]\n")
        log(f"target sweep JSON ({board}): {js}")
        pairs = [ln.split() for ln in out.splitlines() if ln.startswith("#pair ")]
        if rc != 0 and args.full and pairs and pairs[-1][3] == "expected-failure" \
                and "hard fault" in out:
            # The expected failures run last; one that hard-faults ends the image.
            log(f"target sweep ({board}): ended by a hard fault in {pairs[-1][1]} / "
                f"{pairs[-1][2]}, on the expected-failure list; the expected failures "
                "after it were not run")
        elif rc != 0:
            failed.append(f"target sweep ({board})")
    if failed:
        log("sweep FAILED: " + ", ".join(failed))
        return 1
    log("sweep: no unexpected violation")
    return 0


def cmd_bench(args):
    """Measures 1-6 of the reference comparison (tools/bench.py, bench/),
    bench and default configurations, beside the reference kernels."""
    if setup({**HOST_TOOLS, **ARM_TOOLS}, ARM_PACKAGES) != 0:
        return 1
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench  # pylint: disable=import-outside-toplevel
    qemu = ["qemu-system-arm", "-M", BOARDS["mps2-an386"], "-nographic", "-monitor", "none",
            "-semihosting-config", "enable=on,target=native", "-icount", QEMU_ICOUNT, "-kernel"]
    bdir = os.path.join(build_root(), "bench")
    if args.what == "thread-metric":
        configs = bench.CONFIGS if args.config == "both" else (args.config,)
        return bench.thread_metric(ROOT, bdir, run, qemu, log, args.json, args.periods,
                                   args.ticks_per_second, configs, args.originals)
    if args.what == "report":
        import bench_report  # pylint: disable=import-outside-toplevel
        return bench_report.report(ROOT, bdir, run, qemu, log, args.short)
    if args.what == "study":
        return bench.study(ROOT, bdir, run, qemu, log, args.json, getattr(args, "host", False))
    if args.what == "series":
        return bench.series(ROOT, bdir, run, qemu, log, args.json)
    if args.what == "seed002":
        import bench_seed002  # pylint: disable=import-outside-toplevel
        return bench_seed002.seed002(ROOT, bdir, run, qemu, log, args.json,
                                     getattr(args, "short", False))
    if args.what == "crosscheck":
        harness = args.harness or os.environ.get("LIMEN_BENCH_REFERENCE") or next(
            (d for d in (os.path.join(ROOT, "..", "shared", "bench-reference"),
                         os.path.join(ROOT, "..", "..", "shared", "bench-reference"))
             if os.path.isdir(d)), "")
        return bench.crosscheck(ROOT, bdir, run, qemu, log, args.json,
                                os.path.abspath(harness) if harness else "")
    return bench.quick(ROOT, bdir, run, qemu, log, args.json, args.exact)


def cmd_setup(args):
    return setup()


# The suite's test groups, in its order: a case belongs to the group whose
# file defines it (docs/cmsis-rtos2.md quotes the table).
RV2_GROUPS = [("Kernel", "RV2_Kernel.c"), ("Thread", "RV2_Thread.c"),
              ("ThreadFlags", "RV2_ThreadFlags.c"), ("GenericWait", "RV2_GenWait.c"),
              ("Timer", "RV2_Timer.c"), ("EventFlags", "RV2_EventFlags.c"),
              ("Mutex", "RV2_Mutex.c"), ("Semaphore", "RV2_Semaphore.c"),
              ("MemoryPool", "RV2_MemoryPool.c"), ("MessageQueue", "RV2_MessageQueue.c")]


def cmd_cmsis_validate(args):
    """Arm's CMSIS-RTOS2 validation suite, from a copy outside this tree,
    built unchanged against the layer (compat/cmsis-rtos2/validation: the
    platform and the generated RV2_Config.h) and run on a QEMU board.
    Prints the result of every case and a table per group. Not part of
    ./limen test: the suite is not in the tree."""
    suite = os.path.abspath(args.suite)
    core = os.path.abspath(args.core or os.path.join(os.path.dirname(suite), "CMSIS_6", "CMSIS",
                                                     "Core", "Include"))
    if not os.path.isfile(os.path.join(suite, "Source", "cmsis_rv2.c")):
        log(f"{suite}: not a copy of CMSIS-RTOS2_Validation (no Source/cmsis_rv2.c)")
        return 1
    if not os.path.isfile(os.path.join(core, "core_cm4.h")):
        log(f"{core}: no CMSIS-Core headers (core_cm4.h); give --core PATH")
        return 1
    if setup({**HOST_TOOLS, **ARM_TOOLS}, ARM_PACKAGES) != 0:
        return 1
    vdir = os.path.join(ROOT, "compat", "cmsis-rtos2", "validation")
    tag = args.board + ("-tickless" if args.tickless else "")
    bdir = os.path.join(build_root(), f"cmsis-validate-{tag}")
    opts = [f"-DLIMEN_CONFIG_HEADER={os.path.join(vdir, 'lm_validation_config.h')}",
            "-DLIMEN_BUILD_TESTS=OFF", "-DLIMEN_BUILD_EXAMPLES=OFF",
            f"-DLIMEN_CMSIS_VALIDATION_SUITE={suite}", f"-DLIMEN_CMSIS_CORE_INCLUDE={core}",
            f"-DLIMEN_CMSIS_VALIDATION_TICKLESS={'ON' if args.tickless else 'OFF'}"]
    if run(["cmake", "--preset", args.board, "-B", bdir, *opts]) != 0 or \
            run(["cmake", "--build", bdir, *build_jobs(), "--target",
                 "cmsis_rv2_validation"]) != 0:
        return 1
    versions([["arm-none-eabi-gcc", "--version"], ["qemu-system-arm", "--version"]])
    elf = os.path.join(bdir, "compat", "cmsis-rtos2", "validation", "cmsis_rv2_validation.elf")
    rc, out = qemu_run(args.board, elf, timeout=600)
    out = out.replace("\r", "")
    print(out)
    group_of = {}
    for group, fname in RV2_GROUPS:
        path = os.path.join(suite, "Source", fname)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                for name in re.findall(r"^void (TC_\w+) *\(void\)", f.read(), re.M):
                    group_of[name] = group
    results = {}
    for m in re.finditer(r"^TEST +\d+: (TC_\w+) +(.*?)(?=^TEST |^Test Summary|\Z)", out,
                         re.M | re.S):
        results[m.group(1)] = "FAILED" if "FAILED" in m.group(2) else \
            ("PASSED" if "PASSED" in m.group(2) else "NOT EXECUTED")
    print("group         passed failed")
    total = [0, 0]
    for group, _ in RV2_GROUPS:
        cases = [r for n, r in results.items() if group_of.get(n) == group]
        p, f = cases.count("PASSED"), len(cases) - cases.count("PASSED")
        total[0] += p
        total[1] += f
        print(f"{group:<13} {p:>6} {f:>6}")
    print(f"{'total':<13} {total[0]:>6} {total[1]:>6}")
    if rc != 0 or "limen: end of validation" not in out:
        log(f"the validation image did not finish (QEMU exit status {rc})")
        return 1
    return 0 if total[1] == 0 and total[0] > 0 else 1


def main():
    p = argparse.ArgumentParser(prog="limen", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"Limen {project_version()}")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="run the producer-consumer experiment")
    d.add_argument("--json", action="store_true", help="print JSON only")
    d.add_argument("--host", action="store_true", help="run on the hosted port instead")
    d.add_argument("--board", default="mps2-an386", choices=sorted(BOARDS),
                   help="QEMU board (default mps2-an386)")
    # configs/minimal.h compiles queues and statistics out: no demo there.
    d.add_argument("--config", choices=("bench", "full"),
                   help="build with configs/<name>.h (bench: checks off, as the "
                        "comparisons in docs/measuring.md are measured)")
    d.add_argument("--check", action="store_true",
                   help="fail if the documents' demo figures differ from a run "
                        "(--board, default and bench configurations)")
    d.add_argument("--write", action="store_true",
                   help="rewrite the documents' demo figures from a run")
    d.set_defaults(fn=cmd_demo)
    t = sub.add_parser("test", help="build and run every test")
    t.add_argument("--host-only", action="store_true", help="skip the boards")
    t.add_argument("--board", action="append", choices=sorted(BOARDS) + sorted(CHECKED_BOARDS),
                   help="only this board (repeatable)")
    t.set_defaults(fn=cmd_test)
    z = sub.add_parser("size", help="kernel footprint, minimal and full configurations")
    z.add_argument("--board", default="mps2-an386", choices=sorted(BOARDS))
    z.add_argument("--check", action="store_true",
                   help="fail if README's footprint table, CAVEATS' figure or "
                        "docs/measuring.md's row differs (mps2-an386, mps2-an385-v6m)")
    z.add_argument("--write", action="store_true",
                   help="rewrite README's footprint table, CAVEATS' figure and "
                        "docs/measuring.md's row")
    z.set_defaults(fn=cmd_size)
    sz = sub.add_parser("sizes", help="control-block sizes, both wait-queue representations")
    sz.add_argument("--check", metavar="DOC", help="fail if DOC's table differs")
    sz.set_defaults(fn=cmd_sizes)
    li = sub.add_parser("lint", help="cppcheck and clang-tidy on the kernel")
    li.set_defaults(fn=cmd_lint)
    cv = sub.add_parser("coverage", help="line and branch coverage of kernel/ (host tests)")
    cv.set_defaults(fn=cmd_coverage)
    mo = sub.add_parser("model", help="long run of the reference model")
    mo.add_argument("--seeds", type=int, default=8)
    mo.add_argument("--steps", type=int, default=1000000)
    mo.set_defaults(fn=cmd_model)
    fz = sub.add_parser("fuzz", help="libFuzzer: replay the corpus, or fuzz for N seconds")
    fz.add_argument("what", nargs="?", default="60", help="'replay' or seconds (default 60)")
    fz.set_defaults(fn=cmd_fuzz)
    sw = sub.add_parser("sweep", help="interrupt-placement sweep, host and QEMU (docs/sweep.md)")
    sw.add_argument("--full", action="store_true",
                    help="every scenario and offset, expected failures included")
    sw.add_argument("--host-only", action="store_true", help="skip QEMU")
    sw.add_argument("--target-only", action="store_true", help="skip the host sweep")
    sw.add_argument("--board", action="append", choices=SWEEP_BOARDS,
                    help="QEMU board (repeatable; default mps2-an386)")
    sw.set_defaults(fn=cmd_sweep)
    be = sub.add_parser("bench", help="benchmarks beside the reference kernels (docs/benchmarks.md)")
    be.add_argument("what", nargs="?", default="report",
                    choices=("quick", "thread-metric", "series", "seed002", "study", "crosscheck",
                             "report"),
                    help="report (the default): everything below, written to build/bench/; "
                         "quick: measures 1-6 once, both configurations; thread-metric: the "
                         "eight Thread-Metric tests; series: seed 003's series; seed002: seed 002's suite; study: seed 004's ready-queue study; report: all of them into build/bench/ (report.md, results.json, plots); crosscheck: measures 1-6 against the "
                         "reference harness run on this tree (docs/benchmarks.md)")
    be.add_argument("--json", action="store_true", help="print JSON only")
    be.add_argument("--exact", action="store_true",
                    help="quick: measures 1 and 2 exact: 40 runs each, every start phase")
    be.add_argument("--periods", type=int, default=1,
                    help="thread-metric: reporting periods to run; the last one is printed")
    be.add_argument("--ticks-per-second", type=int, default=1000,
                    help="thread-metric: ticks of 1 ms in a period (default 1000: 1e9 "
                         "instructions)")
    be.add_argument("--config", choices=("both", "bench", "default"), default="both",
                    help="thread-metric: configurations to run (default both)")
    be.add_argument("--originals", metavar="DIR",
                    help="thread-metric: also build the suite's own eight test sources "
                         "found in DIR against the porting layer, and run them")
    be.add_argument("--host", action="store_true",
                    help="study: on the host, counted exactly by valgrind's callgrind")
    be.add_argument("--short", action="store_true",
                    help="report: Thread-Metric with two 10 ms periods instead of one of 1 s; "
                         "report, seed002: a few periods and frames instead of many")
    be.add_argument("--harness", metavar="DIR",
                    help="crosscheck: the reference harness (default $LIMEN_BENCH_REFERENCE, "
                         "else ../shared/bench-reference)")
    be.set_defaults(fn=cmd_bench)
    cm = sub.add_parser("cmsis-validate",
                        help="Arm's CMSIS-RTOS2 validation suite on the layer (docs/cmsis-rtos2.md)")
    cm.add_argument("--suite", required=True, help="a copy of ARM-software/CMSIS-RTOS2_Validation")
    cm.add_argument("--core", help="CMSIS-Core's Include folder (default: CMSIS_6 beside the suite)")
    cm.add_argument("--board", default="mps2-an386", choices=sorted(set(BOARDS) - {"microbit"}))
    cm.add_argument("--tickless", action="store_true", help="the kernel with LM_CFG_TICKLESS=1")
    cm.set_defaults(fn=cmd_cmsis_validate)
    tr = sub.add_parser("trace", help="record and analyse event traces (docs/trace.md)")
    trs = tr.add_subparsers(dest="trace_cmd", required=True)
    rec = trs.add_parser("record", help="record the experiment's three cases")
    rec.add_argument("--board", default="mps2-an386", choices=sorted(set(BOARDS) - set(DEMO_NO_TRACE)))
    rec.add_argument("--host", action="store_true", help="on the hosted port instead")
    rec.add_argument("-o", "--output", default=os.path.join(build_root(), "traces"),
                     help="directory for pc-<case>.lmtrace (default build/traces)")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from limentrace import cli as trace_cli
    trace_cli.add_parsers(trs)
    tr.set_defaults(fn=cmd_trace)
    s = sub.add_parser("setup", help="install missing build tools")
    s.set_defaults(fn=cmd_setup)
    args = p.parse_args()
    sys.exit(timed(args, sub))


def timed(args, sub):
    """Runs the subcommand, saying what it does and, at the end, how long
    it took and how it ended."""
    what = next((a.help for a in sub._choices_actions if a.dest == args.command), "")
    log(f"Limen {project_version()}: ./limen {args.command}: {what}")
    start = time.monotonic()
    rc = args.fn(args)
    log(f"./limen {args.command}: {'done' if rc == 0 else 'FAILED'} in "
        f"{time.monotonic() - start:.1f} s")
    return rc


if __name__ == "__main__":
    main()
