#!/usr/bin/env python3
"""Writes the hand-made seed corpora: APDUs, PC/SC answers, Flipper .nfc dumps, AASA and plists.

The engine, applet and JSON-image seeds are recorded from the simulator by the fuzz binaries
themselves (FUZZ_MAKE_SEEDS=DIR Fuzz/build/O/fuzz-tags|fuzz-applets|fuzz-images); see docs/fuzzing.md.
Usage: Fuzz/seeds/make_seeds.py  (from anywhere; rewrites Fuzz/corpus/{apdu,pcsc,config} and
the Flipper seeds of Fuzz/corpus/images).
"""
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus")


def write(target, name, data):
    os.makedirs(os.path.join(ROOT, target), exist_ok=True)
    with open(os.path.join(ROOT, target, name), "wb") as f:
        f.write(data)


h = bytes.fromhex
# ISO 7816-4 responses and commands (the shapes the clients and the simulator see).
write("apdu", "response-ok", h("9000"))
write("apdu", "response-fci", h("6F108408D2760000850101A5049F6501FF9000"))
write("apdu", "response-more", h("0102036110"))
write("apdu", "command-select", h("00A4040007D276000085010100"))
write("apdu", "command-extended", h("00B00000000100"))
write("apdu", "command-update-extended", h("00D60000000003010203"))
write("apdu", "command-case4", h("80A1000005010203040500"))

# PC/SC: [selector] bytes. 0 ATR, 1 transparent-exchange answer, 2 pseudo-APDU frame, 3 identify script.
write("pcsc", "atr-ntag", b"\x00" + h("3B8F8001804F0CA0000003060300030000000068"))
write("pcsc", "atr-iso14443-4", b"\x00" + h("3B8880010000000000718100F9"))
write("pcsc", "atr-felica", b"\x00" + h("3B8F8001804F0CA0000003061100000000000071"))
write("pcsc", "atr-15693", b"\x00" + h("3B8F8001804F0CA000000306 0B00140000000077".replace(" ", "")))
write("pcsc", "exchange-frame", b"\x01" + h("C003009000920100960200009706A4B5C6D7E8F99000"))
write("pcsc", "exchange-timeout", b"\x01" + h("C0030164019000"))
write("pcsc", "frame-read", b"\x02" + h("3004"))
write("pcsc", "frame-15693-read", b"\x02" + h("2220E0040108123456780A"))
atr = h("3B8F8001804F0CA0000003060300030000000068")
uid = h("04A78B62C21B909000")
write("pcsc", "identify-ntag", b"\x03" + bytes([len(atr)]) + atr + bytes([len(uid)]) + uid)

# Flipper Zero .nfc dumps (first byte odd = Flipper text).
pages = ["04 A7 8B A0", "62 C2 1B 2B", "00 48 00 00", "E1 10 12 00", "03 00 FE 00"] + ["00 00 00 00"] * 40
ntag = ["Filetype: Flipper NFC device", "Version: 4", "Device type: NTAG/Ultralight", "UID: 04 A7 8B 62 C2 1B 90",
        "ATQA: 00 44", "SAK: 00", "Data format version: 2", "NTAG/Ultralight type: NTAG213",
        "Signature: " + " ".join(["00"] * 32), "Mifare version: 00 04 04 02 01 00 0F 03",
        "Counter 0: 0", "Tearing 0: 00", "Counter 1: 0", "Tearing 1: 00", "Counter 2: 7", "Tearing 2: BD",
        "Pages total: 45", "Pages read: 45"] + [f"Page {i}: {p}" for i, p in enumerate(pages)] + ["Failed authentication attempts: 0"]
write("images", "flipper-ntag213.nfc", b"\x01" + ("\n".join(ntag) + "\n").encode())
slix = ["Filetype: Flipper NFC device", "Version: 4", "Device type: ISO15693-3", "UID: E0 04 01 08 12 34 56 78",
        "DSFID: 00", "AFI: 07", "IC Reference: 01", "Lock DSFID: false", "Lock AFI: true", "Block Count: 80",
        "Block Size: 04", "Data Content: E1 40 28 01 03 00 FE " + " ".join(["00"] * (80 * 4 - 7)),
        "Security Status: 01 " + " ".join(["00"] * 79)]
write("images", "flipper-slix2.nfc", b"\x01" + ("\n".join(slix) + "\n").encode())

# Config: [selector] file. 0 AASA JSON, 1 Info.plist, 2 entitlements, 3 both.
aasa = b'''{"applinks":{"defaults":{"caseSensitive":false},"details":[{"appIDs":["ABCDE12345.org.example.app"],
"components":[{"/":"/nfc/*","?":{"x":"?"},"#":"f*","exclude":false},{"/":"/private/*","exclude":true}]}],
"substitutionVariables":{"id":["1","2"]}},"webcredentials":{"apps":["ABCDE12345.org.example.app"]}}'''
write("config", "aasa", b"\x00" + aasa)
write("config", "aasa-legacy", b'\x00{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.org.example.app","paths":["/nfc/*","NOT /x"]}]}}')
info = b'''<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>NFCReaderUsageDescription</key><string>Reads tags</string>
<key>com.apple.developer.nfc.readersession.iso7816.select-identifiers</key><array><string>D2760000850101</string><string>A000000308</string></array>
<key>com.apple.developer.nfc.readersession.felica.systemcodes</key><array><string>12FC</string><string>FFFF</string></array>
<key>MinimumOSVersion</key><string>15.0</string>
</dict></plist>'''
write("config", "info-plist", b"\x01" + info)
rights = b'''<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>com.apple.developer.nfc.readersession.formats</key><array><string>TAG</string><string>NDEF</string></array>
<key>com.apple.developer.associated-domains</key><array><string>applinks:example.org</string></array>
</dict></plist>'''
write("config", "entitlements-plist", b"\x02" + rights)
write("config", "both-plist", b"\x03" + info)
apps = b'''{"apps":[{"appID":"ABCDE12345.org.example.app","associatedDomains":["applinks:example.org","applinks:*.example.net?mode=developer"],
"handler":["/bin/echo","--url","{url}"]},{"appID":"FGHIJ67890.net.example.other","associatedDomains":["webcredentials:example.net"]}],
"associations":{"example.org":"example-aasa.json","example.net":{"applinks":{"details":[{"appIDs":["ABCDE12345.org.example.app"],"paths":["*"]}]}}},
"handlers":{"safari":["xdg-open"],"mail":["thunderbird","-compose"]}}'''
write("config", "apps-file", b"\x04" + apps)
