#!/usr/bin/env bash
# Runs every suite and ends with one line: "N passed, N failed".
# Suites: doctest unit tests, in-process server tests, libFuzzer runs (bounded),
# Playwright e2e in Debian's Chromium. Exit code is non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .test-output
passed=0
failed=0

# doctest prints: [doctest] test cases: 12 | 11 passed | 1 failed | 0 skipped
run_doctest() {
  local name=$1 binary=$2 log=.test-output/$1.log
  echo "== $name"
  "$binary" 2>&1 | tee "$log" | grep -E "^\[doctest\] (test cases|Status)|ERROR|FAILED|SKIPPED" || true
  local line
  line=$(grep -E "^\[doctest\] test cases:" "$log" | tail -1)
  if [[ -z $line ]]; then
    echo "$name: no summary (crashed?)"
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + $(sed -E 's/.*\| *([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.*\| *([0-9]+) failed.*/\1/' <<<"$line")))
}

run_doctest unit build/bin/svc-unit-tests
run_doctest server build/bin/svc-server-tests

echo "== fuzz"
if scripts/fuzz.sh "${SVC_FUZZ_SECONDS:-10}" > .test-output/fuzz.log 2>&1; then
  count=$(grep -c "^fuzz: .* ok" .test-output/fuzz.log)
  passed=$((passed + count))
  grep "^fuzz:" .test-output/fuzz.log
else
  grep "^fuzz:" .test-output/fuzz.log
  tail -30 .test-output/fuzz.log
  failed=$((failed + 1))
fi

echo "== e2e"
rm -f .test-output/e2e-results.json
(cd e2e && npx playwright test) 2>&1 | tee .test-output/e2e.log | grep -vE "^\s*$" | tail -40
if [[ -f .test-output/e2e-results.json ]]; then
  read -r e2e_passed e2e_failed < <(node -e '
    const r = JSON.parse(require("fs").readFileSync(".test-output/e2e-results.json", "utf8"));
    console.log((r.stats.expected || 0) + (r.stats.flaky || 0), r.stats.unexpected || 0);')
  passed=$((passed + e2e_passed))
  failed=$((failed + e2e_failed))
else
  echo "e2e: no results (Playwright did not run)"
  failed=$((failed + 1))
fi

echo
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
