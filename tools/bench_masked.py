# SPDX-License-Identifier: Apache-2.0
"""The longest interrupt-masked stretch of a benchmark image, exact to the
instruction, from QEMU's execution log (docs/benchmarks.md, "Longest masked
stretch"). No change to the kernel or the port: the image that prints the
figure is the one that is walked.

Two runs of the same image, identical under -icount (the log changes no
guest state):
  A. `-d exec,nochain -singlestep`: one line per guest instruction, in
     order (the instruction count);
  B. the same with `cpu` and `-dfilter` on the instructions that write
     PRIMASK, BASEPRI or FAULTMASK (found by disassembling the image): the
     registers before each, so the value each writes is known.
The walk replays the writes in A's order: masked means PRIMASK or
FAULTMASK set, or BASEPRI not 0 (the kernel only ever writes its ceiling
there). A stretch is the instructions after the one that masks, through
the one that unmasks; an exception's entry, handler and return count as
instructions like any other, and a handler running unmasked (PendSV,
SysTick, with more urgent interrupts enabled) is not masked.

Windows: the image's timed intervals, from the start read of lmb_sync_call,
lmb_sync_store or lmb_sync_store_span (bench/common/lmb_sync.S) to the next
end read (lmb_call_stamp's after its call, lmb_sync_store_span's second).
The figure is the longest stretch overlapping one of the last 40 windows
(the measured pass of every image), and each of those windows' instruction
counts must equal the image's own exact figure ("measured"): a check of
the walk's counting on every image.

QEMU's log has lines for instructions that did not run then, and says so
on the next line: an instruction that touches a device is abandoned and run
again ("cpu_io_recompile: rewound execution of TB"), and one found at an
interrupt request is left for later ("Stopped execution of TB chain
before"). Such lines are dropped; the walk's window counts, equal to the
images' own timer figures, confirm it.
"""
import bisect
import os
import re
import subprocess

# Functions of lmb_sync.S whose timer reads open and close a window:
# (function, the instruction that marks the read, "before" or "after" it).
WINDOW_STARTS = (("lmb_sync_call", "blx", "before"), ("lmb_sync_store", "str", "before"),
                 ("lmb_sync_store_span", "str", "before"))
WINDOW_ENDS = (("lmb_call_stamp", "blx", "after"), ("lmb_sync_store_span", "str", "after"))
# The measured pass of every image: the last 40 windows (one per phase).
WINDOWS = 40

_INSN = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4} ?){1,2})\s+(\S+)\s*([^;@]*)")
_FUNC = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")


def disassemble(elf, objdump="arm-none-eabi-objdump"):
    """[(address, size, function, mnemonic, operands)] of every instruction."""
    out = subprocess.run([objdump, "-d", elf], capture_output=True, text=True,
                         check=True).stdout
    insns, func = [], "?"
    for line in out.splitlines():
        m = _FUNC.match(line)
        if m:
            func = m.group(2)
            continue
        m = _INSN.match(line)
        if m:
            size = len(m.group(2).replace(" ", "")) // 2
            insns.append((int(m.group(1), 16), size, func, m.group(3), m.group(4).strip()))
    return insns


def mask_write(mnemonic, operands):
    """What an instruction writes to the masks: (register, source) with
    register primask, faultmask, basepri or basepri_max and source a
    register name or an immediate 0/1 (cps); None if it writes none."""
    if mnemonic in ("cpsid", "cpsie"):
        value = 1 if mnemonic == "cpsid" else 0
        regs = [r for r, c in (("primask", "i"), ("faultmask", "f")) if c in operands]
        return [(r, value) for r in regs] or None
    if mnemonic == "msr":
        dest, _, src = operands.partition(",")
        dest = dest.strip().lower()
        if dest in ("primask", "faultmask", "basepri", "basepri_max"):
            return [(dest, src.strip().lower())]
    return None


def sites(insns):
    """{address: (size, function, [(register, source)])} of the mask writes."""
    return {a: (s, f, w) for a, s, f, mn, op in insns for w in [mask_write(mn, op)] if w}


def window_marks(insns):
    """(start addresses, end addresses): the timer reads of lmb_sync.S."""
    def marks(spec):
        found = set()
        for func, mnem, where in spec:
            body = [i for i in insns if i[2] == func]
            for j, (_, _, _, mn, _) in enumerate(body):
                if mn == mnem:
                    k = j - 1 if where == "before" else j + 1
                    found.add(body[k][0])
                    break
        return found
    return marks(WINDOW_STARTS), marks(WINDOW_ENDS)


