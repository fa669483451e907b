#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutant check for the reference model (tests/model/README.md, "Mutants").
#
# Copies the repository's tracked files (as they are in the working tree) to a
# scratch directory, builds test_model there unpatched (the baseline must not
# diverge), then applies each tests/model/mutants/*.patch in turn to a fresh
# copy of kernel/ and requires test_model to diverge (non-zero exit) within
# the seed budget. A patch that no longer applies is a "stale patch" and fails
# the check: refresh it against the current kernel.
#
#   run_mutants.sh [patch ...]          default: every mutants/*.patch
#   env: SEEDS="1 2 3 4"  STEPS=200000  JOBS=2  KEEP=1 (keep the scratch dir)
#
# Output: one line per mutant, "detected at seed S step N" or "NOT DETECTED".
# Exit status 0 only if the baseline passes and every mutant is detected.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
SEEDS=${SEEDS:-"1 2 3 4"}
STEPS=${STEPS:-200000}
JOBS=${JOBS:-2}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}

if [ $# -gt 0 ]; then
    patches=("$@")
else
    patches=("$here"/mutants/*.patch)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/limen-mutants.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then
    trap 'rm -rf "$work"' EXIT
fi
copy=$work/src
mkdir -p "$copy"
start=$(date +%s)

# Tracked files only (other people's half-written untracked files stay out),
# with their working-tree contents; a tracked file deleted in the tree is
# simply absent. SOURCE=head takes the last commit instead. tests/model/'s
# own sources are always taken from the tree.
snapshot() {
    rm -rf "$copy" "$work/kernel.pristine"
    mkdir -p "$copy"
    if [ "${SOURCE:-worktree}" = head ]; then
        git -C "$repo" archive HEAD | tar -xf - -C "$copy"
    else
        (cd "$repo" && git ls-files -z | while IFS= read -r -d '' f; do
            [ -e "$f" ] && printf '%s\0' "$f"
        done | tar --null -T - -cf -) | tar -xf - -C "$copy"
    fi || { echo "run_mutants: copying $repo failed"; exit 2; }
    # This test's own sources as they are here, tracked or not yet (a new
    # model_*.c named in CMakeLists.txt before it is committed).
    cp "$here"/*.c "$here"/*.h "$here"/CMakeLists.txt "$copy/tests/model/" ||
        { echo "run_mutants: copying $here failed"; exit 2; }
    cp -r "$copy/kernel" "$work/kernel.pristine"
    if ! cmake -S "$copy" -B "$copy/b" -G Ninja -DLIMEN_PORT=hosted -DLIMEN_SANITIZE=OFF \
            -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1; then
        echo "run_mutants: configure failed:"; tail -20 "$work/configure.log"; exit 2
    fi
}
bin=$copy/b/tests/model/test_model

build() { # $1: log file
    cmake --build "$copy/b" --target test_model -j "$JOBS" >"$1" 2>&1
}

# Runs the seed budget; sets result to "diverged at seed S step N",
# "crashed (status X) at seed S" or "" (no divergence).
run_seeds() { # $1: label for log files; $2: seeds (default $SEEDS)
    result=""
    for s in ${2:-$SEEDS}; do
        local log=$work/$1.seed$s.log
        # Detection only: no reduction, and the tape goes to the scratch dir.
        MODEL_REDUCE=0 MODEL_TAPE=$work/$1.seed$s.tape \
            timeout "$RUN_TIMEOUT" "$bin" "$s" "$STEPS" >"$log" 2>&1
        local rc=$?
        if [ $rc -ne 0 ]; then
            local line
            line=$(grep -m1 '^DIVERGENCE' "$log")
            if [ -n "$line" ]; then
                result=$(echo "$line" | sed -E 's/^DIVERGENCE seed ([0-9]+) step ([0-9]+).*/seed \1 step \2/')
                result="$result: ${line#*: }"
            elif [ $rc -eq 124 ]; then
                result="seed $s: hung (timeout ${RUN_TIMEOUT}s)"
            else
                result="seed $s: crashed (exit status $rc)"
            fi
            return
        fi
    done
}

# A patch may name, on a first line "Seeds: ...", the seeds that reach its
# defect (a race the default seeds do not happen to hit); they are tried
# instead of $SEEDS, and the baseline runs them too.
patch_seeds() { # $1: patch
    sed -n '1s/^Seeds: *//p' "$1"
}
all_seeds=$SEEDS
for p in "${patches[@]}"; do
    for s in $(patch_seeds "$p"); do
        case " $all_seeds " in *" $s "*) ;; *) all_seeds="$all_seeds $s" ;; esac
    done
done

fail=0

# Baseline: the unpatched copy must build and not diverge on the same budget.
# Others may be half-way through an edit of the tree: retry the snapshot a
# few times before giving up.
tries=${BUILD_RETRIES:-3}
for ((i = 1; ; i++)); do
    snapshot
    if build "$work/build.baseline.log"; then
        break
    fi
    if [ "$i" -ge "$tries" ]; then
        echo "baseline: BUILD FAILED (the tree does not build; SOURCE=head uses the last commit)"
        grep -m5 -E 'error' "$work/build.baseline.log" | sed 's/^/    /'
        exit 2
    fi
    echo "baseline: the tree does not build (someone editing?); retrying in 60 s"
    sleep 60
done
run_seeds baseline "$all_seeds"
if [ -n "$result" ]; then
    echo "baseline (unpatched): DIVERGES at $result"
    fail=1
else
    echo "baseline (unpatched): no divergence (seeds $all_seeds x $STEPS steps)"
fi

for p in "${patches[@]}"; do
    name=$(basename "$p" .patch)
    rm -rf "$copy/kernel"
    cp -r "$work/kernel.pristine" "$copy/kernel" # fresh mtimes: ninja rebuilds
    if ! (cd "$copy" && patch -p1 -N --fuzz=3 --dry-run -s <"$p" >"$work/$name.patch.log" 2>&1); then
        echo "$name: STALE PATCH (does not apply to the current kernel; refresh it)"
        sed 's/^/    /' "$work/$name.patch.log" | head -5
        fail=1
        continue
    fi
    (cd "$copy" && patch -p1 -N --fuzz=3 -s <"$p" >>"$work/$name.patch.log" 2>&1)
    if ! build "$work/build.$name.log"; then
        echo "$name: BUILD FAILED (refresh the patch)"
        grep -m3 -E 'error' "$work/build.$name.log" | sed 's/^/    /'
        fail=1
        continue
    fi
    run_seeds "$name" "$(patch_seeds "$p")"
    if [ -z "$result" ]; then
        echo "$name: NOT DETECTED (seeds $SEEDS x $STEPS steps)"
        fail=1
    else
        echo "$name: detected at $result"
    fi
done

# Leave the copy's kernel pristine (KEEP=1 users rebuild from it).
rm -rf "$copy/kernel"
cp -r "$work/kernel.pristine" "$copy/kernel"
echo "run_mutants: $(( $(date +%s) - start )) s, $([ $fail -eq 0 ] && echo PASS || echo FAIL)"
exit $fail
