#!/usr/bin/env bash
# libnfc and nfcpy against the virtual PN532 and nfcpy's UDP frontend (docs/pn532.md): `nfc emulate --pn532 PATH` with a virtual tag
# in its field, Debian's libnfc 1.8 (`libnfc-bin`) reading it as a PN532 on a serial line.
#   NFC=.build/debug/nfc Integration/pn532/run.sh
# Checks, for NTAG213, NTAG215, NTAG216 and Ultralight EV1:
#   - nfc-list reports the UID, ATQA and SAK the image holds;
#   - nfc-mfultralight r dumps the whole memory equal to the image's, page for page, except the
#     password and PACK pages, which every NTAG21x/Ultralight EV1 reads as 00 (NTAG213/215/216
#     data sheet §8.8.1, MF0ULX1 §8.8.1);
#   - nfc-mfultralight w writes another tag's dump into the image (MIFARE "Write 16 bytes"
#     through InDataExchange): the image then holds that tag's user pages and message.
# For Topaz 96 and 512 (Type 1): nfc-list lists them by Jewel polling; nfc-jewel r and w read
# and write them byte by byte.
# For the Type 4 tags (A and B) and FeliCa Lite-S and Standard: nfc-list reports the ATS, the
# ATQB fields, or IDm, PMm and system code, the image holds; nfc-read-forum-tag3 reads the FeliCa tags' NDEF message.
# nfcpy 1.0.4 (Integration/pn532/requirements.txt, in $PYTHON's environment) reads and writes NDEF
# on Types 2, 3 and 4 through the virtual PN532 (for Type 4 it runs ISO-DEP itself through
# InCommunicateThru); nfcpy opens /dev names only, so the device is linked at /dev/ttyNFC<pid>
# (as root, or with sudo).
# Over nfcpy's UDP frontend: nfcpy reads and writes our virtual tags (nfc emulate --nfcpy-udp),
# and our nfcpy-udp: reader reads and writes nfcpy's own Type 3 emulation. In target mode,
# libnfc's nfc-emulate-forum-tag4 is the card nfc read --reader pn532-target: reads.
# Our pn532: reader through the virtual PN532 agrees with sim: on every kind it can read (read
# --json, dump, and a write that lands in the image as the same write through sim: does); an
# ISO 15693 tag is a clear "cannot"; a missing device, a regular file and a link to a terminal
# nobody serves are one-line errors, quickly.
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

start_emulator() {  # start_emulator IMAGE LINK
    "$NFC" emulate --image "$1" --pn532 "$2" 2>"$work/emulator.log" &
    emulator=$!
    for _ in $(seq 1 100); do [[ -L $2 ]] && break; sleep 0.05; done
    [[ -L $2 ]] || { cat "$work/emulator.log"; echo "pn532: the emulator made no link at $2" >&2; exit 1; }
}
stop_emulator() { kill -INT "$emulator"; wait "$emulator" 2>/dev/null || true; emulator=; }
fail() { echo "pn532: $*" >&2; exit 1; }

# nfc-list on the ISO-DEP and FeliCa kinds.
for kind in type4 type4b felica-lite-s felica; do
    image=$work/$kind.json link=$work/pn532-$kind
    "$NFC" tag new "$kind" -o "$image" >/dev/null
    start_emulator "$image" "$link"
    LIBNFC_DEVICE=pn532_uart:$link timeout 30 nfc-list > "$work/$kind.list" 2>/dev/null || fail "$kind: nfc-list failed"
    stop_emulator
    python3 - "$kind" "$image" "$work/$kind.list" <<'PY'
import json, re, sys
kind, image, listing = sys.argv[1:]
tag = json.load(open(image))["tag"]
text = open(listing).read()
def field(name):
    match = re.search(re.escape(name) + r"[^:]*:\s*((?:[0-9a-f]{2}\s+)+)", text)
    if not match:
        sys.exit(f"pn532: {kind}: nfc-list printed no {name}:\n{text}")
    return "".join(match.group(1).split())
