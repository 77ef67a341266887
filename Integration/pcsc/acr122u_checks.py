"""The emulated ACS ACR122U (`nfc emulate --pcsc --reader-profile acr122u`) checked from outside:
pyscard sends the APDUs of ACS's API-ACR122U v2.04 manual and compares the answers with what
the manual prints; ndeflib reads the NDEF message pyscard fetched; `nfc readers` names the profile
it probed. 9 checks."""
import json
import subprocess

import ndef
import pyscard_ndef
import emulation
from card import connect, raw

# API-ACR122U v2.04 §3.1.1: a MIFARE Ultralight (NTAG21x reports so) in an ACR122U.
ULTRALIGHT_ATR = bytes.fromhex("3B8F8001804F0CA0000003060300030000000068")
# §7.3: a FeliCa 212K card (standard 03, card name F0 11).
FELICA_ATR = bytes.fromhex("3B8F8001804F0CA00000030603F011000000008A")


def run(nfc, new_image, check, reader):
    def tool(*args):
        return subprocess.run([nfc, *args], capture_output=True, text=True, timeout=60)

    image = new_image("ntag216", "acr122u-outside")
    tool("write", "--reader", "sim:" + image, "--uri", "https://example.org/acr122u")
    answers = {}
    with emulation.emulated(nfc, image, reader, "--reader-profile", "acr122u"):
        connection = connect(reader)
        try:
            answers["atr"] = bytes(connection.getATR())
            answers["firmware"] = raw(connection, "FF 00 48 00 00")
            answers["uid"] = raw(connection, "FF CA 00 00 00")
            answers["read16"] = raw(connection, "FF B0 00 04 10")
            answers["read17"] = raw(connection, "FF B0 00 04 11")
            answers["version"] = raw(connection, "FF 00 00 00 03 D4 42 60")
            answers["session"] = raw(connection, "FF C2 00 00 02 81 00")
        finally:
            connection.disconnect()
        try:
            message = pyscard_ndef.read_ndef(reader)
            uris = [r.iri for r in ndef.message_decoder(message) if isinstance(r, ndef.UriRecord)]
        except Exception as error:  # an outside reader's failure is a check's failure
            uris = ["error: %r" % error]
        listing = tool("readers", "--json")
    check("ACR122U (§3.1.1): pyscard sees the manual's Ultralight ATR", answers["atr"] == ULTRALIGHT_ATR, answers["atr"].hex())
    check("ACR122U (§6.3): Get Firmware Version is ten ASCII bytes with no status word",
          answers["firmware"] == b"ACR122U215", repr(answers["firmware"]))
    check("ACR122U (§4.1): Get Data gives a 7-byte UID and 90 00",
          len(answers["uid"]) == 9 and answers["uid"][-2:] == b"\x90\x00", answers["uid"].hex())
    check("ACR122U (§5.3): Read Binary gives 16 bytes; 17 fails with 63 00",
          len(answers["read16"]) == 18 and answers["read16"][-2:] == b"\x90\x00" and answers["read17"] == b"\x63\x00",
          answers["read16"].hex() + " / " + answers["read17"].hex())
    check("ACR122U (§6.1, UM0701-02 §7.3.9): Direct Transmit of GET_VERSION answers D5 43 00, NTAG216's version, 90 00",
          answers["version"] == bytes.fromhex("D5430000040402010013039000"), answers["version"].hex())
    check("ACR122U: no transparent session (FF C2 fails with 63 00)", answers["session"] == b"\x63\x00", answers["session"].hex())
    check("ACR122U: pyscard + ndeflib read the NDEF message with the manual's Read Binary",
          uris == ["https://example.org/acr122u"], repr(uris))
    try:
        entry = next(e for e in json.loads(listing.stdout) if e.get("name") == reader)
    except (ValueError, StopIteration):
        entry = {}
    check("nfc readers --json: the emulated ACR122U is probed as profile acr122u",
          entry.get("profile") == "acr122u" and entry.get("profileSource") == "probe", listing.stdout + listing.stderr)

    felica = new_image("felica-lite-s", "acr122u-felica")
    with emulation.emulated(nfc, felica, reader, "--reader-profile", "acr122u"):
        connection = connect(reader)
        try:
            atr = bytes(connection.getATR())
        finally:
            connection.disconnect()
    check("ACR122U (§7.3): a FeliCa card's ATR is the manual's (standard 03, card name F0 11)", atr == FELICA_ATR, atr.hex())
