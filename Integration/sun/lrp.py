"""NXP's Leakage Resilient Primitive (AN12304) in Python `cryptography`, for check_sun.py's
LRP-mode generator: written from AN12304's algorithms apart from the Swift code, and checked
against three of AN12304's test vectors before use.

E(k, m) is AES-128 of block m under key k; the running value is the key.
"""
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def aes(key, block):
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return encryptor.update(block) + encryptor.finalize()


class LRP:
    def __init__(self, key):
        # Algorithms 1 and 2: 16 plaintexts from E(K, 55..), 4 updated keys from E(K, AA..).
        fives, tens = b"\x55" * 16, b"\xaa" * 16
        self.plaintexts, h = [], aes(key, fives)
        for _ in range(16):
            self.plaintexts.append(aes(h, tens))
            h = aes(h, fives)
        self.updated_keys, h = [], aes(key, tens)
        for _ in range(4):
            self.updated_keys.append(aes(h, tens))
            h = aes(h, fives)

    def eval(self, updated_key, data, final=True):
        """Algorithm 3 over whole bytes, high nibble first."""
        y = self.updated_keys[updated_key]
        for byte in data:
            for nibble in (byte >> 4, byte & 0x0F):
                y = aes(y, self.plaintexts[nibble])
        return aes(y, bytes(16)) if final else y

    def encrypt(self, data, counter, updated_key=0):
        """Algorithm 4 without padding: whole blocks; the counter (big-endian bytes) steps per block."""
        out, value = b"", int.from_bytes(counter, "big")
        for start in range(0, len(data), 16):
            key = self.eval(updated_key, value.to_bytes(len(counter), "big"))
            out += aes(key, data[start:start + 16])
            value = (value + 1) % (1 << (8 * len(counter)))
        return out

    def decrypt(self, data, counter, updated_key=0):
        """Algorithm 5 without padding: each block through AES decryption under EvalLRP(counter)."""
        out, value = b"", int.from_bytes(counter, "big")
        for start in range(0, len(data), 16):
            key = self.eval(updated_key, value.to_bytes(len(counter), "big"))
            decryptor = Cipher(algorithms.AES(key), modes.ECB()).decryptor()
            out += decryptor.update(data[start:start + 16]) + decryptor.finalize()
            value = (value + 1) % (1 << (8 * len(counter)))
        return out

    def cmac(self, message):
        """Algorithm 6: CMAC with EvalLRP under updated key 0 as the block function."""
        def double(block):
            value = int.from_bytes(block, "big") << 1
            if value >> 128:
                value ^= 0x87
            return (value & ((1 << 128) - 1)).to_bytes(16, "big")
        k1 = double(self.eval(0, bytes(16)))
        k2 = double(k1)
        blocks = [message[i:i + 16] for i in range(0, len(message), 16)] or [b""]
        y = bytes(16)
        for block in blocks[:-1]:
            y = self.eval(0, bytes(a ^ b for a, b in zip(y, block)))
        last = blocks[-1]
        if len(last) == 16:
            last = bytes(a ^ b for a, b in zip(last, k1))
        else:
            last = bytes(a ^ b for a, b in zip(last + b"\x80" + bytes(15 - len(last)), k2))
        return self.eval(0, bytes(a ^ b for a, b in zip(y, last)))


def self_test():
    """Three AN12304 vectors: EvalLRP, CMAC_LRP and LRICB (as sdm-backend's tests carry them)."""
    h = bytes.fromhex
    lrp = LRP(h("567826B8DA8E768432A9548DBE4AA3A0"))
    ok = lrp.eval(2, h("1359")) == h("1BA2C0C578996BC497DD181C6885A9DD")
    ok = ok and LRP(h("8195088CE6C393708EBBE6C7914ECB0B")).cmac(h("BBD5B85772C7")) == h("AD8595E0B49C5C0DB18E77355F5AAFF6")
    ok = ok and LRP(h("EFA5B7429CD153BF0086DEF900C0F235")).encrypt(h("E7F61E012F4F3255312BA68B1D2FDABF"), h("9036FFFF")) \
        == h("EA6E09AC2FB97E102D8CA64C1CBC0C0C")
    return ok
