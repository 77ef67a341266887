"""nfcpy 1.0.4 as the host of the virtual PN532 (Integration/pn532/run.sh).

    nfcpy_tag.py DEVICE BRTY read           prints the tag's NDEF records as JSON: [[type, uri or text], ...]
    nfcpy_tag.py DEVICE BRTY write URI      writes a one-record URI message

DEVICE is nfcpy's path, e.g. tty:ttyNFC0:pn532 (nfcpy opens /dev names only); BRTY the
technology to poll (106A, 212F). Exits 1 with the reason when no tag or no NDEF is found.
"""
import json
import sys

import ndef
import nfc


# nfcpy's tag classes time each command as the RF link would: a FeliCa Lite-S read waits
# 0.9 ms (JIS X 6319-4 timing from the PMm, nfcpy tt3.py), three tries. Over UDP between two
# processes on a loaded CI machine a round trip can take longer than that three times running,
# and the read then fails as "no NDEF" although every answer was right (seen once in CI). The
# UDP frontend carries no air time, so its waits get a floor of 50 ms; every answer is still
# checked by nfcpy and by the caller.
UDP_TIMEOUT_FLOOR = 0.05


def floor_timeouts(clf):
    exchange = clf.exchange

    def exchange_with_floor(send_data, timeout):
        return exchange(send_data, max(timeout, UDP_TIMEOUT_FLOOR))

    clf.exchange = exchange_with_floor


def main():
    device, brty, action = sys.argv[1:4]
    clf = nfc.ContactlessFrontend()
    if not clf.open(device):
        sys.exit(f"nfcpy: no reader on {device}")
    if device.startswith("udp:"):
        floor_timeouts(clf)
    try:
        tag = clf.connect(rdwr={"targets": [brty], "on-connect": lambda tag: False, "iterations": 10, "interval": 0.1})
        if not tag:
            sys.exit(f"nfcpy: no {brty} tag on {device}")
        if tag.ndef is None:
            sys.exit(f"nfcpy: {tag} has no NDEF")
        if action == "write":
            tag.ndef.records = [ndef.UriRecord(sys.argv[4])]
            print(f"nfcpy wrote {sys.argv[4]} to {tag}")
            return
        records = []
        for record in tag.ndef.records:
            value = getattr(record, "iri", None) or getattr(record, "text", None)
            records.append([record.type.split(":")[-1], value])
        print(json.dumps(records))
    finally:
        clf.close()


if __name__ == "__main__":
    main()
