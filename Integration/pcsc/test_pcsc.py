#!/usr/bin/env python3
"""The PC/SC integration suite: our `nfc` tool through a real pcscd and the vpcd virtual
reader, with the cards emulated by `nfc emulate`, and checked from outside (pyscard, ndeflib,
vsmartcard's vicc).

Environment: NFC (the nfc binary), pcscd running with vsmartcard-vpcd, pyscard and ndeflib
importable; PCSCD_CONTROL (Integration/pcsc/pcscd.sh) to include the pcscd restart test.
Every wait is on a PC/SC state change or a process, with a deadline; none is a fixed sleep.
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import ndef
import checks
import emulation
from checks import check, failures

# Checks the whole suite makes (all groups); fewer means part of it did not run.
EXPECTED_CHECKS = 233
import acr122u_checks
import cli_checks
import profile_matrix
import pyscard_ndef
import readers_watch
import vendor_checks
import watch_checks
from wait_reader import wait_for_card, wait_for_readers

NFC = os.environ.get("NFC", ".build/debug/nfc")
READER = "Virtual PCD 00 00"
PCSC = "pcsc:" + READER
WORK = tempfile.mkdtemp(prefix="opencorenfc-pcsc-")



def nfc(*args, timeout=60):
    return subprocess.run([NFC, *args], capture_output=True, text=True, timeout=timeout)


def new_image(kind, name, blank=False):
    path = os.path.join(WORK, name + ".json")
    result = nfc("tag", "new", kind, "-o", path, "--force", *(["--blank"] if blank else []))
    if result.returncode != 0:
        raise RuntimeError("nfc tag new %s: %s" % (kind, result.stderr))
    return path


def copy(path, name):
    target = os.path.join(WORK, name + ".json")
    shutil.copyfile(path, target)
    return target


def emulated(image, *options):
    """`nfc emulate` on IMAGE in the suite's reader until the block ends (emulation.py)."""
    return emulation.emulated(NFC, image, READER, *options)


def dump(image):
    result = nfc("dump", "--reader", "sim:" + image)
    return result.stdout if result.returncode == 0 else "dump failed: " + result.stderr


def records(output):
    """The records of `nfc read --json` (status and stats left out)."""
    try:
        return json.loads(output).get("records")
    except ValueError:
        return None


WRITE = ["--uri", "https://example.org/opencorenfc", "--text", "through pcscd"]


def test_same_as_simulator(kind, basic, profile=None, given=False):
    """With PROFILE, the card is behind that emulated reader; GIVEN passes the profile to the
    reading commands too (a reader recognised by name only: vpcd's name tells nothing)."""
    mode = "an emulated " + profile if profile else "basic reader" if basic else "transparent session"
    name = "%s, %s: write + read through pcscd equal the simulator's" % (kind, mode)
    image = new_image(kind, kind)
    simulated = copy(image, kind + "-sim")
    expected_write = nfc("write", "--reader", "sim:" + simulated, *WRITE)
    expected_read = nfc("read", "--reader", "sim:" + simulated, "--json")
    options = ["--reader-profile", profile] if profile else ["--basic-reader"] if basic else []
    client = ["--reader-profile", profile] if given else []
    with emulated(image, *options):
        written = nfc("write", "--reader", PCSC, *client, *WRITE)
        read = nfc("read", "--reader", PCSC, *client, "--json")
    check(name, written.returncode == 0 and read.returncode == 0 and expected_read.returncode == 0
          and records(read.stdout) == records(expected_read.stdout) and records(read.stdout),
          "write: %s / read: %s / sim: %s" % (written.stderr.strip(), read.stderr.strip() or read.stdout[:200], expected_write.stderr.strip()))
    check("%s, %s: memory after the write equals the simulator's" % (kind, mode), dump(image) == dump(simulated),
          "dumps differ")
    return image


