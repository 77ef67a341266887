"""An independent SUN message generator (Python `cryptography`), checked against `nfc sun verify`.

Written from the NTAG 424 DNA data sheet (NT4H2421Gx §9.3) and NXP AN12196 §3.3–3.4, apart from
the Swift code: it builds the SUN URLs an NTAG 424 DNA would mirror — encrypted PICC data, plain
UID and counter, encrypted file data — for random keys, UIDs and counters, and checks that
`nfc sun verify` accepts each with the right UID and counter (and file data), and refuses each
with one MAC bit flipped or the wrong file read key. The same again in LRP mode (NT4H2421Gx
§9.3.4.2–§9.3.9.2, with lrp.py's Leakage Resilient Primitive, itself checked first against
AN12304 vectors): PICCRand ‖ LRICB(PICC data), the session master key CMAC_LRP(file key, 00 01 00
80 ‖ UID ‖ counter ‖ zeros ‖ 1E E1), SDMMAC under its updated key 0, file data under updated key 1.

    NFC=.build/debug/nfc python3 Integration/sun/check_sun.py
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pcsc"))
from ev2_crypto import cbc, cmac, ecb, truncate  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lrp  # noqa: E402

NFC = os.environ.get("NFC", ".build/debug/nfc")
checks = 0
failures = 0


def session_vector(label, uid, counter):
    """SV1 (label C33C) or SV2 (3CC3): label, 00 01 00 80, UID, counter LSB first, zero padding."""
    body = label + bytes([0x00, 0x01, 0x00, 0x80]) + (uid or b"") + (counter.to_bytes(3, "little") if counter is not None else b"")
    return body + bytes(-len(body) % 16)


def sun_url(meta_key, file_key, uid, counter, encrypted=True, file_data=None):
    mac_key = cmac(file_key, session_vector(b"\x3c\xc3", uid, counter))
    enc_key = cmac(file_key, session_vector(b"\xc3\x3c", uid, counter))
    if encrypted:
        plain = bytes([0xC7]) + uid + counter.to_bytes(3, "little") + os.urandom(5)
        prefix = "https://example.com/t?picc_data=" + ecb(meta_key, plain).hex().upper()
    else:
        prefix = "https://example.com/t?uid=" + uid.hex().upper() + "&ctr=" + counter.to_bytes(3, "big").hex().upper()
    mac_input = b""
    if file_data is not None:
        iv = ecb(enc_key, counter.to_bytes(3, "little") + bytes(13))
        enc = cbc(enc_key, iv, file_data).hex().upper()
        mac_input = (enc + "&cmac=").encode()
        prefix += "&enc=" + enc
    return prefix + "&cmac=" + truncate(cmac(mac_key, mac_input)).hex().upper()


def lrp_sun_url(meta_key, file_key, uid, counter, encrypted=True, file_data=None):
    vector = bytes([0x00, 0x01, 0x00, 0x80]) + uid + counter.to_bytes(3, "little")
    vector += bytes(-(len(vector) + 2) % 16) + b"\x1e\xe1"
    session = lrp.LRP(lrp.LRP(file_key).cmac(vector))
    if encrypted:
        picc_rand = os.urandom(8)
        plain = bytes([0xC7]) + uid + counter.to_bytes(3, "little") + os.urandom(5)
        prefix = "https://example.com/t?picc_data=" + (picc_rand + lrp.LRP(meta_key).encrypt(plain, picc_rand)).hex().upper()
    else:
        prefix = "https://example.com/t?uid=" + uid.hex().upper() + "&ctr=" + counter.to_bytes(3, "big").hex().upper()
    mac_input = b""
    if file_data is not None:
        enc = session.encrypt(file_data, counter.to_bytes(3, "little") + bytes(3), updated_key=1).hex().upper()
        mac_input = (enc + "&cmac=").encode()
        prefix += "&enc=" + enc
    mac = session.cmac(mac_input)
    return prefix + "&cmac=" + bytes(mac[i] for i in range(1, 16, 2)).hex().upper()


def verify(url, meta_key, file_key, *extra):
    run = subprocess.run([NFC, "sun", "verify", url, "--key", meta_key.hex(), "--file-key", file_key.hex(), "--json", *extra],
                         capture_output=True, text=True, timeout=60)
    try:
        return run.returncode, json.loads(run.stdout)
    except ValueError:
        return run.returncode, {"stdout": run.stdout, "stderr": run.stderr}


def check(name, ok, detail=""):
    global checks, failures
    checks += 1
    if not ok:
        failures += 1
    print("%s  %s%s" % ("ok   " if ok else "FAIL ", name, "" if ok else ": " + str(detail)), flush=True)


check("lrp.py reproduces AN12304's EvalLRP, CMAC_LRP and LRICB vectors", lrp.self_test())

for variant in ["encrypted", "plain", "encrypted + file data", "LRP encrypted", "LRP plain", "LRP encrypted + file data"]:
    mode = lrp_sun_url if variant.startswith("LRP") else sun_url
    # Plain mirrors do not show the mode: --lrp says it; encrypted LRP PICC data shows it by its length.
    extra = ["--lrp"] if variant == "LRP plain" else []
    for trial in range(4):
        meta_key, file_key = os.urandom(16), os.urandom(16)
        uid = bytes([0x04]) + os.urandom(6)
        counter = int.from_bytes(os.urandom(3), "big")
        file_data = os.urandom(32) if "file" in variant else None
        url = mode(meta_key, file_key, uid, counter, encrypted="plain" not in variant, file_data=file_data)
        status, result = verify(url, meta_key if "plain" not in variant else file_key, file_key, *extra)
        if variant.startswith("LRP") and result.get("cipher") != "lrp":
            status = -1
        good = status == 0 and result.get("valid") is True and result.get("uid") == uid.hex() and result.get("counter") == counter
        if file_data is not None:
            good = good and result.get("fileData") == file_data.hex()
        check("%s #%d: valid, UID and counter as generated" % (variant, trial + 1), good, (status, result))
        flipped = url[:-1] + ("0" if url[-1] != "0" else "1")
        status, result = verify(flipped, meta_key if "plain" not in variant else file_key, file_key, *extra)
        check("%s #%d: one MAC digit changed is invalid (exit 1)" % (variant, trial + 1),
              status == 1 and result.get("valid") is False, (status, result))
        status, result = verify(url, meta_key if "plain" not in variant else file_key, os.urandom(16), *extra)
        check("%s #%d: another file read key is invalid" % (variant, trial + 1), status == 1 and result.get("valid") is False,
              (status, result))

print("\nsun: %d checks, %d failed" % (checks, failures))
sys.exit(1 if failures or checks == 0 else 0)
