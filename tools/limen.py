#!/usr/bin/env python3
"""limen: build, run and test Limen.

    ./limen demo [--json]    the producer-consumer experiment (seeds 000/001)
    ./limen test             every test, under AddressSanitizer and UBSan
    ./limen setup            install what is missing (Debian, as root)

Standard library only, so it runs before anything is installed.
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# command on PATH -> Debian package that provides it
HOST_TOOLS = {"cmake": "cmake", "ninja": "ninja-build", "gcc": "gcc", "make": "make"}


def log(msg):
    print(f"[limen] {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    """Run a build step; its output goes to stderr so stdout stays the
    program's own (the demo's --json output is clean)."""
    log(" ".join(cmd))
    kw.setdefault("stdout", sys.stderr)
    return subprocess.run(cmd, cwd=ROOT, check=False, **kw).returncode


def setup(tools=HOST_TOOLS):
    missing = sorted({pkg for exe, pkg in tools.items() if shutil.which(exe) is None})
    if not missing:
        return 0
    if os.geteuid() != 0:
        log("missing: " + " ".join(missing))
        log("install them with: sudo apt-get install -y " + " ".join(missing))
        return 1
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(["apt-get", "update"], env=env).returncode != 0:
        return 1
    return subprocess.run(["apt-get", "install", "-y", *missing], env=env).returncode


def versions():
    for cmd in (["gcc", "--version"], ["cmake", "--version"]):
        out = subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()
        log(out[0] if out else f"{cmd[0]}: unknown version")


def build(preset, targets=()):
    if run(["cmake", "--preset", preset]) != 0:
        return 1
    cmd = ["cmake", "--build", "--preset", preset]
    for t in targets:
        cmd += ["--target", t]
    return run(cmd)


def cmd_demo(args):
    if setup() != 0 or build("host-release", ["producer_consumer"]) != 0:
        return 1
    exe = os.path.join(ROOT, "build", "host-release", "examples", "producer_consumer",
                       "producer_consumer")
    versions()
    return subprocess.run([exe] + (["--json"] if args.json else []), cwd=ROOT).returncode


def cmd_test(args):
    if setup() != 0:
        return 1
    versions()
    if build("host-asan") != 0:
        return 1
    return run(["ctest", "--preset", "host-asan"], stdout=None)


def cmd_setup(args):
    return setup()


def main():
    p = argparse.ArgumentParser(prog="limen", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="run the producer-consumer experiment")
    d.add_argument("--json", action="store_true", help="print JSON only")
    d.set_defaults(fn=cmd_demo)
    t = sub.add_parser("test", help="build and run every test")
    t.set_defaults(fn=cmd_test)
    s = sub.add_parser("setup", help="install missing build tools")
    s.set_defaults(fn=cmd_setup)
    args = p.parse_args()
    sys.exit(args.fn(args))


if __name__ == "__main__":
    main()
