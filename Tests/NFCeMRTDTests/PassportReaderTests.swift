import Foundation
import ISO7816
import NFCSimulator
import NFCeMRTD
import Testing
import X509

/// The client reading virtual passports end to end: BAC, secure messaging, every file, parsing and
/// passive authentication, and each failure a reader meets.
@Suite struct PassportReaderTests {
    static let specimen = try! MRZKey(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415")

    static func issued(_ holder: PassportHolder = PassportHolder()) throws -> (ISO7816Card, Certificate) {
        let applet = try PassportIssuer.issue(holder)
        return (PassportApplet.card(applet), try Certificate(derEncoded: applet.cscaCertificate))
    }

    @Test("BAC, every file, DG1/DG2/DG11/DG12 parsed, passive authentication passes with the issuing CSCA")
    func readsAPassport() async throws {
        let (card, csca) = try Self.issued()
        let reader = PassportReader(transmitter: try await FieldTransmitter.connect(to: card), trustAnchors: [csca])
        let reading = try await reader.read(access: .bac(Self.specimen))
        #expect(reading.accessProtocol == .bac)
        #expect(reading.mrz.format == .td3)
        #expect(reading.mrz.primaryIdentifier == "ERIKSSON")
        #expect(reading.mrz.secondaryIdentifier == "ANNA MARIA")
        #expect(reading.mrz.documentNumber == "L898902C3")
        #expect(reading.mrz.optionalData == "ZE184226B")
        #expect(
            reading.common.dataGroups == [
                .dataGroup(1), .dataGroup(2), .dataGroup(3), .dataGroup(11), .dataGroup(12), .dataGroup(14), .dataGroup(15),
            ])
        let face = try #require(reading.face)
        #expect(face.format == .jpeg)
        #expect((face.width, face.height) == (30, 40))
        #expect(face.data.starts(with: [0xFF, 0xD8]) && face.data.suffix(2) == [0xFF, 0xD9])
        #expect(reading.personalDetails?.fields.first { $0.name == "place of birth" }?.value == "ZENITH")
        #expect(reading.documentDetails?.fields.first { $0.name == "issuing authority" }?.value == "OPENCORENFC TEST AUTHORITY")
        // DG3 needs extended access control: refused, so the reading says it is partial.
        #expect(reading.refused[.dataGroup(3)]?.code == .securityStatusNotSatisfied)
        #expect(!reading.isComplete)
        #expect(reading.passiveAuthentication.verdict.passed, "\(reading.passiveAuthentication.verdict)")
        #expect(reading.passiveAuthentication.dataGroupHashes == [1: true, 2: true, 11: true, 12: true, 14: true, 15: true])
    }

    @Test("short APDUs only: files over 223 bytes are read in several protected READ BINARYs")
    func readsWithShortAPDUs() async throws {
        var holder = PassportHolder()
        holder.face = Array(repeating: 0xAB, count: 5_000)
        let (card, csca) = try Self.issued(holder)
        let reader = PassportReader(transmitter: try await FieldTransmitter.connect(to: card, extended: false), trustAnchors: [csca])
        let reading = try await reader.read(access: .bac(Self.specimen), files: [.dataGroup(2)])
        #expect(reading.face?.data == holder.face)
        #expect(reading.face?.format == .jpeg2000, "bytes without a JPEG marker are taken as JPEG 2000")
        #expect(reading.passiveAuthentication.verdict.passed)
    }

    @Test("an ID card: TD1 MRZ")
    func readsAnIDCard() async throws {
        let holder = PassportHolder(kind: .idCard, documentNumber: "D23145890", personalNumber: "")
        let (card, csca) = try Self.issued(holder)
        let key = try MRZKey(documentNumber: "D23145890", dateOfBirth: "740812", dateOfExpiry: "120415")
        let reading = try await PassportReader(transmitter: try await FieldTransmitter.connect(to: card), trustAnchors: [csca])
            .read(access: .bac(key))
        #expect(reading.mrz.format == .td1)
        #expect(reading.mrz.documentCode == "I")
        #expect(reading.mrz.documentNumber == "D23145890")
    }

    @Test("a wrong MRZ: BAC refused with 6300, accessDenied")
    func wrongMRZ() async throws {
        let (card, _) = try Self.issued()
        let wrong = try MRZKey(documentNumber: "L898902C3", dateOfBirth: "740813", dateOfExpiry: "120415")
        let reader = PassportReader(transmitter: try await FieldTransmitter.connect(to: card))
        let error = await #expect(throws: EMRTDError.self) { try await reader.read(access: .bac(wrong)) }
        #expect(error?.code == .accessDenied)
        #expect(error?.statusWord == StatusWord(rawValue: 0x6300))
    }

    @Test("without BAC the chip refuses READ BINARY (6982), and DG1 is required")
    func noAccessControlOnABACChip() async throws {
        let (card, _) = try Self.issued()
        let reader = PassportReader(transmitter: try await FieldTransmitter.connect(to: card))
        let error = await #expect(throws: EMRTDError.self) { try await reader.read(access: .none) }
        #expect(error?.code == .securityStatusNotSatisfied)
        #expect(error?.file == "EF.COM")
    }

    @Test("a chip without BAC is read plainly")
    func chipWithoutBAC() async throws {
        let holder = PassportHolder(bac: false, pace: nil)
        let (card, csca) = try Self.issued(holder)
        let reading = try await PassportReader(transmitter: try await FieldTransmitter.connect(to: card), trustAnchors: [csca])
            .read(access: .none)
        #expect(reading.accessProtocol == .none)
        #expect(reading.passiveAuthentication.verdict.passed)
    }

