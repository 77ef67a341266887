#!/usr/bin/env python3
"""The virtual MIFARE Plus from outside: pcscd + vpcd, pyscard and Python `cryptography` only.

Written from the NXP Reader Library's MIFARE Plus layers (the formulas of its public copies:
AuthenticateFirst, the EV0 and EV1 session keys and IVs, MACs truncated to the bytes at odd
positions), the MIFARE Plus EV1/EV2 short data sheets and AN10833, apart from the Swift code.
`nfc` only makes the image, puts it in a vpcd reader (`nfc emulate --pcsc`) and, at the end,
reads back what the emulator saved; every answer on the way is checked here.

1. A blank card (`nfc tag new mifare-plus --blank`, SL0): the ATR from its historical bytes
   C1052F2F01BCD6, GetVersion (MIFARE Plus EV2, 2 KB, the image's UID), the level probe
   (WritePerso 9090 answered 09), WritePerso of the card master, configuration and level 3 switch
   keys, of sector 1's key A and of block 4; CommitPerso to SL3; the probe then answers 0B.
2. EV0 secure messaging: AuthenticateFirst with sector 1's key A (PCDcap2 00), RndA' checked;
   an enciphered, MACed read of block 4 (the answer MAC checked, the data deciphered here); an
   enciphered, MACed write of block 5; a command with a wrong MAC answered 08.
3. EV1 secure messaging: AuthenticateFirst with PCDcap2 01 (PICCcap2 01 back), a plain MACed
   read of block 5 giving what the EV0 write put there, a value block written, decremented with
   DecrementTransfer (the amount enciphered here) and read back.
4. The emulator saves; `nfc mifare-plus read` on the image reads block 5 with the same key.

Every check is counted; the exit status is 1 when one fails or fewer than EXPECTED_CHECKS ran.
Needs pcscd with Integration/pcsc/vpcd-readers.conf (Integration/pcsc/pcscd.sh start).

    NFC=.build/debug/nfc .venv/bin/python Integration/mifare-plus/check_mifare_plus.py
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pcsc"))
import checks  # noqa: E402
import emulation  # noqa: E402
from card import Card  # noqa: E402
from checks import check  # noqa: E402
from ev2_crypto import cbc, cmac, ecb, rotate_left, truncate  # noqa: E402

EXPECTED_CHECKS = 19

NFC = os.environ.get("NFC", ".build/debug/nfc")
READER = os.environ.get("MIFARE_PLUS_READER", "Virtual PCD C 00 00")
PORT = os.environ.get("MIFARE_PLUS_VPCD_PORT", "35967")
UID = bytes.fromhex("044D504C555380")
MASTER = bytes.fromhex("00112233445566778899AABBCCDDEEFF")
SECTOR_KEY = bytes.fromhex("A0A1A2A3A4A5A6A7A8A9AAABACADAEAF")


def native(card, ins, data=b""):
    """A wrapped native command; (data, status byte)."""
    apdu = bytes([0x90, ins, 0x00, 0x00]) + (bytes([len(data)]) + data if data else b"") + b"\x00"
    answer, sw = card.transmit(apdu)
    if sw >> 8 != 0x91:
        raise RuntimeError("%02X answered %04X, not 91xx" % (ins, sw))
    return answer, sw & 0xFF


def le16(value):
    return value.to_bytes(2, "little")


class Session:
    """A reader-side SL3 session: keys, TI, counters, MACs and IVs of EV0 or EV1 messaging."""

    def __init__(self, key, rnd_a, rnd_b, ti, ev1):
        self.ti, self.ev1, self.r, self.w = ti, ev1, 0, 0
        a, b = rnd_a, rnd_b
        if ev1:
            context = a[0:2] + bytes(x ^ y for x, y in zip(a[2:8], b[0:6])) + b[6:16] + a[8:16]
            self.kenc = cmac(key, bytes.fromhex("A55A00010080") + context)
            self.kmac = cmac(key, bytes.fromhex("5AA500010080") + context)
        else:
            self.kenc = ecb(key, a[11:16] + b[11:16] + bytes(x ^ y for x, y in zip(a[4:9], b[4:9])) + b"\x11")
            self.kmac = ecb(key, a[7:12] + b[7:12] + bytes(x ^ y for x, y in zip(a[0:5], b[0:5])) + b"\x22")

    def mac(self, data):
        return truncate(cmac(self.kmac, data))

    def iv(self, response):
        counters = le16(self.r) + le16(self.w)
        if self.ev1:
            return ecb(self.kenc, (b"\x5A\xA5" if response else b"\xA5\x5A") + self.ti + counters + bytes(6))
        return counters * 3 + self.ti if response else self.ti + counters * 3


def authenticate_first(card, key_block, key, ev1):
    rnd_a = os.urandom(16)
    caps = bytes([1 if ev1 else 0]) + bytes(5)
    challenge, status = native(card, 0x70, le16(key_block) + b"\x06" + caps)
    if status != 0x90:
        raise RuntimeError("AuthenticateFirst answered %02X" % status)
    rnd_b = cbc(key, bytes(16), challenge, decrypt=True)
    answer, status = native(card, 0x72, cbc(key, bytes(16), rnd_a + rotate_left(rnd_b)))
    plain = cbc(key, bytes(16), answer, decrypt=True)
    proved = status == 0x90 and plain[4:20] == rotate_left(rnd_a)
    return proved, plain[20], Session(key, rnd_a, rnd_b, plain[0:4], ev1)


def read(card, session, block, encrypted):
    ins = 0x31 if encrypted else 0x33
    header = le16(block) + b"\x01"
    data = header + session.mac(bytes([ins]) + le16(session.r) + session.ti + header)
    answer, status = native(card, ins, data)
    if status != 0x90 or len(answer) != 24:
        return None, "status %02X, %d bytes" % (status, len(answer))
    session.r += 1
    expected = session.mac(b"\x90" + le16(session.r) + session.ti + header + answer[:16])
    if expected != answer[16:]:
        return None, "wrong answer MAC"
    return (cbc(session.kenc, session.iv(True), answer[:16], decrypt=True) if encrypted else answer[:16]), "ok"


def write(card, session, ins, address, payload):
    """A write-type command (data enciphered with the command IV for A1 and the value commands)."""
    sent = cbc(session.kenc, session.iv(False), payload) if ins in (0xA1, 0xB9, 0xB7) else payload
    mac = session.mac(bytes([ins]) + le16(session.w) + session.ti + address + sent)
    answer, status = native(card, ins, address + sent + mac)
    if status != 0x90:
        return "status %02X" % status
    session.w += 1
    return "ok" if answer == session.mac(b"\x90" + le16(session.w) + session.ti) else "wrong answer MAC"


def nfc(*args):
    return subprocess.run([NFC, *args], capture_output=True, text=True, timeout=120)


def personalize(card):
    atr = bytes(card.connection.getATR())
    check("ATR 3B878001, then the historical bytes C1052F2F01BCD6 and TCK",
          atr[:4].hex().upper() == "3B878001" and atr[4:11].hex().upper() == "C1052F2F01BCD6", atr.hex())
    version, status = native(card, 0x60)
    parts = version
    while status == 0xAF:
        more, status = native(card, 0xAF)
        parts += more
    check("GetVersion: NXP, MIFARE Plus (02), EV2 (22), 2 KB (16), the image's UID",
          status == 0x90 and parts[0:7].hex().upper() == "04020122001605" and parts[14:21] == UID, parts.hex())
    _, status = native(card, 0xA8, bytes.fromhex("9090") + bytes(16))
    check("the level probe (WritePerso 9090) answers 09 at SL0", status == 0x09, "%02X" % status)
    _, status = native(card, 0xAA, b"\x03")
    check("CommitPerso before the card keys are written: 0B", status == 0x0B, "%02X" % status)
    results = [native(card, 0xA8, le16(address) + MASTER)[1] for address in (0x9000, 0x9001, 0x9003)]
    results.append(native(card, 0xA8, le16(0x4002) + SECTOR_KEY)[1])
    results.append(native(card, 0xA8, le16(0x0004) + b"block four, SL0!")[1])
    check("WritePerso of 9000, 9001, 9003, key 4002 and block 4: 90 each", results == [0x90] * 5, str(results))
    _, status = native(card, 0xAA, b"\x03")
    check("CommitPerso 03: 90", status == 0x90, "%02X" % status)
    _, status = native(card, 0xA8, bytes.fromhex("9090") + bytes(16))
    check("the level probe then answers 0B (SL3)", status == 0x0B, "%02X" % status)


def ev0(card):
    proved, picc_cap, session = authenticate_first(card, 0x4002, SECTOR_KEY, ev1=False)
    check("AuthenticateFirst 4002, EV0 (PCDcap2 00): RndA' is RndA rotated, PICCcap2 00", proved and picc_cap == 0)
    plain, why = read(card, session, 4, encrypted=True)
    check("Read 31 of block 4: the answer MAC right and the data deciphers to what WritePerso wrote",
          plain == b"block four, SL0!", why)
    result = write(card, session, 0xA1, le16(5), b"written over EV0")
    check("Write A1 of block 5 (enciphered, MACed): 90 and the answer MAC right", result == "ok", result)
    header = le16(4) + b"\x01"
    _, status = native(card, 0x31, header + bytes(8))
    check("a Read with a wrong MAC: 08", status == 0x08, "%02X" % status)
    _, status = native(card, 0x33, header + bytes(8))
    check("the session is over: the next Read 06", status == 0x06, "%02X" % status)


def ev1(card):
    proved, picc_cap, session = authenticate_first(card, 0x4002, SECTOR_KEY, ev1=True)
    check("AuthenticateFirst 4002, EV1 (PCDcap2 01): RndA' right, PICCcap2 01", proved and picc_cap == 1)
    plain, why = read(card, session, 5, encrypted=False)
    check("Read 33 of block 5 (plain, MACed): what the EV0 write put there", plain == b"written over EV0", why)
    value = (1000).to_bytes(4, "little")
    inverse = bytes(~b & 0xFF for b in value)
    block = value + inverse + value + bytes([6, 0xF9, 6, 0xF9])
    result = write(card, session, 0xA1, le16(6), block)
    check("Write A1 of block 6 as a value block of 1000 (EV1 IVs)", result == "ok", result)
    amount = (250).to_bytes(4, "little") + b"\x80" + bytes(11)
    result = write(card, session, 0xB9, le16(6) + le16(6), amount)
    check("DecrementTransfer B9 of 250 (the amount enciphered here): 90 and the answer MAC right", result == "ok", result)
    plain, why = read(card, session, 6, encrypted=True)
    check("block 6 then holds 750 as a value block",
          plain is not None and plain[0:4] == (750).to_bytes(4, "little") and plain[12] == 6, why if plain is None else plain.hex())


def saved(image):
    out = nfc("mifare-plus", "read", "--reader", "sim:" + image, "--block", "5", "--key", SECTOR_KEY.hex(), "--json")
    check("the emulator saved the card: nfc mifare-plus read gives block 5",
          out.returncode == 0 and b"written over EV0".hex().upper() in out.stdout, out.stdout + out.stderr)


def run(work):
    image = os.path.join(work, "plus.json")
    made = nfc("tag", "new", "mifare-plus", "--blank", "-o", image, "--force")
    check("nfc tag new mifare-plus --blank makes the image", made.returncode == 0, made.stderr.strip())
    if made.returncode != 0:
        return
    with emulation.emulated(NFC, image, READER, "--vpcd", "127.0.0.1:" + PORT):
        card = Card(READER)
        try:
            personalize(card)
            ev0(card)
            ev1(card)
        except Exception:
            print("APDUs so far:\n" + "\n".join(card.log[-12:]), flush=True)
            raise
        finally:
            card.close()
    saved(image)


def main():
    return checks.run_in_directory(run, EXPECTED_CHECKS, prefix="opencorenfc-mifare-plus-")


if __name__ == "__main__":
    sys.exit(main())
