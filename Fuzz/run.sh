#!/usr/bin/env bash
# Runs every fuzz target for a bounded time: Fuzz/run.sh [SECONDS] [TARGET...] (default 10 s each).
# New inputs go to a scratch corpus in Fuzz/build/; crashes to Fuzz/artifacts/ (turn each into a
# regression test). Exits non-zero on the first target that crashes, leaks or hangs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift || true
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(ndef cbor apdu pcsc tags applets images config)
Fuzz/build.sh "${targets[@]}" 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol"
mkdir -p Fuzz/artifacts
for t in "${targets[@]}"; do
  dict=()
  [[ -f Fuzz/dict/$t.dict ]] && dict=(-dict="Fuzz/dict/$t.dict")
  [[ $t == ndef ]] && dict=(-dict=Fuzz/ndef.dict)
  mkdir -p "Fuzz/build/corpus-$t" "Fuzz/corpus/$t"
  echo "=== fuzz-$t for ${seconds}s"
  Fuzz/build/fuzz-"$t" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
    -artifact_prefix=Fuzz/artifacts/"$t"- -print_final_stats=1 "Fuzz/build/corpus-$t" "Fuzz/corpus/$t" 2>&1 \
    | grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|==.*ERROR|SUMMARY|Done|INFO: seed corpus)" || true
  test "${PIPESTATUS[0]}" -eq 0
done
