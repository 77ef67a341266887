#!/usr/bin/env python3
"""OATH from outside: yubikey-manager's yubikit library adds, lists and calculates TOTP and
HOTP codes on the OATH applet of an emulated security key (`nfc emulate --pcsc`), and the codes
equal oathtool's for the same secret and time. Then an access code set with our CLI (over
PC/SC) is honoured by yubikit. Every check prints ok/FAIL; any FAIL exits 1.

Environment: NFC (the nfc binary), pcscd with the vpcd reader "Virtual PCD C 00 01" (port
35968), yubikey-manager importable, oathtool on PATH.
"""
import argparse
import base64
import contextlib
import os
import socket
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pcsc"))
import emulation  # noqa: E402
import checks  # noqa: E402

# Checks one transport's run makes (loopback and pcsc alike); fewer means part of it did not run.
EXPECTED_CHECKS = 22
from checks import check, failures  # noqa: E402

from ykman.pcsc import list_devices  # noqa: E402
from yubikit.core import TRANSPORT  # noqa: E402
from yubikit.core.smartcard import ApduError, SmartCardConnection  # noqa: E402
from yubikit.oath import HASH_ALGORITHM, OATH_TYPE, CredentialData, OathSession  # noqa: E402

NFC = os.environ.get("NFC", ".build/debug/nfc")
READER = "Virtual PCD C 00 01"
VPCD = "127.0.0.1:35968"
# "pcsc": through pcscd + vpcd on READER; "loopback": yubikit over the vpcd wire protocol
# straight to `nfc emulate` (no pcscd), see LoopbackConnection.
TRANSPORT_MODE = "pcsc"
WORK = tempfile.mkdtemp(prefix="opencorenfc-oath-")

# The RFC 6238 Appendix B seeds, and a random secret of our own.
SEED_SHA1 = b"12345678901234567890"
SEED_SHA256 = b"12345678901234567890123456789012"
SEED_SHA512 = SEED_SHA256 * 2
RANDOM_SECRET = os.urandom(20)
TIMES = [59, 1111111109, 1234567890, 2000000000, 20000000000]



def nfc(*args):
    return subprocess.run([NFC, *args], capture_output=True, text=True, timeout=60)


def b32(secret):
    return base64.b32encode(secret).decode().rstrip("=")


