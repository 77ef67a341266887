#!/usr/bin/env python3
"""FIDO outside check: python-fido2 drives our emulated security key through pcscd + vpcd.

`nfc emulate --pcsc --vpcd 127.0.0.1:35969` serves a fresh `security-key` image as the card in
reader "Virtual PCD D 00 00"; python-fido2's PC/SC transport must list it, then CTAP2 (get_info,
make_credential, get_assertion; without and with a PIN; through Ctap2 and through Fido2Client +
Fido2Server) and U2F (Ctap1 register/authenticate) must succeed with signatures that verify, both
by python-fido2 and by `cryptography` directly. Any failed check exits non-zero.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pcsc"))
import emulation  # noqa: E402

from cryptography.exceptions import InvalidSignature  # noqa: E402
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from fido2.attestation import AttestationType, PackedAttestation  # noqa: E402
from fido2.client import DefaultClientDataCollector, Fido2Client, UserInteraction  # noqa: E402
from fido2.ctap import CtapError  # noqa: E402
from fido2.ctap1 import ApduError, Ctap1  # noqa: E402
from fido2.ctap2 import Ctap2  # noqa: E402
from fido2.ctap2.pin import ClientPin, PinProtocolV2  # noqa: E402
from fido2.pcsc import CtapPcscDevice  # noqa: E402
from fido2.server import Fido2Server  # noqa: E402
from fido2.webauthn import PublicKeyCredentialRpEntity, PublicKeyCredentialUserEntity  # noqa: E402

NFC = os.environ.get("NFC", "nfc")
READER = os.environ.get("FIDO_READER", "Virtual PCD D 00 00")
VPCD = os.environ.get("FIDO_VPCD", "127.0.0.1:35969")
AAGUID = b"OpenCoreNFC-FIDO"

failures = []
passed = 0
# Checks a whole run makes; fewer means part of it did not run.
EXPECTED_CHECKS = 60


def check(condition, what):
    global passed
    if condition:
        passed += 1
        print("ok   " + what)
    else:
        failures.append(what)
        print("FAIL " + what)


def expect_ctap_error(code, what, body):
    try:
        body()
        check(False, what + " (no error)")
    except CtapError as error:
        check(error.code == code, "%s: %s" % (what, error.code.name))


def emulated(image):
    """`nfc emulate` of IMAGE in our reader until the block ends (Integration/pcsc/emulation.py)."""
    return emulation.emulated(NFC, image, READER, "--vpcd", VPCD)


def device():
    devices = [d for d in CtapPcscDevice.list_devices(READER) if repr(d) == "CtapPcscDevice(%s)" % READER]
    check(len(devices) == 1, "CtapPcscDevice.list_devices lists our card in %s" % READER)
    if not devices:
        raise RuntimeError("no FIDO device in " + READER)
    return devices[0]


def verify_with_cryptography(cose_key, message, signature):
    """ES256 verification without python-fido2: x/y from the COSE key, ECDSA P-256 SHA-256."""
    numbers = ec.EllipticCurvePublicNumbers(int.from_bytes(cose_key[-2], "big"), int.from_bytes(cose_key[-3], "big"),
                                            ec.SECP256R1())
    try:
        numbers.public_key().verify(signature, message, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def ctap2_round(ctap, rp_id, pin=None):
    """make_credential + get_assertion with Ctap2; with PIN, a pinUvAuthToken from ClientPin."""
    label = " with PIN" if pin else ""
    protocol = PinProtocolV2()
    token = None
    if pin:
        client_pin = ClientPin(ctap, protocol)
        token = client_pin.get_pin_token(pin, ClientPin.PERMISSION.MAKE_CREDENTIAL | ClientPin.PERMISSION.GET_ASSERTION, rp_id)

    def pin_args(cdh):
        return {"pin_uv_param": protocol.authenticate(token, cdh), "pin_uv_protocol": protocol.VERSION} if token else {}

    cdh = hashlib.sha256(b"create" + rp_id.encode()).digest()
    attestation = ctap.make_credential(cdh, {"id": rp_id, "name": "Example"}, {"id": b"user-1", "name": "alice"},
                                       [{"type": "public-key", "alg": -7}], options={"rk": True}, **pin_args(cdh))
    check(attestation.fmt == "packed", "make_credential%s: fmt packed" % label)
    try:
        result = PackedAttestation().verify(attestation.att_stmt, attestation.auth_data, cdh)
        check(result.attestation_type == AttestationType.SELF, "make_credential%s: self attestation" % label)
        check(True, "make_credential%s: python-fido2 verifies the packed self attestation" % label)
    except Exception as error:  # noqa: BLE001
        check(False, "make_credential%s: attestation verification: %r" % (label, error))
    auth_data = attestation.auth_data
    credential = auth_data.credential_data
    check(auth_data.rp_id_hash == hashlib.sha256(rp_id.encode()).digest(), "make_credential%s: rpIdHash" % label)
    check(credential.aaguid == AAGUID, "make_credential%s: AAGUID" % label)
    check(auth_data.is_user_present() and bool(auth_data.is_user_verified()) == bool(pin),
          "make_credential%s: flags UP%s" % (label, " UV" if pin else ", no UV"))
    check(verify_with_cryptography(credential.public_key, bytes(auth_data) + cdh, attestation.att_stmt["sig"]),
          "make_credential%s: cryptography verifies the attestation signature" % label)

    challenge = hashlib.sha256(b"get" + rp_id.encode()).digest()
    for allow in (True, False):
        how = "allow list" if allow else "resident"
        allow_list = [{"type": "public-key", "id": credential.credential_id}] if allow else None
        assertion = ctap.get_assertion(rp_id, challenge, allow_list, **pin_args(challenge))
        try:
            assertion.verify(challenge, credential.public_key)
            check(True, "get_assertion%s (%s): python-fido2 verifies the signature" % (label, how))
        except Exception as error:  # noqa: BLE001
            check(False, "get_assertion%s (%s): %r" % (label, how, error))
        check(verify_with_cryptography(credential.public_key, bytes(assertion.auth_data) + challenge, assertion.signature),
              "get_assertion%s (%s): cryptography verifies the signature" % (label, how))
        check(not verify_with_cryptography(credential.public_key, bytes(assertion.auth_data) + cdh, assertion.signature),
              "get_assertion%s (%s): the signature does not verify for another challenge" % (label, how))
        check(assertion.auth_data.counter > auth_data.counter, "get_assertion%s (%s): the counter rose" % (label, how))
        if not allow:
            check(assertion.user and assertion.user["id"] == b"user-1", "get_assertion%s (resident): user handle" % label)


def outside_edges(dev, ctap):
    """A request over 250 bytes (python-fido2 chains it with CLA 90) and non-canonical CBOR."""
    exclude = [{"type": "public-key", "id": bytes([i]) * 60} for i in range(6)]
    cdh = hashlib.sha256(b"chained").digest()
    attestation = ctap.make_credential(cdh, {"id": "chain.example"}, {"id": b"u" * 64, "name": "n" * 64},
                                       [{"type": "public-key", "alg": -7}], exclude_list=exclude)
    PackedAttestation().verify(attestation.att_stmt, attestation.auth_data, cdh)
    check(True, "make_credential of %d bytes, chained by python-fido2, succeeds and verifies" % (32 + 60 * 6 + 128))
    # Map keys 2 then 1: not canonical, CTAP2_ERR_INVALID_CBOR.
    answer = dev.call(0x10, b"\x01\xa2\x02\x00\x01\x00")
    check(answer == b"\x12", "non-canonical CBOR is answered CTAP2_ERR_INVALID_CBOR (got %s)" % answer.hex())


class PinInteraction(UserInteraction):
    def __init__(self, pin):
        self.pin = pin

    def request_pin(self, permissions, rd_id):
        return self.pin


def webauthn_round(dev, pin=None):
    """Fido2Client (WebAuthn client) against Fido2Server (relying party): register, authenticate."""
    label = " with PIN" if pin else ""
    server = Fido2Server(PublicKeyCredentialRpEntity(id="example.com", name="Example"), attestation="direct")
    client = Fido2Client(dev, DefaultClientDataCollector("https://example.com"),
                         user_interaction=PinInteraction(pin) if pin else UserInteraction())
    user = PublicKeyCredentialUserEntity(id=b"webauthn-user", name="bob")
    uv = "required" if pin else "discouraged"
    options, state = server.register_begin(user, user_verification=uv)
    result = client.make_credential(options.public_key)
    credential = server.register_complete(state, result).credential_data
    check(credential.aaguid == AAGUID, "Fido2Client.make_credential%s: Fido2Server accepts the registration" % label)
    options, state = server.authenticate_begin([credential], user_verification=uv)
    selection = client.get_assertion(options.public_key)
    server.authenticate_complete(state, [credential], selection.get_response(0))
    check(True, "Fido2Client.get_assertion%s: Fido2Server verifies the assertion" % label)


def u2f_round(dev):
    ctap1 = Ctap1(dev)
    check(ctap1.get_version() == "U2F_V2", "Ctap1.get_version: U2F_V2")
    app = hashlib.sha256(b"https://u2f.example").digest()
    challenge = hashlib.sha256(b"register").digest()
    registration = ctap1.register(challenge, app)
    try:
        registration.verify(app, challenge)
        check(True, "Ctap1.register: python-fido2 verifies the attestation (self-signed certificate)")
    except Exception as error:  # noqa: BLE001
        check(False, "Ctap1.register: %r" % (error,))
    login = hashlib.sha256(b"login").digest()
    try:
        ctap1.authenticate(login, app, registration.key_handle, check_only=True)
        check(False, "Ctap1.authenticate check-only answers 6985")
    except ApduError as error:
        check(error.code == 0x6985, "Ctap1.authenticate check-only answers 6985 (got %04X)" % error.code)
    signature = ctap1.authenticate(login, app, registration.key_handle)
    try:
        signature.verify(app, login, registration.public_key)
        check(True, "Ctap1.authenticate: python-fido2 verifies the signature")
    except Exception as error:  # noqa: BLE001
        check(False, "Ctap1.authenticate: %r" % (error,))
    point = registration.public_key
    cose = {-2: point[1:33], -3: point[33:65]}
    message = app + bytes([signature.user_presence]) + signature.counter.to_bytes(4, "big") + login
    check(verify_with_cryptography(cose, message, signature.signature), "Ctap1.authenticate: cryptography verifies the signature")
    try:
        ctap1.authenticate(login, hashlib.sha256(b"other").digest(), registration.key_handle)
        check(False, "Ctap1.authenticate refuses another application's key handle")
    except ApduError as error:
        check(error.code == 0x6A80, "Ctap1.authenticate refuses another application's key handle (6A80)")


def cli_round(work):
    """`nfc fido` over PC/SC on the same card, cross-checked by python-fido2 and cryptography."""
    key_file = os.path.join(work, "cli-credential.json")
    register = subprocess.run([NFC, "fido", "register", "--reader", READER, "--rp", "cli.example", "--user", "carol",
                               "--pin", "4321", "-o", key_file, "--json"], capture_output=True, text=True)
    check(register.returncode == 0, "nfc fido register over PC/SC (%s)" % register.stderr.strip())
    if register.returncode != 0:
        return
    registered = json.loads(register.stdout)
    # The PIN as a printed value or field, not as a substring: the credential ID and the public
    # key are random hex, which holds "4321" about once in two hundred runs.
    printed = [value for value in registered.values() if isinstance(value, str)]
    check(registered["flags"] == ["UP", "UV", "AT"] and "4321" not in printed
          and not any("pin" in key.lower() for key in registered) and '"4321"' not in register.stdout,
          "nfc fido register --pin: UV set, the PIN not printed (flags %r)" % (registered.get("flags"),))
    dev = device()
    challenge = hashlib.sha256(b"cli cross-check").digest()
    assertion = Ctap2(dev).get_assertion("cli.example", challenge,
                                         [{"type": "public-key", "id": bytes.fromhex(registered["credentialId"])}])
    point = bytes.fromhex(registered["publicKey"])
    check(verify_with_cryptography({-2: point[1:33], -3: point[33:65]}, bytes(assertion.auth_data) + challenge,
                                   assertion.signature),
          "python-fido2's assertion for the CLI's credential verifies with the public key nfc printed")
    dev.close()
    asserted = subprocess.run([NFC, "fido", "assert", "--reader", READER, "--key-file", key_file, "--json"],
                              capture_output=True, text=True)
    check(asserted.returncode == 0 and json.loads(asserted.stdout)["signatureCounter"] > assertion.auth_data.counter,
          "nfc fido assert over PC/SC verifies, and the counter moved on (%s)" % asserted.stderr.strip())


def main():
    with tempfile.TemporaryDirectory() as work:
        image = os.path.join(work, "key.json")
        made = subprocess.run([NFC, "tag", "new", "security-key", "-o", image], capture_output=True, text=True)
        if made.returncode != 0:
            raise RuntimeError("nfc tag new security-key: " + made.stderr.strip())
        with emulated(image):
            dev = device()
            ctap = Ctap2(dev)
            info = ctap.get_info()
            check("FIDO_2_0" in info.versions and "U2F_V2" in info.versions, "get_info: versions %s" % info.versions)
            check(info.aaguid == AAGUID, "get_info: AAGUID")
            check(info.options.get("clientPin") is False and info.options.get("rk") is True, "get_info: options %s" % info.options)
            check(info.pin_uv_protocols == [2], "get_info: pinUvAuthProtocols [2]")
            ctap2_round(ctap, "example.org")
            outside_edges(dev, ctap)
            webauthn_round(dev)
            u2f_round(dev)

            client_pin = ClientPin(ctap, PinProtocolV2())
            client_pin.set_pin("4321")
            check(ctap.get_info().options.get("clientPin") is True, "ClientPin.set_pin: clientPin is now true")
            check(client_pin.get_pin_retries()[0] == 8, "ClientPin.get_pin_retries: 8")
            expect_ctap_error(CtapError.ERR.PUAT_REQUIRED, "make_credential without a token once a PIN is set",
                              lambda: ctap.make_credential(b"\0" * 32, {"id": "example.net"}, {"id": b"u"},
                                                           [{"type": "public-key", "alg": -7}]))
            expect_ctap_error(CtapError.ERR.PIN_INVALID, "get_pin_token with a wrong PIN",
                              lambda: client_pin.get_pin_token("0000"))
            check(client_pin.get_pin_retries()[0] == 7, "a wrong PIN spends a retry (7 left)")
            ctap2_round(ctap, "example.net", pin="4321")
            check(client_pin.get_pin_retries()[0] == 8, "a right PIN restores the retries (8)")
            webauthn_round(dev, pin="4321")
            dev.close()
            cli_round(work)
    if passed + len(failures) < EXPECTED_CHECKS:
        failures.append("ran %d checks, expected at least %d" % (passed + len(failures), EXPECTED_CHECKS))
    print("%d checks passed, %d failed (at least %d expected)" % (passed, len(failures), EXPECTED_CHECKS))
    if failures:
        for failure in failures:
            print("FAILED: " + failure)
        sys.exit(1)


if __name__ == "__main__":
    main()
