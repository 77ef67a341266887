import NDEF
import NFCTestSupport
import Testing

@Suite struct DeviceInformationRecordTests {
    @Test func roundTripsWithEveryField() throws {
        let di = DeviceInformationRecord(
            manufacturer: "ACME", model: "Tag-1", deviceName: "Kitchen", uuid: Array(0..<16), firmwareVersion: "1.2.3",
            otherElements: [.init(tag: 0x20, value: [9, 9])])
        let record = try di.record()
        #expect(record.payload.prefix(8) == [0x00, 0x04] + Array("ACME".utf8) + [0x01, 0x05][...])
        #expect(try DeviceInformationRecord(record) == di)
        #expect(di.uuidString == "00010203-0405-0607-0809-0a0b0c0d0e0f")
    }

    @Test func rejectsMalformedTLVs() {
        func decode(_ hex: String) -> NDEFError? {
            ndefError { try DeviceInformationRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "Di", payload: hexBytes(hex))) }
        }
        #expect(decode("00 01 41")?.code == .invalidPayload, "model missing")
        #expect(decode("00 01 41 01 05 42")?.code == .invalidPayload, "length past the end")
        #expect(decode("00 01 41 01 01 42 03 02 00 00")?.code == .invalidPayload, "UUID of 2 bytes")
        #expect(decode("00 01 41 01 01 42 05")?.code == .invalidPayload, "element without length")
        #expect(decode("00 01 41 01 01 42") == nil)
        #expect(ndefError { try DeviceInformationRecord(manufacturer: "", model: "x").record() }?.code == .invalidValue)
    }
}

@Suite struct SignatureRecordTests {
    @Test func roundTripsSignatureAndChain() throws {
        let sig = SignatureRecord(
            signatureType: 0x0B, hashType: 0x02, signature: Array(repeating: 0xAB, count: 64), certificateFormat: 0,
            certificates: [[1, 2, 3], [4, 5]], certificateURI: "https://example.com/chain")
        let record = try sig.record()
        #expect(record.payload.prefix(4) == [0x20, 0x0B, 0x02, 0x00])
        #expect(try SignatureRecord(record) == sig)
    }

    @Test func roundTripsSignatureURI() throws {
        let sig = SignatureRecord(signatureType: 0x0B, hashType: 0x02, signatureURI: "https://example.com/sig")
        let record = try sig.record()
        #expect(record.payload[1] == 0x8B)
        #expect(try SignatureRecord(record) == sig)
    }

    @Test func everyProperPrefixIsRejected() throws {
        let payload = try SignatureRecord(signatureType: 1, hashType: 2, signature: [1, 2, 3], certificates: [[7]], certificateURI: "u")
            .record().payload
        for n in 0..<payload.count {
            let error = ndefError {
                try SignatureRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "Sig", payload: Array(payload.prefix(n))))
            }
            #expect(error?.code == .invalidPayload, "prefix \(n)")
        }
        #expect(
            ndefError { try SignatureRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "Sig", payload: [0x10] + payload.dropFirst())) }?
                .code == .invalidPayload)
        #expect(
            ndefError { try SignatureRecord(signatureType: 1, hashType: 2, certificates: Array(repeating: [1], count: 16)).record() }?.code
                == .invalidValue)
    }
}

@Suite struct MIMEAndExternalRecordTests {
    @Test(arguments: ["text/plain", "image/png", "application/vnd.wfa.wsc", "text/plain; charset=utf-8", "a/b+c"])
    func acceptsMediaTypes(_ type: String) throws {
        let record = try MIMERecord(mimeType: type, data: [1]).record()
        #expect(try MIMERecord(record).mimeType == type)
    }

    @Test(arguments: ["text", "/plain", "text/", "te xt/plain", "text/pl@in", "tëxt/plain"])
    func rejectsNonMediaTypes(_ type: String) {
        #expect(ndefError { try MIMERecord(mimeType: type, data: []).record() }?.code == .invalidValue)
        #expect(ndefError { try MIMERecord(NDEFRecord(typeNameFormat: .media, type: type)) }?.code == .invalidValue)
        #expect(throws: Never.self) { try MIMERecord(NDEFRecord(typeNameFormat: .media, type: type), options: .lenient) }
    }

    @Test func externalTypesNeedDomainAndType() throws {
        let record = try ExternalRecord(typeName: "example.com:my-type", payload: [1]).record()
        #expect(record.typeNameFormat == .external)
        let ext = try ExternalRecord(record)
        #expect(ext.domain == "example.com" && ext.name == "my-type")
        for bad in ["example.com", ":type", "example.com:", "exa mple.com:t", "example.com:t y", "ex_ample.com:t"] {
            #expect(ndefError { try ExternalRecord(typeName: bad, payload: []) }?.code == .invalidValue, "\(bad)")
        }
        #expect(ndefError { try ExternalRecord(NDEFRecord(typeNameFormat: .media, type: "a/b")) }?.code == .unexpectedRecordType)
    }

    @Test func typedViewIsChosenByTNFAndType() throws {
        #expect(try NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: [4, 0x61]).typed() == .uri(URIRecord(uri: "https://a")))
        #expect(try NDEFRecord(typeNameFormat: .wellKnown, type: "Zz", payload: [1]).typed() == nil)
        #expect(try NDEFRecord(typeNameFormat: .absoluteURI, type: "http://x").typed() == nil)
        #expect(ndefError { try NDEFRecord(typeNameFormat: .wellKnown, type: "T", payload: []).typed() }?.code == .invalidPayload)
        // Types that break the naming rules (found by the ndeflib differential run).
        #expect(ndefError { try NDEFRecord(typeNameFormat: .absoluteURI, type: "Hi").typed() }?.code == .invalidValue)
        #expect(ndefError { try NDEFRecord(typeNameFormat: .wellKnown, type: [0xD5]).typed() }?.code == .invalidValue)
        #expect(try NDEFRecord(typeNameFormat: .absoluteURI, type: [0xD5]).typed(options: .lenient) == nil)
        #expect(
            ndefError { try URIRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: [4, 0x61, 0x0F])) }?.code
                == .invalidPayload)
    }
}
