#!/usr/bin/env python3
"""The virtual MIFARE DESFire from outside: pcscd + vpcd, pyscard and Python `cryptography` only.

Written from the MIFARE DESFire EV1 short data sheet (MF3ICDx21_41_81, §8–§9: ISO/IEC 7816-4
wrapped native commands, the PICC → application → file model, transactions), NT4H2421Gx
§9.1 / AN12196 §3 and §6 (EV2 secure messaging, which DESFire EV2 shares) and AN11004 (DESFire as
an NFC Forum Type 4 Tag), apart from the Swift code. `nfc` only makes the image, puts it in a vpcd
reader (`nfc emulate --pcsc`) and, at the end, reads back what the emulator saved; every answer on
the way is checked here with plain APDUs and this suite's own AES (Integration/pcsc/ev2_crypto.py).

1. A blank DESFire EV2 image (`nfc tag new desfire-ev2 --blank`) in vpcd's reader READER: the
   ATR 3B8180018080, GetVersion's three frames (90 60, 90 AF ×2) with NXP/DESFire/EV2 identity
   and the image's UID, FreeMemory (7,936 bytes), an empty application list; Read_Sig's 56-byte
   originality signature verified over the UID by Python `cryptography` and `openssl pkeyutl`
   under the simulator's documented test key (Integration/pcsc/originality.py).
2. Plain: CreateApplication 000042 (AES, 2 keys), GetApplicationIDs lists it,
   SelectApplication, CreateBackupDataFile (free), WriteData, ReadData still zeros, Commit,
   ReadData the new bytes; CreateValueFile, Credit, GetValue before and after Commit;
   AbortTransaction drops a Debit.
3. Secure messaging: AuthenticateEV2First with key 0, CreateStdDataFile in MAC mode (its
   command MAC computed here, the answer MAC checked), WriteData in full mode (encrypted and MACed
   here), ReadData in full mode (the answer MAC checked and the data decrypted here), a command
   with a wrong MAC refused 91 1E and the session over (GetCardUID then 91 AE).
3b. DES, 3K3DES and AES keys with the EV1 authentications, before any application exists: the
   legacy Authenticate (0A) on the factory DES PICC master key, its token built in the reader's
   send mode; AuthenticateISO (1A) with it and EV1 secure messaging (every answer's CMAC checked
   over data ‖ status, the IV chained through the commands here): GetKeySettings (DES, one key),
   CreateApplication 000043 of 3K3DES keys, AuthenticateISO there with 16-byte randoms and a
   3K3DES CMAC, a MAC-mode file written (the command's CMAC sent) and read (the answer's CMAC
   checked, the command's not sent); DeleteApplication under the PICC master key and, in the same session, ChangeKey
   of it to an AES key (KeyNo 80, the cryptogram with its CRC32 enciphered here);
   AuthenticateAES (AA) with the new key, GetKeySettings (AES).
4. The emulator stops and saves; `nfc desfire files` reads the image back: three files.
5. An NDEF-formatted image (`nfc tag new desfire-ev2`) read as a phone reads a Type 4 tag:
   SELECT D2760000850101, SELECT E103, the 15-byte CC of AN11004, SELECT E104, NLEN 0000.

Every check is counted and printed; the exit status is 1 when one fails or fewer than
EXPECTED_CHECKS ran. Needs pcscd with Integration/pcsc/vpcd-readers.conf (Integration/pcsc/pcscd.sh
start); DESFIRE_READER and DESFIRE_VPCD_PORT pick another vpcd reader.

    NFC=.build/debug/nfc .venv/bin/python Integration/desfire/check_desfire.py
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pcsc"))
import checks  # noqa: E402
import emulation  # noqa: E402
from card import Card, expect  # noqa: E402
from checks import check  # noqa: E402
import ev1_crypto  # noqa: E402
from ev2_crypto import Session, authenticate_ev2_first  # noqa: E402
from originality import simulator_test_key, verify_with_cryptography, verify_with_openssl  # noqa: E402

# Checks a whole run makes; fewer means part of it did not run.
EXPECTED_CHECKS = 52

NFC = os.environ.get("NFC", ".build/debug/nfc")
# The NTAG 424 DNA check's reader: the two never run at the same time.
READER = os.environ.get("DESFIRE_READER", "Virtual PCD C 00 00")
PORT = os.environ.get("DESFIRE_VPCD_PORT", "35967")
UID = bytes.fromhex("04444553464980")
ZERO_KEY = bytes(16)
AID = bytes.fromhex("420000")  # 000042, least significant byte first


def native(card, ins, data=b"", follow=True):
    """A wrapped native command (90 INS 00 00 [Lc data] 00); with `follow` the 91 AF frames are
    fetched and joined. (data, status byte)."""
    collected = b""
    while True:
        apdu = bytes([0x90, ins, 0x00, 0x00]) + (bytes([len(data)]) + data if data else b"") + b"\x00"
        answer, sw = card.transmit(apdu)
        if sw >> 8 != 0x91:
            raise RuntimeError("%02X answered %04X, not 91xx" % (ins, sw))
        collected += answer
        if not follow or sw & 0xFF != 0xAF:
            return collected, sw & 0xFF
        ins, data = 0xAF, b""


def nfc(*args):
    return subprocess.run([NFC, *args], capture_output=True, text=True, timeout=120)


def identity(card):
    atr = bytes(card.connection.getATR())
    check("ATR 3B8180018080 (a DESFire's, ISO 14443-4 with historical byte 80)", atr.hex().upper() == "3B8180018080", atr.hex())
    version, status = native(card, 0x60)
    check("GetVersion: three frames, 28 bytes, 91 00", status == 0 and len(version) == 28, version.hex())
    check("GetVersion: hardware NXP, DESFire, EV2 (04 01 01 12 00), 8 KB (1A)", version[0:7].hex().upper() == "04010112001A05",
          version[0:7].hex())
    check("GetVersion: the image's UID", version[14:21] == UID, version[14:21].hex())
    free, status = native(card, 0x6E)
    check("FreeMemory: 7936 bytes (a blank 8 KB card's)", status == 0 and int.from_bytes(free, "little") == 7936, free.hex())
    apps, status = native(card, 0x6A)
    check("GetApplicationIDs: none", status == 0 and apps == b"", apps.hex())


def originality(card, work):
    """Read_Sig (90 3C 00 00 01 00 00) outside a session: 56 bytes that Python cryptography and
    openssl pkeyutl verify over the UID under the simulator's test key, and refuse for another UID."""
    signature, status = native(card, 0x3C, b"\x00")
    check("Read_Sig: 56 bytes, 91 90 as real chips answer", status == 0x90 and len(signature) == 56, signature.hex())
    key = simulator_test_key()
    check("Read_Sig: cryptography and openssl verify it over the UID under the simulator's test key",
          verify_with_cryptography(key, UID, signature) and verify_with_openssl(work, key, UID, signature), signature.hex())
    check("Read_Sig: neither verifies it for another UID",
          not verify_with_cryptography(key, bytes.fromhex("04444553464981"), signature)
          and not verify_with_openssl(work, key, bytes.fromhex("04444553464981"), signature))


