# SPDX-License-Identifier: Apache-2.0
"""Decoder of the trace buffer written by kernel/trace.c (docs/trace.md).

The buffer is a header, a registry of names and a ring of 16-byte records,
in the target's byte order, which the header's magic word tells."""
import struct
from dataclasses import dataclass, field

MAGIC = b"LMTR"
VERSION = 2
HEADER = "IHHIIHHIIIIIIBBBBI"  # 52 bytes, lm_trace_header_t
ENTRY = "II B3x20s".replace(" ", "")
RECORD = "IBBHII"

# Record types (lm_trace_type_t)
THREAD_CREATE, THREAD_START, THREAD_END, THREAD_DELETE = 1, 2, 3, 4
THREAD_SUSPEND, THREAD_RESUME, READY, BLOCK, SWITCH = 5, 6, 7, 8, 9
ISR_ENTER, ISR_EXIT, YIELD, SLICE, PRIO, OBJ, USER, TICK = 10, 11, 12, 13, 14, 15, 16, 17
TYPE_NAMES = {
    THREAD_CREATE: "create", THREAD_START: "start", THREAD_END: "end",
    THREAD_DELETE: "delete", THREAD_SUSPEND: "suspend", THREAD_RESUME: "resume",
    READY: "ready", BLOCK: "block", SWITCH: "switch", ISR_ENTER: "isr_enter",
    ISR_EXIT: "isr_exit", YIELD: "yield", SLICE: "slice", PRIO: "prio", OBJ: "object",
    USER: "user", TICK: "tick",
}
# Switch reasons (lm_trace_reason_t), docs/rules.md R7.1
REASONS = {1: "block", 2: "sleep", 3: "suspend", 4: "end", 5: "relinquish",
           6: "slice", 7: "preemption", 8: "idle", 9: "preemption_own",
           10: "suspend_isr", 11: "end_isr"}
R_PREEMPT = 7        # (g): a more urgent thread made ready
R_PREEMPT_OWN = 9    # (h): its own priority or threshold changed
R_PREEMPTS = (R_PREEMPT, R_PREEMPT_OWN)  # R7.2: both are preemptions
# Object operations (lm_trace_op_t)
OPS = {1: "queue_send", 2: "queue_send_front", 3: "queue_receive", 4: "sem_take",
       5: "sem_give", 6: "mutex_lock", 7: "mutex_unlock", 8: "flags_set", 9: "flags_wait",
       10: "pool_alloc", 11: "pool_free", 12: "timer_expiry"}
# Registry kinds (lm_trace_kind_t)
KIND_THREAD, KIND_OBJECT, KIND_EVENT, KIND_IRQ = 1, 2, 3, 4
IRQ_TICK = 0xFFFF
# Status codes (include/limen/status.h), for the names of results
STATUS = {0: "OK", -1: "TIMEOUT", -2: "DELETED", -3: "WOULD_BLOCK", -4: "ABORTED",
          -5: "ABANDONED", -6: "OVERFLOW", -7: "DEADLOCK", -10: "PARAM", -11: "OBJECT",
          -12: "PRIORITY", -13: "ISR", -14: "NOT_OWNER", -15: "STATE", -16: "LOCKED",
          -17: "SIZE", -18: "INIT"}


class TraceError(ValueError):
    """The file is not a Limen trace this decoder understands."""


@dataclass
class Record:
    index: int     # position in the trace, oldest first
    t: int         # timestamp, unwrapped to 64 bits (counts)
    type: int
    arg: int
    h: int
    a: int
    b: int

    @property
    def status(self):
        """h as a signed status (object operations, wakes)."""
        return self.h - 0x10000 if self.h & 0x8000 else self.h


@dataclass
class Name:
    addr: int
    size: int
    kind: int
    name: str


