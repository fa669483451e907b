#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_spdx: every source file of the repository names its licence.

    tools/check_spdx.py             check the repository; exit 1 and name
                                    each file whose first comment line is
                                    not the SPDX line
    tools/check_spdx.py --self-test the check on a scratch tree (a file with
                                    and files without the line)

Covered (README.md, "Licence"): C sources and headers (.c, .h), linker
scripts (.ld), CMake files (CMakeLists.txt, .cmake, .cmake.in), Python (.py),
shell scripts (.sh) and any other file that starts with "#!". The line is
the file's first, or its second after a "#!" line. Not covered: Markdown,
JSON, the fuzz corpus (libFuzzer inputs), VHS .tape files and the mutant
patches under tests/model/mutants (diffs of kernel files).
"""
import os
import subprocess
import sys
import tempfile

TAG = "SPDX-License-Identifier: Apache-2.0"
SUFFIXES = (".c", ".h", ".ld", ".cmake", ".cmake.in", ".py", ".sh")
NAMES = ("CMakeLists.txt",)
SKIP_DIRS = ("build/", "tests/fuzz/corpus/", ".git/")


def repo_files(root):
    """Tracked and new (not ignored) files; every file under root outside
    build/ when root is not a git checkout."""
    p = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                       cwd=root, capture_output=True, text=True, check=False)
    if p.returncode == 0:
        return sorted(set(p.stdout.split()))
    found = []
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if not (os.path.join(rel, x) + "/").lstrip("./")
                   .startswith(SKIP_DIRS) and x != ".git"]
        found += [os.path.normpath(os.path.join(rel, f)) for f in files]
    return sorted(found)


def covered(root, path):
    if path.startswith(SKIP_DIRS) or not os.path.isfile(os.path.join(root, path)):
        return False
    if path.endswith(SUFFIXES) or os.path.basename(path) in NAMES:
        return True
    with open(os.path.join(root, path), "rb") as f:
        return f.read(2) == b"#!"


def has_tag(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        lines = [f.readline() for _ in range(2)]
    first = lines[1] if lines[0].startswith("#!") else lines[0]
    return TAG in first


def missing(root):
    """Covered files whose first comment line is not the SPDX line."""
    return [p for p in repo_files(root) if covered(root, p) and not has_tag(root, p)]


def check(root):
    files = [p for p in repo_files(root) if covered(root, p)]
    bad = [p for p in files if not has_tag(root, p)]
    for p in bad:
        print(f"[limen] {p}: no '{TAG}' line at the top", file=sys.stderr)
    if bad:
        print(f"[limen] SPDX: {len(bad)} of {len(files)} files lack the licence line",
              file=sys.stderr)
        return 1
    print(f"[limen] SPDX: all {len(files)} source, header, script, CMake and linker "
          "files carry the licence line", file=sys.stderr)
    return 0


def self_test():
    """The check must name a file without the line (at the top, or after a
    shebang), and pass over files that have it or are not covered."""
    with tempfile.TemporaryDirectory() as root:
        files = {
            "good.c": f"/* {TAG} */\nint x;\n",
            "good.sh": f"#!/bin/sh\n# {TAG}\n",
            "sub/CMakeLists.txt": f"# {TAG}\n",
            "notes.md": "no licence line needed\n",
            "build/gen.c": "generated, not checked\n",
            "bad.h": f"/* header */\n/* {TAG} */\n",
            "bad.py": f"#!/usr/bin/env python3\n\n# {TAG}\n",
            "sub/tool": "#!/bin/sh\necho\n",
            "cfg.cmake.in": "# @PROJECT_VERSION@\n",
        }
        for name, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        got = missing(root)
        want = ["bad.h", "bad.py", "cfg.cmake.in", "sub/tool"]
        if got != want:
            print(f"check_spdx self-test: flagged {got}, expected {want}", file=sys.stderr)
            return 1
    print("check_spdx self-test: the files without the line, and only they, are named")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return check(sys.argv[1] if len(sys.argv) > 1 else root)


if __name__ == "__main__":
    sys.exit(main())