def test_pyscard_reads(kind, image):
    with emulated(image):
        try:
            message = pyscard_ndef.read_ndef(READER)
            uris = [record.iri for record in ndef.message_decoder(message) if isinstance(record, ndef.UriRecord)]
        except Exception as error:  # report any failure of the outside reader as a check
            uris = ["error: %r" % error]
    check("%s: pyscard + ndeflib read the message with plain PC/SC Part 3 APDUs" % kind,
          uris == ["https://example.org/opencorenfc"], repr(uris))


def test_format_and_lock(kind):
    blank = new_image(kind, kind + "-blank", blank=True)
    simulated = copy(blank, kind + "-blank-sim")
    nfc("format", "--reader", "sim:" + simulated)
    nfc("lock", "--reader", "sim:" + simulated)
    with emulated(blank):
        formatted = nfc("format", "--reader", PCSC)
        locked = nfc("lock", "--reader", PCSC)
        refused = nfc("write", "--reader", PCSC, "--text", "after lock")
    check("%s: format + lock through pcscd equal the simulator's" % kind,
          formatted.returncode == 0 and locked.returncode == 0 and dump(blank) == dump(simulated),
          "format: %s / lock: %s" % (formatted.stderr.strip(), locked.stderr.strip()))
    check("%s: a write after lock is refused with a reason" % kind,
          refused.returncode != 0 and refused.stderr.strip() != "", refused.stderr.strip())


def image_tag(path):
    """The `tag` object of a tag image file."""
    with open(path) as handle:
        return json.load(handle)["tag"]


def test_copy_restore_wipe(kind):
    """nfc dump -o, nfc restore and nfc format --wipe through pcscd (native frames in a transparent
    session), each compared with the same command on the simulator."""
    original = new_image(kind, kind + "-original")
    nfc("write", "--reader", "sim:" + original, "--text", "copied through pcscd")
    copied = os.path.join(WORK, kind + "-copy-pcsc.json")
    simulated_copy = os.path.join(WORK, kind + "-copy-sim.json")
    nfc("dump", "--reader", "sim:" + original, "-o", simulated_copy, "--force")
    with emulated(original):
        saved = nfc("dump", "--reader", PCSC, "-o", copied, "--force")
    same = saved.returncode == 0 and os.path.exists(copied) and image_tag(copied) == image_tag(simulated_copy)
    check("%s: nfc dump -o through pcscd saves the same copy as on the simulator" % kind, same,
          saved.stderr.strip() or "the copies differ")

    target = new_image(kind, kind + "-restore-target")
    simulated_target = copy(target, kind + "-restore-target-sim")
    nfc("restore", copied, "--reader", "sim:" + simulated_target)
    with emulated(target):
        restored = nfc("restore", copied, "--reader", PCSC)
        read = nfc("read", "--reader", PCSC, "--json")
    texts = [record.get("text") for record in records(read.stdout) or []]
    check("%s: nfc restore through pcscd writes the copy as on the simulator" % kind,
          restored.returncode == 0 and texts == ["copied through pcscd"] and dump(target) == dump(simulated_target),
          "restore: %s / read: %r" % (restored.stderr.strip(), texts))

    simulated_wipe = copy(target, kind + "-wipe-sim")
    nfc("format", "--wipe", "--reader", "sim:" + simulated_wipe)
    with emulated(target):
        wiped = nfc("format", "--wipe", "--reader", PCSC)
        empty = nfc("read", "--reader", PCSC, "--json")
    check("%s: nfc format --wipe through pcscd leaves an empty tag, as on the simulator" % kind,
          wiped.returncode == 0 and empty.returncode == 0 and records(empty.stdout) == []
          and dump(target) == dump(simulated_wipe),
          "wipe: %s / read: %s" % (wiped.stderr.strip(), empty.stdout[:200]))


