"""EV2 secure messaging from outside (Python `cryptography` only), shared by the NTAG 424 DNA and
DESFire checks: AES, AES-CMAC (NIST SP 800-38B), MACt, AuthenticateEV2First and the command and
answer protection of NT4H2421Gx §9.1.4–§9.1.10 / AN12196 §3 and §6 (DESFire EV2 the same)."""
import os

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.cmac import CMAC


def cmac(key, data):
    mac = CMAC(algorithms.AES(key))
    mac.update(data)
    return mac.finalize()


def ecb(key, block, decrypt=False):
    cipher = Cipher(algorithms.AES(key), modes.ECB())
    op = cipher.decryptor() if decrypt else cipher.encryptor()
    return op.update(block) + op.finalize()


def cbc(key, iv, data, decrypt=False):
    cipher = Cipher(algorithms.AES(key), modes.CBC(iv))
    op = cipher.decryptor() if decrypt else cipher.encryptor()
    return op.update(data) + op.finalize()


def truncate(mac):
    """MACt: bytes 1, 3, ..., 15 of the CMAC (NT4H2421Gx §9.1.3)."""
    return mac[1::2]


def rotate_left(data):
    return data[1:] + data[:1]


def pad(data):
    """ISO/IEC 9797-1 padding method 2."""
    out = data + b"\x80"
    return out + bytes(-len(out) % 16)


class AuthenticationRefused(Exception):
    def __init__(self, sw, message):
        super().__init__(message)
        self.sw = sw


def authenticate_ev2_first(card, key, key_number=0):
    """AuthenticateEV2First (NT4H2421Gx §9.1.5, AN12196 §6.6): (TI, RndA' right, caps,
    SesAuthENCKey, SesAuthMACKey) or raises AuthenticationRefused with the status word."""
    first, sw = card.transmit(bytes([0x90, 0x71, 0x00, 0x00, 0x02, key_number, 0x00, 0x00]))
    if sw != 0x91AF or len(first) != 16:
        raise AuthenticationRefused(sw, "AuthenticateEV2First part 1: %s %04X" % (first.hex(), sw))
    rnd_b = cbc(key, bytes(16), first, decrypt=True)
    rnd_a = os.urandom(16)
    token = cbc(key, bytes(16), rnd_a + rotate_left(rnd_b))
    second, sw = card.transmit(bytes([0x90, 0xAF, 0x00, 0x00, 0x20]) + token + b"\x00")
    if sw != 0x9100 or len(second) != 32:
        raise AuthenticationRefused(sw, "AuthenticateEV2First part 2: %s %04X" % (second.hex(), sw))
    plain = cbc(key, bytes(16), second, decrypt=True)
    ti, rnd_a_rotated = plain[0:4], plain[4:20]
    xor = bytes(a ^ b for a, b in zip(rnd_a[2:8], rnd_b[0:6]))
    context = rnd_a[0:2] + xor + rnd_b[6:16] + rnd_a[8:16]
    enc_key = cmac(key, bytes.fromhex("A55A00010080") + context)
    mac_key = cmac(key, bytes.fromhex("5AA500010080") + context)
    return ti, rnd_a_rotated == rotate_left(rnd_a), plain[20:32], enc_key, mac_key


class Session:
    """An open EV2 session: wraps commands, checks and opens answers, counts CmdCtr."""

    def __init__(self, ti, enc_key, mac_key):
        self.ti, self.enc_key, self.mac_key, self.counter = ti, enc_key, mac_key, 0

    def _iv(self, label, counter):
        return ecb(self.enc_key, label + self.ti + counter.to_bytes(2, "little") + bytes(8))

    def wrap(self, ins, header, data, mode):
        """The data field of a command under `mode` ("plain", "mac", "full")."""
        if mode == "plain":
            return header + data
        body = data
        if mode == "full" and data:
            body = cbc(self.enc_key, self._iv(bytes.fromhex("A55A"), self.counter), pad(data))
        mac = truncate(cmac(self.mac_key, bytes([ins]) + self.counter.to_bytes(2, "little") + self.ti + header + body))
        return header + body + mac

    def open(self, answer, mode):
        """The plain data of a 91 00 answer; raises ValueError when its MAC is wrong."""
        self.counter += 1
        if mode == "plain":
            return answer
        body, mac = answer[:-8], answer[-8:]
        wanted = truncate(cmac(self.mac_key, b"\x00" + self.counter.to_bytes(2, "little") + self.ti + body))
        if mac != wanted:
            raise ValueError("answer MAC %s, not %s" % (mac.hex(), wanted.hex()))
        if mode == "full" and body:
            plain = cbc(self.enc_key, self._iv(bytes.fromhex("5AA5"), self.counter), body, decrypt=True)
            return plain[:plain.rindex(b"\x80")]
        return body
