# SPDX-License-Identifier: Apache-2.0
"""Progress on stderr for `limen trace` commands that take a while
(tools/limentrace/progress.py): plain lines without rich or a terminal,
rich's bar with them, nothing on stdout either way."""
import io
import os
import subprocess
import sys

import pytest

from conftest import TOOLS, CASES
from limentrace.progress import Steps


def _summary(directory, mode, after):
    env = dict(os.environ, LIMEN_PROGRESS=mode, LIMEN_PROGRESS_AFTER=str(after))
    return subprocess.run([sys.executable, "-m", "limentrace.cli", "summary",
                           os.path.join(directory, f"pc-{CASES[1]}.lmtrace"), "--cycles",
                           "cycle", "--json"], cwd=TOOLS, env=env, capture_output=True,
                          text=True, check=True)


def test_plain_progress_of_a_slow_command(host_run):
    """A command past the threshold (0 s here) shows its steps in order and
    its time on stderr; stdout is the JSON alone."""
    directory, _ = host_run
    p = _summary(directory, "plain", 0)
    assert p.stderr.splitlines()[:3] == ["limen trace summary: [1/3] decoding",
                                         "limen trace summary: [2/3] counting",
                                         "limen trace summary: [3/3] counting per cycle"]
    assert p.stderr.splitlines()[3].startswith("limen trace summary: done in ")
    assert p.stdout.lstrip().startswith("{")


def test_quick_command_stays_quiet(host_run):
    directory, _ = host_run
    assert _summary(directory, "plain", 60).stderr == ""
    assert _summary(directory, "off", 0).stderr == ""


def test_rich_bar():
    pytest.importorskip("rich")
    out = io.StringIO()
    os.environ["LIMEN_PROGRESS"] = "rich"
    try:
        with Steps("export", 2, out=out) as p:
            assert p.mode == "rich"
            p.step("decoding")
            p.step("writing ctf")
    finally:
        del os.environ["LIMEN_PROGRESS"]
    assert p.done == 2
