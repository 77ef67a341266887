import NDEF
import NFCTestSupport
import Testing

/// The URI identifier codes typed out from NFC Forum URI Record Type Definition 1.0 §3.2.2,
/// Table 3 — an outside copy, so a slip in the library's table (two entries swapped, a typo)
/// cannot pass by comparing the table with itself.
@Suite struct URIPrefixTableTests {
    static let table: [(UInt8, String)] = [
        (0x00, ""), (0x01, "http://www."), (0x02, "https://www."), (0x03, "http://"), (0x04, "https://"),
        (0x05, "tel:"), (0x06, "mailto:"), (0x07, "ftp://anonymous:anonymous@"), (0x08, "ftp://ftp."),
        (0x09, "ftps://"), (0x0A, "sftp://"), (0x0B, "smb://"), (0x0C, "nfs://"), (0x0D, "ftp://"),
        (0x0E, "dav://"), (0x0F, "news:"), (0x10, "telnet://"), (0x11, "imap:"), (0x12, "rtsp://"),
        (0x13, "urn:"), (0x14, "pop:"), (0x15, "sip:"), (0x16, "sips:"), (0x17, "tftp:"),
        (0x18, "btspp://"), (0x19, "btl2cap://"), (0x1A, "btgoep://"), (0x1B, "tcpobex://"),
        (0x1C, "irdaobex://"), (0x1D, "file://"), (0x1E, "urn:epc:id:"), (0x1F, "urn:epc:tag:"),
        (0x20, "urn:epc:pat:"), (0x21, "urn:epc:raw:"), (0x22, "urn:epc:"), (0x23, "urn:nfc:"),
    ]

    @Test(arguments: table)
    func eachCodeStandsForItsTableText(code: UInt8, text: String) throws {
        #expect(URIPrefix(rawValue: code)?.string == text)
        // Decoding a record with this code and a suffix gives the table's text plus the suffix.
        let record = NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: [code] + Array("x.example/p".utf8))
        #expect(try URIRecord(record).uri == text + "x.example/p")
    }

    @Test func encodingPicksTheLongestTableEntry() throws {
        for (code, text) in Self.table where code != 0 {
            let uri = text + "host.example"
            let longest = Self.table.filter { !$0.1.isEmpty && uri.hasPrefix($0.1) }.max { $0.1.count < $1.1.count }
            let encoded = try URIRecord(uri: uri).record().payload
            #expect(encoded.first == longest?.0, "\(uri)")
            #expect(Array(encoded.dropFirst()) == Array(uri.utf8.dropFirst(longest?.1.utf8.count ?? 0)))
        }
    }

    @Test func codesAfterTheTableAreReserved() {
        for code in UInt8(0x24)...0xFF { #expect(URIPrefix(rawValue: code) == nil) }
    }
}
