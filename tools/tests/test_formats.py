# SPDX-License-Identifier: Apache-2.0
"""CTF and TraceX (.trx) exports, each read back by an independent reader:
babeltrace2 (Debian's) for CTF, the tracex-parser package for .trx, with
the same events in the same order as the trace."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import CASES
from limentrace import ctf, decode as d, trx

LINE = re.compile(r"^\[[^\]]*\] \([^)]*\) (limen:\w+): \{ (.*) \}$")


@pytest.mark.skipif(shutil.which("babeltrace2") is None,
                    reason="no babeltrace2 (apt-get install babeltrace2)")
@pytest.mark.parametrize("case", CASES)
def test_ctf_read_back_by_babeltrace2(run, case, tmp_path, artefacts):
    platform, directory, _ = run
    tr = d.load(os.path.join(directory, f"pc-{case}.lmtrace"))
    out = ctf.write(tr, str(tmp_path / "ctf"))
    p = subprocess.run(["babeltrace2", out], capture_output=True, text=True, check=True)
    lines = p.stdout.splitlines()
    parsed = [LINE.match(ln) for ln in lines]
    assert all(parsed), [ln for ln, m in zip(lines, parsed) if not m][:3]
    assert [m.group(1) for m in parsed] == [ctf.event_name(r.type) for r in tr.records]
    switches = [m.group(2) for m in parsed if m.group(1) == "limen:switch"]
    want = [f'prev = "{tr.thread_name(r.a)}", next = "{tr.thread_name(r.b)}", '
            f'reason = "{d.REASONS[r.arg]}", prev_prio = {r.h}'
            for r in tr.records if r.type == d.SWITCH]
    assert switches == want
    ops = [m.group(2) for m in parsed if m.group(1) == "limen:object"]
    assert all(o.startswith('op = "queue_') and 'object = "queue ' in o and
               'status = "OK"' in o for o in ops)
    # Timestamps: babeltrace2 prints seconds from the clock's origin.
    first = float(lines[0][1:].split("]")[0].split(":")[-1])
    assert first == pytest.approx(tr.records[0].t / tr.timestamp_hz, abs=1e-6)
    if case == "unique":
        shutil.copytree(out, os.path.join(artefacts, f"{platform}-unique-ctf"),
                        dirs_exist_ok=True)


@pytest.mark.parametrize("case", CASES)
def test_trx_read_back_by_tracex_parser(run, case, tmp_path, artefacts):
    file_parser = pytest.importorskip("tracex_parser.file_parser")
    platform, directory, _ = run
    tr = d.load(os.path.join(directory, f"pc-{case}.lmtrace"))
    path = trx.write(tr, str(tmp_path / f"{case}.trx"))
    events, registry = file_parser.parse_tracex_buffer(path)
    assert len(events) == len(tr.records)
    assert [e.id for e in events] == [trx.event_id(r) for r in tr.records]
    assert [e.timestamp for e in events] == [r.t & 0xFFFFFFFF for r in tr.records]
    names = {o["thread_reg_entry_obj_name"].decode() for o in registry.values()}
    assert {"A", "B", "C", "D", "idle", "queue A", "queue B", "queue C"} <= names
    # The reader names each event's thread as the trace does.
    current = None
    for e, r in zip(events, tr.records):
        if current is not None and r.type not in (d.ISR_ENTER, d.ISR_EXIT):
            assert e.thread_name == tr.thread_name(current)
        if r.type == d.SWITCH:
            current = r.b
    sends = [e for e in events if e.fn_name == "queueSend"]
    assert len(sends) == sum(1 for r in tr.records if r.type == d.OBJ and r.arg == 1)
    assert {e.mapped_args["queue_ptr"] for e in sends} <= {
        n.addr for n in tr.names if n.name.startswith("queue ")}
    if case == "unique":
        shutil.copy(path, os.path.join(artefacts, f"{platform}-unique.trx"))