def test_scan_all():
    """nfc scan --all --reader pcsc: the card in each reader, here two vpcd readers at once."""
    first = new_image("ntag213", "all-first")
    second = new_image("slix2", "all-second")
    (reader_a, port_a), (reader_b, port_b) = REMOVAL_READERS[0], REMOVAL_READERS[1]
    with emulation.emulated(NFC, first, reader_a, "--vpcd", "127.0.0.1:%d" % port_a), \
            emulation.emulated(NFC, second, reader_b, "--vpcd", "127.0.0.1:%d" % port_b):
        scan = nfc("scan", "--all", "--reader", "pcsc:Virtual PCD", "--json")
    try:
        tags = json.loads(scan.stdout)["tags"]
        families = sorted(tag["family"] for tag in tags)
    except (ValueError, KeyError):
        families = None
    check("nfc scan --all through pcscd lists the card in each of two readers", families == ["type2", "type5"],
          scan.stderr.strip() or scan.stdout[:300])


def test_type1_needs_transparent_session():
    """A Topaz behind a reader that only offers storage-card APDUs: Type 1 commands need a
    transparent session or direct transmit, and the error says so."""
    image = new_image("topaz512", "topaz-basic")
    with emulated(image, "--basic-reader"):
        read = nfc("read", "--reader", PCSC)
    check("topaz512 on a reader without a transparent session: a clear error",
          read.returncode != 0 and "READ and WRITE" in read.stderr, read.stderr.strip())


def test_felica_needs_transparent_session():
    image = new_image("felica-lite-s", "felica-basic")
    with emulated(image, "--basic-reader"):
        read = nfc("read", "--reader", PCSC)
    check("felica-lite-s on a reader without a transparent session: a clear error",
          read.returncode != 0 and "transparent session" in read.stderr, read.stderr.strip())


def message_state(image):
    """'old', 'new', 'empty', 'in progress' (a Type 1 tag's NMN 00h), or what else the tag holds."""
    read = nfc("read", "--reader", "sim:" + image, "--json")
    if read.returncode != 0:
        if "write in progress" in read.stdout + read.stderr:  # --json puts the error on stdout
            return "in progress"
        return "unreadable: " + (read.stderr.strip() or read.stdout.strip())
    found = records(read.stdout) or []
    texts = [record.get("text") for record in found]
    if not found:
        return "empty"
    if texts == ["old message"]:
        return "old"
    if texts == ["new message " + "x" * 200]:
        return "new"
    return "other: %r" % texts


# The tearing trials of each tag kind run at the same time, each kind on its own vpcd reader: a
# trial waits mostly on pcscd noticing a card come and go, so three readers take a third of the time.
REMOVAL_READERS = [("Virtual PCD 00 00", 35963), ("Virtual PCD 00 01", 35964), ("Virtual PCD B 00 00", 35965),
                   ("Virtual PCD B 00 01", 35966)]

# What a tag may hold after a write cut short: Type 1 tags clear NMN first and set it last
# (T1TOP §6.4.2), so they may also say "write in progress" until the next write.
CUT_STATES = {"topaz512": ("old", "new", "in progress")}


def cut_states(kind):
    return CUT_STATES.get(kind, ("old", "new", "empty"))


def removal_trials(kind, reader, port, options, client):
    """Writes a long message through READER (emulated with OPTIONS, written to with the CLIENT
    options) with the card taken away after 1, 2, 3, … commands until a write completes; returns
    {count: what the tag then holds}."""
    name = "-".join([kind, "tear"] + [option for option in options if not option.startswith("--")])
    image = new_image(kind, name)
    nfc("write", "--reader", "sim:" + image, "--text", "old message")
    outcomes = {}
    for count in range(1, 160):
        trial = copy(image, name + "-%d" % count)
        with emulation.emulated(NFC, trial, reader, "--vpcd", "127.0.0.1:%d" % port, "--remove-after", str(count),
                                *options) as process:
            written = nfc("write", "--reader", "pcsc:" + reader, *client, "--text", "new message " + "x" * 200)
            if written.returncode != 0:
                try:
                    process.wait(15)  # the card left: the emulator saves and exits
                except subprocess.TimeoutExpired:
                    outcomes[count] = "write failed with the card still there: " + written.stderr.strip()
                    break
        state = message_state(trial)
        outcomes[count] = state
        if written.returncode == 0:
            break
        if state not in cut_states(kind):
            break
    return outcomes