if kind == "type4":
    assert field("UID") == tag["uid"], f"{kind}: UID {field('UID')}"
    assert field("ATQA") == tag["atqa"][2:] + tag["atqa"][:2], f"{kind}: ATQA {field('ATQA')}"  # printed second byte first
    assert field("SAK") == tag["sak"], f"{kind}: SAK {field('SAK')}"
    assert field("ATS") == tag["ats"][2:], f"{kind}: ATS {field('ATS')} (the image's without TL: {tag['ats']})"
    print(f"ok    {kind}: nfc-list UID {tag['uid']} SAK {tag['sak']} ATS {tag['ats'][2:]}")
elif kind == "type4b":
    b = tag["typeB"]
    assert field("PUPI") == b["pupi"], f"{kind}: PUPI {field('PUPI')}"
    assert field("Application Data") == b["applicationData"], f"{kind}: application data {field('Application Data')}"
    assert field("Protocol Info") == b["protocolInfo"], f"{kind}: protocol info {field('Protocol Info')}"
    print(f"ok    {kind}: nfc-list PUPI {b['pupi']} application data {b['applicationData']} protocol info {b['protocolInfo']}")
else:
    assert field("ID (NFCID2)") == tag["idm"], f"{kind}: IDm {field('ID (NFCID2)')}"
    assert field("Parameter (PAD)") == tag["pmm"], f"{kind}: PMm {field('Parameter (PAD)')}"
    system = field("System Code (SC)")
    print(f"ok    {kind}: nfc-list IDm {tag['idm']} PMm {tag['pmm']} system code {system}")
PY
    checks=$((checks + 1))
done

# Two tags in the field (nfc emulate --image A --image B): nfc-list lists both, one at a time
# (it deselects each card, which then sleeps through the next REQA, ISO/IEC 14443-3 §6.3.2).
first=$work/two-ntag213.json second=$work/two-type4.json link=$work/pn532-two
"$NFC" tag new ntag213 -o "$first" >/dev/null
"$NFC" tag new type4 --uid 04112233445566 -o "$second" >/dev/null
"$NFC" emulate --image "$first" --image "$second" --pn532 "$link" 2>"$work/emulator.log" &
emulator=$!
for _ in $(seq 1 100); do [[ -L $link ]] && break; sleep 0.05; done
LIBNFC_DEVICE=pn532_uart:$link timeout 30 nfc-list > "$work/two.list" 2>/dev/null || fail "two tags: nfc-list failed"
# Our own reader through the same chip: nfc scan --all lists both, with the UIDs nfc-list printed.
timeout 30 "$NFC" scan --all --reader "pn532:$link" --json > "$work/two.scan" 2>"$work/two.scan-errors" \
    || { cat "$work/two.scan-errors"; fail "two tags: nfc scan --all failed"; }
stop_emulator
grep -q "2 ISO14443A passive target(s) found" "$work/two.list" && grep -q "04  11  22  33  44  55  66" "$work/two.list" \
    || { cat "$work/two.list"; fail "two tags: nfc-list did not list both"; }
echo "ok    two tags in one field: nfc-list lists the NTAG213 and the Type 4 tag"
checks=$((checks + 1))
"${PYTHON:-python3}" - "$work/two.scan" "$work/two.list" <<'PY' || fail "two tags: nfc scan --all differs from nfc-list"
import json, re, sys
scan = json.load(open(sys.argv[1]))
listed = {"".join(line.split(":", 1)[1].split()).lower()
          for line in open(sys.argv[2]) if "UID (NFCID1)" in line}
ours = {tag["uid"] for tag in scan["tags"]}
families = sorted(tag["family"] for tag in scan["tags"])
assert scan["count"] == 2 and ours == listed and families == ["type2", "type4"], (scan, listed)
print(f"ok    two tags in one field: nfc scan --all lists {sorted(ours)}, the UIDs nfc-list lists")
PY
checks=$((checks + 1))

