#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Instructions and estimated Cortex-M4 cycles of the kernel's hot paths.

Runs a target image (test_hotpaths.elf) under QEMU with one instruction per
translation block and an execution log (-singlestep -d exec,nochain), so the
log holds every executed instruction's address in order. Each path starts
where the trace enters its function and ends where that call returns (call
depth followed through BL/BLX and returns). A path that an exception
interrupts ends there, and says so. Every executed instruction is priced
from the Cortex-M4 Technical Reference Manual's instruction timings
(docs/measuring.md lists them), for a pipeline refill P of 1, 2 and 3 cycles.

    hotpath_cycles.py build/mps2-an386/tests/target/test_hotpaths.elf
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOTS = ["PendSV_Handler", "SysTick_Handler", "lm_sem_give", "lm_sem_take",
         "lm_queue_send", "lm_queue_receive"]
HANDLER_ENTRY_EXIT = 12 + 12  # exception entry and return, no FPU frame
CONDS = ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls",
         "ge", "lt", "gt", "le")


def disassemble(elf):
    """address -> (size, mnemonic, operands); function name -> address."""
    out = subprocess.run(["arm-none-eabi-objdump", "-d", elf], capture_output=True,
                         text=True, check=True).stdout
    insns, funcs = {}, {}
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            funcs[m.group(2)] = int(m.group(1), 16)
            continue
        m = re.match(r"^\s+([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)\s*(.*)$", line)
        if m:
            size = sum(len(h) // 2 for h in m.group(2).split())
            ops = m.group(4).split(";")[0].split("@")[0].strip()
            insns[int(m.group(1), 16)] = (size, m.group(3).lower(), ops.lower())
    return insns, funcs


def trace(elf, machine):
    """Addresses of the executed instructions, in order."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "exec.log")
        subprocess.run(["qemu-system-arm", "-M", machine, "-nographic", "-monitor", "none",
                        "-semihosting-config", "enable=on,target=native",
                        "-icount", "shift=0,align=off,sleep=off", "-singlestep",
                        "-d", "exec,nochain", "-D", log, "-kernel", elf],
                       check=True, stdout=subprocess.DEVNULL, timeout=600)
        pcs = []
        with open(log) as f:
            for line in f:
                m = re.match(r"Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/", line)
                if m:
                    pc = int(m.group(1), 16)
                    # With -icount, an instruction that touches a device is
                    # started once, abandoned, and run again: it is logged
                    # twice in a row (no hot path branches to itself).
                    if not pcs or pcs[-1] != pc:
                        pcs.append(pc)
        return pcs


def reg_count(ops):
    """Registers in a {list} (ranges expanded; a D register counts 2)."""
    m = re.search(r"\{([^}]*)\}", ops)
    n = 0
    for part in m.group(1).split(","):
        part = part.strip()
        r = re.match(r"([rsd])(\d+)-[rsd](\d+)", part)
        k = (int(r.group(3)) - int(r.group(2)) + 1) if r else 1
        n += k * (2 if part.startswith("d") else 1)
    return n


def base(mnemonic):
    return mnemonic.split(".")[0]


def is_call(mn):
    return base(mn) in ("bl", "blx")


def is_return(mn, ops):
    b = base(mn)
    if b == "bx" and ops == "lr":
        return True
    if b in ("pop", "ldmia", "ldm", "ldmfd") and "pc" in ops and ops.startswith(("{", "sp")):
        return True
    return b == "ldr" and ops.startswith("pc")


def is_branch(mn):
    b = base(mn)
    return b in ("b", "bl", "blx", "bx", "cbz", "cbnz", "tbb", "tbh") or (
        b.startswith("b") and b[1:] in CONDS)


def cycles(mn, ops, taken, p):
    """Cortex-M4 TRM timings, zero wait states; see docs/measuring.md."""
    b = base(mn)
    if b in ("vstmdbeq", "vldmiaeq"):
        # PendSV's S16-S31 transfers, on condition that the thread has an
        # FPU frame; the bench's threads never use the FPU, so the condition
        # fails and the instruction costs one cycle. (Other conditional
        # instructions are priced as executed, an upper bound.)
        return 1
    if b in ("tbb", "tbh"):
        return 2 + p
    if is_branch(mn):
        return 1 + p if taken else 1
    if b in ("push", "pop", "stmdb", "stmia", "stm", "ldmia", "ldm", "ldmdb", "ldmfd",
             "stmfd", "vpush", "vpop", "vldmia", "vstmdb", "vldm", "vstm") or \
            b.startswith(("vldm", "vstm")):
        n = reg_count(ops)
        return 1 + n + (p if "pc" in ops else 0)
    if b in ("ldrd", "strd"):
        return 3
    if b.startswith(("ldr", "str", "vldr", "vstr")):
        return 2 + (p if ops.startswith("pc") else 0)
    if b in ("mrs", "msr", "cpsid", "cpsie"):
        return 2  # "1 or 2": the upper value
    if b == "isb":
        return 1 + p
    if b in ("dsb", "dmb"):
        return 2
    if b in ("mla", "mls"):
        return 2
    if b in ("udiv", "sdiv"):
        return 7  # 2..12 by operand size
    return 1  # data processing, IT, MUL, VMOV...


def walk(pcs, i, insns, handlers):
    """The path from pcs[i] to the matching return: (indices, interrupted)."""
    depth, path = 0, []
    while i < len(pcs):
        pc = pcs[i]
        if path and pc in handlers and not is_branch(insns[pcs[i - 1]][1]):
            return path, True  # an exception came in: the path ends here
        path.append(i)
        size, mn, ops = insns.get(pc, (2, "?", ""))
        if is_call(mn):
            depth += 1
        elif is_return(mn, ops):
            if depth == 0:
                return path, False
            depth -= 1
        i += 1
    return path, True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("elf")
    ap.add_argument("--machine", default="mps2-an386")
    args = ap.parse_args()
    insns, funcs = disassemble(args.elf)
    handlers = {a for n, a in funcs.items() if n.endswith("_Handler")}
    pcs = trace(args.elf, args.machine)
    variants = collections.OrderedDict()
    for root in ROOTS:
        start = funcs[root]
        for i, pc in enumerate(pcs):
            if pc != start:
                continue
            path, interrupted = walk(pcs, i, insns, handlers)
            seq = tuple(pcs[k] for k in path)
            key = (root, seq, interrupted)
            if key not in variants:
                cyc = []
                for p in (1, 2, 3):
                    c = 0
                    for n, k in enumerate(path):
                        size, mn, ops = insns.get(pcs[k], (2, "?", ""))
                        nxt = pcs[k + 1] if k + 1 < len(pcs) else None
                        c += cycles(mn, ops, nxt != pcs[k] + size, p)
                    if root.endswith("_Handler"):
                        c += HANDLER_ENTRY_EXIT
                    cyc.append(c)
                variants[key] = [0, len(path), cyc]
            variants[key][0] += 1
    print("| path (entry function) | times seen | instructions | cycles P=1 / 2 / 3 |")
    print("|---|---|---|---|")
    for (root, seq, interrupted), (times, n, cyc) in variants.items():
        note = " (until an exception preempts it)" if interrupted else ""
        print(f"| `{root}`{note} | {times} | {n} | {cyc[0]} / {cyc[1]} / {cyc[2]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
