#!/usr/bin/env bash
# Fewest commands per reader profile (issue 20): a whole NTAG216, a 2 KB ISO 15693 tag (ST25DV16K)
# and a FeliCa Lite-S, each with an almost full NDEF message, read through pcscd + vpcd with
# `nfc emulate --pcsc` answering as each profile's reader, and pyscard's plain PC/SC Part 3 reader
# (Integration/pcsc/pyscard_ndef.py) on the same card in the same run as the peer (it has no
# FeliCa: FeliCa has no peer here):
#   scripts/bench-reader-profiles.sh       (pcscd with vpcd running: Integration/pcsc/pcscd.sh start;
#                                           NFC=.build/debug/nfc, PYTHON=.venv/bin/python by default)
# "APDUs" is what the emulated reader answered (identification included), from the emulator's
# "stopped after N commands"; "tag commands" is `nfc read --stats`; wall time is the best of 5
# runs of the reading process, start included.
set -euo pipefail
cd "$(dirname "$0")/.."
NFC=${NFC:-.build/debug/nfc}
PYTHON=${PYTHON:-.venv/bin/python}
READER="Virtual PCD 00 01"
work=$(mktemp -d)
emulator=
cleanup() { [[ -n $emulator ]] && kill "$emulator" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
# tag KIND TEXT-LENGTH: a KIND image holding a Text record of that many letters.
tag() {
    "$NFC" tag new "$1" -o "$work/$1.json" >/dev/null
    "$NFC" write --reader "sim:$work/$1.json" --text "$(head -c "$2" /dev/zero | tr '\0' 'a')" >/dev/null
}
tag ntag216 855
tag iso15693-2k 2020
tag felica-lite-s 200
image=ntag216

# run OPTIONS -- COMMAND...: prints "apdus tag-commands best-wall-ms".
run() {
    local options=() best=999999 apdus=0 stats=""
    while [[ $1 != -- ]]; do options+=("$1"); shift; done
    shift
    for _ in 1 2 3 4 5; do
        "$NFC" emulate --image "$work/$image.json" --pcsc --vpcd 127.0.0.1:35964 "${options[@]}" 2>"$work/emulator.log" &
        emulator=$!
        "$PYTHON" Integration/pcsc/wait_reader.py --present "$READER" 15 >/dev/null
        local start end
        start=$(date +%s%N)
        "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }
        end=$(date +%s%N)
        kill -INT "$emulator"; wait "$emulator" 2>/dev/null || true; emulator=
        apdus=$(sed -n 's/.*stopped after \([0-9]*\) commands.*/\1/p' "$work/emulator.log" | tail -1)
        stats=$(sed -n 's/^stats: \([0-9]*\) commands.*/\1/p' "$work/out")
        (( (end - start) / 1000000 < best )) && best=$(( (end - start) / 1000000 ))
        "$PYTHON" Integration/pcsc/wait_reader.py --absent "$READER" 15 >/dev/null
    done
    echo "${apdus:-?} ${stats:--} $best"
}

echo "NTAG216 (888 bytes):"
echo
echo "| reader (emulated) | client | APDUs | tag commands | best wall time, 5 runs |"
echo "|---|---|---|---|---|"
read -r a t w < <(run -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| generic, transparent session | \`nfc read\` | $a | $t | $w ms |"
read -r a t w < <(run --basic-reader -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| generic, \`FF B0\`/\`FF D6\` only | \`nfc read\` | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile acr122u -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| ACR122U | \`nfc read\` (Direct Transmit) | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile acr122u -- "$PYTHON" Integration/pcsc/pyscard_ndef.py "$READER")
echo "| ACR122U | pyscard, PC/SC Part 3 \`FF B0\` (the peer) | $a | — | $w ms |"
read -r a t w < <(run --reader-profile omnikey5022 -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| OMNIKEY 5022 | \`nfc read\` (\`FF B0\`, probed) | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile omnikey5022 -- "$PYTHON" Integration/pcsc/pyscard_ndef.py "$READER")
echo "| OMNIKEY 5022 | pyscard, PC/SC Part 3 \`FF B0\` (the peer) | $a | — | $w ms |"
read -r a t w < <(run --reader-profile utrust3700f -- "$NFC" read --reader "pcsc:$READER" --reader-profile utrust3700f --stats)
echo "| uTrust 3700 F | \`nfc read\` (four \`FF B0\` a READ) | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile acr1252u -- "$NFC" read --reader "pcsc:$READER" --reader-profile acr1252u --stats)
echo "| ACR1252U | \`nfc read\` (transparent session, given) | $a | $t | $w ms |"

image=iso15693-2k
echo
echo "2 KB ISO 15693 (ST25DV16K, 512 blocks):"
echo
echo "| reader (emulated) | client | APDUs | tag commands | best wall time, 5 runs |"
echo "|---|---|---|---|---|"
read -r a t w < <(run -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| generic, transparent session | \`nfc read\` (Read Multiple Blocks, extended) | $a | $t | $w ms |"
read -r a t w < <(run --basic-reader -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| generic, \`FF B0\`/\`FF D6\` only | \`nfc read\` | $a | $t | $w ms |"
read -r a t w < <(run --basic-reader -- "$PYTHON" Integration/pcsc/pyscard_ndef.py "$READER")
echo "| generic, \`FF B0\`/\`FF D6\` only | pyscard, PC/SC Part 3 \`FF B0\` (the peer) | $a | — | $w ms |"
read -r a t w < <(run --reader-profile acr1552u -- "$NFC" read --reader "pcsc:$READER" --reader-profile acr1552u --stats)
echo "| ACR1552U | \`nfc read\` (transparent session, given) | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile omnikey5022 -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| OMNIKEY 5022 | \`nfc read\` (\`FF B0\`, probed) | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile omnikey5022 -- "$PYTHON" Integration/pcsc/pyscard_ndef.py "$READER")
echo "| OMNIKEY 5022 | pyscard, PC/SC Part 3 \`FF B0\` (the peer) | $a | — | $w ms |"

image=felica-lite-s
echo
echo "FeliCa Lite-S (14 blocks of 16 bytes):"
echo
echo "| reader (emulated) | client | APDUs | tag commands | best wall time, 5 runs |"
echo "|---|---|---|---|---|"
read -r a t w < <(run -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| generic, transparent session | \`nfc read\` | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile acr122u -- "$NFC" read --reader "pcsc:$READER" --stats)
echo "| ACR122U | \`nfc read\` (Direct Transmit) | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile acr1252u -- "$NFC" read --reader "pcsc:$READER" --reader-profile acr1252u --stats)
echo "| ACR1252U | \`nfc read\` (transparent session, given) | $a | $t | $w ms |"
read -r a t w < <(run --reader-profile utrust3700f -- "$NFC" read --reader "pcsc:$READER" --reader-profile utrust3700f --stats)
echo "| uTrust 3700 F | \`nfc read\` (\`FF 46\` Read Without Encryption) | $a | $t | $w ms |"
