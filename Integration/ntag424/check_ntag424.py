#!/usr/bin/env python3
"""The virtual NTAG 424 DNA from outside: pcscd + vpcd, pyscard and Python `cryptography` only.

Written from the NTAG 424 DNA data sheet (NT4H2421Gx §9.1.5, §9.3) and NXP AN12196 (§3.3–3.4,
§6.6), apart from the Swift code. Nothing here asks OpenCoreNFC whether it is right: the `nfc`
tool only configures the image and puts it in a vpcd reader; every answer is checked by this
file's own AES, AES-CMAC and NDEF parsing.

1. Configure: `nfc tag new ntag424` (UID 04424E54343290, five zero keys), `nfc ntag424
   change-key` turns keys 1 and 2 into random keys (kept here), `nfc ntag424 sdm` writes
   https://example.org/t?picc_data={picc}&enc={enc:0123456789abcdef}&cmac={mac} with SDM on
   (meta read key 2, file read key 1).
2. `nfc emulate --pcsc --vpcd 127.0.0.1:PORT` puts the image in vpcd's reader READER; pyscard
   reads the NDEF file twice as a phone does, with plain ISO 7816 APDUs (SELECT the application
   D2760000850101, SELECT E104, READ BINARY NLEN, READ BINARY the message), selecting again
   between the reads, and parses the one URI record (prefix 04, "https://").
3. An independent SUN verifier checks each URL: picc_data decrypted with key 2 (C7 ‖ UID ‖
   counter LSB first), the SDM session keys from key 1 (SV1 C33C…, SV2 3CC3…), enc= decrypted
   to "0123456789abcdef", cmac= the odd bytes of AES-CMAC over "enc value … &cmac=". Both valid,
   the UID the image's, counters 1 then 2, the URLs different; a URL with one cmac digit changed
   must fail the verifier (so the verifier can fail).
4. AuthenticateEV2First with key 0 by hand (90 71, 90 AF), the session keys derived here,
   GetCardUID (90 51) in full mode: the command's MAC computed here, the answer's MAC checked and
   its data decrypted to UID ‖ 80 ‖ zeros. A wrong key 0 (all 11) is refused with 91 AE.
5. Selecting the application again ends the session; the NDEF read as in step 2 then steps the
   counter to 3 (the authenticated commands did not move it).
6. Read_Sig (90 3C 00 00 01 00 00) in plain: 56 bytes r ‖ s, ECDSA on P-224 over the UID with no
   hash (AN12343, originality check). The simulator's test key is rebuilt here from its documented
   definition (private key SHA-256("OpenCoreNFC simulator originality test key") mod n), and the
   signature is verified twice: by `cryptography` (the UID left-padded to 28 bytes, the same
   integer, verified as a prehashed SHA-224 digest) and by `openssl pkeyutl -verify` on the raw UID.
   Both verifiers must also accept AN12343's worked example under NXP's DESFire Light key and
   refuse the tag's signature for another UID (so they can fail); another address answers 91 9E.
7. LRP mode by hand (NT4H2421Gx §9.2, §10.5.1; AN12343 §7.2): SetConfiguration option 05 with
   PDCap2.1 = 02 in AES full mode under key 0, answered 91 00 without a MAC; AuthenticateEV2First
   then refused with 91 9D; AuthenticateLRPFirst with this directory's own LRP (Integration/sun/
   lrp.py, held to AN12304 vectors first): 01 ‖ RndB in the clear, PICCResp checked, PICCData
   deciphered at EncCtr 0 to TI ‖ 02 00… ‖ 02 00…; GetCardUID in LRP full mode at EncCtr 1, its
   MAC checked and the UID deciphered.
8. The emulator is stopped and the temporary files removed whatever happens.

Every check is counted and printed; the exit status is 1 when one fails or fewer than
EXPECTED_CHECKS ran. Needs pcscd with Integration/pcsc/vpcd-readers.conf (Integration/pcsc/pcscd.sh
start); NTAG424_READER and NTAG424_VPCD_PORT pick another vpcd reader.

    NFC=.build/debug/nfc .venv/bin/python Integration/ntag424/check_ntag424.py
"""
import os
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pcsc"))
import checks  # noqa: E402
import emulation  # noqa: E402
from card import Card, expect  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sun"))
import lrp  # noqa: E402
from ev2_crypto import AuthenticationRefused, authenticate_ev2_first, cbc, cmac, ecb, truncate  # noqa: E402
from originality import (LIGHT_KEY, LIGHT_SIGNATURE, LIGHT_UID, simulator_test_key,  # noqa: E402
                         verify_with_cryptography, verify_with_openssl)

