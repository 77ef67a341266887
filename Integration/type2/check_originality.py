"""Type 2 originality signatures checked from outside (NTAG21x, MIFARE Ultralight EV1).

NXP signs each Type 2 chip's 7-byte UID at production: ECDSA on secp128r1 (SEC 2 v1 §2.3.1), the
UID as a big-endian integer with no hash, READ_SIG answering 32 bytes r ‖ s. This script checks
what `nfc` reads and says, with `openssl pkeyutl` (which knows secp128r1; Python `cryptography`
does not) and a few lines of affine arithmetic of its own for the public keys:

1. The verifier can tell: real tags' signatures (proxmark3's tools/recover_pk.py self test)
   verify under NXP's NTAG21x and Ultralight EV1 keys, and not for another UID.
2. For a virtual NTAG216 and Ultralight EV1 (`nfc tag new`), `nfc dump -o --json` reads READ_SIG
   through the Type 2 engine; the copy's signature verifies over the UID under the simulator's
   Type 2 test key rebuilt here from its documented definition (private key SHA-256("OpenCoreNFC
   simulator originality test key") mod n), and `nfc` says so (`originality.testKey`).
3. The same for an image holding a real tag's UID and signature: valid under NXP's NTAG21x key,
   and `nfc` names that key; a forged signature is INVALID for both.

Every check is counted; the exit status is 1 when one fails or fewer than EXPECTED_CHECKS ran.

    NFC=.build/debug/nfc .venv/bin/python Integration/type2/check_originality.py
"""
import hashlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pcsc"))
import checks  # noqa: E402
from checks import check  # noqa: E402

NFC = os.environ.get("NFC", ".build/debug/nfc")
EXPECTED_CHECKS = 14

# SEC 2 v1 §2.3.1, secp128r1.
P = 0xFFFFFFFDFFFFFFFFFFFFFFFFFFFFFFFF
A = 0xFFFFFFFDFFFFFFFFFFFFFFFFFFFFFFFC
G = (0x161FF7528B899B2D0C28607CA52C5B86, 0xCF5AC8395BAFEB13C02DA292DDED7A83)
N = 0xFFFFFFFE0000000075A30D1B9038A115

NTAG21X_KEY = bytes.fromhex("04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61")
ULTRALIGHT_EV1_KEY = bytes.fromhex("0490933BDCD6E99B4E255E3DA55389A827564E11718E017292FAF23226A96614B8")
REAL_TAGS = [
    (NTAG21X_KEY, "04E10CDA993C80", "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"),
    (NTAG21X_KEY, "04DB0BDA993C80", "6048EFD9417CD10F6B7F1818D471A7FE5B46868D2EABDC6307A1E0AAE139D8D0"),
    (ULTRALIGHT_EV1_KEY, "04C1285A373080", "CEA2EB0B3C95D0844A95B824A7553703B3702378033BF0987899DB70151A19E7"),
]


def add(p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0] and (p[1] + q[1]) % P == 0:
        return None
    if p == q:
        slope = (3 * p[0] * p[0] + A) * pow(2 * p[1], -1, P) % P
    else:
        slope = (q[1] - p[1]) * pow(q[0] - p[0], -1, P) % P
    x = (slope * slope - p[0] - q[0]) % P
    return (x, (slope * (p[0] - x) - p[1]) % P)


def multiply(k, point):
    result = None
    while k:
        if k & 1:
            result = add(result, point)
        point, k = add(point, point), k >> 1
    return result


def simulator_type2_key():
    d = int.from_bytes(hashlib.sha256(b"OpenCoreNFC simulator originality test key").digest(), "big") % N
    x, y = multiply(d, G)
    return b"\x04" + x.to_bytes(16, "big") + y.to_bytes(16, "big")


