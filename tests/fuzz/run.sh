#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Build and run the libFuzzer target (tests/fuzz/README.md).
#   tests/fuzz/run.sh [seconds]     fuzz for `seconds` (default 60), print the summary
#   tests/fuzz/run.sh replay        run the committed corpus once (fast; for `limen test`)
#   tests/fuzz/run.sh <file>...     run the given inputs once (reproduce a crash)
# Exits non-zero on a finding (crash, sanitizer report, violated invariant).
# Environment: BUILD (default build/fuzz), CC (default clang), FUZZ_WORK
# (where new inputs and crash files go, default $BUILD/work).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD:-$root/build/fuzz}
work=${FUZZ_WORK:-$build/work}

cmake -S "$here" -B "$build" -G Ninja -DCMAKE_C_COMPILER="${CC:-clang}" >/dev/null
cmake --build "$build" -j 2 >/dev/null
bin=$build/fuzz_api

# Leak checking is off: the kernel never allocates, and LSan loses the main
# stack after fiber switches (see README "Known issues").
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
opts="-detect_leaks=0 -max_len=512"

mode=${1:-60}
if [ "$mode" = replay ]; then
    # Each input once; libFuzzer exits non-zero on the first failing one.
    exec "$bin" $opts -runs=0 "$here/corpus"
fi
case $mode in
    ''|*[!0-9]*) exec "$bin" $opts "$@" ;;  # explicit input files
esac

mkdir -p "$work/corpus" "$work/artifacts"
# The committed corpus is read as seeds; new inputs go to the work corpus.
"$bin" $opts -max_total_time="$mode" -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$work/corpus" "$here/corpus" 2>"$work/log" || {
    status=$?
    tail -n 60 "$work/log"
    echo "fuzz: FINDING, reproducer in $work/artifacts/ (replay: $0 <file>)" >&2
    exit $status
}
grep -E '^#[0-9]+ +DONE|^stat::' "$work/log" || tail -n 5 "$work/log"
echo "fuzz: no finding in $mode s"
