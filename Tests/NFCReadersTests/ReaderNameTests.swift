import NFCReaders
import Testing

/// The one grammar for reader names (the CLI's `--reader` and `OPENCORENFC_READER`).
struct ReaderNameTests {
    @Test(arguments: [
        ("sim", ReaderName.simulator(path: nil)),
        ("sim:/tmp/tag.json", .simulator(path: "/tmp/tag.json")),
        ("sim:relative:with:colons", .simulator(path: "relative:with:colons")),
        ("pcsc", .pcsc(filter: nil)),
        ("pcsc:ACR122", .pcsc(filter: "ACR122")),
        ("ACS ACR122U PICC Interface 00 00", .pcsc(filter: "ACS ACR122U PICC Interface 00 00")),
        ("simulator", .pcsc(filter: "simulator")),
        ("pn532:/dev/ttyUSB0", .pn532(path: "/dev/ttyUSB0", baudRate: nil)),
        ("pn532:/dev/ttyUSB0:921600", .pn532(path: "/dev/ttyUSB0", baudRate: 921_600)),
        ("pn532:/tmp/a:b", .pn532(path: "/tmp/a:b", baudRate: nil)),
        ("pn532-target:/tmp/pn532", .pn532Target(path: "/tmp/pn532")),
        ("nfcpy-udp:54321", .nfcpyUDP(host: "localhost", port: 54321)),
        ("nfcpy-udp:127.0.0.1:50000", .nfcpyUDP(host: "127.0.0.1", port: 50000)),
    ])
    func parses(_ text: String, _ expected: ReaderName) throws {
        #expect(try ReaderName(parsing: text) == expected)
    }

    @Test(arguments: [
        ("", ReaderNameError.Code.empty),
        ("sim:", .missingArgument),
        ("pcsc:", .missingArgument),
        ("pn532:", .missingArgument),
        ("pn532::115200", .missingArgument),
        ("pn532:/dev/ttyUSB0:12345", .invalidArgument),
        ("pn532-target:", .missingArgument),
        ("nfcpy-udp:", .missingArgument),
        ("nfcpy-udp::50000", .missingArgument),
        ("nfcpy-udp:localhost:0", .invalidArgument),
        ("nfcpy-udp:localhost:65536", .invalidArgument),
        ("nfcpy-udp:localhost:http", .invalidArgument),
    ])
    func refuses(_ text: String, _ code: ReaderNameError.Code) {
        #expect(throws: ReaderNameError(code, "")) { try ReaderName(parsing: text) }
    }

    /// Every name prints in the grammar's own spelling, which parses back to the same name.
    @Test(arguments: [
        "sim", "sim:a.json", "pcsc", "pcsc:Omnikey", "pn532:/dev/ttyS0", "pn532:/dev/ttyS0:9600", "pn532-target:/tmp/t",
        "nfcpy-udp:localhost:54321",
    ])
    func roundTrips(_ text: String) throws {
        let name = try ReaderName(parsing: text)
        #expect(name.description == text)
        #expect(try ReaderName(parsing: name.description) == name)
    }

    @Test func aBareNameIsAPCSCFilter() throws {
        #expect(try ReaderName(parsing: "Omnikey").description == "pcsc:Omnikey")
        #expect(try ReaderName(parsing: "Omnikey").isSimulator == false)
        #expect(try ReaderName(parsing: "sim").isSimulator)
    }
}
