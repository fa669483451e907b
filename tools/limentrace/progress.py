# SPDX-License-Identifier: Apache-2.0
"""Progress of a `limen trace` command on stderr, for commands that take
more than a second or two (a large trace, a slow GDB link): a rich bar when
rich is installed and stderr is a terminal, plain lines otherwise. Nothing
goes to stdout, so --json output stays clean.

LIMEN_PROGRESS=off|plain|rich overrides the choice; plain lines start once
the command has run LIMEN_PROGRESS_AFTER seconds (default 1), so quick
commands stay quiet."""
import os
import sys
import time


class Steps:
    """`with Steps("export", 3) as p: p.step("decoding") ...`"""

    def __init__(self, command, total, out=None):
        self.command, self.total, self.out = command, total, out or sys.stderr
        self.after = float(os.environ.get("LIMEN_PROGRESS_AFTER", "1"))
        mode = os.environ.get("LIMEN_PROGRESS", "")
        if mode not in ("off", "plain", "rich"):
            mode = "rich" if self._rich_available() and self.out.isatty() else "plain"
        self.mode = mode
        self.start = time.monotonic()
        self.done = 0
        self.pending = []     # plain: steps not yet shown (the command was quick so far)
        self._bar = self._task = None

    @staticmethod
    def _rich_available():
        try:
            import rich.progress  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
        except ImportError:
            return False
        return True

    def __enter__(self):
        if self.mode == "rich":
            from rich.console import Console  # pylint: disable=import-outside-toplevel
            from rich.progress import Progress  # pylint: disable=import-outside-toplevel
            self._bar = Progress(console=Console(file=self.out), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.command, total=self.total)
        return self

    def step(self, what):
        """The next step begins (the one before it is over)."""
        self.done += 1
        if self.mode == "rich":
            self._bar.update(self._task, description=f"{self.command}: {what}",
                             completed=self.done - 1)
        elif self.mode == "plain":
            self.pending.append(f"limen trace {self.command}: [{self.done}/{self.total}] {what}")
            self._flush()

    def _flush(self):
        if time.monotonic() - self.start >= self.after:
            for line in self.pending:
                print(line, file=self.out, flush=True)
            self.pending = []

    def __exit__(self, *exc):
        elapsed = time.monotonic() - self.start
        if self.mode == "rich":
            self._bar.update(self._task, completed=self.total)
            self._bar.stop()
        elif self.mode == "plain" and elapsed >= self.after:
            self._flush()
            print(f"limen trace {self.command}: done in {elapsed:.1f} s", file=self.out,
                  flush=True)
        return False
