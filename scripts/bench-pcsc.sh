#!/usr/bin/env bash
# APDU round trips per second through OpenCoreNFC's PC/SC driver vs pyscard, against the same
# emulated card (nfc emulate on a Type 4 image) in the same run, alternating three rounds each;
# then the commands `nfc read` sends to read each tag type over PC/SC.
# Needs pcscd running with vsmartcard-vpcd and Debian's pyscard (python3-pyscard).
#   scripts/bench-pcsc.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3}
python=${PYTHON:-/usr/bin/python3}
reader="Virtual PCD 00 00"
swift build --package-path Benchmarks -c release --product nfc-bench >/dev/null
swift build -c release --product nfc >/dev/null
bin=$(swift build -c release --show-bin-path)
bench=$(swift build --package-path Benchmarks -c release --show-bin-path)/nfc-bench
work=$(mktemp -d)
trap 'kill $emulator 2>/dev/null || true; rm -rf "$work"' EXIT

emulate() {
    "$bin/nfc" emulate --image "$1" --pcsc "${@:2}" 2>/dev/null &
    emulator=$!
    "$python" Integration/pcsc/wait_reader.py --present "$reader" 15 >/dev/null
}
stop() {
    kill -INT "$emulator"; wait "$emulator" || true
    "$python" Integration/pcsc/wait_reader.py --absent "$reader" 15
}

"$bin/nfc" tag new type4 -o "$work/type4.json" >/dev/null
emulate "$work/type4.json"
echo "APDU round trips per second (SELECT NDEF application, ${seconds} s each):"
for round in 1 2 3; do
    ours=$("$bench" pcsc --reader "$reader" --seconds "$seconds" | awk '/^rate/ {print $2}')
    theirs=$("$python" - "$reader" "$seconds" <<'PY'
import sys, time
from smartcard.System import readers
reader = next(r for r in readers() if str(r) == sys.argv[1])
connection = reader.createConnection()
connection.connect()
apdu = list(bytes.fromhex("00A4040007D276000085010100"))
for _ in range(100):
    connection.transmit(apdu)
count, start = 0, time.perf_counter()
end = start + float(sys.argv[2])
while time.perf_counter() < end:
    connection.transmit(apdu)
    count += 1
print(count / (time.perf_counter() - start))
connection.disconnect()
PY
)
    printf '  round %d: OpenCoreNFC %.0f/s, pyscard %.0f/s, ratio %.3f\n' "$round" "$ours" "$theirs" "$(awk -v a="$ours" -v b="$theirs" 'BEGIN { print a / b }')"
done
stop

echo
echo "Commands to read the NDEF message over PC/SC (nfc read --stats):"
for kind in ntag213 ntag216 ultralight type4 slix2 iso15693-2k felica-lite-s felica; do
    "$bin/nfc" tag new "$kind" -o "$work/$kind.json" --force >/dev/null
    "$bin/nfc" write --reader "sim:$work/$kind.json" --uri "https://example.org/$(printf 'x%.0s' $(seq 1 100))" >/dev/null
    for mode in transparent basic; do
        [[ $mode == basic && $kind == felica* ]] && continue
        emulate "$work/$kind.json" $([[ $mode == basic ]] && echo --basic-reader)
        stats=$("$bin/nfc" read --reader "pcsc:$reader" --stats 2>&1 >/dev/null | grep '^stats')
        sim=$("$bin/nfc" read --reader "sim:$work/$kind.json" --stats 2>&1 >/dev/null | grep '^stats' | awk '{print $2}')
        printf '  %-14s %-12s %s (simulator: %s commands)\n' "$kind" "$mode" "${stats#stats: }" "$sim"
        stop >/dev/null
    done
done
