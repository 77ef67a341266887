"""`nfc readers --watch --json` through a real pcscd: readers and cards as they come and go,
each card's ATR equal to the one pyscard reads, decoded as PC/SC Part 3 says."""
import json
import queue
import signal
import subprocess
import threading

from smartcard.System import readers as pyscard_readers

import emulation


def pyscard_atr(reader):
    """The ATR pyscard reads from READER, as uppercase-free hex."""
    for candidate in pyscard_readers():
        if str(candidate) == reader:
            connection = candidate.createConnection()
            connection.connect()
            try:
                return bytes(connection.getATR()).hex()
            finally:
                connection.disconnect()
    raise RuntimeError("pyscard sees no reader %s" % reader)


def run(nfc, new_image, check, reader):
    """Watches while three kinds of card come and go in READER; each card is a check, and so
    is the watcher's clean end on Ctrl-C."""
    watcher = subprocess.Popen([nfc, "readers", "--watch", "--json"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    events = queue.Queue()
    threading.Thread(target=lambda: [events.put(line) for line in watcher.stdout], daemon=True).start()

    def next_event(kind, deadline=15):
        """The next event of KIND for READER (others are skipped), or None."""
        while True:
            try:
                event = json.loads(events.get(timeout=deadline))
            except queue.Empty:
                return None
            if event.get("event") == kind and event.get("reader") == reader:
                return event

    try:
        added = next_event("reader-added")
        check("nfc readers --watch lists %s when it starts" % reader, added is not None, "no reader-added event")
        for kind, wanted in [("ntag216", ("storage", "MIFARE Ultralight (or NTAG21x)")),
                             ("type4", ("isoDEP", None)), ("felica-lite-s", ("storage", "FeliCa"))]:
            image = new_image(kind, "readers-watch-" + kind)
            with emulation.emulated(nfc, image, reader):
                inserted = next_event("card-inserted")
                atr = pyscard_atr(reader)
                listing = subprocess.run([nfc, "readers"], capture_output=True, text=True, timeout=30).stdout
            removed = next_event("card-removed")
            card = (inserted or {}).get("card", {})
            # `nfc readers` lists the same card, name and description separated by a real tab.
            listed = "%s\tPC/SC, profile generic (probe), tag present (ATR %s: %s)" % (reader, atr, card.get("description"))
            ok = inserted is not None and removed is not None and inserted["atr"] == atr \
                and card.get("kind") == wanted[0] and (wanted[1] is None or card.get("name") == wanted[1]) \
                and listed in listing
            check("nfc readers --watch: %s in and out, ATR %s as pyscard reads it, %s" % (kind, atr, card.get("description")),
                  ok, "inserted %r, removed %r, pyscard ATR %s, nfc readers: %r" % (inserted, removed, atr, listing))
    finally:
        watcher.send_signal(signal.SIGINT)
        try:
            status = watcher.wait(15)
        except subprocess.TimeoutExpired:
            watcher.kill()
            status = None
    check("nfc readers --watch ends on Ctrl-C with status 0", status == 0, "status %r: %s" % (status, watcher.stderr.read()))
