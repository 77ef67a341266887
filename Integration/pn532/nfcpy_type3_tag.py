"""nfcpy 1.0.4's own Type 3 tag emulation on its UDP frontend, the card of our nfcpy-udp: reader
(Integration/pn532/run.sh).

    nfcpy_type3_tag.py PORT MESSAGE_FILE [SESSIONS]

Serves the NDEF message in MESSAGE_FILE (raw bytes) as an NFC Forum Type 3 tag (system code
12FC, NDEF services 0009 read/write and 000B read) on udp:localhost:PORT, for SESSIONS reader
sessions (default 1; each ends when the reader sends RFOFF), then prints the NDEF message the
tag holds at the end as hex, so that a write through the reader can be checked.
"""
import struct
import sys

import nfc
import nfc.clf
import nfc.tag
import nfc.tag.tt3

BLOCKS = 32  # data blocks: 512 bytes of NDEF space


def attribute_block(length):
    """The Attribute Information Block (NFC Forum T3T 1.0 §7.1): version 1.0, Nbr 4, Nbw 1,
    Nmaxb, WriteFlag off, RWFlag read/write, Ln, checksum."""
    block = bytearray([0x10, 4, 1]) + struct.pack(">H", BLOCKS) + bytearray(4) + bytearray([0x00, 0x01])
    block += struct.pack(">I", length)[1:]
    return block + struct.pack(">H", sum(block))


def main():
    port, message_file = sys.argv[1], sys.argv[2]
    sessions = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    message = open(message_file, "rb").read()
    memory = bytearray(attribute_block(len(message)) + message)
    memory += bytearray(16 * (BLOCKS + 1) - len(memory))

    def read(block, rb, re):
        if block <= BLOCKS:
            return memory[16 * block:16 * block + 16]
        return None

    def write(block, data, wb, we):
        if block > BLOCKS:
            return False
        memory[16 * block:16 * block + 16] = data
        return True

    target = nfc.clf.LocalTarget("212F")
    # PMm FF…: no FeliCa IC code (a Lite-S code would make readers look for its MC block).
    target.sensf_res = bytearray.fromhex("01" "02FE010203040506" "FFFFFFFFFFFFFFFF" "12FC")
    clf = nfc.ContactlessFrontend()
    if not clf.open(f"udp:localhost:{port}"):
        sys.exit(f"nfcpy: cannot open udp:localhost:{port}")
    try:
        served = 0
        while served < sessions:
            activated = clf.listen(target, 30.0)
            if activated is None:
                sys.exit("nfcpy: no reader activated the tag within 30 s")
            tag = nfc.tag.emulate(clf, activated)
            tag.add_service(0x0009, read, write)
            tag.add_service(0x000B, read, lambda *args: False)
            command = tag.cmd
            while command:
                response = tag.process_command(command)
                try:
                    command = tag.send_response(response, timeout=5.0)
                except nfc.clf.BrokenLinkError:  # RFOFF
                    break
                except nfc.clf.TimeoutError:
                    break
            served += 1
    finally:
        clf.close()
    length = int.from_bytes(memory[11:14], "big")
    print(memory[16:16 + length].hex())


if __name__ == "__main__":
    main()