# Checks a whole run makes; fewer means part of it did not run.
EXPECTED_CHECKS = 40

NFC = os.environ.get("NFC", ".build/debug/nfc")
# "Virtual PCD C 00 00" (35967) is used by the PC/SC suite's nfc watch checks, which never run
# at the same time as this check; the Swift tests' readers (00 00, 00 01) stay free.
READER = os.environ.get("NTAG424_READER", "Virtual PCD C 00 00")
PORT = os.environ.get("NTAG424_VPCD_PORT", "35967")
UID = bytes.fromhex("04424E54343290")
ZERO_KEY = bytes(16)
FILE_TEXT = b"0123456789abcdef"
TEMPLATE = "https://example.org/t?picc_data={picc}&enc={enc:%s}&cmac={mac}" % FILE_TEXT.decode()

SELECT_APPLICATION = bytes.fromhex("00A4040C07D276000085010100")
SELECT_NDEF_FILE = bytes.fromhex("00A4000C02E104")
READ_NLEN = bytes.fromhex("00B0000002")


# --- SUN verification (NT4H2421Gx §9.3, AN12196 §3.3–3.4) ------------------------------------

def verify_sun(url, meta_key, file_key):
    """(valid, uid, counter, why): the URL's PICC data, file data and SDMMAC checked here."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
    try:
        picc = ecb(meta_key, bytes.fromhex(query["picc_data"][0]), decrypt=True)
        encrypted = bytes.fromhex(query["enc"][0])
        mac = bytes.fromhex(query["cmac"][0])
    except (KeyError, ValueError) as error:
        return False, None, None, "not a SUN URL: %r" % error
    if picc[0] != 0xC7:
        return False, None, None, "PICC data tag %02x, not C7 (wrong meta read key?)" % picc[0]
    uid, counter_lsb = picc[1:8], picc[8:11]
    counter = int.from_bytes(counter_lsb, "little")
    enc_key = cmac(file_key, bytes.fromhex("C33C00010080") + uid + counter_lsb)  # SV1: 16 bytes
    mac_key = cmac(file_key, bytes.fromhex("3CC300010080") + uid + counter_lsb)  # SV2
    plain = cbc(enc_key, ecb(enc_key, counter_lsb + bytes(13)), encrypted, decrypt=True)
    start = url.index("&enc=") + len("&enc=")
    mac_input = url[start:url.index("&cmac=") + len("&cmac=")].encode("ascii")
    if truncate(cmac(mac_key, mac_input)) != mac:
        return False, uid, counter, "SDMMAC differs"
    if plain != FILE_TEXT:
        return False, uid, counter, "file data decrypts to %r" % plain
    return True, uid, counter, ""


# --- the card through pyscard ------------------------------------------------------------------

def read_ndef_url(card):
    """A phone's read: SELECT the application and E104, READ BINARY NLEN, then the message;
    the one URI record's URL."""
    expect(card, SELECT_APPLICATION, "SELECT application")
    expect(card, SELECT_NDEF_FILE, "SELECT NDEF file")
    nlen = expect(card, READ_NLEN, "READ BINARY NLEN")
    length = int.from_bytes(nlen, "big")
    if len(nlen) != 2 or not 0 < length <= 0xFF:
        raise RuntimeError("NLEN %s" % nlen.hex())
    message = expect(card, bytes([0x00, 0xB0, 0x00, 0x02, length]), "READ BINARY message")
    if len(message) != length:
        raise RuntimeError("asked for %d bytes of message, got %d" % (length, len(message)))
    # One short record, TNF 1 (well known), type "U" (NFC Forum RTD URI): D1 01 len 55 code URI.
    header, type_length, payload_length = message[0], message[1], message[2]
    if header != 0xD1 or type_length != 1 or message[3:4] != b"U" or 4 + payload_length != length:
        raise RuntimeError("not one short URI record: %s" % message.hex())
    payload = message[4:]
    if payload[0] != 0x04:
        raise RuntimeError("URI prefix code %02x, not 04 (https://)" % payload[0])
    return "https://" + payload[1:].decode("ascii")