# nfc-read-forum-tag3 on FeliCa Lite-S and Standard: it polls for the NDEF system code 12FC
# (the Lite-S answers for it only with SYS_OP 01) and reads the message with Check commands.
# The message stays under 64 bytes: libnfc 1.8's loop reads only the first Check's worth (Nbr
# blocks, 4 here as on a real Lite-S) and writes whatever its buffer held beyond that.
for kind in felica-lite-s felica; do
    image=$work/$kind-tag3.json link=$work/pn532-tag3-$kind
    "$NFC" tag new "$kind" -o "$image" >/dev/null
    "$NFC" write --reader "sim:$image" --text "nfc-read-forum-tag3 on $kind" >/dev/null
    start_emulator "$image" "$link"
    LIBNFC_DEVICE=pn532_uart:$link timeout 30 nfc-read-forum-tag3 -q -o "$work/$kind.ndef" > "$work/$kind.tag3" 2>&1 \
        || { cat "$work/$kind.tag3"; fail "$kind: nfc-read-forum-tag3 failed"; }
    stop_emulator
    theirs=$("$NFC" ndef decode --message "$work/$kind.ndef" --json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["records"]))')
    ours=$("$NFC" read --reader "sim:$image" --json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["records"]))')
    [[ -n $ours && $theirs == "$ours" ]] || fail "$kind: nfc-read-forum-tag3 read $theirs, the image holds $ours"
    echo "ok    $kind: nfc-read-forum-tag3 read the image's message ($(wc -c < "$work/$kind.ndef") bytes)"
    checks=$((checks + 1))
done

# nfcpy: read, then write, each checked against the image.
PYTHON=${PYTHON:-.venv/bin/python}
"$PYTHON" -c "import nfc" 2>/dev/null || fail "nfcpy is not installed for $PYTHON (pip install -r Integration/pn532/requirements.txt)"
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -n "$@"; fi; }
device=/dev/ttyNFC$$
# The ISO-DEP kinds get a message longer than one frame: nfcpy asks for frames of 128 bytes
# through a PN532 (RATS E0 70) and 256 over UDP, and a READ BINARY answer of 257 bytes comes back
# chained, each block acknowledged by nfcpy's R(ACK) (ISO/IEC 14443-4 §7.5.2).
message_for() {
    case $1 in
    type4*) printf 'nfcpy reads %s:' "$1"; printf ' chained' {1..60} ;;
    *) printf 'nfcpy reads %s' "$1" ;;
    esac
}
for kind in ntag213 ntag216 ultralight type4 type4b felica-lite-s felica; do
    case $kind in felica*) brty=212F ;; type4b) brty=106B ;; *) brty=106A ;; esac
    image=$work/$kind-nfcpy.json link=$work/pn532-nfcpy-$kind
    text=$(message_for "$kind")
    "$NFC" tag new "$kind" -o "$image" >/dev/null
    "$NFC" write --reader "sim:$image" --text "$text" >/dev/null
    start_emulator "$image" "$link"
    as_root ln -sfn "$link" "$device"
    theirs=$(timeout 60 "$PYTHON" Integration/pn532/nfcpy_tag.py "tty:${device#/dev/}:pn532" "$brty" read 2>&1) \
        || { as_root rm -f "$device"; fail "$kind: nfcpy read failed: $theirs"; }
    written=$(timeout 60 "$PYTHON" Integration/pn532/nfcpy_tag.py "tty:${device#/dev/}:pn532" "$brty" write "https://example.org/nfcpy/$kind" 2>&1) \
        || { as_root rm -f "$device"; fail "$kind: nfcpy write failed: $written"; }
    as_root rm -f "$device"
    stop_emulator
    [[ $theirs == "[[\"T\", \"$text\"]]" ]] || fail "$kind: nfcpy read $theirs"
    "$NFC" read --reader "sim:$image" --json | grep -q "\"uri\" : \"https://example.org/nfcpy/$kind\"\|\"uri\": \"https://example.org/nfcpy/$kind\"" \
        || fail "$kind: nfcpy's write is not in the image: $("$NFC" read --reader "sim:$image")"
    echo "ok    $kind: nfcpy read the image's message (${#text} characters) and its write landed in the image"
    checks=$((checks + 1))
done