# Emulated vendor readers for the removal test, each on a reader of its own (the other suites'
# readers, free while this one runs): (kind, reader, port, emulator options, client options).
PROFILE_REMOVALS = [
    ("ntag216", "Virtual PCD C 00 00", 35967, ("--reader-profile", "acr122u"), ()),
    ("ntag216", "Virtual PCD C 00 01", 35968, ("--reader-profile", "omnikey5022"), ()),
    ("ntag216", "Virtual PCD D 00 00", 35969, ("--reader-profile", "utrust3700f"), ("--reader-profile", "utrust3700f")),
    ("ntag216", "Virtual PCD D 00 01", 35970, ("--reader-profile", "acr1252u"), ("--reader-profile", "acr1252u")),
]

# Run after the short trials on the same readers (Type 4's and Topaz's): the basic reader's
# UPDATE BINARY writes, and ISO 15693 through the ACR1552U's transparent session.
FOLLOWING_REMOVALS = [
    ("ntag216", "Virtual PCD 00 01", 35964, ("--basic-reader",), ()),
    ("slix2", "Virtual PCD B 00 01", 35966, ("--reader-profile", "acr1552u"), ("--reader-profile", "acr1552u")),
]


def test_removal_mid_write(kinds):
    jobs = [(kind, *REMOVAL_READERS[index], (), ()) for index, kind in enumerate(kinds)] + PROFILE_REMOVALS + FOLLOWING_REMOVALS
    by_reader = {}
    for job in jobs:
        by_reader.setdefault(job[1], []).append(job)
    with concurrent.futures.ThreadPoolExecutor(len(by_reader)) as pool:
        runs = {reader: pool.submit(lambda queue: [removal_trials(*job) for job in queue], queue)
                for reader, queue in by_reader.items()}
        results = {reader: run.result() for reader, run in runs.items()}
    for reader, queue in by_reader.items():
        for job, outcomes in zip(queue, results[reader]):
            kind, options = job[0], job[3]
            through = (" through an emulated " + options[1] if len(options) > 1
                       else " through a basic reader (FF B0/FF D6)" if options else "")
            bad = {count: state for count, state in outcomes.items() if state not in cut_states(kind)}
            finished = outcomes and list(outcomes.values())[-1] == "new"
            check("%s%s: removed after every command count 1..%d of a write, the tag holds %s"
                  % (kind, through, len(outcomes), " or ".join(cut_states(kind))), not bad and finished, repr(bad or outcomes))


