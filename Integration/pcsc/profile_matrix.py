"""docs/readers.md's support matrix, cell by cell, through pcscd + vpcd: for every reader profile
the card is behind that emulated reader (`nfc emulate --pcsc --reader-profile P`) and `nfc` works
it as a user would — format and lock, password protection of an NTAG216, the 2 KB ISO 15693
tag's extended commands (blocks past 255), and the authenticators (OATH, FIDO2, PIV). Each cell
either works, checked against the simulator's result or a third-party tool (oathtool, Python
cryptography), or fails with an error naming the reader and what it lacks, the tag untouched.

The profiles' capabilities are written out here from docs/readers.md, not read from the code,
so a profile that gained or lost one shows up as a failed check. 97 checks."""
import json
import os
import subprocess

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

import emulation

# (profile, emulate options, client options, model as errors name it, carries native commands,
#  sees ISO 15693, reads and writes FeliCa). The readers recognised by name only (vpcd's name
# tells nothing) are given to the client; the ACR122U and the OMNIKEYs are probed.
PROFILES = [
    ("generic", [], [], '"Virtual PCD 00 00"', True, True, True),
    ("basic", ["--basic-reader"], [], '"Virtual PCD 00 00"', False, True, False),
    ("acr122u", ["--reader-profile", "acr122u"], [], "ACS ACR122U", True, False, True),
    ("acr1252u", ["--reader-profile", "acr1252u"], ["--reader-profile", "acr1252u"], "ACS ACR1252U", True, False, True),
    ("acr1552u", ["--reader-profile", "acr1552u"], ["--reader-profile", "acr1552u"], "ACS ACR1552U", True, True, True),
    ("omnikey5022", ["--reader-profile", "omnikey5022"], [], "HID OMNIKEY 5022", False, True, False),
    ("omnikey5427", ["--reader-profile", "omnikey5427"], [], "HID OMNIKEY 5427 CK", False, True, False),
    ("utrust3700f", ["--reader-profile", "utrust3700f"], ["--reader-profile", "utrust3700f"], "Identiv uTrust 3700 F", False,
     False, True),
]

PASSWORD = "a1b2c3d4"
OATH_SECRET = "JBSWY3DPEHPK3PXP"
LONG_TEXT = "2 KB tag, block numbers past 255: " + "0123456789" * 150  # about 1,540 bytes of NDEF


