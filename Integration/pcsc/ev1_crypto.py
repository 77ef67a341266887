"""DESFire EV1 and legacy secure messaging from outside (Python `cryptography` only): DES/TDEA
and AES, the CMAC of NIST SP 800-38B chained from a running IV, the legacy "send mode", the four
session keys, and an EV1 session's wrapping of commands and answers (MIFARE DESFire EV1 short
data sheet MF3ICDx21_41_81 §9; the details it leaves out as docs/desfire.md cites them)."""
import warnings
import zlib

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
    except ImportError:  # cryptography before 43
        TripleDES = algorithms.TripleDES


def _algorithm(kind, key):
    if kind == "aes":
        return algorithms.AES(key)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TripleDES(key if len(key) != 8 else key * 3)


def block_size(kind):
    return 16 if kind == "aes" else 8


def ecb(kind, key, data, decrypt=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cipher = Cipher(_algorithm(kind, key), modes.ECB())
    op = cipher.decryptor() if decrypt else cipher.encryptor()
    return op.update(data) + op.finalize()


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def cbc_encrypt(kind, key, iv, data):
    """Standard CBC encryption; (ciphertext, last block)."""
    size = block_size(kind)
    out = b""
    for start in range(0, len(data), size):
        iv = ecb(kind, key, xor(data[start:start + size], iv))
        out += iv
    return out, iv


def cbc_decrypt(kind, key, iv, data):
    size = block_size(kind)
    out = b""
    for start in range(0, len(data), size):
        block = data[start:start + size]
        out += xor(ecb(kind, key, block, decrypt=True), iv)
        iv = block
    return out


def legacy_send(kind, key, data):
    """The legacy reader's send mode: C_i = D(P_i xor C_{i-1}), IV zero."""
    size = block_size(kind)
    chain = bytes(size)
    out = b""
    for start in range(0, len(data), size):
        chain = ecb(kind, key, xor(data[start:start + size], chain), decrypt=True)
        out += chain
    return out


def _double(value, size):
    number = int.from_bytes(value, "big") << 1
    if number >> (8 * size):
        number ^= 0x87 if size == 16 else 0x1B
    return (number & ((1 << (8 * size)) - 1)).to_bytes(size, "big")


def cmac(kind, key, iv, message):
    """SP 800-38B CMAC chained from `iv`: the whole last block (the next IV)."""
    size = block_size(kind)
    k1 = _double(ecb(kind, key, bytes(size)), size)
    k2 = _double(k1, size)
    if message and len(message) % size == 0:
        padded = message[:-size] + xor(message[-size:], k1)
    else:
        padded = message + b"\x80"
        padded += bytes(-len(padded) % size)
        padded = padded[:-size] + xor(padded[-size:], k2)
    return cbc_encrypt(kind, key, iv, padded)[1]


def crc32(data):
    """DESFire's CRC32: IEEE, preset FFFFFFFF, no final inversion, least significant byte first."""
    return (zlib.crc32(data) ^ 0xFFFFFFFF).to_bytes(4, "little")


def crc16(data):
    """CRC_A of ISO/IEC 14443-3 (preset 6363), least significant byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return crc.to_bytes(2, "little")


def session_key(kind, key, rnd_a, rnd_b):
    if kind == "aes":
        return rnd_a[0:4] + rnd_b[0:4] + rnd_a[12:16] + rnd_b[12:16]
    if len(key) == 24:
        return rnd_a[0:4] + rnd_b[0:4] + rnd_a[6:10] + rnd_b[6:10] + rnd_a[12:16] + rnd_b[12:16]
    if key[:8] == key[8:]:
        return rnd_a[0:4] + rnd_b[0:4]
    return rnd_a[0:4] + rnd_b[0:4] + rnd_a[4:8] + rnd_b[4:8]


def rotate_left(data):
    return data[1:] + data[:1]


def authenticate(native, card, ins, key_number, key, rnd_a):
    """Authenticate (0A), AuthenticateISO (1A) or AuthenticateAES (AA) with `key`; returns
    (RndA' proved, session kind, session key). `native(card, ins, data, follow)` sends a frame."""
    kind = "aes" if ins == 0xAA else "des"
    size = block_size(kind)
    encrypted, status = native(card, ins, bytes([key_number]), follow=False)
    if status != 0xAF:
        raise ValueError("%02X answered %02X" % (ins, status))
    rnd_b = cbc_decrypt(kind, key, bytes(size), encrypted)
    plain = rnd_a + rotate_left(rnd_b)
    if ins == 0x0A:
        token = legacy_send(kind, key, plain)
    else:
        token = cbc_encrypt(kind, key, encrypted[-size:], plain)[0]
    answer, status = native(card, 0xAF, token, follow=False)
    if status != 0x00:
        raise ValueError("the token was answered %02X" % status)
    iv = bytes(size) if ins == 0x0A else token[-size:]
    proved = cbc_decrypt(kind, key, iv, answer) == rotate_left(rnd_a)
    return proved, kind, session_key(kind, key, rnd_a, rnd_b)


class Session:
    """EV1 secure messaging after 1A or AA: the IV runs through every command and answer."""

    def __init__(self, kind, key):
        self.kind = kind
        self.key = key if kind == "aes" or len(key) != 8 else key * 2
        self.iv = bytes(block_size(kind))

    def command(self, ins, data=b""):
        """A plain command: its CMAC moves the IV on; nothing is added."""
        self.iv = cmac(self.kind, self.key, self.iv, bytes([ins]) + data)
        return data

    def encipher(self, ins, header, data):
        """A full-mode command: header ‖ E(data ‖ CRC32(ins ‖ header ‖ data), zero-padded)."""
        plain = data + crc32(bytes([ins]) + header + data)
        plain += bytes(-len(plain) % block_size(self.kind))
        sealed, self.iv = cbc_encrypt(self.kind, self.key, self.iv, plain)
        return header + sealed

    def enciphered_key(self, ins, key_byte, plain):
        """ChangeKey's cryptogram, already holding its CRCs: zero-padded and enciphered."""
        plain += bytes(-len(plain) % block_size(self.kind))
        sealed, self.iv = cbc_encrypt(self.kind, self.key, self.iv, plain)
        return bytes([key_byte]) + sealed

    def answer(self, data, status=0x00):
        """Checks an answer's 8-byte CMAC over data ‖ status; returns the data."""
        if len(data) < 8:
            raise ValueError("no CMAC in %s" % data.hex())
        mac = cmac(self.kind, self.key, self.iv, data[:-8] + bytes([status]))
        if mac[:8] != data[-8:]:
            raise ValueError("wrong CMAC on %s" % data.hex())
        self.iv = mac
        return data[:-8]
