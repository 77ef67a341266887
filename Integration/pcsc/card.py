"""A card in a PC/SC reader through pyscard, with a log of the APDUs for failure reports."""
from smartcard.System import readers


class Card:
    def __init__(self, reader_name):
        matching = [r for r in readers() if str(r) == reader_name]
        if not matching:
            raise RuntimeError("pyscard lists no reader %r" % reader_name)
        self.connection = matching[0].createConnection()
        self.connection.connect()
        self.log = []

    def transmit(self, apdu):
        data, sw1, sw2 = self.connection.transmit(list(apdu))
        data, sw = bytes(data), (sw1 << 8) | sw2
        self.log.append("> %s\n< %s %04X" % (bytes(apdu).hex().upper(), data.hex().upper(), sw))
        return data, sw

    def close(self):
        self.connection.disconnect()


def expect(card, apdu, what, sw_wanted=0x9000):
    data, sw = card.transmit(apdu)
    if sw != sw_wanted:
        raise RuntimeError("%s: %s answered %04X, not %04X" % (what, bytes(apdu).hex().upper(), sw, sw_wanted))
    return data


def connect(reader_name):
    """A raw pyscard connection to the card in READER_NAME (for checks that want every byte)."""
    reader = next(r for r in readers() if str(r) == reader_name)
    connection = reader.createConnection()
    connection.connect()
    return connection


def raw(connection, apdu):
    """The reader's whole answer to APDU (hex, spaces allowed), status word included — or not:
    some readers' own commands (ACS's Get Firmware Version) answer without one."""
    data, sw1, sw2 = connection.transmit(list(bytes.fromhex(apdu.replace(" ", ""))))
    return bytes(data + [sw1, sw2])
