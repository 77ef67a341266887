#!/usr/bin/env bash
# A whole NTAG216 through a PN532, our pn532: reader beside libnfc's nfc-mfultralight in the same
# run, both against the virtual PN532 (`nfc emulate --pn532`), which counts what each host sent:
#   scripts/bench-pn532.sh      (needs libnfc-bin; NFC=.build/debug/nfc by default)
# Prints a Markdown table: PN532 commands, tag commands, bytes on the serial line and their time
# at the PN532's 115,200 baud (the link's minimum for that dialog, whatever the chip and host do),
# and the best wall time of 5 runs over the pseudo-terminal (no baud limit; process start included).
set -euo pipefail
cd "$(dirname "$0")/.."
NFC=${NFC:-.build/debug/nfc}
command -v nfc-mfultralight >/dev/null || { echo "bench-pn532: nfc-mfultralight not found (Debian package libnfc-bin)" >&2; exit 1; }
work=$(mktemp -d)
emulator=
cleanup() { [[ -n $emulator ]] && kill "$emulator" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$NFC" tag new ntag216 -o "$work/tag.json" >/dev/null
# An 860-byte Text record: the NDEF area almost full.
"$NFC" write --reader "sim:$work/tag.json" --text "$(head -c 855 /dev/zero | tr '\0' 'a')" >/dev/null

# run NAME COMMAND...: one run under a fresh emulator; prints "commands bytes milliseconds-at-115200 wall-ms tag-commands".
run() {
    local link=$work/pn532
    "$NFC" emulate --image "$work/tag.json" --pn532 "$link" 2>"$work/emulator.log" &
    emulator=$!
    for _ in $(seq 1 100); do [[ -L $link ]] && break; sleep 0.05; done
    local start end
    start=$(date +%s%N)
    LIBNFC_DEVICE=pn532_uart:$link "$@" >"$work/out" 2>&1 || { cat "$work/out"; exit 1; }
    end=$(date +%s%N)
    kill -INT "$emulator"; wait "$emulator" 2>/dev/null || true; emulator=
    local summary tag
    summary=$(grep "stopped after" "$work/emulator.log")
    # Tag commands: our --stats line, or libnfc's InDataExchange/InCommunicateThru count.
    tag=$(sed -n 's/^stats: \([0-9]*\) commands.*/\1/p' "$work/out")
    if [[ -z $tag ]]; then
        tag=$(( $(echo "$summary" | sed -n 's/.*InDataExchange \([0-9]*\).*/\1/p' | head -1 || true) + 0 ))
        tag=$(( tag + $(echo "$summary" | sed -n 's/.*InCommunicateThru \([0-9]*\).*/\1/p' | head -1 || true) + 0 ))
    fi
    echo "$(echo "$summary" | sed -n 's/stopped after \([0-9]*\) commands.*; \([0-9]*\) bytes on the line, \([0-9.]*\) ms.*/\1 \2 \3/p') $(( (end - start) / 1000000 )) $tag"
}

best() {  # best NAME COMMAND...: 5 runs; the counts of the last, the best wall time
    local name=$1; shift
    local wall=999999 line=
    for _ in 1 2 3 4 5; do
        line=$(run "$@")
        local ms; ms=$(echo "$line" | awk '{print $4}')
        (( ms < wall )) && wall=$ms
    done
    echo "$name $line $wall"
}

ours=$(best dump "$NFC" dump --reader "pn532:$work/pn532" --stats)
read_=$(best read "$NFC" read --reader "pn532:$work/pn532" --stats)
peer=$(best mfultralight nfc-mfultralight r "$work/dump.mfd")
python3 - "$ours" "$read_" "$peer" <<'PY'
import sys
rows = [line.split() for line in sys.argv[1:]]
def fields(row):
    name, commands, nbytes, line_ms, _, tag, wall = row
    return name, int(commands), int(tag), int(nbytes), float(line_ms), int(wall)
ours, read, peer = (fields(r) for r in rows)
print("| host | PN532 commands | tag commands | bytes on the line | line time at 115200 baud | best wall time, 5 runs |")
print("|---|---|---|---|---|---|")
labels = {"dump": "`nfc dump --reader pn532:` (whole memory)", "read": "`nfc read --reader pn532:` (860-byte message)",
          "mfultralight": "libnfc 1.8 `nfc-mfultralight r` (whole memory)"}
for name, commands, tag, nbytes, line_ms, wall in (ours, read, peer):
    print(f"| {labels[name]} | {commands} | {tag} | {nbytes} | {line_ms:.1f} ms | {wall} ms |")
print()
print(f"whole memory, ours vs libnfc: {peer[1] / ours[1]:.1f}x fewer PN532 commands, {peer[2] / ours[2]:.1f}x fewer tag commands, "
      f"{peer[4] / ours[4]:.1f}x less line time, {peer[5] / ours[5]:.1f}x the wall-time speed")
PY