def test_vicc():
    env = dict(os.environ, PYTHONPATH="/usr/lib/python3/site-packages/virtualsmartcard")
    vicc = shutil.which("vicc")
    if vicc is None:
        check("vicc: Debian's virtual ISO 7816 card driven by nfc apdu", False, "vicc is not installed (vsmartcard-vpicc)")
        return
    process = subprocess.Popen([sys.executable, vicc, "-t", "iso7816"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    counter = None
    try:
        _, counter = wait_for_card(READER, True, 15)
        challenge = nfc("apdu", "--reader", PCSC, "--json", "0084000008", "0084000008")
    finally:
        process.terminate()
        process.wait(15)
        wait_for_card(READER, False, 15, counter=counter)
    try:
        responses = json.loads(challenge.stdout)["responses"]
        ok = [r["sw"] for r in responses] == ["9000", "9000"] and all(len(r["data"]) == 16 for r in responses) \
            and responses[0]["data"] != responses[1]["data"]
    except (ValueError, KeyError):
        ok = False
    check("vicc: GET CHALLENGE through nfc apdu gives two different 8-byte challenges", ok,
          challenge.stdout + challenge.stderr)


def test_pcscd_restart():
    control = os.environ.get("PCSCD_CONTROL")
    if not control:
        print("skip  pcscd restart: PCSCD_CONTROL is not set (the suite does not own pcscd)", flush=True)
        return
    image = new_image("ntag216", "restart")
    with emulated(image):
        before = nfc("write", "--reader", PCSC, "--text", "before restart")
        subprocess.run([control, "restart"], check=True, timeout=60)
        # The emulator reconnects to the new pcscd's vpcd by itself.
        wait_for_card(READER, True, 15)
        after = nfc("read", "--reader", PCSC, "--json")
    texts = [r.get("text") for r in records(after.stdout) or []]
    check("pcscd restarted under a running emulator: the card comes back with its data",
          before.returncode == 0 and after.returncode == 0 and texts == ["before restart"], after.stderr + repr(texts))


def main():
    started = time.monotonic()
    wait_for_readers(15)
    only = sys.argv[1:]  # test groups to run (roundtrip, basic, format, copy, cli, felica, removal, vicc, acr122u, vendors, matrix, restart, watch, readers); all by default
    selected = lambda group: not only or group in only
    for kind in ["ntag213", "ntag216", "ultralight", "topaz512", "topaz96", "type4", "slix2", "iso15693-2k", "felica-lite-s",
                 "felica"]:
        if not selected("roundtrip"):
            break
        image = test_same_as_simulator(kind, basic=False)
        if kind in ("ntag216", "type4", "slix2", "iso15693-2k"):
            test_pyscard_reads(kind, image)
    for kind in ["ntag216", "ultralight", "slix2", "iso15693-2k"]:
        if selected("basic"):
            test_same_as_simulator(kind, basic=True)
    for kind in ["ntag216", "topaz96", "slix2", "felica-lite-s"]:
        if selected("format"):
            test_format_and_lock(kind)
    for kind in ["ntag213", "ultralight"]:
        if selected("copy"):
            test_copy_restore_wipe(kind)
    if selected("copy"):
        test_scan_all()
    if selected("cli"):
        cli_checks.run(NFC, new_image, check, READER, WORK)
    if selected("felica"):
        test_felica_needs_transparent_session()
        test_type1_needs_transparent_session()
    if selected("removal"):
        test_removal_mid_write(["ntag216", "type4", "slix2", "topaz512"])
    if selected("vicc"):
        test_vicc()
    if selected("acr122u"):
        for kind in ["ntag216", "type4", "felica-lite-s"]:
            test_same_as_simulator(kind, basic=False, profile="acr122u")
        acr122u_checks.run(NFC, new_image, check, READER)
    if selected("vendors"):
        for profile, kinds, given in [("omnikey5022", ["ntag216", "slix2", "type4"], False), ("omnikey5427", ["ntag216"], False),
                                      ("utrust3700f", ["ntag216", "felica-lite-s", "type4"], True),
                                      ("acr1252u", ["ntag216", "felica-lite-s", "type4"], True), ("acr1552u", ["slix2"], True)]:
            for kind in kinds:
                test_same_as_simulator(kind, basic=False, profile=profile, given=given)
        vendor_checks.run(NFC, new_image, check, READER)
    if selected("matrix"):
        profile_matrix.run(NFC, new_image, copy, dump, check, READER)
    # Before the restart: pyscard keeps the context it made first, which a restarted pcscd no longer knows.
    if selected("readers"):
        readers_watch.run(NFC, new_image, check, READER)
    if selected("restart"):
        test_pcscd_restart()
    if selected("watch"):
        watch_checks.run(NFC, new_image, check, WORK, control=os.environ.get("PCSCD_CONTROL"))
    print("\n%.1f s" % (time.monotonic() - started))
    shutil.rmtree(WORK, ignore_errors=True)
    # The whole suite runs 233 checks; a selection runs at least one.
    return checks.finish(1 if only else EXPECTED_CHECKS)


if __name__ == "__main__":
    sys.exit(main())