def run(nfc, new_image, copy, dump, check, reader):
    """NEW_IMAGE, COPY and DUMP are test_pcsc.py's: a fresh image, a copy of one, its memory."""
    pcsc = "pcsc:" + reader

    def tool(*args):
        return subprocess.run([nfc, *args], capture_output=True, text=True, timeout=120)

    def sim_copy(image, name):
        return copy(image, os.path.splitext(os.path.basename(image))[0] + "-" + name + "-sim")

    def refusal(result, model, *needles):
        """A failed command whose error names the reader's model and every needle."""
        text = result.stderr
        return result.returncode not in (0, 64) and model in text and all(needle in text for needle in needles)

    for profile, emulate, client, model, native, iso15693, felica in PROFILES:
        label = "matrix, %s" % profile

        def emulated(image):
            return emulation.emulated(nfc, image, reader, *emulate)

        def on_reader(*args):
            return tool(*args, "--reader", pcsc, *client)

        # Format, then lock, a blank tag of every family the reader sees.
        kinds = ["ntag216"] + (["felica-lite-s"] if felica else []) + (["iso15693-2k"] if iso15693 else [])
        for kind in kinds:
            blank = new_image(kind, "%s-%s-blank" % (profile, kind), blank=True)
            simulated = sim_copy(blank, "format")
            tool("format", "--reader", "sim:" + simulated)
            tool("lock", "--reader", "sim:" + simulated)
            before = dump(blank)
            with emulated(blank):
                formatted = on_reader("format")
                locked = on_reader("lock") if formatted.returncode == 0 else None
                refused = on_reader("write", "--text", "after lock") if formatted.returncode == 0 else None
            needs_native = kind in ("ntag216", "iso15693-2k") and not native
            if needs_native:
                needle = "GET_VERSION" if kind == "ntag216" else "Get System Information"
                check("%s: formatting a blank %s fails naming the reader and %s; nothing written" % (label, kind, needle),
                      refusal(formatted, model, needle, "READ and WRITE only") and dump(blank) == before,
                      formatted.stderr.strip())
            else:
                check("%s: format + lock of a blank %s equal the simulator's" % (label, kind),
                      formatted.returncode == 0 and locked.returncode == 0 and dump(blank) == dump(simulated),
                      "format: %s / lock: %s" % (formatted.stderr.strip(), locked.stderr.strip() if locked else "-"))
                check("%s: a write to the locked %s is refused with a reason" % (label, kind),
                      refused.returncode != 0 and "readOnly" in refused.stderr, refused.stderr.strip())
        if not native:
            # Locking needs the NTAG's dynamic lock bytes, which only GET_VERSION places; an ISO
            # 15693 tag locks through WRITE alone.
            image = new_image("ntag216", "%s-lock" % profile)
            before = dump(image)
            with emulated(image):
                locked = on_reader("lock")
            check("%s: locking an NTAG216 fails naming the reader and GET_VERSION; nothing written" % label,
                  refusal(locked, model, "GET_VERSION") and dump(image) == before, locked.stderr.strip())
            if iso15693:
                image = new_image("iso15693-2k", "%s-lock-2k" % profile)
                simulated = sim_copy(image, "lock")
                tool("lock", "--reader", "sim:" + simulated)
                with emulated(image):
                    locked = on_reader("lock")
                check("%s: lock of a formatted 2 KB ISO 15693 tag equals the simulator's" % label,
                      locked.returncode == 0 and dump(image) == dump(simulated), locked.stderr.strip())

        # Password protection of an NTAG216: PWD_AUTH needs native commands.
        image = new_image("ntag216", "%s-password" % profile)
        simulated = sim_copy(image, "password")
        before = dump(image)
        if native:
            tool("protect", "--reader", "sim:" + simulated, "--password", PASSWORD)
            tool("write", "--reader", "sim:" + simulated, "--password", PASSWORD, "--text", "behind a password")
        with emulated(image):
            protected = on_reader("protect", "--password", PASSWORD)
            unauthorised = on_reader("write", "--text", "no password") if native else None
            written = on_reader("write", "--password", PASSWORD, "--text", "behind a password")
            read = on_reader("read", "--json")
        if native:
            check("%s: protect, then write with the password, equal the simulator's" % label,
                  protected.returncode == 0 and written.returncode == 0 and dump(image) == dump(simulated),
                  "protect: %s / write: %s" % (protected.stderr.strip(), written.stderr.strip()))
            check("%s: right after protect, a write without the password is refused (the tag NAKs; --password named)" % label,
                  unauthorised.returncode != 0 and "--password" in unauthorised.stderr, unauthorised.stderr.strip())
            check("%s: the protected tag still reads (writes only protected)" % label,
                  read.returncode == 0 and "behind a password" in read.stdout, read.stderr.strip())
            with emulated(image):
                removed = on_reader("unprotect", "--password", PASSWORD)
                after = on_reader("write", "--text", "open again")
            check("%s: unprotect, then a write without the password works" % label,
                  removed.returncode == 0 and after.returncode == 0, "%s / %s" % (removed.stderr.strip(), after.stderr.strip()))
        else:
            check("%s: protect fails naming the reader and what it lacks; nothing written" % label,
                  refusal(protected, model, "READ and WRITE only") and dump(image) == before, protected.stderr.strip())
            check("%s: a write with a password fails naming the reader and PWD_AUTH" % label,
                  refusal(written, model, "PWD_AUTH"), written.stderr.strip())

        # The 2 KB ISO 15693 tag (ST25DV16K): a message past block 255 needs the extended commands.
        image = new_image("iso15693-2k", "%s-2k" % profile)
        if iso15693:
            simulated = sim_copy(image, "2k")
            tool("write", "--reader", "sim:" + simulated, "--text", LONG_TEXT)
            with emulated(image):
                written = on_reader("write", "--text", LONG_TEXT)
                read = on_reader("read", "--json")
            try:
                texts = [record.get("text") for record in json.loads(read.stdout)["records"]]
            except (ValueError, KeyError, TypeError):
                texts = ["unreadable: " + read.stderr.strip()]
            check("%s: a 1.5 KB message on the 2 KB ISO 15693 tag reads back whole" % label,
                  written.returncode == 0 and texts == [LONG_TEXT], "write: %s / read: %r" % (written.stderr.strip(), texts)[:300])
            check("%s: the 2 KB tag's memory after the write equals the simulator's" % label, dump(image) == dump(simulated),
                  "dumps differ")
        else:
            refused = subprocess.run([nfc, "emulate", "--image", image, "--pcsc", *emulate], capture_output=True, text=True,
                                     timeout=30)
            check("%s: the reader sees no ISO 15693 tag (nfc emulate says so)" % label,
                  refused.returncode != 0 and "ISO/IEC 15693" in refused.stderr, refused.stderr.strip())

        # The authenticators, over the reader's APDU path (short APDUs only on the ACR122U).
        key = new_image("security-key", "%s-key" % profile)
        with emulated(key):
            added = on_reader("oath", "add", "matrix@example.org", "--secret", OATH_SECRET, "--hotp")
            code = on_reader("oath", "code", "matrix@example.org", "--json")
            registered = on_reader("fido", "register", "--rp", "example.org", "--json")
            try:
                credential = json.loads(registered.stdout)
            except ValueError:
                credential = {}
            asserted = on_reader("fido", "assert", "--rp", "example.org", "--credential", credential.get("credentialId", "00"),
                                 "--public-key", credential.get("publicKey", "00"), "--json")
            generated = on_reader("piv", "generate", "9e", "--json")
            signed = on_reader("piv", "sign", "9e", "--data-hex", "6d6174726978", "--json")
        expected = subprocess.run(["oathtool", "--hotp", "-b", "-c", "0", OATH_SECRET], capture_output=True, text=True).stdout.strip()
        try:
            codes = [entry["code"] for entry in json.loads(code.stdout)["codes"]]
        except (ValueError, KeyError, TypeError):
            codes = ["unreadable: " + code.stderr.strip()]
        check("%s: OATH HOTP code equals oathtool's" % label, added.returncode == 0 and codes == [expected] and expected,
              "%s vs oathtool %s" % (codes, expected))
        check("%s: FIDO2 register (attestation verified) and assert" % label,
              registered.returncode == 0 and credential.get("attestationVerified") is True and asserted.returncode == 0,
              "%s / %s" % (registered.stderr.strip(), asserted.stderr.strip()))
        check("%s: a PIV signature verifies with Python cryptography" % label,
              verified(generated.stdout, signed.stdout, b"matrix"), "%s / %s" % (generated.stderr.strip(), signed.stderr.strip()))


def verified(generated, signed, data):
    """Whether the ECDSA signature `nfc piv sign --json` printed verifies over DATA with the
    P-256 public key `nfc piv generate --json` printed."""
    try:
        point = bytes.fromhex(json.loads(generated)["publicKey"])
        signature = bytes.fromhex(json.loads(signed)["signature"])
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        key.verify(signature, data, ec.ECDSA(hashes.SHA256()))
        return True
    except (ValueError, KeyError, TypeError, InvalidSignature):
        return False
