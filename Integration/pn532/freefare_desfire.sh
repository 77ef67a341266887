#!/usr/bin/env bash
# libfreefare's DESFire tools (Debian's libfreefare-bin 0.4, over libnfc 1.8) against the virtual
# MIFARE DESFire EV1 in the field of the virtual PN532 (nfc emulate --pn532; docs/pn532.md).
#   NFC=.build/debug/nfc Integration/pn532/freefare_desfire.sh
# libfreefare runs its own legacy DES authentication and secure messaging (CRC16, enciphered in
# the send mode) and checks every answer; each tool fails (status 1) on any error. Checked:
#   - mifare-desfire-info: the version frames and free memory (7,936 bytes on a blank 8 KB card);
#   - mifare-desfire-create-ndef, -write-ndef, -read-ndef: the NFC Forum Type 4 application they
#     make (AID 000001, a 15-byte CC file E103, a 7,680-byte NDEF file E104), a message written by one read
#     back equal by the other and by our own reader (nfc read --reader sim:);
#   - mifare-desfire-access: an application, an enciphered file written and read, FormatPICC;
#   - mifare-desfire-format on a card holding the NDEF application: nothing left;
#   - mifare-desfire-ev1-configure-random-uid: two nfc-list runs then list two different random
#     IDs (08 xx xx xx), mifare-desfire-info says so, nfc desfire info --key reads the real UID;
#   - mifare-desfire-ev1-configure-default-key: the application it makes has the default key
#     (GetKeyVersion 34, authentication with it; the tool checks both);
#   - mifare-desfire-ev1-configure-ats: the ATS in the image, and one set by nfc desfire set-config
#     is the ATS nfc-list prints.
# Counts what it checked; a run that checks nothing fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
NFC=${NFC:-.build/debug/nfc}
for tool in nfc-list mifare-desfire-info mifare-desfire-create-ndef mifare-desfire-ev1-configure-ats; do
    command -v "$tool" >/dev/null || { echo "freefare: $tool not found (Debian packages libnfc-bin, libfreefare-bin)" >&2; exit 1; }
done
work=$(mktemp -d)
emulator=
cleanup() { [[ -n $emulator ]] && kill "$emulator" 2>/dev/null && wait "$emulator" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
checks=0
fail() { echo "freefare: $*" >&2; exit 1; }
link=$work/pn532

# run IMAGE TOOL ARGS...: TOOL against a PN532 whose field holds IMAGE; its output in $out.
run() {
    local image=$1
    shift
    "$NFC" emulate --image "$image" --pn532 "$link" 2>"$work/emulator.log" &
    emulator=$!
    for _ in $(seq 1 100); do [[ -L $link ]] && break; sleep 0.05; done
    [[ -L $link ]] || { cat "$work/emulator.log"; fail "the emulator made no link"; }
    local status=0
    # libnfc logs its USB probing and refused polls on standard error: kept for a failure.
    out=$(LIBNFC_DEVICE=pn532_uart:$link timeout 60 "$@" 2>"$work/tool.err") || status=$?
    kill -INT "$emulator"
    wait "$emulator" 2>/dev/null || true
    emulator=
    [[ $status -eq 0 ]] || { echo "$out"; grep -v usbbus "$work/tool.err" >&2 || true; fail "$1 ended with status $status"; }
}
json() { python3 -c "import json, sys; d = json.load(open(sys.argv[1]))['tag']; print(eval(sys.argv[2]))" "$@"; }

# info on a blank card.
image=$work/blank.json
"$NFC" tag new desfire-ev1 --blank -o "$image" >/dev/null
run "$image" mifare-desfire-info
[[ $out == *"UID:                      0x04444553464980"* && $out == *"Free memory: 7936 bytes"* && $out == *"Use random UID: no"* ]] \
    || { echo "$out"; fail "mifare-desfire-info on a blank card"; }
echo "ok    mifare-desfire-info: UID 04444553464980, 7936 bytes free, no random UID"
checks=$((checks + 1))

# NDEF: create, write, read, and our reader on the same image.
"$NFC" ndef encode --uri https://example.org/libfreefare --text "written by mifare-desfire-write-ndef" -o "$work/message.ndef" >/dev/null
run "$image" mifare-desfire-create-ndef -y
layout="[(a['aid'], a.get('isoID'), a.get('dfName'), [(f['number'], f.get('isoID'), len(f['contents']) // 2) for f in a['files']]) for a in d['applications']]"
made=$(json "$image" "$layout")
[[ $made == "[('010000', 'e110', 'd2760000850101', [(1, 'e103', 15), (2, 'e104', 7680)])]" ]] || fail "mifare-desfire-create-ndef left $made"
echo "ok    mifare-desfire-create-ndef: application 000001 (DF E110, D2760000850101) with a 15-byte CC file E103 and a 7680-byte NDEF file E104"
checks=$((checks + 1))
run "$image" mifare-desfire-write-ndef -y -i "$work/message.ndef"
run "$image" mifare-desfire-read-ndef -y -o "$work/read.ndef"
cmp -s "$work/read.ndef" "$work/message.ndef" || fail "mifare-desfire-read-ndef read $(xxd -p "$work/read.ndef")"
ours=$("$NFC" read --reader "sim:$image" --json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["records"]))')
theirs=$("$NFC" ndef decode --message "$work/message.ndef" --json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["records"]))')
[[ $ours == "$theirs" ]] || fail "nfc read found $ours after mifare-desfire-write-ndef"
echo "ok    mifare-desfire-write-ndef then -read-ndef: $(wc -c < "$work/message.ndef") bytes back equal; nfc read reads the same records"
checks=$((checks + 1))