def ev1_keys(card):
    """3b: the factory DES PICC master key, a 3K3DES application and an AES PICC master key, each
    with its authentication and EV1 secure messaging computed here."""
    rnd_a = os.urandom(8)
    proved, _, key = ev1_crypto.authenticate(native, card, 0x0A, 0, bytes(16), rnd_a)
    check("Authenticate (0A) on the factory PICC master key (DES, zero): RndA' is RndA rotated", proved)
    answer, status = native(card, 0x45)
    check("GetKeySettings in the legacy session: 0F 01 and nothing more (a legacy session MACs no plain answer)",
          status == 0 and answer == bytes([0x0F, 0x01]), answer.hex())
    proved, kind, key = ev1_crypto.authenticate(native, card, 0x1A, 0, bytes(16), os.urandom(8))
    check("AuthenticateISO (1A) with the same key: RndA' is RndA rotated", proved)
    session = ev1_crypto.Session(kind, key)
    session.command(0x45)
    answer, status = native(card, 0x45)
    check("GetKeySettings in the DES session: 0F 01 (DES, one key) and the CMAC right",
          status == 0 and session.answer(answer) == bytes([0x0F, 0x01]), answer.hex())
    create = bytes.fromhex("430000") + bytes([0x0F, 0x41])
    session.command(0xCA, create)
    answer, status = native(card, 0xCA, create)
    check("CreateApplication 000043 of one 3K3DES key: 91 00 and the CMAC right", status == 0 and session.answer(answer) == b"",
          answer.hex())
    _, status = native(card, 0x5A, bytes.fromhex("430000"))
    proved, kind, key = ev1_crypto.authenticate(native, card, 0x1A, 0, bytes(24), os.urandom(16))
    check("AuthenticateISO with the 3K3DES key: 16-byte randoms, RndA' right", status == 0 and proved and len(key) == 24)
    session = ev1_crypto.Session(kind, key)
    session.command(0x45)
    answer, status = native(card, 0x45)
    check("GetKeySettings in the 3K3DES session: 0F 41 and the 3K3DES CMAC right",
          status == 0 and session.answer(answer) == bytes([0x0F, 0x41]), answer.hex())
    # A MAC-mode file under key 0: WriteData carries its CMAC, ReadData's command none, its answer one.
    create = bytes([0x01, 0x01, 0x00, 0x00]) + (16).to_bytes(3, "little")
    session.command(0xCD, create)
    answer, status = native(card, 0xCD, create)
    created = status == 0 and session.answer(answer) == b""
    secret = os.urandom(16)
    header = bytes([0x01]) + (0).to_bytes(3, "little") + (16).to_bytes(3, "little")
    session.command(0x3D, header + secret)
    answer, status = native(card, 0x3D, header + secret + session.iv[:8])
    check("a MAC-mode file in the 3K3DES session: created, and WriteData with its 8-byte CMAC taken (answer CMAC right)",
          created and status == 0 and session.answer(answer) == b"", answer.hex())
    session.command(0xBD, header)
    answer, status = native(card, 0xBD, header)
    check("ReadData of it: the command without a MAC, the answer the data and its CMAC",
          status == 0 and session.answer(answer) == secret, answer.hex())
    native(card, 0x5A, bytes(3))
    proved, kind, key = ev1_crypto.authenticate(native, card, 0x1A, 0, bytes(16), os.urandom(8))
    session = ev1_crypto.Session(kind, key)
    session.command(0xDA, bytes.fromhex("430000"))
    answer, status = native(card, 0xDA, bytes.fromhex("430000"))
    check("DeleteApplication 000043 under the PICC master key (DES session): 91 00 and the CMAC right",
          proved and status == 0 and session.answer(answer) == b"", answer.hex())
    new_key = os.urandom(16)
    plain = new_key + b"\x05"
    plain += ev1_crypto.crc32(bytes([0xC4, 0x80]) + plain)
    answer, status = native(card, 0xC4, session.enciphered_key(0xC4, 0x80, plain))
    check("ChangeKey of the PICC master key to AES (KeyNo 80, version 05): 91 00, no CMAC (the session ends)",
          proved and status == 0 and answer == b"", "%02X %s" % (status, answer.hex()))
    proved, kind, key = ev1_crypto.authenticate(native, card, 0xAA, 0, new_key, os.urandom(16))
    check("AuthenticateAES (AA) with the new AES master key: RndA' right", proved)
    session = ev1_crypto.Session(kind, key)
    session.command(0x45)
    answer, status = native(card, 0x45)
    check("GetKeySettings in the AES session: 0F 81 and the AES CMAC right",
          status == 0 and session.answer(answer) == bytes([0x0F, 0x81]), answer.hex())
    native(card, 0x5A, bytes(3))


