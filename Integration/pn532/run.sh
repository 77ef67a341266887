#!/usr/bin/env bash
# libnfc against the virtual PN532 (docs/pn532.md): `nfc emulate --pn532 PATH` with a virtual tag
# in its field, Debian's libnfc 1.8 (`libnfc-bin`) reading it as a PN532 on a serial line.
#   NFC=.build/debug/nfc Integration/pn532/run.sh
# Checks, for NTAG213, NTAG215, NTAG216 and Ultralight EV1:
#   - nfc-list reports the UID, ATQA and SAK the image holds;
#   - nfc-mfultralight r dumps the whole memory equal to the image's, page for page, except the
#     password and PACK pages, which every NTAG21x/Ultralight EV1 reads as 00 (NTAG213/215/216
#     data sheet §8.8.1, MF0ULX1 §8.8.1).
# Counts what it checked; a run that checks nothing fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
NFC=${NFC:-.build/debug/nfc}
command -v nfc-list >/dev/null || { echo "pn532: nfc-list not found (Debian package libnfc-bin)" >&2; exit 1; }
work=$(mktemp -d)
emulator=
cleanup() { [[ -n $emulator ]] && kill "$emulator" 2>/dev/null && wait "$emulator" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
checks=0
for kind in ntag213 ntag215 ntag216 ultralight; do
    image=$work/$kind.json link=$work/pn532-$kind
    "$NFC" tag new "$kind" -o "$image" >/dev/null
    "$NFC" emulate --image "$image" --pn532 "$link" 2>"$work/$kind.log" &
    emulator=$!
    for _ in $(seq 1 100); do [[ -L $link ]] && break; sleep 0.05; done
    [[ -L $link ]] || { cat "$work/$kind.log"; echo "pn532: $kind: the emulator made no link" >&2; exit 1; }
    # libnfc logs each refused probe on standard error; kept for a failure.
    LIBNFC_DEVICE=pn532_uart:$link timeout 30 nfc-list > "$work/$kind.list" 2>"$work/$kind.list-errors" \
        || { cat "$work/$kind.list-errors"; echo "pn532: $kind: nfc-list failed" >&2; exit 1; }
    LIBNFC_DEVICE=pn532_uart:$link timeout 60 nfc-mfultralight r "$work/$kind.mfd" > "$work/$kind.read" 2>&1 \
        || { cat "$work/$kind.read"; echo "pn532: $kind: nfc-mfultralight r failed" >&2; exit 1; }
    kill "$emulator"; wait "$emulator" 2>/dev/null || true; emulator=
    [[ ! -e $link ]] || { echo "pn532: $kind: the link outlived the emulator" >&2; exit 1; }
    python3 - "$kind" "$image" "$work/$kind.list" "$work/$kind.mfd" <<'PY'
import json, re, sys
kind, image, listing, dump = sys.argv[1:]
tag = json.load(open(image))["tag"]
memory = bytes.fromhex(tag["memory"])
text = open(listing).read()
def field(name):
    match = re.search(name + r"[^:]*:\s*((?:[0-9a-f]{2}\s+)+)", text)
    if not match:
        sys.exit(f"pn532: {kind}: nfc-list printed no {name}:\n{text}")
    return bytes.fromhex("".join(match.group(1).split()))
uid = memory[0:3] + memory[4:8]
assert field("UID") == uid, f"{kind}: UID {field('UID').hex()} != {uid.hex()}"
assert field("ATQA") == bytes([0x00, 0x44]), f"{kind}: ATQA {field('ATQA').hex()}"
assert field("SAK") == bytes([0x00]), f"{kind}: SAK {field('SAK').hex()}"
read = open(dump, "rb").read()
assert len(read) == len(memory), f"{kind}: dumped {len(read)} bytes, the image holds {len(memory)}"
pages = len(memory) // 4
secret = {pages - 2, pages - 1}  # PWD, then PACK and RFUI
for page in range(pages):
    want = bytes(4) if page in secret else memory[page * 4:page * 4 + 4]
    got = read[page * 4:page * 4 + 4]
    assert got == want, f"{kind}: page {page}: nfc-mfultralight read {got.hex()}, expected {want.hex()}"
print(f"ok    {kind}: nfc-list UID {uid.hex()} ATQA 0044 SAK 00; nfc-mfultralight read {pages} pages equal to the image")
PY
    checks=$((checks + 1))
done
[[ $checks -gt 0 ]] || { echo "pn532: nothing was checked" >&2; exit 1; }
echo "pn532: $checks tag kinds read by libnfc through the virtual PN532"
