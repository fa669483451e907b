# SPDX-License-Identifier: Apache-2.0
"""Thread awareness for Limen in GDB (Debian's gdb-multiarch), loaded with
one line:  source tools/gdb/limen_gdb.py

    limen threads        every thread: state, priorities, stack use, saved SP
    limen bt [NAME]      the backtrace of a thread that is not running, from
                         the context its last switch saved (all of them
                         without NAME)

Threads are found in the kernel's list of live threads (lmk.live: every
thread started and not ended, the idle thread first, in the order they
started), in any configuration; the image needs debug information (-g) for
the kernel's types. The saved context is the Armv7-M port's
(ports/armv7m/port.c, PendSV_Handler): r4-r11 and EXC_RETURN below
s16-s31 (if the thread used the FPU) and the exception frame."""
import gdb  # pylint: disable=import-error

STACK_FILL = 0xA5      # kernel/thread.c: new stacks are filled with it
STACK_GUARD_MAX = 64   # and up to this many bytes at the bottom are the port's guard
MAX_THREADS = 4096    # a list broken by a memory overwrite still ends
STATES = {0: "INACTIVE", 1: "READY", 2: "BLOCKED", 3: "SLEEPING", 4: "SUSPENDED",
          5: "TERMINATED"}  # lm_thread_state_t


def _u32(addr):
    return int.from_bytes(gdb.selected_inferior().read_memory(addr, 4).tobytes(), "little")


def _threads():
    """The kernel's live threads, from the list lmk.live links through each
    thread's `live` node (kernel/include/lmk.h)."""
    head = gdb.parse_and_eval("&lmk.live")
    tptr = gdb.lookup_type("lm_thread_t").pointer()
    off = int(gdb.parse_and_eval("(unsigned long)&((lm_thread_t *)0)->live"))
    out = []
    node = head["next"]
    while int(node) != int(head) and int(node) != 0 and len(out) < MAX_THREADS:
        out.append(gdb.Value(int(node) - off).cast(tptr).dereference())
        node = node["next"]
    if int(node) == 0:
        raise gdb.GdbError("the kernel's thread list is not set up (before lm_kernel_init?)")
    return out


def _name(t):
    try:
        return t["name"].string() if int(t["name"]) else "?"
    except gdb.MemoryError:
        return "?"


def _stack_use(t):
    base, size = int(t["stack"]), int(t["stack_size"])
    if base == 0 or size == 0:
        return None, size
    data = gdb.selected_inferior().read_memory(base, size).tobytes()
    g = 0
    while g < STACK_GUARD_MAX and data[g] != STACK_FILL:
        g += 1
    rest = data[g:]
    unused = len(rest) - len(rest.lstrip(bytes([STACK_FILL])))
    return size - g - unused, size - g


def _saved_registers(t):
    """The registers the thread's last switch saved, from its ctx.sp."""
    sp = int(t["ctx"]["sp"])
    regs = {f"r{i + 4}": _u32(sp + 4 * i) for i in range(8)}
    exc_return = _u32(sp + 32)
    fpu = (exc_return & 0x10) == 0
    hw = sp + 36 + (64 if fpu else 0)
    for i, r in enumerate(("r0", "r1", "r2", "r3", "r12", "lr", "pc", "xpsr")):
        regs[r] = _u32(hw + 4 * i)
    regs["sp"] = hw + 32 + (72 if fpu else 0) + (4 if regs["xpsr"] & (1 << 9) else 0)
    return regs


class LimenCommand(gdb.Command):
    """Limen kernel: limen threads, limen bt [NAME]."""

    def __init__(self):
        super().__init__("limen", gdb.COMMAND_USER, gdb.COMPLETE_NONE, True)


class LimenThreads(gdb.Command):
    """List Limen's threads: state, effective/base priority, threshold,
    stack use (high-water mark) and the saved stack pointer."""

    def __init__(self):
        super().__init__("limen threads", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        current = int(gdb.parse_and_eval("lmk.current"))
        gdb.write(f"{'':2}{'thread':<12} {'state':<11} {'prio':>4} {'base':>4} {'thr':>4} "
                  f"{'stack used':>14}  {'saved sp':>10}\n")
        for t in _threads():
            running = int(t.address) == current
            state = STATES.get(int(t["state"]), "?")
            used, size = _stack_use(t)
            stack = f"{used}/{size}" if used is not None else "-"
            sp = "-" if running else f"{int(t['ctx']['sp']):#010x}"
            gdb.write(f"{'* ' if running else '  '}{_name(t):<12} "
                      f"{'RUNNING' if running else state:<11} {int(t['prio']):>4} "
                      f"{int(t['base_prio']):>4} {int(t['threshold']):>4} {stack:>14}  {sp:>10}\n")


class LimenBacktrace(gdb.Command):
    """Backtrace of a Limen thread that is not running (all such threads
    without an argument), from the context its last switch saved."""

    def __init__(self):
        super().__init__("limen bt", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        current = int(gdb.parse_and_eval("lmk.current"))
        want = arg.strip()
        found = False
        for t in _threads():
            state = STATES.get(int(t["state"]), "?")
            if (want and _name(t) != want) or state in ("INACTIVE", "TERMINATED"):
                continue
            found = True
            gdb.write(f"thread {_name(t)} ({state}"
                      f"{', running' if int(t.address) == current else ''}):\n")
            if int(t.address) == current:
                gdb.execute("bt", to_string=False)
                continue
            saved = {r: int(gdb.parse_and_eval(f"${r}")) for r in
                     ("r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
                      "r11", "r12", "sp", "lr", "pc")}
            try:
                for r, v in _saved_registers(t).items():
                    if r != "xpsr":
                        gdb.execute(f"set ${r} = {v}", to_string=True)
                gdb.execute("bt", to_string=False)
            finally:
                for r, v in saved.items():
                    gdb.execute(f"set ${r} = {v}", to_string=True)
        if want and not found:
            raise gdb.GdbError(f"no thread {want} that has run")


LimenCommand()
LimenThreads()
LimenBacktrace()
