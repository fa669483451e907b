# SPDX-License-Identifier: Apache-2.0
"""Traces recorded during the test run: the producer-consumer experiment
recorded on the hosted port (the host-asan build) and on QEMU mps2-an386
(examples/producer_consumer/main_trace.c), built if missing. Artefacts
(screenshots, exports) go to $LIMEN_BUILD_ROOT/trace-artefacts."""
import json
import os
import subprocess
import sys

import pytest

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)
BUILD = os.path.abspath(os.environ.get("LIMEN_BUILD_ROOT") or os.path.join(ROOT, "build"))
QEMU = ["qemu-system-arm", "-M", "mps2-an386", "-nographic", "-monitor", "none",
        "-semihosting-config", "enable=on,target=native",
        "-icount", "shift=0,align=off,sleep=off", "-kernel"]
CASES = ("equal", "unique", "threshold")


def _build(preset, target):
    bdir = os.path.join(BUILD, preset)
    if not os.path.exists(os.path.join(bdir, "build.ninja")):
        subprocess.run(["cmake", "--preset", preset, "-B", bdir], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", bdir, "--target", target], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return bdir


def _json_line(out):
    return json.loads([ln for ln in out.splitlines() if ln.startswith("JSON: ")][-1][6:])


@pytest.fixture(scope="session")
def artefacts():
    d = os.path.join(BUILD, "trace-artefacts")
    os.makedirs(d, exist_ok=True)
    return d


@pytest.fixture(scope="session")
def host_run(tmp_path_factory):
    """(directory of pc-<case>.lmtrace, the program's JSON) on the hosted port."""
    bdir = _build("host-asan", "producer_consumer_trace")
    out = tmp_path_factory.mktemp("host")
    p = subprocess.run([os.path.join(bdir, "examples", "producer_consumer",
                                     "producer_consumer_trace"), str(out)],
                       capture_output=True, text=True, check=True)
    return str(out), _json_line(p.stdout)


@pytest.fixture(scope="session")
def qemu_run(tmp_path_factory):
    """The same on QEMU mps2-an386: semihosting writes into QEMU's cwd."""
    bdir = _build("mps2-an386", "producer_consumer_trace")
    out = tmp_path_factory.mktemp("qemu")
    elf = os.path.join(bdir, "examples", "producer_consumer", "producer_consumer_trace.elf")
    p = subprocess.run(QEMU + [elf], cwd=out, capture_output=True, text=True, timeout=120,
                       check=True)
    return str(out), _json_line(p.stdout.replace("\r\n", "\n"))


@pytest.fixture(scope="session", params=["host", "qemu"])
def run(request):
    """Both platforms' recordings, as (platform, directory, JSON)."""
    d, js = request.getfixturevalue(f"{request.param}_run")
    return request.param, d, js


@pytest.fixture(scope="session")
def inversions_dir(tmp_path_factory):
    """tests/test_trace.c on the kernel that counts unbounded inversions too
    (LM_CFG_STATS_INVERSIONS, variant inv) saves its traces in the working
    directory: inversions.lmtrace (trace_inversions: a mutex with
    inheritance, then one without) and inversions-mixed.lmtrace
    (trace_inversions_mixed), each with the kernel's counts as user
    events."""
    bdir = _build("host-asan", "test_trace_inv")
    out = tmp_path_factory.mktemp("inversions")
    subprocess.run([os.path.join(bdir, "tests", "test_trace_inv")], cwd=out,
                   capture_output=True, check=True)
    return out


@pytest.fixture(scope="session")
def inversions_trace(inversions_dir):
    return str(inversions_dir / "inversions.lmtrace")


@pytest.fixture(scope="session")
def inversions_mixed_trace(inversions_dir):
    return str(inversions_dir / "inversions-mixed.lmtrace")
