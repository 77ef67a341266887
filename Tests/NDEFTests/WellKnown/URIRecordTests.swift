import NDEF
import NFCTestSupport
import Testing

@Suite struct URIRecordTests {
    @Test func decodesTheRTDExample() throws {
        let uri = try URIRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: hexBytes("01 6e 66 63 2e 63 6f 6d")))
        #expect(uri.uri == "http://www.nfc.com")
        #expect(uri.prefix == .httpWWW)
    }

    @Test(arguments: URIPrefix.allCases)
    func everyPrefixRoundTrips(_ prefix: URIPrefix) throws {
        let record = NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: [prefix.rawValue] + Array("rest".utf8))
        let uri = try URIRecord(record)
        #expect(uri.uri == prefix.string + "rest")
        #expect(try uri.record() == record)
    }

    @Test func thereAreThirtySixCodes() {
        #expect(URIPrefix.allCases.count == 36)
        #expect(URIPrefix.allCases.last?.rawValue == 0x23)
        #expect(URIPrefix.urnNFC.string == "urn:nfc:")
        #expect(URIPrefix.ftpAnonymous.string == "ftp://anonymous:anonymous@")
    }

    @Test(arguments: [
        ("https://www.example.com", URIPrefix.httpsWWW, "example.com"),
        ("http://example.com", .http, "example.com"),
        ("urn:epc:id:sgtin:1", .urnEPCID, "sgtin:1"),
        ("urn:epc:x", .urnEPC, "x"),
        ("urn:isbn:1", .urn, "isbn:1"),
        ("ftp://ftp.example.com", .ftpFTP, "example.com"),
        ("ftp://anonymous:anonymous@host", .ftpAnonymous, "host"),
        ("tel:+4412345", .tel, "+4412345"),
        ("HTTPS://EXAMPLE.COM", .none, "HTTPS://EXAMPLE.COM"),
        ("geo:1,2", .none, "geo:1,2"),
    ])
    func encodingTakesTheLongestPrefix(_ uri: String, _ prefix: URIPrefix, _ rest: String) throws {
        let record = URIRecord(uri: uri)
        #expect(record.prefix == prefix)
        #expect(record.payload() == [prefix.rawValue] + Array(rest.utf8))
    }

    @Test func keepsANonLongestPrefixFromTheWire() throws {
        let record = NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: [0x00] + Array("https://x.org".utf8))
        #expect(try URIRecord(record).record() == record)
        #expect(throws: NDEFError.self) { try URIRecord(uri: "mailto:a@b", prefix: .tel) }
    }

    @Test func carriesIRIs() throws {
        let iri = "https://例え.jp/パス?q=ü"
        let record = try URIRecord(uri: iri).record()
        #expect(try URIRecord(record).uri == iri)
        #expect(URIRecord(uri: "http://x/ü").asciiURI == "http://x/%C3%BC")
    }

    @Test func rejectsBadPayloads() {
        func decode(_ hex: String, _ options: NDEFDecodingOptions = .strict) -> NDEFError? {
            ndefError { try URIRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: hexBytes(hex)), options: options) }
        }
        #expect(decode("")?.code == .invalidPayload)
        #expect(decode("24 61")?.code == .invalidPayload, "reserved identifier code")
        #expect(decode("24 61", .lenient) == nil)
        #expect(
            (try? URIRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: hexBytes("ff 61")), options: .lenient))?.uri == "a")
        #expect(decode("04 c3")?.code == .invalidEncoding)
    }
}
