# SPDX-License-Identifier: Apache-2.0
"""Export to TraceX's buffer format (.trx), as ThreadX's tx_trace.h lays
it out and TraceX's documentation (chapter 11) describes: a control header
("TXTB"), an object registry (32-byte names) and 32-byte event entries.
Each Limen record becomes one entry, under the ThreadX event id of the same
kind where there is one (EVENT_IDS), else a user event: a Limen user event
as 4096 + its id, a record with no ThreadX counterpart (switch, tick,
priority change, thread start, timer expiry) as NO_TX_EVENT + its type.
Object operations carry the object in field 1 and the status in field 4."""
import struct

from . import decode as d

TXTB = 0x54585442
NAME = 32
USER_EVENT = 4096
NO_TX_EVENT = 0x10000
IN_ISR = 0xFFFFFFFF
INITIALISATION = 0xF0F0F0F0
# ThreadX object types
TX_THREAD, TX_TIMER, TX_QUEUE, TX_SEMAPHORE, TX_MUTEX, TX_FLAGS, TX_BLOCK_POOL = 1, 2, 3, 4, 5, 6, 7
OBJECT_TYPE = {1: TX_QUEUE, 2: TX_QUEUE, 3: TX_QUEUE, 4: TX_SEMAPHORE, 5: TX_SEMAPHORE,
               6: TX_MUTEX, 7: TX_MUTEX, 8: TX_FLAGS, 9: TX_FLAGS, 10: TX_BLOCK_POOL,
               11: TX_BLOCK_POOL, 12: TX_TIMER}
# ThreadX event ids (tx_trace.h) for Limen record types and operations
EVENT_IDS = {d.READY: 1, d.BLOCK: 2, d.ISR_ENTER: 3, d.ISR_EXIT: 4, d.SLICE: 5,
             d.THREAD_CREATE: 100, d.THREAD_DELETE: 101, d.YIELD: 109,
             d.THREAD_RESUME: 111, d.THREAD_SUSPEND: 114, d.THREAD_END: 115}
OP_IDS = {1: 69, 2: 70, 3: 68, 4: 83, 5: 88, 6: 52, 7: 57, 8: 36, 9: 32, 10: 10, 11: 17}


# ThreadX thread states for a Limen wait (lmk_wait_kind: sleep, wait queue,
# mutex, flags); a wait queue's by its object's type.
TX_STATE = {TX_QUEUE: 5, TX_SEMAPHORE: 6, TX_BLOCK_POOL: 8}


def wait_state(kind, object_type):
    return {1: 4, 3: 13, 4: 7}.get(kind, TX_STATE.get(object_type, 5))


def event_id(r):
    if r.type == d.OBJ and r.arg in OP_IDS:
        return OP_IDS[r.arg]
    if r.type == d.USER:
        return USER_EVENT + r.h
    return EVENT_IDS.get(r.type, NO_TX_EVENT + r.type)


def write(tr, path):
    objects = {}  # address -> (type, name)
    for n in tr.names:
        if n.kind == d.KIND_THREAD:
            objects[n.addr] = (TX_THREAD, n.name)
    if tr.idle not in objects:
        objects[tr.idle] = (TX_THREAD, "idle")
    for n in tr.names:
        if n.kind == d.KIND_OBJECT:
            kind = next((OBJECT_TYPE.get(r.arg) for r in tr.records
                         if r.type == d.OBJ and tr.object_name(r.a) == n.name), TX_QUEUE)
            objects[n.addr] = (kind, n.name)
    reg = b""
    for addr, (kind, name) in objects.items():
        reg += struct.pack("<BBBBIII32s", 0, kind, 0, 0, addr, 0, 0,
                           name.encode("utf-8")[:NAME - 1])
    prio = {}
    current = None
    depth = 0
    switches = [r for r in tr.records if r.type == d.SWITCH]
    nxt = 0
    entries = b""
    for r in tr.records:
        while nxt < len(switches) and switches[nxt].index < r.index:
            nxt += 1
        next_thread = switches[nxt].b if nxt < len(switches) else (current or 0)
        if r.type == d.THREAD_CREATE:
            prio[r.a] = r.h
        elif r.type == d.PRIO:
            prio[r.a] = r.h
        if r.type == d.ISR_ENTER:
            depth += 1
        if depth:
            ctx, ctx_prio = IN_ISR, current or 0
        elif current is None:
            ctx, ctx_prio = INITIALISATION, 0
        else:
            ctx, ctx_prio = current, prio.get(current, 0)
        if r.type == d.ISR_EXIT and depth:
            depth -= 1
        if r.type == d.READY:
            info = (r.a, r.h, 0, next_thread)
        elif r.type == d.BLOCK:
            kind = next((k for k, name in objects.values() if name == tr.object_name(r.b)), 0)
            info = (r.a, wait_state(r.arg, kind), 0, next_thread)
        elif r.type == d.YIELD:
            info = (0, next_thread, 0, 0)
        elif r.type in (d.ISR_ENTER, d.ISR_EXIT):
            info = (0, r.h, 0, 0)
        elif r.type == d.OBJ:
            info = (r.a, r.b, 0, r.h)
        elif r.type == d.SWITCH:
            prio[r.a] = r.h
            info = (r.a, r.b, r.arg, r.h)
        else:
            info = (r.a, r.b, r.arg, r.h)
        entries += struct.pack("<8I", ctx, ctx_prio, event_id(r), r.t & 0xFFFFFFFF, *info)
        if r.type == d.SWITCH:
            current = r.b
    reg_start = 48
    reg_end = reg_start + len(reg)
    buf_end = reg_end + len(entries)
    header = struct.pack("<IIIIHHIIIIIII", TXTB, 0xFFFFFFFF, 0, reg_start, 0, NAME, reg_end,
                         reg_end, buf_end, reg_end, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(header + reg + entries)
    return path
