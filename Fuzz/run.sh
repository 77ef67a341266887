#!/usr/bin/env bash
# Runs a fuzz target for a bounded time: Fuzz/run.sh [SECONDS] (default 60).
# New inputs go to a scratch corpus; crashes to Fuzz/artifacts/ (turn each into a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
Fuzz/build.sh
mkdir -p Fuzz/artifacts Fuzz/build/corpus-ndef
Fuzz/build/fuzz-ndef -max_total_time="$seconds" -max_len=4096 -dict=Fuzz/ndef.dict \
  -artifact_prefix=Fuzz/artifacts/ Fuzz/build/corpus-ndef Fuzz/corpus/ndef
mkdir -p Fuzz/build/corpus-cbor
Fuzz/build/fuzz-cbor -max_total_time="$seconds" -max_len=2048 \
  -artifact_prefix=Fuzz/artifacts/ Fuzz/build/corpus-cbor Fuzz/corpus/cbor