def der_length(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def der_integer(value):
    body = value.to_bytes((value.bit_length() + 8) // 8 or 1, "big")
    return b"\x02" + der_length(len(body)) + body


def verify_with_openssl(work, public_key, uid, signature):
    """openssl pkeyutl -verify over the raw UID: SubjectPublicKeyInfo (id-ecPublicKey,
    secp128r1 = 1.3.132.0.28) and the DER signature built here by hand."""
    algorithm = bytes.fromhex("301006072A8648CE3D020106052B8104001C")
    bits = b"\x03" + der_length(len(public_key) + 1) + b"\x00" + public_key
    spki = b"\x30" + der_length(len(algorithm) + len(bits)) + algorithm + bits
    integers = der_integer(int.from_bytes(signature[:16], "big")) + der_integer(int.from_bytes(signature[16:], "big"))
    paths = [os.path.join(work, name) for name in ("key.der", "uid.bin", "signature.der")]
    for path, data in zip(paths, (spki, uid, b"\x30" + der_length(len(integers)) + integers)):
        with open(path, "wb") as out:
            out.write(data)
    result = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-keyform", "DER", "-inkey", paths[0], "-in", paths[1],
                             "-sigfile", paths[2]], capture_output=True, text=True)
    return result.returncode == 0 and "Verified Successfully" in result.stdout


def nfc(*args):
    return subprocess.run([NFC, *args], capture_output=True, text=True, timeout=60)


def copy_of(work, image, name):
    """`nfc dump -o --json` of the image's tag: its report and the copy's UID and signature."""
    copy = os.path.join(work, name)
    result = nfc("dump", "--reader", "sim:" + image, "-o", copy, "--json")
    report = json.loads(result.stdout) if result.returncode == 0 else {}
    with open(copy) as source:
        tag = json.load(source)["tag"]
    return report, bytes.fromhex(tag["uid"]), bytes.fromhex(tag["signature"])


def run(work):
    for key, uid, signature in REAL_TAGS:
        check("openssl: the real tag %s's signature verifies under NXP's key" % uid,
              verify_with_openssl(work, key, bytes.fromhex(uid), bytes.fromhex(signature)))
    key, uid, signature = REAL_TAGS[0]
    check("openssl: and not for another UID",
          not verify_with_openssl(work, key, bytes.fromhex("04E10CDA993C81"), bytes.fromhex(signature)))

    test_key = simulator_type2_key()
    for kind in ("ntag216", "ultralight"):
        image = os.path.join(work, kind + ".json")
        made = nfc("tag", "new", kind, "-o", image)
        check("nfc tag new %s" % kind, made.returncode == 0, made.stderr)
        report, uid, signature = copy_of(work, image, kind + "-copy.json")
        check("%s: dump -o read a 32-byte signature through READ_SIG" % kind, report.get("signature") is True and len(signature) == 32,
              str(report))
        check("%s: openssl verifies it over the UID under the simulator's Type 2 test key" % kind,
              verify_with_openssl(work, test_key, uid, signature), signature.hex())
        originality = report.get("originality", {})
        check("%s: nfc calls it the test key's" % kind, originality.get("valid") is True and originality.get("testKey") is True,
              str(originality))

    for forged in (False, True):
        image = os.path.join(work, "real-%s.json" % forged)
        nfc("tag", "new", "ntag216", "--uid", uid_hex(), "-o", image)
        with open(image) as source:
            document = json.load(source)
        document["tag"]["signature"] = ("11" * 32) if forged else REAL_TAGS[0][2].lower()
        with open(image, "w") as out:
            json.dump(document, out)
        report, uid, signature = copy_of(work, image, "real-copy-%s.json" % forged)
        originality = report.get("originality", {})
        if forged:
            check("a forged signature: openssl and nfc both refuse it",
                  not verify_with_openssl(work, NTAG21X_KEY, uid, signature) and originality.get("valid") is False, str(originality))
        else:
            check("a real NTAG21x's UID and signature: openssl verifies the copy's, nfc names NXP's NTAG21x key",
                  verify_with_openssl(work, NTAG21X_KEY, uid, signature) and originality.get("signer") == "NTAG21x", str(originality))


def uid_hex():
    return REAL_TAGS[0][1].lower()


def main():
    return checks.run_in_directory(run, EXPECTED_CHECKS, prefix="opencorenfc-type2-originality-")


if __name__ == "__main__":
    sys.exit(main())
