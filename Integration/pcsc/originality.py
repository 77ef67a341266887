"""NXP originality signatures checked from outside: ECDSA on P-224 over the UID with no hash,
56 bytes r ‖ s (AN12343, originality check), verified by Python `cryptography` and by
`openssl pkeyutl`; the simulator's test key rebuilt from its documented definition
(docs/ntag424.md), apart from the Swift code. Used by check_ntag424.py and check_desfire.py.
"""
import hashlib
import os
import subprocess

# NIST P-224's order (FIPS 186-4 §D.1.2.2).
P224_ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFF16A2E0B8F03E13DD29455C5C2A3D
# AN12343 (MIFARE DESFire Light features and hints), originality check: NXP's key and an example.
LIGHT_KEY = bytes.fromhex("040E98E117AAA36457F43173DC920A8757267F44CE4EC5ADD3C54075571AEBBF7B"
                          "942A9774A1D94AD02572427E5AE0A2DD36591B1FB34FCF3D")
LIGHT_UID = bytes.fromhex("045A115A346180")
LIGHT_SIGNATURE = bytes.fromhex("1CA298FC3F0F04A329254AC0DF7A3EB8E756C076CD1BAAF47B8BBA6D"
                                "CD78BCC64DFD3E80E679D9A663CAE9E4D4C2C77023077CC549CE4A61")


def verify_with_cryptography(public_point, uid, signature):
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP224R1(), public_point)
    der = utils.encode_dss_signature(int.from_bytes(signature[:28], "big"), int.from_bytes(signature[28:], "big"))
    try:
        key.verify(der, bytes(28 - len(uid)) + uid, ec.ECDSA(utils.Prehashed(hashes.SHA224())))
        return True
    except InvalidSignature:
        return False


def verify_with_openssl(work, public_point, uid, signature):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, utils
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP224R1(), public_point)
    paths = [os.path.join(work, name) for name in ("key.pem", "uid.bin", "signature.der")]
    with open(paths[0], "wb") as out:
        out.write(key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    with open(paths[1], "wb") as out:
        out.write(uid)
    with open(paths[2], "wb") as out:
        out.write(utils.encode_dss_signature(int.from_bytes(signature[:28], "big"), int.from_bytes(signature[28:], "big")))
    result = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", paths[0], "-in", paths[1], "-sigfile", paths[2]],
                            capture_output=True, text=True)
    return result.returncode == 0 and "Verified Successfully" in result.stdout


def simulator_test_key():
    """The simulator's test key, uncompressed: private key SHA-256("OpenCoreNFC simulator
    originality test key") mod n."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    d = int.from_bytes(hashlib.sha256(b"OpenCoreNFC simulator originality test key").digest(), "big") % P224_ORDER
    return ec.derive_private_key(d, ec.SECP224R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
