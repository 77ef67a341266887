#!/usr/bin/env python3
"""Waits on PC/SC state changes (SCardGetStatusChange), never for a fixed time.

    wait_reader.py --readers SECONDS          until pcscd answers and lists a reader
    wait_reader.py --present READER SECONDS   until a card is in READER (prints its ATR)
    wait_reader.py --absent READER SECONDS    until READER is empty
"""
import sys
import time

from smartcard import scard


def _context(deadline):
    while True:
        result, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
        if result == scard.SCARD_S_SUCCESS:
            return context
        if time.monotonic() > deadline:
            raise TimeoutError("pcscd does not answer: " + scard.SCardGetErrorMessage(result))
        time.sleep(0.02)  # pcscd is starting: its socket appears within ~30 ms


def wait_for_readers(seconds):
    deadline = time.monotonic() + seconds
    context = _context(deadline)
    try:
        while True:
            result, readers = scard.SCardListReaders(context, [])
            if result == scard.SCARD_S_SUCCESS and readers:
                return readers
            # Wake when a reader appears (the PnP pseudo reader), or at the deadline.
            remaining = int(max(0, deadline - time.monotonic()) * 1000)
            if remaining == 0:
                raise TimeoutError("pcscd lists no reader")
            scard.SCardGetStatusChange(context, remaining, [("\\\\?PnP?\\Notification", scard.SCARD_STATE_UNAWARE)])
    finally:
        scard.SCardReleaseContext(context)


def wait_for_card(reader, present, seconds, counter=None):
    """Waits until READER has a card (present) or none, and returns (ATR or None, event counter).

    pcscd counts card events in the upper 16 bits of the event state. With COUNTER (the count
    seen when the card was present), "absent" also waits for pcscd's own presence poll to have
    registered the removal (the count moves on): a failed SCardReconnect marks the reader empty
    at once, and a card connecting to vpcd before that poll would be taken for the old one.
    """
    deadline = time.monotonic() + seconds
    context = _context(deadline)
    try:
        states = [(reader, scard.SCARD_STATE_UNAWARE)]
        while True:
            remaining = int(max(0, deadline - time.monotonic()) * 1000)
            result, new_states = scard.SCardGetStatusChange(context, remaining, states)
            if result == scard.SCARD_E_TIMEOUT or remaining == 0:
                raise TimeoutError("%s did not become %s in %ss" % (reader, "present" if present else "empty", seconds))
            if result != scard.SCARD_S_SUCCESS:
                raise RuntimeError(scard.SCardGetErrorMessage(result))
            name, event, atr = new_states[0]
            has_card = bool(event & scard.SCARD_STATE_PRESENT) and not event & scard.SCARD_STATE_MUTE
            events = event >> 16
            if has_card == present and (counter is None or present or events != counter):
                return (bytes(atr) if present else None), events
            states = [(name, event & ~scard.SCARD_STATE_CHANGED)]
    finally:
        scard.SCardReleaseContext(context)


def main(argv):
    if len(argv) == 3 and argv[1] == "--readers":
        print("\n".join(wait_for_readers(float(argv[2]))))
    elif len(argv) == 4 and argv[1] in ("--present", "--absent"):
        atr, _ = wait_for_card(argv[2], argv[1] == "--present", float(argv[3]))
        if atr:
            print(atr.hex())
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
