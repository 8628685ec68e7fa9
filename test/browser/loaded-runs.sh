#!/usr/bin/env bash
# The browser tests as a fresh, loaded machine runs them: the console built afresh (its build and the
# record of what it was built from removed), two busy CPU loops beside each run, N runs in a row
# (default 3). Prints each run's result and exits non-zero if any run failed.
#
#   bash test/browser/loaded-runs.sh [runs]
set -u
cd "$(dirname "$0")/../.."
runs="${1:-3}"
rm -rf web/dist .local/console-build-stamp
loops=()
cleanup() { for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; done; }
trap cleanup EXIT
for _ in 1 2; do
  (while :; do :; done) &
  loops+=("$!")
done
failed=0
for i in $(seq 1 "$runs"); do
  log=".local/loaded-run-$i.log"
  start=$(date +%s)
  if npx vitest run test/browser/ >"$log" 2>&1; then verdict=passed; else verdict=FAILED; failed=1; fi
  summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E "^\s*Tests\s" | tr -s ' ')
  echo "run $i: $verdict in $(($(date +%s) - start)) s ($summary; load average $(cut -d' ' -f1 /proc/loadavg)); log in $log"
done
exit "$failed"