@dataclass
class Trace:
    endian: str
    version: int
    timestamp_hz: int
    tick_hz: int
    names_max: int
    records_max: int
    written: int
    dropped: int
    mode: int
    active: int
    address_bytes: int
    idle: int
    names: list = field(default_factory=list)
    records: list = field(default_factory=list)

    # ---- names ----
    def _lookup(self, addr, kind):
        for n in self.names:
            if n.kind == kind and (addr == n.addr or n.addr < addr < n.addr + n.size):
                return n.name
        return None

    def thread_name(self, addr):
        if addr == self.idle:
            return "idle"
        return self._lookup(addr, KIND_THREAD) or f"thread@{addr:#x}"

    def object_name(self, addr):
        if addr == 0:
            return "-"
        return (self._lookup(addr, KIND_OBJECT) or self._lookup(addr, KIND_THREAD)
                or f"object@{addr:#x}")

    def event_name(self, ev_id):
        return self._lookup(ev_id, KIND_EVENT) or f"event{ev_id}"

    def irq_name(self, irq):
        if irq == IRQ_TICK:
            return "tick"
        return self._lookup(irq, KIND_IRQ) or f"irq{irq}"

    def seconds(self, counts):
        return counts / self.timestamp_hz

    def us(self, counts):
        return counts * 1e6 / self.timestamp_hz

    def describe(self, r):
        """One line of text for a record (the timeline's hover, listings)."""
        t = r.type
        if t == SWITCH:
            return (f"switch {self.thread_name(r.a)} -> {self.thread_name(r.b)} "
                    f"({REASONS.get(r.arg, r.arg)})")
        if t == OBJ:
            return (f"{OPS.get(r.arg, r.arg)} {self.object_name(r.a)} by "
                    f"{self.thread_name(r.b)}: {STATUS.get(r.status, r.status)}")
        if t == BLOCK:
            what = "sleep" if r.b == 0 else self.object_name(r.b)
            return f"{self.thread_name(r.a)} blocks on {what}"
        if t == READY:
            return f"{self.thread_name(r.a)} ready: {STATUS.get(r.status, r.status)}"
        if t in (ISR_ENTER, ISR_EXIT):
            return f"{'enter' if t == ISR_ENTER else 'exit'} {self.irq_name(r.h)}"
        if t == PRIO:
            return (f"{self.thread_name(r.a)} priority {r.h} "
                    f"({'raised' if r.arg else 'lowered'})")
        if t == USER:
            return f"{self.event_name(r.h)} {r.a} {r.b}"
        if t == TICK:
            return f"tick +{r.a} = {r.b}"
        if t == THREAD_CREATE:
            return f"create {self.thread_name(r.a)} priority {r.h}"
        if t in (THREAD_SUSPEND, THREAD_RESUME):
            return (f"{TYPE_NAMES[t]} {self.thread_name(r.a)}: "
                    f"{STATUS.get(r.status, r.status)}")
        return f"{TYPE_NAMES.get(t, t)} {self.thread_name(r.a)}"


def parse(data):
    """A Trace from the bytes of a trace buffer."""
    if len(data) < 52:
        raise TraceError("shorter than a trace header")
    if data[:4] == MAGIC:
        endian = "<"
    elif data[:4] == MAGIC[::-1]:
        endian = ">"
    else:
        raise TraceError("not a Limen trace (no LMTR magic)")
    (_, version, header_bytes, ts_hz, tick_hz, record_bytes, entry_bytes, names_max, names,
     records_max, written, nxt, dropped, mode, active, address_bytes, _,
     idle) = struct.unpack_from(endian + HEADER, data, 0)
    if version != VERSION:
        raise TraceError(f"trace format version {version}; this decoder reads {VERSION}")
    if record_bytes != 16 or entry_bytes != 32 or header_bytes != 52:
        raise TraceError("unexpected record, entry or header size")
    need = header_bytes + names_max * entry_bytes + records_max * record_bytes
    if len(data) < need or names > names_max or records_max == 0 or ts_hz == 0:
        raise TraceError(f"truncated or inconsistent trace ({len(data)} bytes, {need} needed)")
    tr = Trace(endian, version, ts_hz, tick_hz, names_max, records_max, written, dropped,
               mode, active, address_bytes, idle)
    off = header_bytes
    for i in range(names):
        addr, size, kind, raw = struct.unpack_from(endian + ENTRY, data, off + i * entry_bytes)
        tr.names.append(Name(addr, size, kind, raw.split(b"\0", 1)[0].decode("utf-8", "replace")))
    ring = header_bytes + names_max * entry_bytes
    count = min(written, records_max)
    first = 0 if written <= records_max else nxt
    t64 = None
    prev = 0
    for i in range(count):
        slot = (first + i) % records_max
        ts, typ, arg, h, a, b = struct.unpack_from(endian + RECORD, data, ring + slot * 16)
        if t64 is None:
            t64 = ts
        else:
            t64 += (ts - prev) & 0xFFFFFFFF
        prev = ts
        tr.records.append(Record(i, t64, typ, arg, h, a, b))
    return tr


def load(path):
    with open(path, "rb") as f:
        return parse(f.read())
