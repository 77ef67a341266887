import NFCSimulator
import NFCeMRTD
import SwiftASN1
import Testing
import X509

/// CSCA master lists (ICAO Doc 9303 Part 12 §9): the certificates come out of the CMS; anything
/// else is a typed error. (`Integration/emrtd/check_emrtd.py` has OpenSSL make a real one.)
@Suite struct CSCAMasterListTests {
    /// ContentInfo { signedData, [0] SignedData { 3, {}, { contentType, [0] OCTET STRING list }, {} } }.
    static func masterList(_ certificates: [[UInt8]], contentType: ASN1ObjectIdentifier = [2, 23, 136, 1, 1, 2]) throws -> [UInt8] {
        var list = DER.Serializer()
        try list.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(0)
            coder.appendConstructedNode(identifier: .set) { coder in
                for certificate in certificates { coder.serializeRawBytes(certificate) }
            }
        }
        let content = list.serializedBytes
        let zero = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
        var info = DER.Serializer()
        try info.appendConstructedNode(identifier: .sequence) { coder in
            let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
            try coder.serialize(signedData)
            try coder.appendConstructedNode(identifier: zero) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(3)
                    coder.appendConstructedNode(identifier: .set) { _ in }
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(contentType)
                        try coder.appendConstructedNode(identifier: zero) { coder in
                            try coder.serialize(ASN1OctetString(contentBytes: content[...]))
                        }
                    }
                    coder.appendConstructedNode(identifier: .set) { _ in }
                }
            }
        }
        return info.serializedBytes
    }

    @Test("two CSCAs come out of the list, in order, and verify the Document Signers they issued")
    func certificatesComeOut() async throws {
        let first = try PassportIssuer.issue(PassportHolder())
        let second = try PassportIssuer.issue(PassportHolder())
        let bytes = try Self.masterList([first.cscaCertificate, second.cscaCertificate])
        #expect(CSCAMasterList.isMasterList(bytes))
        let anchors = try CSCAMasterList.certificates(bytes)
        #expect(anchors == [try Certificate(derEncoded: first.cscaCertificate), try Certificate(derEncoded: second.cscaCertificate)])
        let reading = try await PassportReader(
            transmitter: try await FieldTransmitter.connect(to: PassportApplet.card(second)), trustAnchors: anchors
        ).read(access: .mrz(PassportReaderTests.specimen), files: [.dataGroup(1)])
        #expect(reading.passiveAuthentication.verdict.passed, "\(reading.passiveAuthentication.verdict)")
    }

    @Test("another content type, a truncated list, a certificate that is not one: malformedFile")
    func refusals() throws {
        let csca = try PassportIssuer.issue(PassportHolder()).cscaCertificate
        let sod = try Self.masterList([csca], contentType: [2, 23, 136, 1, 1, 1])
        #expect(!CSCAMasterList.isMasterList(sod))
        let good = try Self.masterList([csca])
        for bytes in [sod, Array(good.dropLast(5)), try Self.masterList([[0x30, 0x03, 0x02, 0x01, 0x00]]), [], [0x30, 0x00]] {
            let error = #expect(throws: EMRTDError.self) { try CSCAMasterList.certificates(bytes) }
            #expect(error?.code == .malformedFile && error?.file == "CSCA master list")
        }
    }
}