def locator(insns):
    """address -> "function+0xoff"."""
    starts = {}
    for a, _, f, _, _ in insns:
        starts.setdefault(f, a)
    table = sorted((a, f) for f, a in starts.items())
    keys = [a for a, _ in table]

    def where(addr):
        i = bisect.bisect_right(keys, addr) - 1
        if i < 0:
            return hex(addr)
        a, f = table[i]
        return f"{f}+{addr - a:#x}"
    return where


_TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
_REGS = re.compile(r"R(\d\d)=([0-9a-f]{8})")


_NOT_RUN = ("Stopped execution of TB chain", "cpu_io_recompile: rewound")


def parse_exec(path):
    """[(address, ran)] of the log's Trace lines, in order; ran is False
    where the next line says the instruction did not run then."""
    lines = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _TRACE.match(line)
            if m:
                lines.append((int(m.group(1), 16), True))
            elif line.startswith(_NOT_RUN) and lines:
                lines[-1] = (lines[-1][0], False)
    return lines


def parse_cpu(path):
    """[(address, {register number: value})] of a `-d exec,cpu` log."""
    recs = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _TRACE.match(line)
            if m:
                recs.append((int(m.group(1), 16), {}))
            elif recs and line.startswith("R"):
                for n, v in _REGS.findall(line):
                    recs[-1][1][int(n)] = int(v, 16)
    return recs


def operand_value(source, regs):
    if isinstance(source, int):
        return source
    # objdump's names of r9-r14 besides rN.
    aliases = {"sb": 9, "sl": 10, "fp": 11, "ip": 12, "sp": 13, "lr": 14}
    m = re.fullmatch(r"r(\d+)", source)
    if not m and source not in aliases:
        raise ValueError(f"mask write from {source!r}")
    return regs[int(m.group(1)) if m else aliases[source]]


def apply_write(state, writes, regs):
    """The masks after one instruction's writes. state: dict of primask,
    faultmask, basepri."""
    state = dict(state)
    for reg, source in writes:
        v = operand_value(source, regs)
        if reg == "basepri":
            state["basepri"] = v & 0xFF
        elif reg == "basepri_max":
            v &= 0xFF
            if v != 0 and (state["basepri"] == 0 or v < state["basepri"]):
                state["basepri"] = v
        else:
            state[reg] = v & 1
    return state


def masked(state):
    return bool(state["primask"] or state["faultmask"] or state["basepri"])


def walk(pcs, regs_at, site_map):
    """Stretches [(first index, last index, masking address, unmasking
    address)] of an instruction sequence: pcs (instructions that ran), regs_at
    the registers before each mask write (None elsewhere). The stretch's
    length is last - first: the instructions after the masking one through
    the unmasking one."""
    state = {"primask": 0, "faultmask": 0, "basepri": 0}
    stretches, start = [], None
    for i, pc in enumerate(pcs):
        if pc not in site_map:
            continue
        after = apply_write(state, site_map[pc][2], regs_at[i])
        if not masked(state) and masked(after):
            start = (i, pc)
        elif masked(state) and not masked(after):
            stretches.append((start[0], i, start[1], pc))
        state = after
    return stretches


def windows(pcs, starts, ends):
    """[(start index, end index)]: each window start read to the next end
    read."""
    out, opened = [], None
    for i, pc in enumerate(pcs):
        if pc in starts and opened is None:
            opened = i
        elif pc in ends and opened is not None:
            out.append((opened, i))
            opened = None
    return out


def longest_in(stretches, wins):
    """All stretches overlapping a window, and the longest of them (None
    when there is none)."""
    inside = [s for s in stretches if any(s[0] < e and s[1] > b for b, e in wins)]
    best = max(inside, key=lambda s: (s[1] - s[0], -s[0]), default=None)
    return inside, best


