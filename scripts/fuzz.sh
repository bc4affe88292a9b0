#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs them (ADR 0052). Modes:
#   scripts/fuzz.sh --regression  `make test`: replays every input of each target's corpus in
#                                 tests/fuzz/corpus/<target>/ once (the seeds, the inputs that
#                                 reach new code, and every past finding, regression-*). No
#                                 randomness: a clean checkout passes or fails the same way
#                                 on every machine.
#   scripts/fuzz.sh SECONDS       `make fuzz`: explores with a random seed for SECONDS per
#                                 target, then merges the inputs that reached new code into
#                                 the corpus folder (commit them: the gate replays them).
# Every folder under tests/fuzz/corpus/ is a target: a folder without its fuzz_<name> binary
# fails the run, so a target cannot be forgotten in tests/fuzz/CMakeLists.txt.
# Prints one "fuzz: <target> ok" line per clean target; exits non-zero on a crash or report,
# naming the input and the command that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=explore
SECONDS_PER_TARGET=${1:-15}
if [[ ${1:-} == --regression ]]; then
  mode=regression
fi
# One input may use at most this much memory: the hostile-input bound of the server (1 GB).
LIMITS=(-rss_limit_mb=1024 -malloc_limit_mb=1024 -timeout=10)

mkdir -p .test-output
build_log=.test-output/fuzz-build.log
# The build's output goes to a log; on failure its end is printed with a "fuzz: build FAILED"
# line, so a broken fuzz build is told apart from a finding.
if ! { [[ -f build-fuzz/CMakeCache.txt ]] ||
       CXX=clang++-14 cmake -S . -B build-fuzz -DSVC_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug; } > "$build_log" 2>&1 ||
   ! cmake --build build-fuzz -j "$(nproc)" >> "$build_log" 2>&1; then
  echo "fuzz: build FAILED (see $build_log)"
  tail -30 "$build_log"
  exit 1
fi
status=0
for corpus in tests/fuzz/corpus/*/; do
  target=$(basename "$corpus")
  binary=build-fuzz/bin/fuzz_$target
  rm -f .test-output/fuzz-$target-*
  if [[ ! -x $binary ]]; then
    echo "fuzz: $target FAILED (no $binary: add the target to tests/fuzz/CMakeLists.txt)"
    status=1
    continue
  fi
  start=$(date +%s)
  if [[ $mode == regression ]]; then
    # Files (not a folder) as arguments: libFuzzer runs each once and does not mutate.
    mapfile -t inputs < <(find "$corpus" -type f | sort)
    run=("$binary" "${LIMITS[@]}" "${inputs[@]}")
    what="${#inputs[@]} corpus inputs replayed"
  else
    work=$(mktemp -d)
    cp "$corpus"* "$work"/
    run=("$binary" "${LIMITS[@]}" -max_total_time="$SECONDS_PER_TARGET" -artifact_prefix="$PWD/.test-output/fuzz-$target-" "$work")
    what="${SECONDS_PER_TARGET}s explored"
  fi
  if "${run[@]}" > .test-output/fuzz-$target.log 2>&1; then
    echo "fuzz: $target ok ($what in $(( $(date +%s) - start ))s)"
    if [[ $mode == explore ]]; then
      before=$(find "$corpus" -type f | wc -l)
      "$binary" -merge=1 "${LIMITS[@]}" "$corpus" "$work" >> .test-output/fuzz-$target.log 2>&1 || true
      echo "fuzz: $target corpus $before -> $(find "$corpus" -type f | wc -l) inputs (new ones reach new code: commit them)"
    fi
  else
    echo "fuzz: $target FAILED (see .test-output/fuzz-$target.log)"
    grep -E "^==[0-9]+==|^SUMMARY|runtime error|^Running: " .test-output/fuzz-$target.log | tail -5 || true
    if [[ $mode == regression ]]; then
      # The input that failed is the last one libFuzzer started.
      failing=$(grep -oE "^Running: .*" .test-output/fuzz-$target.log | tail -1 | cut -d' ' -f2-)
      [[ -n $failing ]] && cp "$failing" ".test-output/fuzz-$target-input" &&
        echo "fuzz: replay with $binary $failing"
    fi
    for artifact in .test-output/fuzz-$target-*; do
      [[ -f $artifact ]] && echo "fuzz: replay with $binary $artifact"
    done
    tail -40 .test-output/fuzz-$target.log
    status=1
  fi
  [[ $mode == explore ]] && rm -rf "$work"
done
exit $status