# --- the run -----------------------------------------------------------------------------------

def nfc(*args):
    return subprocess.run([NFC, *args], capture_output=True, text=True, timeout=120)


def configure(image, key1, key2):
    made = nfc("tag", "new", "ntag424", "-o", image, "--force")
    check("nfc tag new ntag424 makes the image", made.returncode == 0, made.stderr.strip())
    for number, key in ((1, key1), (2, key2)):
        changed = nfc("ntag424", "change-key", "--reader", "sim:" + image, "--key", ZERO_KEY.hex(),
                      "--change", str(number), "--new-key", key.hex(), "--old-key", ZERO_KEY.hex())
        check("nfc ntag424 change-key: key %d is a random key" % number, changed.returncode == 0,
              changed.stderr.strip())
    sdm = nfc("ntag424", "sdm", "--reader", "sim:" + image, "--key", ZERO_KEY.hex(), "--url", TEMPLATE,
              "--meta-key", "2", "--file-key", "1")
    check("nfc ntag424 sdm: SDM on with the URL template (meta read key 2, file read key 1)",
          sdm.returncode == 0, sdm.stderr.strip())
    return made.returncode == 0 and sdm.returncode == 0


def check_url(label, url, key1, key2, counter):
    valid, uid, got_counter, why = verify_sun(url, key2, key1)
    check("%s: the URL verifies (PICC data, file data, SDMMAC)" % label, valid, "%s: %s" % (why, url))
    check("%s: UID %s" % (label, UID.hex().upper()), uid == UID, uid.hex() if uid else None)
    check("%s: read counter %d" % (label, counter), got_counter == counter, got_counter)
    return valid


def phone_reads(card, key1, key2):
    urls = []
    for number in (1, 2):
        url = read_ndef_url(card)
        print("      read %d: %s" % (number, url), flush=True)
        check("read %d: one URI record https://example.org/t?picc_data=…&enc=…&cmac=…" % number,
              url.startswith("https://example.org/t?picc_data=") and "&enc=" in url and "&cmac=" in url, url)
        check_url("read %d" % number, url, key1, key2, number)
        urls.append(url)
    check("the two reads give different URLs", urls[0] != urls[1], urls)
    first = urls[0]
    digit = first[-1]
    tampered = first[:-1] + ("0" if digit != "0" else "1")
    valid, _, _, why = verify_sun(tampered, key2, key1)
    check("the verifier refuses the first URL with one cmac digit changed", not valid and why == "SDMMAC differs", why)
    valid, _, _, why = verify_sun(first, key2, os.urandom(16))
    check("the verifier refuses the first URL with another file read key", not valid, why)
    valid, _, _, why = verify_sun(first, key1, key1)
    check("the verifier refuses the first URL with the file read key as meta read key", not valid, why)