def qemu_log_runs(qemu_base, elf, site_map, logdir, timeout=300):
    """Runs A and B; returns (A's addresses, B's records, stdout of A) or
    raises RuntimeError."""
    os.makedirs(logdir, exist_ok=True)
    base = os.path.join(logdir, os.path.basename(elf))
    a_log, b_log = base + ".exec", base + ".cpu"
    ranges = ",".join(f"{a:#x}+{s}" for a, (s, _, _) in sorted(site_map.items()))
    try:
        pa = subprocess.run(qemu_base + [elf, "-singlestep", "-d", "exec,nochain", "-D", a_log],
                            capture_output=True, text=True, timeout=timeout)
        pb = subprocess.run(qemu_base + [elf, "-singlestep", "-d", "exec,nochain,cpu",
                                         "-dfilter", ranges, "-D", b_log],
                            capture_output=True, text=True, timeout=timeout)
        if pa.returncode != 0 or pb.returncode != 0:
            raise RuntimeError(f"exit {pa.returncode} / {pb.returncode}")
        if pa.stdout != pb.stdout:
            raise RuntimeError("the two runs printed different results")
        return parse_exec(a_log), parse_cpu(b_log), pa.stdout.replace("\r\n", "\n")
    except subprocess.TimeoutExpired as e:
        raise RuntimeError("timed out") from e
    finally:
        for p in (a_log, b_log):
            if os.path.exists(p):
                os.remove(p)


def measure_image(qemu_base, elf, logdir, measured=None, timeout=300):
    """The longest masked stretch of one image's measured pass: a dict with
    `longest` (instructions), `lock` and `unlock` (where it was masked and
    unmasked), `stretches` (every stretch in the windows, in order:
    [length, lock, unlock]), `windows`, `window_instructions` (each window's
    count), `problems` (what is inconsistent)."""
    insns = disassemble(elf)
    site_map = sites(insns)
    starts, ends = window_marks(insns)
    where = locator(insns)
    problems = []
    try:
        pcs_raw, cpu, _ = qemu_log_runs(qemu_base, elf, site_map, logdir, timeout)
    except RuntimeError as e:
        return {"longest": None, "problems": [f"masked-stretch runs: {e}"]}
    at_sites = [i for i, (pc, _) in enumerate(pcs_raw) if pc in site_map]
    if [pcs_raw[i][0] for i in at_sites] != [pc for pc, _ in cpu]:
        return {"longest": None, "problems": ["the execution log and the register log "
                                              "disagree on the mask writes"]}
    regs_raw = [None] * len(pcs_raw)
    for i, (_, regs) in zip(at_sites, cpu):
        regs_raw[i] = regs
    pcs = [pc for pc, ran in pcs_raw if ran]
    regs_at = [r for (_, ran), r in zip(pcs_raw, regs_raw) if ran]
    stretches = walk(pcs, regs_at, site_map)
    wins = windows(pcs, starts, ends)[-WINDOWS:]
    if len(wins) < WINDOWS:
        problems.append(f"{len(wins)} timed windows in the log, not {WINDOWS}")
    counts = sorted({e - b for b, e in wins})
    if measured is not None and counts != [measured]:
        problems.append(f"the log counts {counts} instructions per window, the image "
                        f"measured {measured}")
    inside, best = longest_in(stretches, wins)
    return {
        "longest": None if best is None else best[1] - best[0],
        "lock": None if best is None else where(best[2]),
        "unlock": None if best is None else where(best[3]),
        "stretches": [[s[1] - s[0], where(s[2]), where(s[3])] for s in inside
                      if wins and wins[-1][0] <= s[1] and s[0] < wins[-1][1]],
        "windows": len(wins),
        "window_instructions": counts,
        "problems": problems,
    }


# The known case (bench/apps/mk_known.c): the stretches of one window, in
# order, and where each is masked.
KNOWN_STRETCHES = [21, 52, 15, 10, 62]
KNOWN_LOCKS = ["mk_stretches", "mk_stretches", "mk_stretches", "mk_stretches", "IRQ_Handler"]


def check_known(qemu_base, bdir, cfg="bench"):
    """Runs the walk on the hand-written stretches; returns what is wrong
    (empty when every stretch is found with its exact length)."""
    elf = os.path.join(bdir, f"{cfg}-mk_known.elf")
    from bench import parse, run_image  # pylint: disable=import-outside-toplevel
    rc, out = run_image(qemu_base, elf, 120)
    fields = parse(out)
    if rc != 0 or fields is None:
        return [f"{cfg} mk_known: exit {rc}, no result"]
    got = measure_image(qemu_base, elf, os.path.join(bdir, "masked-logs"), fields["measured"])
    problems = [f"{cfg} mk_known: {p}" for p in got["problems"]]
    lengths = [s[0] for s in got.get("stretches", [])]
    locks = [s[1].split("+")[0] for s in got.get("stretches", [])]
    if lengths != KNOWN_STRETCHES or locks != KNOWN_LOCKS:
        problems.append(f"{cfg} mk_known: stretches {list(zip(lengths, locks))}, not "
                        f"{list(zip(KNOWN_STRETCHES, KNOWN_LOCKS))}")
    return problems
