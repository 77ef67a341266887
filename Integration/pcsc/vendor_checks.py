"""The emulated HID OMNIKEY 5022/5427 CK, Identiv uTrust 3700 F and ACS ACR1252U/ACR1552U
(`nfc emulate --pcsc --reader-profile …`) checked from outside: pyscard sends the APDUs of HID's
published sample code, of Identiv's CLOUD 370x F reference manual v1.0 and of ACS's ACM1252U-Y3
reference manual v1.03 and compares the answers with what those sources say; ndeflib reads the
message pyscard fetched; `nfc readers` names the profile it probed and its capabilities. 15 checks."""
import json
import subprocess

import ndef
import pyscard_ndef
import emulation
from card import connect, raw


def uris_of(reader):
    try:
        message = pyscard_ndef.read_ndef(reader)
        return [r.iri for r in ndef.message_decoder(message) if isinstance(r, ndef.UriRecord)]
    except Exception as error:  # an outside reader's failure is a check's failure
        return ["error: %r" % error]


def run(nfc, new_image, check, reader):
    def tool(*args):
        return subprocess.run([nfc, *args], capture_output=True, text=True, timeout=60)

    # HID OMNIKEY 5022 (HID-OMNIKEY-Sample-Codes: ContactlessCardCommunication, ReaderCapabilities).
    image = new_image("ntag216", "omnikey-outside")
    tool("write", "--reader", "sim:" + image, "--uri", "https://example.org/omnikey")
    answers = {}
    with emulation.emulated(nfc, image, reader, "--reader-profile", "omnikey5022"):
        connection = connect(reader)
        try:
            answers["read4"] = raw(connection, "FF B0 00 04 04")
            answers["read16"] = raw(connection, "FF B0 00 04 10")
            answers["product"] = raw(connection, "FF 70 07 6B 08 A2 06 A0 04 A0 02 82 00 00")
            answers["session"] = raw(connection, "FF C2 00 00 02 81 00")
        finally:
            connection.disconnect()
        uris = uris_of(reader)
        listing = tool("readers", "--json")
    check("OMNIKEY 5022: Read Binary asked for 4 bytes answers the READ's 16 (as nfc4pc records)",
          len(answers["read4"]) == 18 and answers["read4"] == answers["read16"], answers["read4"].hex())
    name = b"OMNIKEY 5022 Smart Card Reader"
    check("OMNIKEY 5022 (ReaderCapabilities): FF 70 07 6B … 82 answers BD, the product name, 90 00",
          answers["product"] == bytes([0xBD, len(name) + 2, 0x82, len(name)]) + name + b"\x90\x00", answers["product"].hex())
    check("OMNIKEY 5022: no transparent session (FF C2 refused)", answers["session"][-2:] != b"\x90\x00",
          answers["session"].hex())
    check("OMNIKEY 5022: pyscard + ndeflib read the NDEF message with Part 3 Read Binary",
          uris == ["https://example.org/omnikey"], repr(uris))
    try:
        entry = next(e for e in json.loads(listing.stdout) if e.get("name") == reader)
    except (ValueError, StopIteration):
        entry = {}
    check("nfc readers --json: the emulated OMNIKEY 5022 is probed as omnikey5022, with ISO 15693 and no FeliCa",
          entry.get("profile") == "omnikey5022" and entry.get("profileSource") == "probe"
          and "iso15693" in entry.get("capabilities", []) and "felica" not in entry.get("capabilities", []),
          listing.stdout + listing.stderr)

    # Identiv uTrust 3700 F (Reference Manual for the CLOUD 370x F v1.0).
    image = new_image("ntag216", "utrust-outside")
    with emulation.emulated(nfc, image, reader, "--reader-profile", "utrust3700f"):
        connection = connect(reader)
        try:
            answers["page"] = raw(connection, "FF B0 00 03 10")
            answers["session"] = raw(connection, "FF C2 00 00 02 81 00")
        finally:
            connection.disconnect()
    check("uTrust 3700 F (§6.2.1): Read Binary asked for 16 bytes answers one 4-byte page (the CC, E1 first)",
          len(answers["page"]) == 6 and answers["page"][0] == 0xE1 and answers["page"][-2:] == b"\x90\x00", answers["page"].hex())
    check("uTrust 3700 F: no transparent session (FF C2 refused)", answers["session"][-2:] != b"\x90\x00", answers["session"].hex())

    felica = new_image("felica-lite-s", "utrust-felica")
    tool("write", "--reader", "sim:" + felica, "--uri", "https://example.org/felica")
    with emulation.emulated(nfc, felica, reader, "--reader-profile", "utrust3700f"):
        connection = connect(reader)
        try:
            answers["polling"] = raw(connection, "FF 40 00 00 04 12 FC 01 00")
            answers["attribute"] = raw(connection, "FF 46 01 01 04 0B 00 80 00 00")
            answers["bad"] = raw(connection, "FF 46 01 01 05 0B 00 80 00 00 00")
        finally:
            connection.disconnect()
        read = tool("read", "--reader", "pcsc:" + reader, "--reader-profile", "utrust3700f", "--json")
    polling, attribute = answers["polling"], answers["attribute"]
    check("uTrust 3700 F (§6.2.13): FF 40 Polling for 12FC answers IDm, PMm and system code 12 FC",
          len(polling) == 20 and polling[16:18] == b"\x12\xfc" and polling[-2:] == b"\x90\x00", polling.hex())
    # FF 46 answer: IDm, status flags 00 00, one block; the block is the T3T attribute block (version 1.0).
    check("uTrust 3700 F (§6.2.17): FF 46 reads block 0, the NDEF attribute block (version 10), after the IDm and flags",
          len(attribute) == 8 + 3 + 16 + 2 and attribute[:8] == polling[:8] and attribute[8:11] == b"\x00\x00\x01"
          and attribute[11] == 0x10, attribute.hex())
    check("uTrust 3700 F: an FF 46 whose Lc is not 2·(P1 + P2) is refused (67 00)", answers["bad"] == b"\x67\x00", answers["bad"].hex())
    try:
        uris = [r.get("uri") for r in json.loads(read.stdout).get("records", [])]
    except ValueError:
        uris = []
    check("nfc read --reader-profile utrust3700f: a FeliCa Lite-S read through FF 46 gives its URI",
          read.returncode == 0 and uris == ["https://example.org/felica"], read.stdout[:300] + read.stderr)

    # ACS ACR1252U (ACM1252U-Y3 Reference Manual v1.03 §5.2.3-5.2.4) and ACR1552U (published traces).
    image = new_image("ntag216", "acr1252u-outside")
    with emulation.emulated(nfc, image, reader, "--reader-profile", "acr1252u"):
        connection = connect(reader)
        try:
            answers["start"] = raw(connection, "FF C2 00 00 02 81 00")
            answers["get_version"] = raw(connection, "FF C2 00 01 03 95 01 60")
            answers["switch"] = raw(connection, "FF C2 00 02 04 8F 02 00 03")
            answers["odd"] = raw(connection, "FF B0 00 04 06")
        finally:
            connection.disconnect()
    check("ACR1252U (§5.2.3): Manage Session start answers C0 03 00 90 00, 90 00",
          answers["start"] == bytes.fromhex("C003009000 9000".replace(" ", "")), answers["start"].hex())
    check("ACR1252U (§5.2.3): a transparent exchange of GET_VERSION answers C0, 96 02 00 00 and 97 with NTAG216's version",
          answers["get_version"] == bytes.fromhex("C00300900096020000970800040402010013039000"), answers["get_version"].hex())
    check("ACR1252U (§5.2.4.3): Read Binary with Le not a multiple of 4 fails with 63 00, its one failure word",
          answers["odd"] == b"\x63\x00", answers["odd"].hex())
    slix = new_image("slix2", "acr1552u-outside")
    with emulation.emulated(nfc, slix, reader, "--reader-profile", "acr1552u"):
        connection = connect(reader)
        try:
            switched = raw(connection, "FF C2 00 02 04 8F 02 02 03")
        finally:
            connection.disconnect()
    check("ACR1552U: Switch Protocol to ISO 15693 layer 3 (8F 02 02 03) is accepted, C0 03 00 90 00; the ACR1252U's to 14443 A too",
          switched == bytes.fromhex("C0030090009000") and answers["switch"] == bytes.fromhex("C0030090009000"),
          switched.hex() + " / " + answers["switch"].hex())