# libfreefare 0.4's mifare-ultralight-info (Debian's libfreefare-bin): it finds the tag and tells
# Ultralight from Ultralight C by AUTHENTICATE 1A, which an NTAG or Ultralight EV1 must refuse.
command -v mifare-ultralight-info >/dev/null || fail "mifare-ultralight-info not found (Debian package libfreefare-bin)"
for kind in ultralight ntag213; do
    image=$work/$kind-freefare.json link=$work/pn532-freefare-$kind
    "$NFC" tag new "$kind" -o "$image" >/dev/null
    start_emulator "$image" "$link"
    info=$(LIBNFC_DEVICE=pn532_uart:$link timeout 30 mifare-ultralight-info 2>/dev/null) || { stop_emulator; fail "$kind: mifare-ultralight-info failed: $info"; }
    stop_emulator
    uid=$(python3 -c 'import json, sys; m = bytes.fromhex(json.load(open(sys.argv[1]))["tag"]["memory"]); print((m[0:3] + m[4:8]).hex())' "$image")
    [[ $info == *"Tag with UID $uid is a Mifare UltraLight"* && $info != *"UltraLight C"* ]] || fail "$kind: mifare-ultralight-info said: $info"
    echo "ok    $kind: mifare-ultralight-info: ${info##*$'\n'}"
    checks=$((checks + 1))
done

# nfc-mfultralight w: another tag's dump written into a fresh image.
for kind in ntag213 ntag215 ntag216 ultralight; do
    source=$work/$kind-source.json target=$work/$kind-target.json link=$work/pn532-w-$kind
    "$NFC" tag new "$kind" -o "$source" >/dev/null
    "$NFC" tag new "$kind" -o "$target" >/dev/null
    "$NFC" write --reader "sim:$source" --uri "https://example.org/written-by-libnfc/$kind" >/dev/null
    start_emulator "$source" "$link"
    LIBNFC_DEVICE=pn532_uart:$link timeout 60 nfc-mfultralight r "$work/$kind-source.mfd" >/dev/null 2>&1 || fail "$kind: nfc-mfultralight r failed"
    stop_emulator
    start_emulator "$target" "$link"
    # It asks whether to write OTP, lock and UID bytes: standard input answers no to each.
    LIBNFC_DEVICE=pn532_uart:$link timeout 60 nfc-mfultralight w "$work/$kind-source.mfd" < /dev/null > "$work/$kind.write" 2>&1 \
        || { cat "$work/$kind.write"; fail "$kind: nfc-mfultralight w failed"; }
    stop_emulator
    grep -q " 0 pages failed" "$work/$kind.write" || { cat "$work/$kind.write"; fail "$kind: nfc-mfultralight w reports failed pages"; }
    [[ $("$NFC" read --reader "sim:$target" --json) == "$("$NFC" read --reader "sim:$source" --json)" ]] \
        || fail "$kind: after nfc-mfultralight w the image does not hold the source's message"
    python3 - "$kind" "$source" "$target" <<'PY'
import json, sys
kind, source, target = sys.argv[1:]
a = bytes.fromhex(json.load(open(source))["tag"]["memory"])
b = bytes.fromhex(json.load(open(target))["tag"]["memory"])
user_end = {"ntag213": 0x28, "ntag215": 0x82, "ntag216": 0xE2, "ultralight": 0x10}[kind]  # the first page after user memory
assert a[16:user_end * 4] == b[16:user_end * 4], f"{kind}: user pages differ after nfc-mfultralight w"
print(f"ok    {kind}: nfc-mfultralight w wrote pages 4–{user_end - 1:#04x} into the image; its message reads back")
PY
    checks=$((checks + 1))
done

