#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for the given
# number of seconds from the seed corpus in tests/fuzz/corpus. Prints one
# "fuzz: <target> ok" line per clean target; exits non-zero on a crash or report.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-15}
if [[ ! -f build-fuzz/CMakeCache.txt ]]; then
  CXX=clang++-14 cmake -S . -B build-fuzz -DSVC_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
fi
cmake --build build-fuzz -j "$(nproc)" >/dev/null
status=0
for target in csv_reader graphql_document content_json event_json set_json json_reader plugin_json image_decode; do
  work=$(mktemp -d)
  cp tests/fuzz/corpus/$target/* "$work"/
  if build-fuzz/bin/fuzz_$target -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
       -artifact_prefix="$PWD/.test-output/fuzz-$target-" "$work" > .test-output/fuzz-$target.log 2>&1; then
    echo "fuzz: $target ok ($(grep -oE '#[0-9]+' .test-output/fuzz-$target.log | tail -1 | tr -d '#') runs in ${SECONDS_PER_TARGET}s)"
  else
    echo "fuzz: $target FAILED (see .test-output/fuzz-$target.log)"
    tail -40 .test-output/fuzz-$target.log
    status=1
  fi
  rm -rf "$work"
done
exit $status