    @Test("the MRZ on a chip with PACE: PACE (brainpoolP256r1, AES-128) is run first, and the files read under AES secure messaging")
    func paceWithTheMRZ() async throws {
        let (card, csca) = try Self.issued()
        let reading = try await PassportReader(transmitter: try await FieldTransmitter.connect(to: card), trustAnchors: [csca])
            .read(access: .mrz(Self.specimen))
        #expect(reading.accessProtocol == .pace)
        #expect(reading.pace?.parameterIdentifier == 13 && reading.pace?.aesKeyLength == 16)
        #expect(reading.mrz.documentNumber == "L898902C3")
        #expect(reading.passiveAuthentication.verdict.passed)
    }

    @Test("the CAN, on P-256, with short APDUs")
    func paceWithTheCAN() async throws {
        let holder = PassportHolder(kind: .idCard, pace: PassportApplet.PACESettings(parameterIdentifier: 12, can: "271828"))
        let (card, csca) = try Self.issued(holder)
        let reading = try await PassportReader(
            transmitter: try await FieldTransmitter.connect(to: card, extended: false), trustAnchors: [csca]
        )
        .read(access: .pace(.can("271828")))
        #expect(reading.accessProtocol == .pace && reading.pace?.parameterIdentifier == 12)
        #expect(reading.face != nil && reading.passiveAuthentication.verdict.passed)
    }

    @Test("a wrong CAN: accessDenied (6300 to the terminal's token)")
    func wrongCAN() async throws {
        let (card, _) = try Self.issued()
        let reader = PassportReader(transmitter: try await FieldTransmitter.connect(to: card))
        let error = await #expect(throws: EMRTDError.self) { try await reader.read(access: .pace(.can("123457"))) }
        #expect(error?.code == .accessDenied)
    }

    @Test("the MRZ on a BAC-only chip falls back to BAC; PACE alone is refused there; BAC on a PACE-only chip fails")
    func fallbacks() async throws {
        let (bacOnly, _) = try Self.issued(PassportHolder(pace: nil))
        let reading = try await PassportReader(transmitter: try await FieldTransmitter.connect(to: bacOnly)).read(
            access: .mrz(Self.specimen))
        #expect(reading.accessProtocol == .bac)
        let noPACE = await #expect(throws: EMRTDError.self) {
            try await PassportReader(transmitter: try await FieldTransmitter.connect(to: bacOnly)).read(access: .pace(.mrz(Self.specimen)))
        }
        #expect(noPACE?.code == .unsupportedAlgorithm)
        let (paceOnly, _) = try Self.issued(PassportHolder(bac: false))
        let noBAC = await #expect(throws: EMRTDError.self) {
            try await PassportReader(transmitter: try await FieldTransmitter.connect(to: paceOnly)).read(access: .bac(Self.specimen))
        }
        #expect(noBAC?.code == .unexpectedStatus && noBAC?.statusWord == StatusWord(rawValue: 0x6D00))
    }

    @Test("a data group altered after signing: tamperedDataGroup naming it")
    func tamperedDataGroup() async throws {
        var (card, csca) = try Self.issued()
        var applet = try #require(card.passport)
        let index = try #require(applet.files.firstIndex { $0.identifier == 0x010B })
        applet.files[index].content[applet.files[index].content.count - 1] ^= 0x01  // DG11's place of birth
        card.passport = applet
        let reading = try await PassportReader(transmitter: try await FieldTransmitter.connect(to: card), trustAnchors: [csca])
            .read(access: .bac(Self.specimen))
        #expect(reading.passiveAuthentication.dataGroupHashes[11] == false)
        guard case .failed(let error) = reading.passiveAuthentication.verdict else {
            Issue.record("expected a failure, got \(reading.passiveAuthentication.verdict)")
            return
        }
        #expect(error.code == .tamperedDataGroup)
        #expect(error.file == "DG11")
    }

    @Test("another country's CSCA: untrustedSigner; none given: not checked")
    func unknownCSCA() async throws {
        let (card, _) = try Self.issued()
        let (_, otherCSCA) = try Self.issued()
        let reading = try await PassportReader(transmitter: try await FieldTransmitter.connect(to: card), trustAnchors: [otherCSCA])
            .read(access: .bac(Self.specimen))
        guard case .failed(let error) = reading.passiveAuthentication.chain else {
            Issue.record("expected a failure, got \(reading.passiveAuthentication.chain)")
            return
        }
        #expect(error.code == .untrustedSigner)
        #expect(reading.passiveAuthentication.signature.passed, "the signature itself is sound")
        let unchecked = try await PassportReader(transmitter: try await FieldTransmitter.connect(to: card)).read(
            access: .bac(Self.specimen))
        guard case .notChecked = unchecked.passiveAuthentication.verdict else {
            Issue.record("no CSCA: expected not checked, got \(unchecked.passiveAuthentication.verdict)")
            return
        }
    }

    @Test("a signature that does not verify: invalidSignature")
    func badSignature() async throws {
        var (card, csca) = try Self.issued()
        var applet = try #require(card.passport)
        let index = try #require(applet.files.firstIndex { $0.identifier == 0x011D })
        // The ECDSA signature ends the file: flip a bit of its last byte (s stays a valid DER integer).
        applet.files[index].content[applet.files[index].content.count - 1] ^= 0x01
        card.passport = applet
        let reading = try await PassportReader(transmitter: try await FieldTransmitter.connect(to: card), trustAnchors: [csca])
            .read(access: .bac(Self.specimen))
        guard case .failed(let error) = reading.passiveAuthentication.signature else {
            Issue.record("expected a failure, got \(reading.passiveAuthentication.signature)")
            return
        }
        #expect(error.code == .invalidSignature)
    }
}