def authenticated_commands(card):
    expect(card, SELECT_APPLICATION, "SELECT application")
    ti, rnd_a_ok, caps, enc_key, mac_key = authenticate_ev2_first(card, ZERO_KEY)
    check("AuthenticateEV2First with key 0: the card's RndA' is RndA rotated left one byte", rnd_a_ok, caps.hex())
    check("AuthenticateEV2First: PDcap2 and PCDcap2 are zero", caps == bytes(12), caps.hex())
    # GetCardUID in full mode, CmdCtr 0 (NT4H2421Gx §10.5.3): command MACed, answer encrypted + MACed.
    command_mac = truncate(cmac(mac_key, bytes([0x51]) + (0).to_bytes(2, "little") + ti))
    answer, sw = card.transmit(bytes([0x90, 0x51, 0x00, 0x00, 0x08]) + command_mac + b"\x00")
    check("GetCardUID: 24 bytes and 91 00", sw == 0x9100 and len(answer) == 24, "%s %04X" % (answer.hex(), sw))
    encrypted, answer_mac = answer[:16], answer[16:]
    wanted_mac = truncate(cmac(mac_key, bytes([0x00]) + (1).to_bytes(2, "little") + ti + encrypted))
    check("GetCardUID: the answer's MAC (CmdCtr 1) is right", answer_mac == wanted_mac,
          "%s, not %s" % (answer_mac.hex(), wanted_mac.hex()))
    iv = ecb(enc_key, bytes.fromhex("5AA5") + ti + (1).to_bytes(2, "little") + bytes(8))
    plain = cbc(enc_key, iv, encrypted, decrypt=True) if len(encrypted) == 16 else b""
    check("GetCardUID: the answer decrypts to UID ‖ 80 ‖ zeros", plain == UID + b"\x80" + bytes(8), plain.hex())

    try:
        authenticate_ev2_first(card, bytes([0x11]) * 16)
        refused = None
    except AuthenticationRefused as error:
        refused = error.sw
    check("AuthenticateEV2First with a wrong key 0 (all 11): part 2 answers 91 AE", refused == 0x91AE,
          "%04X" % refused if refused is not None else "accepted")


def originality(card, work):
    test_key = simulator_test_key()
    signature, sw = card.transmit(bytes.fromhex("903C0000010000"))
    check("Read_Sig in plain: 56 bytes and 91 90, as real chips answer", sw == 0x9190 and len(signature) == 56, "%s %04X" % (signature.hex(), sw))
    check("the verifiers accept AN12343's example under NXP's DESFire Light key",
          verify_with_cryptography(LIGHT_KEY, LIGHT_UID, LIGHT_SIGNATURE)
          and verify_with_openssl(work, LIGHT_KEY, LIGHT_UID, LIGHT_SIGNATURE))
    check("cryptography: the tag's signature of its UID verifies under the simulator's test key",
          verify_with_cryptography(test_key, UID, signature), signature.hex())
    check("openssl pkeyutl: the same signature verifies on the raw UID", verify_with_openssl(work, test_key, UID, signature))
    other = bytes.fromhex("04424E54343291")
    check("both refuse it for another UID and under NXP's key",
          not verify_with_cryptography(test_key, other, signature) and not verify_with_openssl(work, test_key, other, signature)
          and not verify_with_cryptography(LIGHT_KEY, UID, signature))
    _, sw = card.transmit(bytes.fromhex("903C0000010100"))
    check("Read_Sig of address 01: 91 9E", sw == 0x919E, "%04X" % sw)


