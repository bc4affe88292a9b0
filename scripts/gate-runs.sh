#!/usr/bin/env bash
# Hunts flaky tests the way CI meets them: `CI=true make test` on fresh clones, one run after
# the other, some of them while another build loads both cores. Prints each run's time, its
# totals line and its failures block, and keeps every run's logs (docs/testing.md).
#
#   scripts/gate-runs.sh [--runs 5] [--busy 2] [--dir DIR] [--ref HEAD]
#
# --runs   how many fresh clones to test (default 5)
# --busy   how many of them (the last ones) run while another build loads both cores (default 2)
# --dir    where the clones go (default $SVC_GATE_DIR or <repo>/../gate-runs): a directory beside
#          the repository shares its compiler cache paths (ccache base_dir); the clone has no
#          ../shared of its own unless one is there, as on CI
# --ref    the commit to clone (default HEAD; it must be committed: a clone sees only commits)
#
# The load is real work, not a spin loop: a second clone of the same commit compiled from
# scratch (compiler cache off) with as many jobs as there are cores, restarted until the tested
# run ends. Exit status: 0 when every run passed with 0 failures.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
runs=5
busy=2
dir=${SVC_GATE_DIR:-$(dirname "$repo")/gate-runs}
ref=HEAD
while (($#)); do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --busy) busy=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --ref) ref=$2; shift 2 ;;
    *) echo "gate-runs: unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
if ((busy > runs)); then echo "gate-runs: --busy $busy is more than --runs $runs" >&2; exit 2; fi
commit=$(git rev-parse --verify "$ref^{commit}") || exit 2
mkdir -p "$dir"
summary=$dir/summary.txt
echo "gate-runs: $runs fresh clones of $commit ($busy busy) in $dir" | tee "$summary"

load_pid=""
start_load() {
  local where=$dir/load
  rm -rf "$where"
  git clone -q "$repo" "$where" && git -C "$where" checkout -q "$commit" || return 1
  # A loop of full builds in its own process group, so that stopping it stops every compiler.
  setsid bash -c "
    cd '$where'
    while true; do
      rm -rf build-load
      CCACHE_DISABLE=1 cmake -S . -B build-load -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1
      CCACHE_DISABLE=1 cmake --build build-load -j $(nproc) >/dev/null 2>&1
    done" &
  load_pid=$!
}
stop_load() {
  [[ -n $load_pid ]] || return 0
  kill -- -"$load_pid" 2>/dev/null
  wait "$load_pid" 2>/dev/null
  load_pid=""
}
trap 'stop_load' EXIT

failed_runs=0
for ((run = 1; run <= runs; run++)); do
  loaded=false
  ((run > runs - busy)) && loaded=true
  clone=$dir/run-$run
  rm -rf "$clone"
  git clone -q "$repo" "$clone" && git -C "$clone" checkout -q "$commit" || { echo "run $run: clone failed" | tee -a "$summary"; exit 1; }
  $loaded && start_load
  started=$SECONDS
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  (cd "$clone" && CI=true make test) > "$clone.log" 2>&1
  status=$?
  load_after=$(cut -d' ' -f1 /proc/loadavg)
  stop_load
  totals=$(grep -E "^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped" "$clone.log" | tail -1)
  timings=$(grep -E "^== timings:" "$clone.log" | tail -1)
  label=$($loaded && echo "busy (another build on $(nproc) cores)" || echo "no added load")
  {
    echo "run $run: $label; $((SECONDS - started)) s; exit $status; ${totals:-no totals line}; load average $load_before at the start, $load_after at the end"
    [[ -n $timings ]] && echo "  $timings"
    sed -n '/^== failures$/,/^[0-9]* passed, /p' "$clone.log" | sed '1d;$d' | sed 's/^/  /'
  } | tee -a "$summary"
  if [[ $status -ne 0 || ! $totals =~ ^[0-9]+\ passed,\ 0\ failed ]]; then failed_runs=$((failed_runs + 1)); fi
  # The logs stay for reading; the build trees go (each is several GB).
  mkdir -p "$clone-output" && cp -r "$clone/.test-output/." "$clone-output/" 2>/dev/null
  rm -rf "$clone"
done
echo "gate-runs: $((runs - failed_runs)) of $runs runs passed with 0 failures (summary: $summary)" | tee -a "$summary"
((failed_runs == 0))
