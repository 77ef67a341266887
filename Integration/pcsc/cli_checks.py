"""The `nfc` tool's issue-19 features through a real pcscd and vpcd, where they touch a reader:
NTAG passwords (protect, --password, unprotect), an APDU script with reset and expected status
words, --trace with wall-clock times, write --loop on the reader's own card events, and PIV/FIDO
PIN management on an emulated security key."""
import json
import os
import subprocess

import emulation


def run(nfc_path, new_image, check, reader, work):
    pcsc = "pcsc:" + reader

    def nfc(*args, stdin=None, timeout=60):
        return subprocess.run([nfc_path, *args], capture_output=True, text=True, timeout=timeout, input=stdin)

    # NTAG213 password protection through the reader's transparent session (PWD_AUTH is native).
    image = new_image("ntag213", "cli-protect")
    nfc("write", "--reader", "sim:" + image, "--text", "behind a password")
    with emulation.emulated(nfc_path, image, reader):
        protect = nfc("protect", "--reader", pcsc, "--password", "0a0b0c0d", "--pack", "1234", "--read")
    # The tag latches AUTH0 and PROT when it powers up (NTAG213/215/216 §8.8): taken out and back.
    with emulation.emulated(nfc_path, image, reader):
        closed = nfc("read", "--reader", pcsc)
        opened = nfc("read", "--reader", pcsc, "--password-file", "-", "--pack", "1234", "--json", stdin="0a0b0c0d\n")
        unprotect = nfc("unprotect", "--reader", pcsc, "--password", "0a0b0c0d")
        free = nfc("read", "--reader", pcsc, "--json")
    texts = [r.get("text") for r in (json.loads(opened.stdout).get("records") if opened.returncode == 0 else [])]
    check("ntag213 through pcscd: protect --read, a read refused without the password, read with it, unprotect",
          protect.returncode == 0 and closed.returncode != 0 and texts == ["behind a password"]
          and unprotect.returncode == 0 and free.returncode == 0,
          "protect: %s / closed: %s / opened: %s / unprotect: %s / free: %s" % (
              protect.stderr.strip(), closed.returncode, opened.stderr.strip(), unprotect.stderr.strip(), free.stderr.strip()))

    # An APDU script with comments, expected status words and a reset, on an emulated security key.
    key = new_image("security-key", "cli-key")
    script = os.path.join(work, "oath.apdu")
    with open(script, "w") as handle:
        handle.write("# select the OATH application, reset the card, select it again\n"
                     "00A4040007A0000005272101  expect 9000\nreset\n00A4040007A0000005272101  expect 90xx\n"
                     "00A4040007A000000000DEAD  expect 6A82  # no such application\n")
    with emulation.emulated(nfc_path, key, reader):
        scripted = nfc("apdu", "--reader", pcsc, "--script", script)
        traced = nfc("apdu", "--reader", pcsc, "--trace", "00A4040007A0000005272101")
    check("apdu --script through pcscd: comments, reset (a PC/SC card reset) and expected status words all hold",
          scripted.returncode == 0 and scripted.stdout.count("9000") >= 2 and "6A82" in scripted.stdout.upper(),
          scripted.stdout + scripted.stderr)
    check("--trace through pcscd: each APDU both ways with its wall-clock time",
          traced.returncode == 0 and "trace   1  > 00a4040007a0000005272101" in traced.stderr and "(wall " in traced.stderr,
          traced.stderr)

    # write --loop on the reader's own events: the card that is there is written once, and --count ends it.
    loop_image = new_image("ntag216", "cli-loop")
    log = os.path.join(work, "loop.log")
    with emulation.emulated(nfc_path, loop_image, reader):
        looped = nfc("write", "--loop", "--reader", pcsc, "--text", "ticket {n}", "--count", "1", "--log", log, timeout=60)
        read = nfc("read", "--reader", pcsc, "--json")
    texts = [r.get("text") for r in (json.loads(read.stdout).get("records") if read.returncode == 0 else [])]
    logged = open(log).read() if os.path.exists(log) else ""
    entries = [json.loads(line) for line in logged.splitlines() if line.strip()]
    check("write --loop through pcscd: the card in the reader gets ticket 1, the log has its UID, --count 1 ends the loop",
          looped.returncode == 0 and texts == ["ticket 1"] and len(entries) == 1 and entries[0].get("n") == 1
          and len(entries[0].get("uid", "")) == 14, looped.stdout + looped.stderr + logged)

    # PIN management on the emulated security key: PIV change-pin (old PIN refused after), FIDO set-pin and reset.
    with emulation.emulated(nfc_path, key, reader):
        changed = nfc("piv", "change-pin", "--reader", pcsc, "--pin", "-", "--new", "-", stdin="123456\n654321\n")
        old = nfc("piv", "change-pin", "--reader", pcsc, "--pin", "123456", "--new", "111111")
        fido_pin = nfc("fido", "set-pin", "--reader", pcsc, "--new", "8642")
        wrong = nfc("fido", "register", "--reader", pcsc, "--rp", "example.com", "--pin", "0000")
        reset = nfc("fido", "reset", "--reader", pcsc, "--yes")
    check("PIN management through pcscd: piv change-pin from stdin, the old PIN refused with tries left; fido set-pin, "
          "a wrong PIN says its tries, fido reset",
          changed.returncode == 0 and old.returncode != 0 and "tries left" in old.stderr
          and fido_pin.returncode == 0 and wrong.returncode != 0 and "tries left" in wrong.stderr and reset.returncode == 0,
          " / ".join(r.stderr.strip() for r in (changed, old, fido_pin, wrong, reset)))