def lrp_mode(card):
    expect(card, SELECT_APPLICATION, "SELECT application")
    ti, _, _, enc_key, mac_key = authenticate_ev2_first(card, ZERO_KEY)
    # SetConfiguration (5C), option 05, CmdCtr 0, full mode: E(SesAuthENCKey, IV, data ‖ 80 00…).
    iv = ecb(enc_key, bytes.fromhex("A55A") + ti + bytes(2) + bytes(8))
    encrypted = cbc(enc_key, iv, bytes.fromhex("00000000020000000000") + b"\x80" + bytes(5))
    mac = truncate(cmac(mac_key, bytes([0x5C, 0x00, 0x00]) + ti + b"\x05" + encrypted))
    answer, sw = card.transmit(bytes([0x90, 0x5C, 0x00, 0x00, 0x19, 0x05]) + encrypted + mac + b"\x00")
    check("SetConfiguration 05 (LRP): 91 00 and no MAC", sw == 0x9100 and answer == b"", "%s %04X" % (answer.hex(), sw))
    _, sw = card.transmit(bytes.fromhex("9071000002000000"))
    check("AuthenticateEV2First on a tag in LRP mode: 91 9D", sw == 0x919D, "%04X" % sw)
    check("the LRP implementation here passes AN12304's vectors", lrp.self_test())
    first, sw = card.transmit(bytes.fromhex("9071000008000602000000000000"))
    check("AuthenticateLRPFirst part 1: 01 ‖ RndB in the clear, 91 AF", sw == 0x91AF and len(first) == 17 and first[0] == 1,
          "%s %04X" % (first.hex(), sw))
    rnd_b, rnd_a = first[1:17], os.urandom(16)
    xor = bytes(a ^ b for a, b in zip(rnd_a[2:8], rnd_b[0:6]))
    vector = bytes.fromhex("00010080") + rnd_a[0:2] + xor + rnd_b[6:16] + rnd_a[8:16] + bytes.fromhex("9669")
    session = lrp.LRP(lrp.LRP(ZERO_KEY).cmac(vector))
    second, sw = card.transmit(bytes([0x90, 0xAF, 0x00, 0x00, 0x20]) + rnd_a + session.cmac(rnd_a + rnd_b) + b"\x00")
    picc_data = second[:16]
    check("AuthenticateLRPFirst part 2: PICCResp = CMAC_LRP(RndB ‖ RndA ‖ PICCData)",
          sw == 0x9100 and len(second) == 32 and second[16:] == session.cmac(rnd_b + rnd_a + picc_data), "%s %04X" % (second.hex(), sw))
    plain = session.decrypt(picc_data, bytes(4), updated_key=1)
    ti = plain[:4]
    check("PICCData deciphers (EncCtr 0) to TI ‖ PDcap2 02 00… ‖ PCDcap2 02 00…",
          plain[4:] == bytes.fromhex("020000000000020000000000"), plain.hex())
    command_mac = truncate(session.cmac(bytes([0x51, 0x00, 0x00]) + ti))
    answer, sw = card.transmit(bytes([0x90, 0x51, 0x00, 0x00, 0x08]) + command_mac + b"\x00")
    encrypted, answer_mac = answer[:16], answer[16:]
    check("GetCardUID in LRP: the answer's MAC (CmdCtr 1) is right",
          sw == 0x9100 and answer_mac == truncate(session.cmac(bytes([0x00, 0x01, 0x00]) + ti + encrypted)), "%s %04X" % (answer.hex(), sw))
    uid = session.decrypt(encrypted, bytes.fromhex("00000001"), updated_key=1) if len(encrypted) == 16 else b""
    check("GetCardUID in LRP: EncCtr 1 deciphers it to UID ‖ 80 ‖ zeros", uid == UID + b"\x80" + bytes(8), uid.hex())


def run(work):
    image = os.path.join(work, "ntag424.json")
    key1, key2 = os.urandom(16), os.urandom(16)
    print("key 1 %s, key 2 %s" % (key1.hex(), key2.hex()), flush=True)
    if not configure(image, key1, key2):
        return
    with emulation.emulated(NFC, image, READER, "--vpcd", "127.0.0.1:" + PORT):
        card = Card(READER)
        try:
            atr = bytes(card.connection.getATR())
            check("the card is in %s (ATR %s)" % (READER, atr.hex().upper()), len(atr) > 0, atr.hex())
            phone_reads(card, key1, key2)
            authenticated_commands(card)
            # Step 5: SELECT ends the session; a plain read after it steps the counter once.
            url = read_ndef_url(card)
            print("      read 3: %s" % url, flush=True)
            check_url("read 3, after the session (ended by SELECT)", url, key1, key2, 3)
            originality(card, work)
            lrp_mode(card)
        except Exception:
            print("APDUs so far:\n" + "\n".join(card.log[-12:]), flush=True)
            raise
        finally:
            card.close()


def main():
    return checks.run_in_directory(run, EXPECTED_CHECKS, prefix="opencorenfc-ntag424-")


if __name__ == "__main__":
    sys.exit(main())