# Type 1 through libnfc's Jewel support (BrTy 04; InDataExchange with the short commands of
# libnfc's jewel.h): nfc-list lists the Topaz with SENS_RES 0c 00 and its JEWELID; nfc-jewel r
# dumps blocks 00h–0Eh, read byte by byte, equal to the image; nfc-jewel w writes another Topaz's
# blocks 01h–0Ch into the image (WRITE-E byte by byte; lock and OTP bytes declined), whose message
# then reads back through sim:.
for kind in topaz96 topaz512; do
    image=$work/$kind-jewel.json source=$work/$kind-jewel-source.json link=$work/pn532-$kind-jewel
    "$NFC" tag new "$kind" -o "$image" >/dev/null
    "$NFC" tag new "$kind" --uid 12A1B2C3D4E525 -o "$source" >/dev/null
    "$NFC" write --reader "sim:$source" --text "written by nfc-jewel: $kind" >/dev/null
    start_emulator "$image" "$link"
    LIBNFC_DEVICE=pn532_uart:$link timeout 30 nfc-list > "$work/$kind.list" 2>/dev/null || fail "$kind: nfc-list failed"
    LIBNFC_DEVICE=pn532_uart:$link timeout 60 nfc-jewel r "$work/$kind.jwd" > "$work/$kind.jewel-read" 2>&1 \
        || { cat "$work/$kind.jewel-read"; fail "$kind: nfc-jewel r failed"; }
    stop_emulator
    cp "$image" "$image.before"
    start_emulator "$source" "$link"
    LIBNFC_DEVICE=pn532_uart:$link timeout 60 nfc-jewel r "$work/$kind-source.jwd" > /dev/null 2>&1 || fail "$kind: nfc-jewel r of the source failed"
    stop_emulator
    start_emulator "$image" "$link"
    printf 'n\nn\n' | LIBNFC_DEVICE=pn532_uart:$link timeout 60 nfc-jewel w "$work/$kind-source.jwd" > "$work/$kind.jewel-write" 2>&1 \
        || { cat "$work/$kind.jewel-write"; fail "$kind: nfc-jewel w failed"; }
    stop_emulator
    "$NFC" read --reader "sim:$image" | grep -q "written by nfc-jewel: $kind" \
        || { cat "$work/$kind.jewel-write"; fail "$kind: after nfc-jewel w the image does not hold the source's message"; }
    python3 - "$kind" "$image" "$source" "$work/$kind.list" "$work/$kind.jwd" <<'PY'
import json, re, sys
kind, image, source, listing, dump = sys.argv[1:]
before = bytes.fromhex(json.load(open(image + ".before"))["tag"]["memory"])
memory = bytes.fromhex(json.load(open(image))["tag"]["memory"])
theirs = bytes.fromhex(json.load(open(source))["tag"]["memory"])
text = open(listing).read()
assert "Jewel" in text, f"{kind}: nfc-list did not list a Jewel target:\n{text}"
sens = re.search(r"ATQA \(SENS_RES\):\s*((?:[0-9a-f]{2}\s+){2})", text)
jewel_id = re.search(r"4-LSB JEWELID:\s*((?:[0-9a-f]{2}\s+){4})", text)
assert sens and bytes.fromhex("".join(sens.group(1).split())) == bytes([0x0C, 0x00]), f"{kind}: SENS_RES in\n{text}"
assert jewel_id and bytes.fromhex("".join(jewel_id.group(1).split())) == memory[0:4], f"{kind}: JEWELID in\n{text}"
read = open(dump, "rb").read()
assert len(read) == 120, f"{kind}: nfc-jewel dumped {len(read)} bytes, not blocks 00h-0Eh"
assert read == before[0:120], f"{kind}: nfc-jewel r dumped {read.hex()}, the image held {before[0:120].hex()}"
assert memory[0:8] == before[0:8] and memory[0x68:0x78] == before[0x68:0x78], f"{kind}: nfc-jewel w changed the UID, reserved or lock block"
assert memory[8:0x68] == theirs[8:0x68], f"{kind}: blocks 01h-0Ch after nfc-jewel w differ from the source's"
print(f"ok    {kind}: nfc-list SENS_RES 0c00 JEWELID {memory[0:4].hex()}; nfc-jewel r dumped blocks 00h-0Eh, nfc-jewel w wrote blocks 01h-0Ch")
PY
    checks=$((checks + 1))
done

