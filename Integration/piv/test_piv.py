#!/usr/bin/env python3
"""PIV integration check: third-party PIV clients against our emulated applet.

1. `nfc tag new security-key`, then `nfc piv generate 9c` on the simulator (the image keeps the key).
2. `nfc emulate --pcsc --vpcd 127.0.0.1:PIV_VPCD_PORT` puts the card in our vpcd reader
   (PIV_READER, "Virtual PCD D 00 01"; other suites' cards may sit in other readers).
3. `nfc piv generate 9a --reader pcsc:READER`: our CLI over PC/SC; the card signs its certificate.
4. OpenSC: pkcs15-tool lists and reads the certificate; pkcs11-tool logs in with the PIN and
   signs (ECDSA), and openssl verifies that signature against the certificate.
5. yubikit's PivSession (yubikey-manager) reads the CHUID and the certificates, signs with 9a
   and 9c, and the signatures verify; 9c refuses a second signature without the PIN; it
   authenticates with the AES-192 management key, generates a key in 9d and its ECDH secret
   equals the host's.

Every wait is on a PC/SC state change or a process, with a deadline. Exits 1 on any failure.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pcsc"))
import emulation  # noqa: E402
import checks  # noqa: E402

# Checks a whole run makes; fewer means part of it did not run.
EXPECTED_CHECKS = 27
from checks import check, failures  # noqa: E402

NFC = os.environ.get("NFC", ".build/debug/nfc")
READER = os.environ.get("PIV_READER", "Virtual PCD D 00 01")
PORT = os.environ.get("PIV_VPCD_PORT", "35970")
MODULE = os.environ.get("OPENSC_PKCS11", "/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so")
PIN = "123456"
WORK = tempfile.mkdtemp(prefix="opencorenfc-piv-")



def run(*args, timeout=120, env=None):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, env=env)


def path(name):
    return os.path.join(WORK, name)


def emulated(image):
    """`nfc emulate` of IMAGE in our reader until the block ends (Integration/pcsc/emulation.py)."""
    return emulation.emulated(NFC, image, READER, "--vpcd", "127.0.0.1:" + PORT)


def opensc_environment():
    """OpenSC's PKCS#11 module shows 16 virtual slots, 4 per reader, by default: with the eight
    vpcd readers ours would be hidden, so raise the limit."""
    conf = path("opensc.conf")
    with open(conf, "w") as out:
        out.write("app opensc-pkcs11 {\n\tpkcs11 {\n\t\tmax_virtual_slots = 64;\n\t}\n}\n")
    env = dict(os.environ)
    env["OPENSC_CONF"] = conf
    return env


def opensc_reader_index(env):
    listing = run("opensc-tool", "--list-readers", env=env)
    for line in listing.stdout.splitlines():
        fields = line.split()
        if fields and fields[0].isdigit() and line.rstrip().endswith(READER):
            return fields[0]
    raise RuntimeError("opensc-tool does not list %s:\n%s" % (READER, listing.stdout))


def openssl_verify(certificate_pem, message_file, signature_file):
    public = path("public.pem")
    key = run("openssl", "x509", "-in", certificate_pem, "-pubkey", "-noout")
    with open(public, "w") as out:
        out.write(key.stdout)
    result = run("openssl", "dgst", "-sha256", "-verify", public, "-signature", signature_file, message_file)
    return result.returncode == 0 and "Verified OK" in result.stdout, result.stdout + result.stderr


def check_cli_and_openssl(image):
    result = run(NFC, "piv", "generate", "9c", "--pin", PIN, "--subject", "OpenCoreNFC 9c",
                 "--reader", "sim:" + image, "-o", path("9c.pem"))
    check("nfc piv generate 9c on the simulator", result.returncode == 0, result.stderr)
    text = run("openssl", "x509", "-in", path("9c.pem"), "-noout", "-text")
    check("openssl x509 reads the card-signed certificate", text.returncode == 0 and "CN = OpenCoreNFC 9c" in text.stdout,
          text.stderr)
    verify = run("openssl", "verify", "-CAfile", path("9c.pem"), path("9c.pem"))
    check("openssl verify: the card's signature on the certificate is valid", verify.returncode == 0, verify.stdout + verify.stderr)


def check_opensc(env):
    index = opensc_reader_index(env)
    listing = run("pkcs15-tool", "--reader", index, "--list-certificates", env=env)
    check("pkcs15-tool lists the 9a certificate", "Certificate for PIV Authentication" in listing.stdout,
          listing.stdout + listing.stderr)
    read = run("pkcs15-tool", "--reader", index, "--read-certificate", "01", env=env)
    with open(path("opensc-9a.pem"), "w") as out:
        out.write(read.stdout)
    subject = run("openssl", "x509", "-in", path("opensc-9a.pem"), "-noout", "-subject")
    check("pkcs15-tool reads the 9a certificate", "OpenCoreNFC 9a" in subject.stdout, read.stderr + subject.stderr)
    same = run("openssl", "x509", "-in", path("9a.pem")).stdout == run("openssl", "x509", "-in", path("opensc-9a.pem")).stdout
    check("the certificate OpenSC reads is the one nfc stored", same)
    dump = run("pkcs15-tool", "--reader", index, "--dump", env=env)
    chuid = json.loads(run(NFC, "piv", "status", "--json", "--reader", "pcsc:" + READER).stdout)["chuid"]
    check("pkcs15-tool reads the CHUID (its GUID is the card's serial)", chuid["guid"] in dump.stdout, dump.stdout[:400])

    message = path("message.txt")
    with open(message, "wb") as out:
        out.write(b"signed through OpenSC's PKCS#11 module\n")
    digest = path("message.sha256")
    with open(digest, "wb") as out:
        out.write(hashlib.sha256(open(message, "rb").read()).digest())
    signature = path("pkcs11.sig")
    sign = run("pkcs11-tool", "--module", MODULE, "--slot-description", READER, "--login", "--pin", PIN,
               "--sign", "-m", "ECDSA", "--id", "01", "--signature-format", "openssl",
               "-i", digest, "-o", signature, env=env)
    check("pkcs11-tool signs with 9a after login", sign.returncode == 0, sign.stdout + sign.stderr)
    ok, detail = openssl_verify(path("9a.pem"), message, signature)
    check("openssl verifies the pkcs11-tool signature against the certificate", ok, detail)
    bad = run("pkcs11-tool", "--module", MODULE, "--slot-description", READER, "--login", "--pin", "999999",
              "--sign", "-m", "ECDSA", "--id", "01", "-i", digest, "-o", path("bad.sig"), env=env)
    check("pkcs11-tool with a wrong PIN fails", bad.returncode != 0, bad.stdout)
    # yubikit's right PIN below puts the counter back to 3.
    status = json.loads(run(NFC, "piv", "status", "--json", "--reader", "pcsc:" + READER).stdout)["pin"]
    check("the wrong PIN cost one try", status["retries"] == 2, status)


def check_yubikit():
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.exceptions import InvalidSignature
    from ykman.pcsc import list_devices
    from yubikit.core import BadResponseError
    from yubikit.core.smartcard import SmartCardConnection, ApduError
    from yubikit.piv import PivSession, SLOT, KEY_TYPE, OBJECT_ID, MANAGEMENT_KEY_TYPE, DEFAULT_MANAGEMENT_KEY

    # Our own reading of the CHUID, taken before yubikit holds the card exclusively.
    ours = json.loads(run(NFC, "piv", "status", "--json", "--reader", "pcsc:" + READER).stdout)["chuid"]
    devices = list_devices(READER)
    check("ykman.pcsc.list_devices finds our reader", len(devices) == 1, [d.fingerprint for d in devices])
    if not devices:
        return
    with devices[0].open_connection(SmartCardConnection) as connection:
        session = PivSession(connection)
        check("PivSession opens (GET VERSION answers the protocol level)", tuple(session.version) == (4, 0, 0), session.version)
        chuid = session.get_object(OBJECT_ID.CHUID)
        check("yubikit reads the CHUID", bytes.fromhex(ours["guid"]) in chuid and chuid.startswith(b"\x30\x19"), chuid.hex())
        certificates = {}
        for slot, name in ((SLOT.AUTHENTICATION, "9a"), (SLOT.SIGNATURE, "9c")):
            certificate = session.get_certificate(slot)
            expected = x509.load_pem_x509_certificate(open(path(name + ".pem"), "rb").read())
            check("yubikit reads the %s certificate" % name, certificate == expected, certificate.subject)
            certificates[name] = certificate
        message = b"signed through yubikit's PivSession"
        session.verify_pin(PIN)
        check("yubikit sees 3 PIN tries after a right PIN", session.get_pin_attempts() == 3)
        for slot, name in ((SLOT.AUTHENTICATION, "9a"), (SLOT.SIGNATURE, "9c")):
            if name == "9c":
                session.verify_pin(PIN)
            signature = session.sign(slot, KEY_TYPE.ECCP256, message, hashes.SHA256())
            try:
                certificates[name].public_key().verify(signature, message, ec.ECDSA(hashes.SHA256()))
                check("a yubikit %s signature verifies against the certificate" % name, True)
            except InvalidSignature:
                check("a yubikit %s signature verifies against the certificate" % name, False, signature.hex())
        try:
            session.sign(SLOT.SIGNATURE, KEY_TYPE.ECCP256, message, hashes.SHA256())
            check("9c refuses a second signature without the PIN", False, "it signed")
        except ApduError as error:
            check("9c refuses a second signature without the PIN", error.sw == 0x6982, hex(error.sw))

        # yubikit's own AES management-key authentication, key generation and ECDH. yubikit learns
        # the key's type from GET METADATA (YubiKey 5.3+), which this applet does not answer, and
        # then assumes 3DES; tell it the type (docs/piv.md, "GET VERSION").
        session._management_key_type = MANAGEMENT_KEY_TYPE.AES192
        wrong = bytes(24)
        try:
            session.authenticate(wrong)
            check("yubikit: a wrong management key is refused", False, "accepted")
        except (ApduError, BadResponseError):
            check("yubikit: a wrong management key is refused", True)
        session.authenticate(DEFAULT_MANAGEMENT_KEY)
        check("yubikit authenticates with the AES-192 default management key", True)
        card_public = session.generate_key(SLOT.KEY_MANAGEMENT, KEY_TYPE.ECCP256)
        check("yubikit generates a P-256 key in 9d", isinstance(card_public, ec.EllipticCurvePublicKey))
        session.verify_pin(PIN)
        peer = ec.generate_private_key(ec.SECP256R1())
        secret = session.calculate_secret(SLOT.KEY_MANAGEMENT, peer.public_key())
        check("yubikit ECDH with 9d equals the host's", secret == peer.exchange(ec.ECDH(), card_public), secret.hex())


def main():
    image = path("card.json")
    result = run(NFC, "tag", "new", "security-key", "-o", image)
    if result.returncode != 0:
        print("nfc tag new security-key: " + result.stderr, file=sys.stderr)
        return 1
    check_cli_and_openssl(image)
    env = opensc_environment()
    with emulated(image):
        generate = run(NFC, "piv", "generate", "9a", "--pin", PIN, "--subject", "OpenCoreNFC 9a",
                       "--reader", "pcsc:" + READER, "-o", path("9a.pem"))
        check("nfc piv generate 9a over PC/SC", generate.returncode == 0, generate.stderr)
        verify = run("openssl", "verify", "-CAfile", path("9a.pem"), path("9a.pem"))
        check("openssl verify: the 9a certificate made over PC/SC", verify.returncode == 0, verify.stdout + verify.stderr)
        check_opensc(env)
        check_yubikit()
        signed = run(NFC, "piv", "sign", "9a", "--pin", PIN, "--data-hex", "616263", "--output", path("cli.sig"),
                     "--reader", "pcsc:" + READER)
        with open(path("abc.txt"), "wb") as out:
            out.write(b"abc")
        ok, detail = openssl_verify(path("9a.pem"), path("abc.txt"), path("cli.sig"))
        check("nfc piv sign over PC/SC verifies with openssl", signed.returncode == 0 and ok, signed.stderr + detail)
    return checks.finish(EXPECTED_CHECKS)


if __name__ == "__main__":
    sys.exit(main())