def oathtool(*args):
    result = subprocess.run(["oathtool", *args], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise RuntimeError("oathtool %s: %s" % (" ".join(args), result.stderr.strip()))
    return result.stdout.strip()


def oathtool_totp(secret, time, digits=6, period=30, algorithm="sha1"):
    return oathtool("--totp=" + algorithm, "-b", "-d", str(digits), "-s", "%ds" % period, "-N", "@%d" % time, b32(secret))


def oathtool_hotp(secret, counter, digits=6):
    return oathtool("--hotp", "-b", "-d", str(digits), "-c", str(counter), b32(secret))


class LoopbackConnection(SmartCardConnection):
    """A yubikit SmartCardConnection that is vpcd's end of the vpcd protocol (each message a
    2-byte big-endian length and a payload; 1-byte payloads 01 power on, 04 get ATR) on a
    private port: `nfc emulate --vpcd` connects to it, no pcscd in between."""

    def __init__(self, listener, deadline=15):
        listener.settimeout(deadline)
        self.sock, _ = listener.accept()
        self.sock.settimeout(30)
        self._send(b"\x01")
        self._send(b"\x04")
        self.atr = self._receive()

    def _send(self, payload):
        self.sock.sendall(struct.pack(">H", len(payload)) + payload)

    def _receive_exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise IOError("the emulator closed the vpcd connection")
            data += chunk
        return data

    def _receive(self):
        (length,) = struct.unpack(">H", self._receive_exactly(2))
        return self._receive_exactly(length)

    @property
    def transport(self):
        return TRANSPORT.NFC

    def send_and_receive(self, apdu):
        self._send(bytes(apdu))
        response = self._receive()
        if len(response) < 2:
            raise IOError("a response of %d bytes" % len(response))
        return response[:-2], response[-2] << 8 | response[-1]

    def close(self):
        self.sock.close()


_loopback = {}


class _KeptOpen(SmartCardConnection):
    """The loopback connection for code that closes what it opens (ykman)."""

    def __init__(self, connection):
        self._connection = connection

    @property
    def transport(self):
        return self._connection.transport

    def send_and_receive(self, apdu):
        return self._connection.send_and_receive(apdu)

    def close(self):
        pass


def ykman_loopback(*args):
    """Runs the ykman command line in this process with its PC/SC reader list replaced by one
    reader whose connection is the loopback one. Returns (exit code, output)."""
    import ykman.pcsc as pcsc
    from click.testing import CliRunner
    from ykman._cli.__main__ import cli

    class Reader:
        name = "OpenCoreNFC loopback"

    saved = (pcsc.list_readers, pcsc.ScardYubiKeyDevice._open_smartcard_connection)
    pcsc.list_readers = lambda: [Reader()]
    pcsc.ScardYubiKeyDevice._open_smartcard_connection = lambda self, retry=True: _KeptOpen(_loopback["connection"])
    try:
        result = CliRunner().invoke(cli, ["--reader", Reader.name, *args], catch_exceptions=True)
        return result.exit_code, result.output + (repr(result.exception) if result.exception and result.exit_code else "")
    finally:
        pcsc.list_readers, pcsc.ScardYubiKeyDevice._open_smartcard_connection = saved


@contextlib.contextmanager
def emulated(image):
    """`nfc emulate` of IMAGE until the block ends (the image is saved when it stops)."""
    if TRANSPORT_MODE == "loopback":
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        process = subprocess.Popen([NFC, "emulate", "--image", image, "--pcsc", "--vpcd", "127.0.0.1:%d" % port],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _loopback["connection"] = LoopbackConnection(listener)
            yield process
        finally:
            connection = _loopback.pop("connection", None)
            if connection:
                connection.close()
            listener.close()
            emulation.stop(process)
        return
    with emulation.emulated(NFC, image, READER, "--vpcd", VPCD) as process:
        yield process


@contextlib.contextmanager
def oath_session():
    if TRANSPORT_MODE == "loopback":
        # One card connection for the emulator's life: SELECT starts each session afresh.
        yield OathSession(_loopback["connection"])
        return
    devices = list_devices(READER)
    if len(devices) != 1:
        raise RuntimeError("ykman.pcsc.list_devices(%r) found %d readers" % (READER, len(devices)))
    with devices[0].open_connection(SmartCardConnection) as connection:
        yield OathSession(connection)


def test_codes(image):
    with emulated(image):
        with oath_session() as session:
            check("yubikit: SELECT parsed (version %s, no access code)" % (session.version,),
                  tuple(session.version) == (5, 3, 1) and not session.locked and not session.has_key)
            put = [
                (CredentialData("alice@example.com", OATH_TYPE.TOTP, HASH_ALGORITHM.SHA1, SEED_SHA1, digits=8, issuer="RFC6238"), False),
                (CredentialData("sha256", OATH_TYPE.TOTP, HASH_ALGORITHM.SHA256, SEED_SHA256, digits=8, issuer="RFC6238"), False),
                (CredentialData("sha512", OATH_TYPE.TOTP, HASH_ALGORITHM.SHA512, SEED_SHA512, digits=8, issuer="RFC6238"), False),
                (CredentialData("random", OATH_TYPE.TOTP, HASH_ALGORITHM.SHA1, RANDOM_SECRET, digits=6, period=60), False),
                (CredentialData("touch", OATH_TYPE.TOTP, HASH_ALGORITHM.SHA256, RANDOM_SECRET, digits=7), True),
                (CredentialData("counter", OATH_TYPE.HOTP, HASH_ALGORITHM.SHA1, SEED_SHA1, digits=6, issuer="RFC4226"), False),
                (CredentialData("from5", OATH_TYPE.HOTP, HASH_ALGORITHM.SHA1, RANDOM_SECRET, digits=8, counter=5), False),  # oathtool: HOTP is SHA-1 only
            ]
            credentials = {}
            for data, touch in put:
                credentials[data.name] = session.put_credential(data, touch)
            listed = session.list_credentials()
            check("yubikit: list_credentials shows the 7 credentials with issuer, name, type and period",
                  sorted((c.issuer or "", c.name, c.oath_type, c.period) for c in listed)
                  == sorted((d.issuer or "", d.name, d.oath_type, d.period if d.oath_type == OATH_TYPE.TOTP else 0) for d, _ in put),
                  repr(listed))

            # TOTP: calculate_all and calculate_code equal oathtool's at several times.
            algorithms = {"alice@example.com": ("sha1", SEED_SHA1, 8, 30), "sha256": ("sha256", SEED_SHA256, 8, 30),
                          "sha512": ("sha512", SEED_SHA512, 8, 30), "random": ("sha1", RANDOM_SECRET, 6, 60),
                          "touch": ("sha256", RANDOM_SECRET, 7, 30)}
            for time in TIMES:
                entries = session.calculate_all(time)
                got = {c.name: (code.value if code else None) for c, code in entries.items()}
                want = {name: oathtool_totp(secret, time, digits, period, algorithm)
                        for name, (algorithm, secret, digits, period) in algorithms.items() if name != "touch"}
                check("yubikit calculate_all at %d: TOTP codes equal oathtool's (%d codes)" % (time, len(want)),
                      all(got.get(name) == code for name, code in want.items())
                      and got.get("touch") is None and got.get("counter") is None,
                      "got %r, oathtool %r" % (got, want))
                touch = session.calculate_code(credentials["touch"], time).value
                check("yubikit calculate_code (touch credential, touch treated as given) at %d equals oathtool" % time,
                      touch == oathtool_totp(RANDOM_SECRET, time, 7, 30, "sha256"), touch)

            # HOTP: successive codes follow the counter, as oathtool's -c N.
            hotp = [session.calculate_code(credentials["counter"]).value for _ in range(10)]
            check("yubikit HOTP codes 0–9 equal oathtool --hotp -c 0…9 (RFC 4226 Appendix D)",
                  hotp == [oathtool_hotp(SEED_SHA1, n) for n in range(10)], repr(hotp))
            from5 = [session.calculate_code(credentials["from5"]).value for _ in range(3)]
            check("yubikit HOTP with an initial counter of 5 equals oathtool -c 5…7",
                  from5 == [oathtool_hotp(RANDOM_SECRET, n, 8) for n in (5, 6, 7)], repr(from5))

            session.delete_credential(credentials["random"].id)
            renamed = session.rename_credential(credentials["sha512"].id, "renamed", "Issuer")
            names = sorted(c.id for c in session.list_credentials())
            check("yubikit delete_credential and rename_credential",
                  b"60/random" not in names and renamed in names and b"RFC6238:sha512" not in names, repr(names))

    # The image was saved when the emulator stopped: the simulator sees the same credentials
    # and the HOTP counter where yubikit left it.
    saved = nfc("oath", "code", "counter", "--reader", "sim:" + image)
    check("the saved image continues the HOTP counter (code 10 equals oathtool -c 10)",
          saved.returncode == 0 and saved.stdout.split()[-1:] == [oathtool_hotp(SEED_SHA1, 10)],
          saved.stdout + saved.stderr)


def test_access_code(image):
    password = "opencorenfc test"
    pcsc = "pcsc:" + READER
    if TRANSPORT_MODE == "loopback":
        # No PC/SC reader: our CLI sets the code on the image the emulator then serves.
        result = nfc("oath", "password", "--new", password, "--reader", "sim:" + image)
        check("nfc oath password --new on the image", result.returncode == 0, result.stderr.strip())
    with emulated(image):
        if TRANSPORT_MODE == "pcsc":
            result = nfc("oath", "password", "--new", password, "--reader", pcsc)
            check("nfc oath password --new over PC/SC", result.returncode == 0, result.stderr.strip())
        with oath_session() as session:
            locked = session.locked and session.has_key
            try:
                session.list_credentials()
                refused = False
            except ApduError as error:
                refused = error.sw == 0x6982
            check("yubikit: with our access code set, the session is locked and LIST gets 6982", locked and refused)
            try:
                session.validate(session.derive_key("wrong"))
                wrong = "accepted"
            except ApduError as error:
                wrong = "%04x" % error.sw
            check("yubikit: a wrong password is refused with 6A80", wrong == "6a80", wrong)
        with oath_session() as session:
            session.validate(session.derive_key(password))
            entries = session.calculate_all(59)
            code = {c.name: v.value for c, v in entries.items() if v}.get("alice@example.com")
            check("yubikit validate(derive_key(password)) unlocks; codes still equal oathtool's",
                  code == oathtool_totp(SEED_SHA1, 59, 8), repr(code))
        if TRANSPORT_MODE == "pcsc":
            ours = nfc("oath", "code", "RFC6238:alice@example.com", "--time", "1234567890", "--reader", pcsc, "--password", password)
            check("nfc oath code --password over PC/SC equals oathtool",
                  ours.returncode == 0 and ours.stdout.split()[-1:] == [oathtool_totp(SEED_SHA1, 1234567890, 8)],
                  ours.stdout + ours.stderr)
            # ykman's command line identifies the device first: no management application
            # answers, so it scans for applications, finds OATH and goes on (no serial, a
            # guessed firmware version) — our card claims no YubiKey identity (docs/oath.md).
            ykman = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ykman"), "--reader", READER, "oath", "accounts", "list",
                                    "--password", password], capture_output=True, text=True, timeout=60)
            said = (ykman.stdout + ykman.stderr).strip()
            check("the ykman command lists our accounts (it identifies the card by its applications)",
                  ykman.returncode == 0 and "RFC6238:alice@example.com" in ykman.stdout, said[-300:])
        if TRANSPORT_MODE == "loopback":
            code, said = ykman_loopback("oath", "accounts", "list", "--password", password)
            check("the ykman command lists our accounts (it identifies the card by its applications)",
                  code == 0 and "RFC6238:alice@example.com" in said, said[-300:])
    if TRANSPORT_MODE == "loopback":
        ours = nfc("oath", "code", "RFC6238:alice@example.com", "--time", "1234567890", "--reader", "sim:" + image, "--password", password)
        check("nfc oath code --password on the saved image equals oathtool",
              ours.returncode == 0 and ours.stdout.split()[-1:] == [oathtool_totp(SEED_SHA1, 1234567890, 8)],
              ours.stdout + ours.stderr)


def main():
    global TRANSPORT_MODE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transport", choices=["pcsc", "loopback"], default="pcsc")
    TRANSPORT_MODE = parser.parse_args().transport
    print("transport: %s" % (TRANSPORT_MODE if TRANSPORT_MODE == "loopback" else "pcscd + vpcd, reader " + READER), flush=True)
    image = os.path.join(WORK, "security-key.json")
    made = nfc("tag", "new", "security-key", "-o", image, "--force")
    if made.returncode != 0:
        print("FAIL  nfc tag new security-key: " + made.stderr)
        return 1
    for test in (test_codes, test_access_code):
        try:
            test(image)
        except Exception as error:  # any failure of the outside tools is a failed check
            check(test.__name__, False, repr(error))
    return checks.finish(EXPECTED_CHECKS)


if __name__ == "__main__":
    sys.exit(main())
