# SPDX-License-Identifier: Apache-2.0
"""Export to CTF 1.8 (the Common Trace Format that LTTng and Zephyr write;
Trace Compass and babeltrace2 read it): a directory with the TSDL
`metadata` and one binary stream of one packet. Every record is one
event, named limen:<type>; switches carry the two threads' names and the
R7.1 reason, object operations the operation, object, thread and status,
user events their name and payload, every other record its thread and a
description."""
import os
import struct

from . import decode as d

MAGIC = 0xC1FC1FC1

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;

trace {
    major = 1;
    minor = 8;
    byte_order = le;
    packet.header := struct {
        uint32_t magic;
        uint32_t stream_id;
    };
};

env {
    domain = "limen";
    tracer_name = "limen";
    timestamp_hz = %(hz)d;
};

clock {
    name = limen;
    description = "the port's timestamp (docs/trace.md)";
    freq = %(hz)d;
    offset = 0;
};

typealias integer { size = 64; align = 8; signed = false; map = clock.limen.value; } := limen_clock_t;

stream {
    id = 0;
    packet.context := struct {
        uint64_t content_size;
        uint64_t packet_size;
        limen_clock_t timestamp_begin;
        limen_clock_t timestamp_end;
    };
    event.header := struct {
        uint16_t id;
        limen_clock_t timestamp;
    };
};
"""

SWITCH_FIELDS = "string prev; string next; string reason; uint16_t prev_prio;"
OBJ_FIELDS = "string op; string object; string thread; string status;"
USER_FIELDS = "string name; uint16_t id; uint32_t a; uint32_t b;"
OTHER_FIELDS = "string thread; string text; uint8_t arg; uint16_t h; uint32_t a; uint32_t b;"


def event_name(t):
    return "limen:" + d.TYPE_NAMES.get(t, f"type{t}")


def _s(text):
    return text.encode("utf-8").replace(b"\0", b"?") + b"\0"


def _payload(tr, r):
    if r.type == d.SWITCH:
        return (_s(tr.thread_name(r.a)) + _s(tr.thread_name(r.b)) +
                _s(d.REASONS.get(r.arg, str(r.arg))) + struct.pack("<H", r.h))
    if r.type == d.OBJ:
        return (_s(d.OPS.get(r.arg, str(r.arg))) + _s(tr.object_name(r.a)) +
                _s(tr.thread_name(r.b)) + _s(d.STATUS.get(r.status, str(r.status))))
    if r.type == d.USER:
        return _s(tr.event_name(r.h)) + struct.pack("<HII", r.h, r.a, r.b)
    thread = tr.thread_name(r.a) if r.type not in (d.TICK,) else "-"
    return _s(thread) + _s(tr.describe(r)) + struct.pack("<BHII", r.arg, r.h, r.a, r.b)


def _fields(t):
    return {d.SWITCH: SWITCH_FIELDS, d.OBJ: OBJ_FIELDS, d.USER: USER_FIELDS}.get(t, OTHER_FIELDS)


def write(tr, directory):
    """Write the trace as CTF into directory (made if missing)."""
    os.makedirs(directory, exist_ok=True)
    meta = METADATA % {"hz": tr.timestamp_hz}
    for t in sorted(d.TYPE_NAMES):
        meta += (f'\nevent {{\n    name = "{event_name(t)}";\n    id = {t};\n'
                 f"    stream_id = 0;\n    fields := struct {{ {_fields(t)} }};\n}};\n")
    with open(os.path.join(directory, "metadata"), "w", encoding="utf-8") as f:
        f.write(meta)
    body = b"".join(struct.pack("<HQ", r.type, r.t) + _payload(tr, r) for r in tr.records
                    if r.type in d.TYPE_NAMES)
    t_begin = tr.records[0].t if tr.records else 0
    t_end = tr.records[-1].t if tr.records else 0
    header_len = 8 + 32
    size_bits = (header_len + len(body)) * 8
    packet = struct.pack("<IIQQQQ", MAGIC, 0, size_bits, size_bits, t_begin, t_end) + body
    with open(os.path.join(directory, "stream_0"), "wb") as f:
        f.write(packet)
    return directory
