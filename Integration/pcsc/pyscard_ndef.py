#!/usr/bin/env python3
"""Reads a tag's NDEF message through plain PC/SC with pyscard, independently of OpenCoreNFC.

    pyscard_ndef.py READER      prints the NDEF message as hex (empty line for none)

Storage tags are read with PC/SC Part 3 READ BINARY (FF B0): NFC Forum Type 2 (CC in page 3,
TLVs from page 4) and ISO/IEC 15693 Type 5 (CC in block 0, TLVs after it). ISO/IEC 14443-4
cards are read as NFC Forum Type 4 (NDEF application D2760000850101, CC file E103).
"""
import sys

from smartcard.System import readers

STORAGE_PREFIX = bytes.fromhex("804f0ca000000306")


def transmit(connection, apdu):
    data, sw1, sw2 = connection.transmit(list(apdu))
    return bytes(data), (sw1 << 8) | sw2


def check(sw, what):
    if sw != 0x9000:
        raise RuntimeError("%s: SW %04x" % (what, sw))


def historical_bytes(atr):
    # 3B 8F 80 01 <historical> TCK for the ATRs contactless readers build (PC/SC Part 3).
    return atr[4:4 + (atr[1] & 0x0F)]


def tlv_message(area):
    """The value of the first NDEF TLV (03) in a TLV area (NFC Forum Type 2 Tag §2.3)."""
    i = 0
    while i < len(area):
        tag = area[i]
        if tag == 0x00:
            i += 1
            continue
        if tag == 0xFE:
            break
        if i + 1 >= len(area):
            break
        length = area[i + 1]
        i += 2
        if length == 0xFF:
            length = (area[i] << 8) | area[i + 1]
            i += 2
        if tag == 0x03:
            return area[i:i + length]
        i += length
    return b""


def read_type2(connection):
    cc, sw = transmit(connection, [0xFF, 0xB0, 0x00, 0x03, 0x10])
    check(sw, "READ BINARY page 3")
    size = cc[2] * 8
    data = b""
    page = 4
    while len(data) < size:
        chunk, sw = transmit(connection, [0xFF, 0xB0, 0x00, page, 0x10])
        check(sw, "READ BINARY page %d" % page)
        data += chunk
        page += 4
    return tlv_message(data[:size])


def read_type5(connection):
    """NFC Forum Type 5 Tag §4.3: a 4-byte CC (MLEN in byte 2) or an 8-byte one (byte 2 = 0,
    MLEN in bytes 6-7); the TLV area follows the CC."""
    def block(number):
        data, sw = transmit(connection, [0xFF, 0xB0, (number >> 8) & 0x7F, number & 0xFF, 0x00])
        check(sw, "READ BINARY block %d" % number)
        return data

    cc = block(0)
    block_size = len(cc)
    if cc[2] == 0:
        while len(cc) < 8:
            cc += block(len(cc) // block_size)
        size = (cc[6] << 8 | cc[7]) * 8
        cc_length = 8
    else:
        size = cc[2] * 8
        cc_length = 4
    data = cc
    number = len(data) // block_size
    while len(data) < min(size, 8192):
        data += block(number)
        number += 1
    return tlv_message(data[cc_length:size])


def read_type4(connection):
    _, sw = transmit(connection, bytes.fromhex("00a4040007d276000085010100"))
    check(sw, "SELECT NDEF application")
    _, sw = transmit(connection, bytes.fromhex("00a4000c02e103"))
    check(sw, "SELECT CC file")
    cc, sw = transmit(connection, bytes.fromhex("00b000000f"))
    check(sw, "READ BINARY CC")
    file_id = cc[9:11]
    _, sw = transmit(connection, bytes.fromhex("00a4000c02") + file_id)
    check(sw, "SELECT NDEF file")
    nlen, sw = transmit(connection, bytes.fromhex("00b0000002"))
    check(sw, "READ BINARY NLEN")
    length = nlen[0] << 8 | nlen[1]
    message = b""
    while len(message) < length:
        offset = 2 + len(message)
        chunk, sw = transmit(connection, [0x00, 0xB0, offset >> 8, offset & 0xFF, min(0x80, length - len(message))])
        check(sw, "READ BINARY NDEF at %d" % offset)
        message += chunk
    return message


def read_ndef(reader_name):
    reader = next(r for r in readers() if str(r) == reader_name)
    connection = reader.createConnection()
    connection.connect()
    try:
        atr = bytes(connection.getATR())
        historical = historical_bytes(atr)
        if historical.startswith(STORAGE_PREFIX):
            standard = historical[8]
            if standard in (0x01, 0x02, 0x03):
                return read_type2(connection)
            if standard in (0x09, 0x0A, 0x0B, 0x0C):
                return read_type5(connection)
            raise RuntimeError("no plain-APDU NDEF reading for standard %02x" % standard)
        return read_type4(connection)
    finally:
        connection.disconnect()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    print(read_ndef(sys.argv[1]).hex())