def plain_files(card):
    _, status = native(card, 0xCA, AID + bytes([0x0F, 0x82]))
    check("CreateApplication 000042 (AES, 2 keys)", status == 0, "%02X" % status)
    apps, _ = native(card, 0x6A)
    check("GetApplicationIDs: 420000", apps == AID, apps.hex())
    _, status = native(card, 0x5A, AID)
    check("SelectApplication 000042", status == 0, "%02X" % status)
    # Backup file 1: 16 bytes, plain, all access free except change (key 0): RW|C = E0, R|W = EE.
    _, status = native(card, 0xCB, bytes([0x01, 0x00, 0xE0, 0xEE]) + (16).to_bytes(3, "little"))
    check("CreateBackupDataFile 1 (16 bytes, free)", status == 0, "%02X" % status)
    _, status = native(card, 0x3D, bytes([0x01]) + (0).to_bytes(3, "little") + (4).to_bytes(3, "little") + b"DATA")
    read_range = bytes([0x01]) + (0).to_bytes(3, "little") + (4).to_bytes(3, "little")
    before, _ = native(card, 0xBD, read_range)
    check("a backup file's WriteData is not read back before CommitTransaction", status == 0 and before == bytes(4), before.hex())
    _, status = native(card, 0xC7)
    after, _ = native(card, 0xBD, read_range)
    check("after CommitTransaction ReadData gives the new bytes", status == 0 and after == b"DATA", after.hex())
    # Value file 2: 0..1000, value 5, no limited credit.
    _, status = native(card, 0xCC, bytes([0x02, 0x00, 0xE0, 0xEE]) + (0).to_bytes(4, "little") + (1000).to_bytes(4, "little")
                       + (5).to_bytes(4, "little") + b"\x00")
    check("CreateValueFile 2 (0..1000, value 5)", status == 0, "%02X" % status)
    native(card, 0x0C, bytes([0x02]) + (20).to_bytes(4, "little"))
    uncommitted, _ = native(card, 0x6C, b"\x02")
    native(card, 0xC7)
    committed, _ = native(card, 0x6C, b"\x02")
    check("Credit 20: GetValue 5 before CommitTransaction, 25 after",
          int.from_bytes(uncommitted, "little") == 5 and int.from_bytes(committed, "little") == 25,
          "%s %s" % (uncommitted.hex(), committed.hex()))
    native(card, 0xDC, bytes([0x02]) + (25).to_bytes(4, "little"))
    _, status = native(card, 0xA7)
    value, _ = native(card, 0x6C, b"\x02")
    check("AbortTransaction drops a Debit of 25", status == 0 and int.from_bytes(value, "little") == 25, value.hex())
    _, status = native(card, 0xDC, bytes([0x02]) + (26).to_bytes(4, "little"))
    check("a Debit below the lower limit: 91 BE (BOUNDARY_ERROR)", status == 0xBE, "%02X" % status)


