#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each from its seed corpus
# in tests/fuzz/corpus. Two modes (ADR 0051):
#   scripts/fuzz.sh SECONDS       explore: a random seed, SECONDS per target (`make fuzz`: 60)
#   scripts/fuzz.sh --regression  `make test`: a fixed seed and a fixed number of runs per
#                                 target (about 10 s each here): the same work on any machine
# Prints one "fuzz: <target> ok" line per clean target; exits non-zero on a crash or report,
# naming the input that libFuzzer saved and the command that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=explore
SECONDS_PER_TARGET=${1:-15}
if [[ ${1:-} == --regression ]]; then
  mode=regression
fi
# Runs per target in --regression mode: about 10 s of this 2-core machine's time each.
declare -A REGRESSION_RUNS=(
  [csv_reader]=180000 [graphql_document]=65000 [content_json]=110000 [event_json]=90000
  [set_json]=45000 [json_reader]=100000 [plugin_json]=65000 [image_decode]=12000 [css]=10000)
REGRESSION_SEED=20261122

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
for target in csv_reader graphql_document content_json event_json set_json json_reader plugin_json image_decode css; do
  work=$(mktemp -d)
  cp tests/fuzz/corpus/$target/* "$work"/
  rm -f .test-output/fuzz-$target-*
  if [[ $mode == regression ]]; then
    # The time cap only guards against a machine far slower than this one.
    budget=(-seed=$REGRESSION_SEED -runs=${REGRESSION_RUNS[$target]} -max_total_time=60)
    what="${REGRESSION_RUNS[$target]} runs, seed $REGRESSION_SEED"
  else
    budget=(-max_total_time="$SECONDS_PER_TARGET")
    what="${SECONDS_PER_TARGET}s"
  fi
  start=$(date +%s)
  if build-fuzz/bin/fuzz_$target "${budget[@]}" -rss_limit_mb=2048 -timeout=10 \
       -artifact_prefix="$PWD/.test-output/fuzz-$target-" "$work" > .test-output/fuzz-$target.log 2>&1; then
    # libFuzzer's last line: "Done N runs in S second(s)".
    echo "fuzz: $target ok ($(grep -oE '^Done [0-9]+ runs' .test-output/fuzz-$target.log | tail -1 | cut -d' ' -f2) runs in $(( $(date +%s) - start ))s; $what)"
  else
    echo "fuzz: $target FAILED (see .test-output/fuzz-$target.log)"
    grep -E "^==[0-9]+==|^SUMMARY|runtime error" .test-output/fuzz-$target.log | head -5 || true
    for artifact in .test-output/fuzz-$target-*; do
      [[ -f $artifact ]] && echo "fuzz: replay with build-fuzz/bin/fuzz_$target $artifact"
    done
    tail -40 .test-output/fuzz-$target.log
    status=1
  fi
  rm -rf "$work"
done
exit $status