# format: the NDEF application gone.
run "$image" mifare-desfire-format -y
[[ $(json "$image" "len(d['applications'])") == 0 ]] || fail "mifare-desfire-format left $(json "$image" "$layout")"
echo "ok    mifare-desfire-format: no application left"
checks=$((checks + 1))

# access: an application, an enciphered file written and read, then FormatPICC.
run "$image" mifare-desfire-access
[[ $(json "$image" "len(d['applications'])") == 0 ]] || fail "mifare-desfire-access left $(json "$image" "$layout")"
echo "ok    mifare-desfire-access: application, enciphered file written and read back, FormatPICC"
checks=$((checks + 1))

# random UID: two taps, two IDs; the real UID through GetCardUID.
image=$work/random.json
"$NFC" tag new desfire-ev1 --blank -o "$image" >/dev/null
run "$image" mifare-desfire-ev1-configure-random-uid -y
[[ $(json "$image" "d.get('piccConfiguration')") == 2 ]] || fail "random UID: the image holds $(json "$image" "d.get('piccConfiguration')")"
ids=()
for _ in 1 2; do
    run "$image" nfc-list
    # libnfc names a UID that starts with 08 (ISO/IEC 14443-3 §6.5.4: random) NFCID3.
    id=$(echo "$out" | sed -n 's/.*UID (NFCID[13]): *//p' | tr -d ' ')
    [[ $id =~ ^08[0-9a-f]{6}$ ]] || { echo "$out"; fail "random UID: nfc-list listed $id"; }
    ids+=("$id")
done
[[ ${ids[0]} != "${ids[1]}" ]] || fail "random UID: both taps gave ${ids[0]}"
run "$image" mifare-desfire-info
[[ $out == *"Use random UID: yes"* ]] || { echo "$out"; fail "random UID: mifare-desfire-info did not see it"; }
real=$("$NFC" desfire info --reader "sim:$image" --key 0000000000000000 --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["uid"])')
[[ ${real,,} == 04444553464980 ]] || fail "random UID: GetCardUID gave $real"
echo "ok    mifare-desfire-ev1-configure-random-uid: nfc-list saw ${ids[0]} then ${ids[1]}; GetCardUID still 04444553464980"
checks=$((checks + 1))

# default key: the tool creates an application, checks its key version (34) and authenticates
# with the new default key, then sets the default back to zeros.
image=$work/default-key.json
"$NFC" tag new desfire-ev1 --blank -o "$image" >/dev/null
run "$image" mifare-desfire-ev1-configure-default-key -y
[[ $(json "$image" "(d['defaultKey']['key'], d['defaultKey']['version'])") == "('$(printf '0%.0s' {1..48})', 0)" ]] \
    || fail "default key: the image holds $(json "$image" "d.get('defaultKey')")"
echo "ok    mifare-desfire-ev1-configure-default-key: a new application took the default key (version 34, authenticated), then zeros again"
checks=$((checks + 1))

# ATS: libfreefare's (an EV1's own), then ours, which nfc-list prints.
image=$work/ats.json
"$NFC" tag new desfire-ev1 --blank -o "$image" >/dev/null
run "$image" mifare-desfire-ev1-configure-ats -y
[[ $(json "$image" "d.get('ats')") == 067577810280 ]] || fail "ATS: the image holds $(json "$image" "d.get('ats')")"
"$NFC" desfire set-config --reader "sim:$image" --key 0000000000000000 --ats 0778778102C1DE >/dev/null
run "$image" nfc-list
[[ $(echo "$out" | sed -n 's/.*ATS: *//p' | tr -d ' ') == 78778102c1de ]] || { echo "$out"; fail "ATS: nfc-list did not print the ATS set"; }
echo "ok    mifare-desfire-ev1-configure-ats: ATS 067577810280 saved; one set by nfc desfire set-config is what nfc-list prints"
checks=$((checks + 1))

[[ $checks -gt 0 ]] || fail "nothing was checked"
echo "freefare: $checks checks passed: libfreefare's DESFire tools against the virtual DESFire EV1 through the virtual PN532"
