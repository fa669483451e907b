# SPDX-License-Identifier: Apache-2.0
"""The Chrome trace-event export, validated against the format's rules
(the JSON object form: traceEvents; phases M, X, i with their fields) and
against the trace it came from."""
import json
import os

import pytest

from conftest import CASES
from limentrace import decode as d, export

PHASE_FIELDS = {"M": {"name", "pid", "tid", "args"},
                "X": {"name", "ph", "ts", "dur", "pid", "tid"},
                "i": {"name", "ph", "ts", "pid", "tid", "s"}}
METADATA = {"process_name", "thread_name", "thread_sort_index"}


def validate(doc):
    """Raise AssertionError unless doc is a valid trace-event document."""
    assert isinstance(doc, dict) and isinstance(doc["traceEvents"], list)
    assert doc.get("displayTimeUnit") in (None, "ms", "ns")
    named = set()
    for e in doc["traceEvents"]:
        ph = e["ph"]
        assert ph in PHASE_FIELDS, ph
        assert PHASE_FIELDS[ph] <= set(e), (ph, e)
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        assert isinstance(e["name"], str) and e["name"]
        if ph == "M":
            assert e["name"] in METADATA
            if e["name"] == "thread_name":
                assert isinstance(e["args"]["name"], str)
                named.add(e["tid"])
        else:
            assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
        if ph == "X":
            assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0
        if ph == "i":
            assert e["s"] in ("g", "p", "t")
        if "args" in e:
            assert isinstance(e["args"], dict)
    used = {e["tid"] for e in doc["traceEvents"] if e["ph"] != "M" and e["tid"] != 0}
    assert used <= named, "every lane has a thread_name"
    json.dumps(doc)  # serialisable as it is


@pytest.mark.parametrize("case", CASES)
def test_chrome_export(run, case, artefacts):
    platform, directory, _ = run
    tr = d.load(os.path.join(directory, f"pc-{case}.lmtrace"))
    doc = export.chrome(tr)
    validate(doc)
    ev = doc["traceEvents"]
    names = {e["args"]["name"] for e in ev if e["name"] == "thread_name"}
    assert {"A", "B", "C", "D"} <= names
    switches = [r for r in tr.records if r.type == d.SWITCH]
    runs = [e for e in ev if e["ph"] == "X" and e["cat"] == "thread"]
    assert len(runs) == len(switches) + 1  # one run interval per switch, and the last
    # Runs of one lane never overlap, and each ends where a switch is.
    by_lane = {}
    for e in runs:
        by_lane.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"]))
    for spans in by_lane.values():
        spans.sort()
        assert all(a[1] <= b[0] + 1e-6 for a, b in zip(spans, spans[1:]))
    instants = [e for e in ev if e["ph"] == "i"]
    assert len(instants) == sum(1 for r in tr.records
                                if r.type not in (d.ISR_ENTER, d.ISR_EXIT))
    assert sum(1 for e in instants if e["name"] == "switch") == len(switches)
    with open(os.path.join(artefacts, f"{platform}-{case}.json"), "w") as f:
        json.dump(doc, f)


def test_validator_rejects():
    with pytest.raises(AssertionError):
        validate({"traceEvents": [{"ph": "X", "name": "x", "pid": 1, "tid": 1, "ts": 0}]})
    with pytest.raises(AssertionError):
        validate({"traceEvents": [{"ph": "i", "name": "x", "pid": 1, "tid": 5, "ts": 0,
                                   "s": "t"}]})
