"""`nfc watch` through pcscd: emulated cards arriving on and leaving several vpcd readers.

Readers (Integration/pcsc/vpcd-readers.conf): "Virtual PCD B 00 00" (port 35965),
"Virtual PCD B 00 01" (35966) and "Virtual PCD C 00 00" (35967). Every wait is on an event
line, a PC/SC state change or a process, with a deadline; none is a fixed sleep.
"""
import json
import os
import queue
import signal
import subprocess
import threading

import emulation
from wait_reader import wait_for_card

READERS = {"Virtual PCD B 00 00": 35965, "Virtual PCD B 00 01": 35966, "Virtual PCD C 00 00": 35967}


class Watch:
    """A running `nfc watch --json` whose events are read as they come."""

    def __init__(self, nfc, *args):
        self.process = subprocess.Popen([nfc, "watch", "--json", *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def next(self, event=None, seconds=20, skipped=None):
        """The next event (of a kind, when given), or None at the deadline."""
        while True:
            try:
                item = self.lines.get(timeout=seconds)
            except queue.Empty:
                return None
            if item is None:
                return None
            if event is None or item.get("event") == event:
                return item
            if skipped is not None:
                skipped.append(item)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            status = self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = "killed after 15 s"
        return status, self.process.stderr.read()


def card(nfc, image, reader):
    """`nfc emulate` on READER until the block ends; yields once pcscd sees the card."""
    return emulation.emulated(nfc, image, reader, "--vpcd", "127.0.0.1:%d" % READERS[reader])


def run(nfc, new_image, check, work, control=None):
    """The watch checks; `new_image(kind, name)` makes images, `check(name, ok, detail)` reports."""
    images = {}
    for name, uri in [("shop", "https://shop.example.com/item/1"), ("phone", "tel:+15550100"),
                      ("mail", "mailto:a@example.org"), ("web", "https://example.org/w")]:
        path = new_image("ntag215", "watch-" + name)
        written = subprocess.run([nfc, "write", "--reader", "sim:" + path, "--uri", uri], capture_output=True, text=True)
        if written.returncode != 0:
            raise RuntimeError("writing %s: %s" % (path, written.stderr))
        images[name] = path
    marker = os.path.join(work, "shop-handler.txt")
    config = os.path.join(work, "watch-apps.json")
    with open(config, "w") as out:
        json.dump({
            "apps": [{"appID": "ABCDE12345.com.example.shop", "associatedDomains": ["applinks:shop.example.com"],
                      "handler": ["/bin/sh", "-c", "printf '%s' \"$0\" > " + marker]}],
            "associations": {"shop.example.com": {"applinks": {"details": [
                {"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/item/*"}]}]}}},
            "handlers": {"phone": ["/bin/sh", "-c", "sleep 30"], "mail": ["/bin/sh", "-c", "exit 4"]},
        }, out)

    watch = Watch(nfc, "--reader", "Virtual PCD B", "--reader", "Virtual PCD C 00 00", "--apps", config,
                  "--handler-timeout", "60")
    try:
        added, skipped = set(), []
        while added != set(READERS):
            event = watch.next("reader", skipped=skipped)
            if event is None:
                break
            added.add(event["reader"])
        check("watch: every watched vpcd reader is found", added == set(READERS), repr(added))

        b0, b1, c0 = "Virtual PCD B 00 00", "Virtual PCD B 00 01", "Virtual PCD C 00 00"
        with card(nfc, images["shop"], b0):
            tap = watch.next("tap")
            check("watch: a universal link tapped on %s goes to its app" % b0,
                  tap and tap["reader"] == b0 and tap["target"] == "app:ABCDE12345.com.example.shop"
                  and tap["url"] == "https://shop.example.com/item/1", repr(tap))
            done = watch.next("handler")
            text = open(marker).read() if os.path.exists(marker) else None
            check("watch: the app's handler ran with the URL as its argument",
                  done and done["status"] == "ok" and text == "https://shop.example.com/item/1", repr((done, text)))
            # The shop card stays on B 00 00 while the phone card arrives on B 00 01: one event, from B 00 01.
            with card(nfc, images["phone"], b1):
                other = watch.next()
                check("watch: a held card is one tap; the next event is the other reader's card",
                      other and other["event"] == "tap" and other["reader"] == b1 and other["target"] == "system:phone",
                      repr(other))
                # B 00 01's handler now sleeps 30 s; a card on C 00 00 is reported meanwhile.
                with card(nfc, images["web"], c0):
                    third = watch.next()
                    check("watch: a slow handler on one reader does not delay another reader's tap",
                          third and third["event"] == "tap" and third["reader"] == c0, repr(third))
                gone = watch.next()
                check("watch: the card leaving %s is reported" % c0,
                      gone and gone["event"] == "left" and gone["reader"] == c0, repr(gone))
            left = watch.next("left")
            check("watch: the card leaving %s is reported" % b1, left and left["reader"] == b1, repr(left))
        left = watch.next("left")
        check("watch: the card leaving %s is reported" % b0, left and left["reader"] == b0, repr(left))

        with card(nfc, images["mail"], b0):
            tap = watch.next("tap")
            failed = watch.next("handler")
        check("watch: a failing handler is reported with its exit status",
              tap and tap["target"] == "system:mail" and failed and failed["status"] == "failed" and failed["exitCode"] == 4,
              repr((tap, failed)))
        with card(nfc, images["mail"], b0):
            again = watch.next("tap")
        check("watch: the same card tapped again is a new tap, and the watch went on after the failure",
              again and again["reader"] == b0 and again["url"] == "mailto:a@example.org", repr(again))

        if control:
            with card(nfc, images["web"], c0):
                first = watch.next("tap")
                subprocess.run([control, "restart"], check=True, timeout=60)
                wait_for_card(c0, True, 30)
                skipped = []
                after = watch.next("tap", seconds=30, skipped=skipped)
            check("watch: pcscd restarting under the watch; the card on %s is seen again afterwards" % c0,
                  first and after and after["reader"] == c0 and after["url"] == "https://example.org/w",
                  repr((first, after, skipped)))
            with card(nfc, images["phone"], b1):
                later = watch.next("tap", seconds=30)
            check("watch: taps on other readers still arrive after the restart",
                  later and later["reader"] == b1, repr(later))
        else:
            print("skip  watch across a pcscd restart: PCSCD_CONTROL is not set", flush=True)
    finally:
        status, stderr = watch.stop()
    check("watch: Ctrl-C ends it with status 0", status == 0, "status %r: %s" % (status, stderr.strip()))