# Our pn532: reader against sim: on the same tag, kind by kind.
for kind in ntag213 ntag215 ntag216 ultralight topaz512 topaz96 type4 type4b iso7816 felica-lite-s felica; do
    image=$work/$kind-ours.json twin=$work/$kind-twin.json link=$work/pn532-ours-$kind
    "$NFC" tag new "$kind" -o "$image" >/dev/null
    [[ $kind == iso7816 ]] || "$NFC" write --reader "sim:$image" --text "read through a PN532: $kind" >/dev/null
    cp "$image" "$twin"
    start_emulator "$image" "$link"
    [[ $("$NFC" read --reader "pn532:$link" --json 2>&1) == "$("$NFC" read --reader "sim:$twin" --json 2>&1)" ]] || fail "$kind: nfc read through pn532: differs from sim:"
    [[ $("$NFC" dump --reader "pn532:$link" 2>&1) == "$("$NFC" dump --reader "sim:$twin" 2>&1)" ]] || fail "$kind: nfc dump through pn532: differs from sim:"
    if [[ $kind != iso7816 ]]; then
        "$NFC" write --reader "pn532:$link" --uri "https://example.org/pn532/$kind" >/dev/null || fail "$kind: nfc write through pn532: failed"
        "$NFC" write --reader "sim:$twin" --uri "https://example.org/pn532/$kind" >/dev/null
    fi
    stop_emulator
    [[ $("$NFC" dump --reader "sim:$image" 2>&1) == "$("$NFC" dump --reader "sim:$twin" 2>&1)" ]] || fail "$kind: the write through pn532: left another image than sim:"
    echo "ok    $kind: nfc read, dump and write through pn532: equal to sim:"
    checks=$((checks + 1))
done

# nfcpy's UDP frontend, both ways (OUTSIDE-READERS.md). nfcpy's reader against our virtual tags
# (nfc emulate --nfcpy-udp): read, then write, each checked against the image.
port=$((40000 + $$ % 20000))
for kind in ntag213 ntag216 ultralight topaz96 topaz512 type4 type4b felica-lite-s felica; do
    case $kind in felica*) brty=212F ;; type4b) brty=106B ;; *) brty=106A ;; esac
    image=$work/$kind-udp.json
    "$NFC" tag new "$kind" -o "$image" >/dev/null
    text="$(message_for "$kind") over UDP"
    "$NFC" write --reader "sim:$image" --text "$text" >/dev/null
    "$NFC" emulate --image "$image" --nfcpy-udp "127.0.0.1:$port" 2>"$work/udp-$kind.log" &
    emulator=$!
    for _ in $(seq 1 100); do grep -q "answering" "$work/udp-$kind.log" && break; sleep 0.05; done
    theirs=$(timeout 60 "$PYTHON" Integration/pn532/nfcpy_tag.py "udp:localhost:$port" "$brty" read 2>&1) || fail "$kind: nfcpy read over UDP failed: $theirs"
    written=$(timeout 60 "$PYTHON" Integration/pn532/nfcpy_tag.py "udp:localhost:$port" "$brty" write "https://example.org/udp/$kind" 2>&1) \
        || fail "$kind: nfcpy write over UDP failed: $written"
    stop_emulator
    [[ $theirs == "[[\"T\", \"$text\"]]" ]] || fail "$kind: nfcpy read $theirs over UDP"
    "$NFC" read --reader "sim:$image" --json | grep -q "\"uri\" *: \"https://example.org/udp/$kind\"" \
        || fail "$kind: nfcpy's UDP write is not in the image: $("$NFC" read --reader "sim:$image")"
    echo "ok    $kind: nfcpy read the image's message over UDP and its write landed in the image ($(tail -1 "$work/udp-$kind.log"))"
    checks=$((checks + 1))
done

# Our nfcpy-udp: reader against nfcpy's own Type 3 tag emulation (Type3TagEmulation): the message
# it serves read back equal, then a write the emulation's memory holds at its end.
message=$work/udp-type3.ndef
"$NFC" ndef encode --uri https://example.org/nfcpy-emulates --text "a Type 3 tag emulated by nfcpy" -o "$message" >/dev/null
"$PYTHON" Integration/pn532/nfcpy_type3_tag.py "$port" "$message" 2 > "$work/type3-emulation.out" 2>&1 &
emulation=$!
ours=$(timeout 30 "$NFC" read --reader "nfcpy-udp:localhost:$port" --json 2>&1) || { kill $emulation; fail "nfcpy-udp: read failed: $ours"; }
timeout 30 "$NFC" write --reader "nfcpy-udp:localhost:$port" --uri https://example.org/written-to-nfcpy >/dev/null 2>&1 \
    || { kill $emulation; fail "nfcpy-udp: write failed"; }
wait $emulation || fail "nfcpy's Type 3 emulation failed: $(cat "$work/type3-emulation.out")"
[[ $(echo "$ours" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["records"]))') == \
    "$("$NFC" ndef decode --message "$message" --json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["records"]))')" ]] \
    || fail "nfcpy-udp: read $ours, nfcpy served $(xxd -p "$message")"
