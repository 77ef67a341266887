#!/usr/bin/env bash
# Runs every fuzz target for a bounded time: Fuzz/run.sh [SECONDS] [TARGET...] (default 10 s each).
# FUZZ_OPT (-O by default; CI uses -Onone) is passed to Fuzz/build.sh and picks the binaries.
# New inputs go to a scratch corpus in Fuzz/build/; crashes to Fuzz/artifacts/ (turn each into a
# regression test). Exits non-zero on the first target that crashes, leaks or hangs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift || true
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(ndef cbor apdu pcsc pn532 tags applets desfire images config emrtd)
opt=${FUZZ_OPT:--O}
bin=Fuzz/build/${opt#-}
FUZZ_OPT=$opt Fuzz/build.sh "${targets[@]}" 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol"
mkdir -p Fuzz/artifacts
# Swift's own crash backtracer fights ASan's; libFuzzer prints the report.
export SWIFT_BACKTRACE=enable=no
for t in "${targets[@]}"; do
  dict=()
  [[ -f Fuzz/dict/$t.dict ]] && dict=(-dict="Fuzz/dict/$t.dict")
  [[ $t == ndef ]] && dict=(-dict=Fuzz/ndef.dict)
  # swift-corelibs-foundation keeps CFError and cached objects alive on Linux (not our code):
  # leak detection stays off for the target that goes through JSON/plist serialization.
  leaks=(); asan=${ASAN_OPTIONS:-}; [[ $t == config ]] && { leaks=(-detect_leaks=0); asan=detect_leaks=0; }
  mkdir -p "Fuzz/build/corpus-$t" "Fuzz/corpus/$t"
  echo "=== fuzz-$t for ${seconds}s"
  ASAN_OPTIONS=$asan "$bin/fuzz-$t" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
    -artifact_prefix=Fuzz/artifacts/"$t"- -print_final_stats=1 "${leaks[@]}" "Fuzz/build/corpus-$t" "Fuzz/corpus/$t" > "Fuzz/build/fuzz-$t.log" 2>&1 \
    || { tail -60 "Fuzz/build/fuzz-$t.log"; echo "fuzz-$t FAILED: see Fuzz/artifacts/" >&2; exit 1; }
  grep -E "^(stat::average_exec_per_sec|Done|INFO: seed corpus)" "Fuzz/build/fuzz-$t.log" || true
  # A target that executed nothing (a build or option mistake) must not pass as a clean run.
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "Fuzz/build/fuzz-$t.log")
  [[ ${runs:-0} -gt 0 ]] || { echo "fuzz-$t executed no input" >&2; exit 1; }
  echo "fuzz-$t: $runs inputs executed"
done
