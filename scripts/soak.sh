#!/usr/bin/env bash
# Long runs that look for leaks (not part of the default tests; see BENCHMARKS.md "Soak").
#   1. nfc-soak sim: 100,000 tap-read-write cycles on the simulated field across every NDEF tag
#      kind, then 10,000 tag reader sessions begun and invalidated (every tenth also connects
#      and reads), sampling resident memory (/proc/self/statm) and open descriptors
#      (/proc/self/fd); fails if either grows beyond its bound after warm-up.
#   2. nfc-soak pcsc: write-read cycles (plus eight concurrent SELECTs on the card handle each
#      cycle, and a new PC/SC context every 100 cycles) against an emulated Type 4 card through
#      pcscd and vpcd for MINUTES minutes, with the same sampling and bounds.
#
#   scripts/soak.sh [--minutes M] [--cycles N] [--sessions N] [--reader NAME] [--vpcd HOST:PORT] [--skip-pcsc] [--debug]
# Defaults: 10 minutes, 100000 cycles, 10000 sessions, reader "Virtual PCD 00 00" on vpcd
# 127.0.0.1:35963 (pcscd with vsmartcard-vpcd must be running; Debian's python3-pyscard waits
# for the card). Bounds: MAX_RSS_GROWTH_KIB (default 16384) and MAX_FD_GROWTH (default 0).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=10 cycles=100000 sessions=10000 reader="Virtual PCD 00 00" vpcd="127.0.0.1:35963" pcsc=1 configuration=release
while [[ $# -gt 0 ]]; do
    case $1 in
        --minutes) minutes=$2; shift 2 ;;
        --cycles) cycles=$2; shift 2 ;;
        --sessions) sessions=$2; shift 2 ;;
        --reader) reader=$2; shift 2 ;;
        --vpcd) vpcd=$2; shift 2 ;;
        --skip-pcsc) pcsc=0; shift ;;
        --debug) configuration=debug; shift ;;
        *) echo "soak.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
python=${PYTHON:-/usr/bin/python3}
bounds=(--max-rss-growth-kib "${MAX_RSS_GROWTH_KIB:-16384}" --max-fd-growth "${MAX_FD_GROWTH:-0}")
# nfc-soak lives in the benchmarks package (Benchmarks/), nfc in the main one.
swift build --package-path Benchmarks -c "$configuration" --product nfc-soak >/dev/null
swift build -c "$configuration" --product nfc >/dev/null
bin=$(swift build -c "$configuration" --show-bin-path)
soak=$(swift build --package-path Benchmarks -c "$configuration" --show-bin-path)/nfc-soak

echo "=== simulated: $cycles tap-read-write cycles, $sessions sessions"
/usr/bin/time -f "wall %e s, max RSS %M KiB" "$soak" sim --cycles "$cycles" --sessions "$sessions" "${bounds[@]}"

[[ $pcsc == 1 ]] || exit 0
echo "=== PC/SC: $minutes min against an emulated Type 4 card in \"$reader\" (vpcd $vpcd)"
work=$(mktemp -d)
emulator=
cleanup() {
    if [[ -n $emulator ]]; then kill -INT "$emulator" 2>/dev/null || true; wait "$emulator" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
"$bin/nfc" tag new type4 -o "$work/type4.json" >/dev/null
"$bin/nfc" emulate --image "$work/type4.json" --pcsc --vpcd "$vpcd" 2>"$work/emulate.log" &
emulator=$!
"$python" Integration/pcsc/wait_reader.py --present "$reader" 15 >/dev/null
"$soak" pcsc --reader "$reader" --minutes "$minutes" "${bounds[@]}"