def secure_messaging(card):
    ti, rnd_a_ok, _, enc_key, mac_key = authenticate_ev2_first(card, ZERO_KEY, 0)
    check("AuthenticateEV2First with the application's key 0: RndA' is RndA rotated", rnd_a_ok)
    session = Session(ti, enc_key, mac_key)
    # Standard file 3: 32 bytes, full mode, every access key 0 (00 00).
    create = bytes([0x03, 0x03, 0x00, 0x00]) + (32).to_bytes(3, "little")
    answer, status = native(card, 0xCD, session.wrap(0xCD, b"", create, "mac"))
    try:
        session.open(answer, "mac")
        mac_ok = True
    except ValueError:
        mac_ok = False
    check("CreateStdDataFile in MAC mode: 91 00 and the answer's MAC (CmdCtr 1) right", status == 0 and mac_ok, answer.hex())
    secret = os.urandom(20)
    header = bytes([0x03]) + (6).to_bytes(3, "little") + len(secret).to_bytes(3, "little")
    answer, status = native(card, 0x3D, session.wrap(0x3D, header, secret, "full"))
    try:
        session.open(answer, "full")
        write_ok = True
    except ValueError:
        write_ok = False
    check("WriteData in full mode (encrypted and MACed here): 91 00, the answer's MAC right", status == 0 and write_ok, answer.hex())
    header = bytes([0x03]) + (6).to_bytes(3, "little") + len(secret).to_bytes(3, "little")
    answer, status = native(card, 0xBD, session.wrap(0xBD, header, b"", "full"))
    check("ReadData in full mode: 91 00 and 32 + 8 bytes (two blocks and a MAC)", status == 0 and len(answer) == 40, answer.hex())
    try:
        plain = session.open(answer, "full")
    except ValueError as error:
        plain = repr(error)
    check("ReadData in full mode: the MAC is right and the data decrypts to what was written", plain == secret, plain)
    wrapped = bytearray(session.wrap(0x6E, b"", b"", "mac"))
    wrapped[-1] ^= 0x01
    _, status = native(card, 0x6E, bytes(wrapped))
    check("FreeMemory with a wrong MAC: 91 1E (INTEGRITY_ERROR)", status == 0x1E, "%02X" % status)
    _, status = native(card, 0x51)
    check("the session is over: GetCardUID 91 AE", status == 0xAE, "%02X" % status)


def saved_image(image):
    files = nfc("desfire", "files", "--reader", "sim:" + image, "--aid", "000042", "--json")
    try:
        listed = json.loads(files.stdout)
    except ValueError:
        listed = []
    check("the emulator saved the card: files 1 (backup), 2 (value), 3 (standard, full)",
          [(f.get("file"), f.get("type")) for f in listed] == [(1, "backup"), (2, "value"), (3, "standard")],
          files.stdout + files.stderr)


def ndef_formatted(work):
    image = os.path.join(work, "ndef.json")
    made = nfc("tag", "new", "desfire-ev2", "-o", image, "--force")
    check("nfc tag new desfire-ev2 makes an NDEF-formatted image", made.returncode == 0, made.stderr.strip())
    with emulation.emulated(NFC, image, READER, "--vpcd", "127.0.0.1:" + PORT):
        card = Card(READER)
        try:
            expect(card, bytes.fromhex("00A4040007D276000085010100"), "SELECT the NDEF application")
            expect(card, bytes.fromhex("00A4000C02E103"), "SELECT E103")
            cc = expect(card, bytes.fromhex("00B000000F"), "READ BINARY the CC")
            check("the CC is AN11004's: 000F 20 003B 0034, E104 of 2048 bytes, read and write 00",
                  cc.hex().upper() == "000F20003B00340406E10408000000", cc.hex())
            expect(card, bytes.fromhex("00A4000C02E104"), "SELECT E104")
            nlen = expect(card, bytes.fromhex("00B0000002"), "READ BINARY NLEN")
            check("NLEN 0000: an empty, INITIALIZED tag", nlen == b"\x00\x00", nlen.hex())
        finally:
            card.close()