held=$(tail -1 "$work/type3-emulation.out")
[[ $("$NFC" ndef decode "$held" --json) == "$("$NFC" ndef encode --uri https://example.org/written-to-nfcpy | xargs "$NFC" ndef decode --json)" ]] \
    || fail "nfcpy-udp: nfcpy's tag holds $held after our write"
echo "ok    nfcpy-udp: our reader read nfcpy's Type 3 emulation and its write is in nfcpy's memory"
checks=$((checks + 1))

# Target mode: libnfc's nfc-emulate-forum-tag4 drives a virtual PN532 as a Type 4 tag serving a
# message; nfc read --reader pn532-target: reads it, equal to the file.
link=$work/pn532-target
"$NFC" ndef encode --uri https://example.org/libnfc-emulates --text "served by nfc-emulate-forum-tag4" -o "$work/target.ndef" >/dev/null
timeout 60 "$NFC" read --reader "pn532-target:$link" --json > "$work/target.json" 2>"$work/target.log" &
reader=$!
for _ in $(seq 1 100); do [[ -L $link ]] && break; sleep 0.05; done
[[ -L $link ]] || { cat "$work/target.log"; fail "pn532-target: no link at $link"; }
# It serves one reader session and always ends with an error status (libnfc 1.8: "Target Released").
LIBNFC_DEVICE=pn532_uart:$link timeout 30 nfc-emulate-forum-tag4 "$work/target.ndef" > "$work/target.emulator" 2>&1 || true
wait $reader || { cat "$work/target.log" "$work/target.emulator"; fail "pn532-target: nfc read failed"; }
grep -q "Target Released" "$work/target.emulator" || { cat "$work/target.emulator"; fail "pn532-target: the emulator did not end with the release"; }
[[ $(python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["records"]))' "$work/target.json") == \
    "$("$NFC" ndef decode --message "$work/target.ndef" --json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["records"]))')" ]] \
    || fail "pn532-target: read $(cat "$work/target.json")"
[[ ! -e $link ]] || fail "pn532-target: the link outlived the reader"
echo "ok    pn532-target: nfc read read libnfc's emulated Type 4 tag, equal to the file it serves"
checks=$((checks + 1))

# What a PN532 cannot do, and lines that are not a PN532: one-line errors, quickly.
image=$work/slix2.json link=$work/pn532-slix2
"$NFC" tag new slix2 -o "$image" >/dev/null
start_emulator "$image" "$link"
if out=$(timeout 20 "$NFC" read --reader "pn532:$link" 2>&1); then fail "slix2: read through a PN532"; fi
stop_emulator
[[ $out == *"ISO/IEC 15693"* ]] || fail "slix2: the error does not say a PN532 cannot read ISO 15693: $out"
echo "ok    slix2: $out"
checks=$((checks + 1))
touch "$work/regular-file"
ln -s /dev/null "$work/null-link"
# A terminal that never answers (a board without power, a wrong port): held open by Python.
python3 -c 'import os, sys, time; m, s = os.openpty(); os.symlink(os.ttyname(s), sys.argv[1]); time.sleep(60)' "$work/silent" &
silent=$!
for _ in $(seq 1 100); do [[ -L $work/silent ]] && break; sleep 0.05; done
for device in "$work/missing" "$work/regular-file" "$work/null-link" "$work/silent"; do
    status=0
    out=$(timeout 20 "$NFC" read --reader "pn532:$device" 2>&1) || status=$?
    [[ $status -ne 0 && $status -ne 124 ]] || fail "pn532:$device: status $status: $out"
    [[ $(echo "$out" | wc -l) -eq 1 && $out == *"$device"* ]] || fail "pn532:$device: not a one-line error naming the device: $out"
    echo "ok    pn532:$device: $out"
    checks=$((checks + 1))
done
kill "$silent" 2>/dev/null || true

[[ $checks -gt 0 ]] || { echo "pn532: nothing was checked" >&2; exit 1; }
echo "pn532: $checks checks passed: libnfc and nfcpy through the virtual PN532, nfcpy over UDP both ways, libnfc as a target, our pn532: reader"
