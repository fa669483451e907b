# SPDX-License-Identifier: Apache-2.0
"""The decoder on traces recorded during this run (docs/trace.md)."""
import os
import struct

import pytest

from conftest import CASES
from limentrace import decode as d


def load(directory, case):
    return d.load(os.path.join(directory, f"pc-{case}.lmtrace"))


@pytest.mark.parametrize("case", CASES)
def test_header_names_and_order(run, case):
    platform, directory, js = run
    tr = load(directory, case)
    assert tr.endian == "<" and tr.version == 2
    assert tr.timestamp_hz == (1_000_000 if platform == "host" else 25_000_000)
    assert tr.tick_hz == 1000
    assert tr.dropped == 0 and tr.mode == 0 and tr.active == 0  # stopped at the end
    assert tr.address_bytes == (8 if platform == "host" else 4)
    names = {(n.kind, n.name) for n in tr.names}
    assert {(d.KIND_THREAD, x) for x in ("A", "B", "C", "D", "idle")} <= names
    assert {(d.KIND_OBJECT, f"queue {x}") for x in "ABC"} <= names
    assert (d.KIND_EVENT, "cycle") in names
    assert len(tr.records) == tr.written
    assert all(b.t >= a.t for a, b in zip(tr.records, tr.records[1:]))
    assert [r.index for r in tr.records] == list(range(len(tr.records)))
    # lm_kernel_init creates the idle thread, then pc.c its four.
    created = [tr.thread_name(r.a) for r in tr.records if r.type == d.THREAD_CREATE]
    assert created == ["idle", "A", "B", "C", "D"]
    # One mark per cycle boundary, numbered 0.. (warm-up and measured).
    cycles = [r.a for r in tr.records if r.type == d.USER]
    assert cycles == list(range(js["warmup"] + js["cycles"]))
    # Every queue operation names a registered queue and a consumer or D.
    for r in tr.records:
        if r.type == d.OBJ:
            assert tr.object_name(r.a).startswith("queue ")
            assert tr.thread_name(r.b) in ("A", "B", "C", "D")


def _swap(data):
    """The same trace as a big-endian target would have written it."""
    hdr = struct.unpack_from("<" + d.HEADER, data, 0)
    out = bytearray(struct.pack(">" + d.HEADER, *hdr))
    names_max, records_max = hdr[7], hdr[9]
    for i in range(names_max):
        e = struct.unpack_from("<" + d.ENTRY, data, 52 + 32 * i)
        out += struct.pack(">" + d.ENTRY, *e)
    ring = 52 + 32 * names_max
    for i in range(records_max):
        out += struct.pack(">" + d.RECORD, *struct.unpack_from("<" + d.RECORD, data, ring + 16 * i))
    return bytes(out)


def test_big_endian_reads_the_same(host_run):
    path = os.path.join(host_run[0], "pc-unique.lmtrace")
    with open(path, "rb") as f:
        data = f.read()
    le, be = d.parse(data), d.parse(_swap(data))
    assert be.endian == ">" and data[:4] == b"LMTR"
    assert [(r.t, r.type, r.arg, r.h, r.a, r.b) for r in be.records] == \
           [(r.t, r.type, r.arg, r.h, r.a, r.b) for r in le.records]
    assert [n.name for n in be.names] == [n.name for n in le.names]


def test_bad_files_are_refused(host_run):
    with open(os.path.join(host_run[0], "pc-equal.lmtrace"), "rb") as f:
        data = f.read()
    with pytest.raises(d.TraceError, match="magic"):
        d.parse(b"XXXX" + data[4:])
    with pytest.raises(d.TraceError, match="header"):
        d.parse(data[:20])
    with pytest.raises(d.TraceError, match="version 1"):  # before the block record's h
        d.parse(data[:4] + struct.pack("<H", 1) + data[6:])
    with pytest.raises(d.TraceError, match="version 3"):
        d.parse(data[:4] + struct.pack("<H", 3) + data[6:])
    with pytest.raises(d.TraceError, match="truncated"):
        d.parse(data[:-1])


def test_timestamps_unwrap():
    """A 32-bit timestamp that wraps between two records still counts up."""
    hdr = struct.pack("<" + d.HEADER, 0x52544D4C, d.VERSION, 52, 1000, 1000, 16, 32, 0, 0, 4, 3, 3,
                      0, 0, 0, 4, 0, 0)
    recs = b"".join(struct.pack("<" + d.RECORD, ts, d.USER, 0, 1, i, 0)
                    for i, ts in enumerate((0xFFFFFFF0, 0xFFFFFFFF, 0x10)))
    tr = d.parse(hdr + recs + bytes(16))
    assert [r.t - tr.records[0].t for r in tr.records] == [0, 15, 32]


def test_tables_match_the_headers():
    """The decoder's names of statuses, record types, reasons and operations
    are those of include/limen/status.h and include/limen/trace.h."""
    import re
    from conftest import ROOT
    with open(os.path.join(ROOT, "include", "limen", "status.h")) as f:
        status = {int(v): n for n, v in re.findall(r"LM_(?:ERR_)?(\w+) = (-?\d+)", f.read())}
    assert status == d.STATUS
    with open(os.path.join(ROOT, "include", "limen", "trace.h")) as f:
        text = f.read()

    def enum(name, prefix=""):
        block = text.split(f"typedef enum {name} {{", 1)[1].split("}", 1)[0]
        return {int(v): n for n, v in re.findall(rf"LM_TRACE_{prefix}(\w+) = (\d+)", block)}
    types = enum("lm_trace_type")
    assert {v: types[v] for v in d.TYPE_NAMES} == {
        1: "THREAD_CREATE", 2: "THREAD_START", 3: "THREAD_END", 4: "THREAD_DELETE",
        5: "THREAD_SUSPEND", 6: "THREAD_RESUME", 7: "READY", 8: "BLOCK", 9: "SWITCH",
        10: "ISR_ENTER", 11: "ISR_EXIT", 12: "YIELD", 13: "SLICE", 14: "PRIO", 15: "OBJ",
        16: "USER", 17: "TICK"}
    assert {v: n.lower() for v, n in enum("lm_trace_op").items()} == d.OPS
    reasons = enum("lm_trace_reason", "R_")
    assert sorted(reasons) == sorted(d.REASONS) and reasons[d.R_PREEMPT] == "PREEMPT"
    assert reasons[d.R_PREEMPT_OWN] == "PREEMPT_OWN"