def anticollision_uid(card):
    """The UID the reader got at anticollision (PC/SC Part 3 GET DATA, FF CA 00 00 00)."""
    answer, sw = card.transmit(bytes.fromhex("FFCA000000"))
    return answer if sw == 0x9000 else b""


def random_id(work):
    """SetConfiguration option 00 sent here with Python's own EV1 secure messaging (AuthenticateISO
    on the factory DES key, the byte enciphered with CRC32 as libfreefare lays it out), then two
    taps: a 4-byte ID 08 xx xx xx each time, different, GetVersion's UID zeros; `nfc desfire info
    --key` reads the real UID with GetCardUID; FormatPICC refused."""
    image = os.path.join(work, "random-id.json")
    nfc("tag", "new", "desfire-ev1", "--blank", "-o", image, "--force")
    with emulation.emulated(NFC, image, READER, "--vpcd", "127.0.0.1:" + PORT):
        card = Card(READER)
        try:
            before = anticollision_uid(card)
            proved, kind, key = ev1_crypto.authenticate(native, card, 0x1A, 0, bytes(16), os.urandom(8))
            session = ev1_crypto.Session(kind, key)
            answer, status = native(card, 0x5C, session.encipher(0x5C, b"\x00", b"\x03"))
            accepted = proved and status == 0 and session.answer(answer) == b""
        finally:
            card.close()
    check("SetConfiguration 00 (random ID, format disabled) enciphered here: 91 00 and the CMAC right; the UID was the image's",
          accepted and before == bytes.fromhex("04444553464980"), "%s %s" % (before.hex(), answer.hex()))
    seen = []
    for tap in (1, 2):
        with emulation.emulated(NFC, image, READER, "--vpcd", "127.0.0.1:" + PORT):
            card = Card(READER)
            try:
                uid = anticollision_uid(card)
                version, _ = native(card, 0x60)
            finally:
                card.close()
            info = nfc("desfire", "info", "--reader", "pcsc:" + READER, "--key", "00" * 8, "--json")
            plain = nfc("desfire", "info", "--reader", "pcsc:" + READER)
            formatted = nfc("desfire", "format-picc", "--reader", "pcsc:" + READER, "--key", "00" * 8)
        seen.append(uid)
        check("tap %d: anticollision gives a 4-byte random ID 08 xx xx xx; GetVersion's UID is zeros" % tap,
              len(uid) == 4 and uid[0] == 0x08 and version[14:21] == bytes(7), "%s / %s" % (uid.hex(), version.hex()))
        try:
            shown = json.loads(info.stdout)
        except ValueError:
            shown = {}
        check("tap %d: nfc desfire info --key reads the real UID (GetCardUID); without it the UID is hidden" % tap,
              shown.get("uid") == "04444553464980" and shown.get("uidAuthenticated") is True and "hidden" in plain.stdout,
              info.stdout + info.stderr + plain.stdout)
        check("tap %d: FormatPICC refused (91 9D, exit 4)" % tap, formatted.returncode == 4 and "9D" in formatted.stderr,
              formatted.stderr.strip())
    check("two taps, two random IDs", len(seen) == 2 and seen[0] != seen[1], repr([u.hex() for u in seen]))


def run(work):
    image = os.path.join(work, "desfire.json")
    made = nfc("tag", "new", "desfire-ev2", "--blank", "-o", image, "--force")
    check("nfc tag new desfire-ev2 --blank makes the image", made.returncode == 0, made.stderr.strip())
    if made.returncode != 0:
        return
    with emulation.emulated(NFC, image, READER, "--vpcd", "127.0.0.1:" + PORT):
        card = Card(READER)
        try:
            identity(card)
            originality(card, work)
            ev1_keys(card)
            plain_files(card)
            secure_messaging(card)
        except Exception:
            print("APDUs so far:\n" + "\n".join(card.log[-12:]), flush=True)
            raise
        finally:
            card.close()
    saved_image(image)
    ndef_formatted(work)
    random_id(work)


def main():
    return checks.run_in_directory(run, EXPECTED_CHECKS, prefix="opencorenfc-desfire-")


if __name__ == "__main__":
    sys.exit(main())
