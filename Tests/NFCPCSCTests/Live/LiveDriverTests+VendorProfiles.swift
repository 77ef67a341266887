import Foundation
import NFCBytes
import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCPCSC

/// The driver's HID OMNIKEY and Identiv uTrust profiles against the emulated readers (the other
/// reading of the same sources) through a real pcscd and vpcd. vpcd's reader name tells nothing,
/// so the OMNIKEY is found by HID's product-name probe and the uTrust, which has no probe through
/// an APDU, is given. Part of ``LiveDriverTests``: the same vpcd slot, so the same serialized suite.
extension LiveDriverTests {
    static let ndefText = hexBytes("d1010b5402656e7063736320746167")  // Text "pcsc tag"

    func roundTrip(_ connection: PCSCConnection, _ target: TargetInfo) async throws {
        let engine = TagEngines.engine(for: TagFamily(target))
        try await engine.writeNDEF(Self.ndefText, on: connection)
        #expect(try await engine.readNDEF(on: connection).message == Self.ndefText)
    }

    @Test(
        "OMNIKEY 5022, probed: NDEF written and read back with READ and UPDATE BINARY (NTAG216, SLIX2) and APDUs (Type 4)",
        arguments: [VirtualTagKind.ntag216, .slix2, .type4])
    func omnikeyNDEFRoundTrip(kind: VirtualTagKind) async throws {
        try await withEmulatedReader(try kind.make(), profile: .omnikey5022) { connection, target in
            #expect(connection.profile == .omnikey5022)
            #expect(connection.mode == (kind == .type4 ? .passThrough : .pseudoAPDUs))
            if kind == .type4 { #expect(connection.limits.maxCommandLength == 510 && connection.limits.extendedLengthAPDUs) }
            try await roundTrip(connection, target)
        }
    }

    @Test("OMNIKEY 5427 CK, probed by its product name; a FeliCa card is identified but cannot be read (an error naming the reader)")
    func omnikey5427FeliCa() async throws {
        let tag = try VirtualTagKind.felicaLiteS.make()
        try await withEmulatedReader(tag, profile: .omnikey5427) { connection, target in
            #expect(connection.profile == .omnikey5427 && connection.mode == .pseudoAPDUs)
            #expect(target.identifier == tag.identifier)
            do {
                _ = try await TagEngines.engine(for: TagFamily(target)).readNDEF(on: connection)
                Issue.record("a FeliCa read went through an OMNIKEY")
            } catch {
                #expect("\(error)".contains("HID OMNIKEY 5427 CK"), "\(error)")
            }
        }
    }

    @Test("OMNIKEY: a page the tag refuses is a NAK, not data; a page written reads back")
    func omnikeyRefusal() async throws {
        try await withEmulatedReader(try VirtualTagKind.ntag216.make(), profile: .omnikey5022) { connection, _ in
            let refused = try await connection.transceive([0x30, 0xFF], timeout: .milliseconds(50))
            #expect(refused == [0x00])
            let written = try await connection.transceive([0xA2, 0x20, 1, 2, 3, 4], timeout: .milliseconds(50))
            #expect(written == [0x0A])
            let read = try await connection.transceive([0x30, 0x20], timeout: .milliseconds(50))
            #expect(read.prefix(4) == [1, 2, 3, 4])
        }
    }

    @Test(
        "uTrust 3700 F, given: NDEF written and read back — NTAG216 four READ BINARY a READ, FeliCa Lite-S through FF 46/FF 48, Type 4",
        arguments: [VirtualTagKind.ntag216, .felicaLiteS, .type4])
    func uTrustNDEFRoundTrip(kind: VirtualTagKind) async throws {
        let driver = PCSCDriver(readerFilter: LivePCSC.Slot.second.reader, profile: .utrust3700f)
        let tag = try kind.make()
        try await withEmulatedReader(tag, profile: .utrust3700f, driver: driver) { connection, target in
            #expect(connection.profile == .utrust3700f)
            if case .felica(let felica) = target.parameters, case .felica(let expected) = tag.parameters {
                #expect(felica.pmm == expected.pmm, "PMm from FF 40")
            }
            try await roundTrip(connection, target)
        }
    }

    @Test("uTrust: READ of the last page rolls over to page 0 as the tag's own READ does")
    func uTrustRollOver() async throws {
        let driver = PCSCDriver(readerFilter: LivePCSC.Slot.second.reader, profile: .utrust3700f)
        try await withEmulatedReader(try VirtualTagKind.ntag213.make(), profile: .utrust3700f, driver: driver) { connection, _ in
            let first = try await connection.transceive([0x30, 0x00], timeout: .milliseconds(50))
            let last = try await connection.transceive([0x30, 0x2C], timeout: .milliseconds(50))
            #expect(last.count == 16)
            #expect(Array(last.suffix(12)) == Array(first.prefix(12)), "pages 00–02 after page 2C")
        }
    }

    @Test("a uTrust taken for a generic reader: a 4-byte READ BINARY is an error that names the profile to use, not a short READ")
    func uTrustNotRecognised() async throws {
        try await withEmulatedReader(try VirtualTagKind.ntag216.make(), profile: .utrust3700f) { connection, _ in
            #expect(connection.profile == .generic && connection.mode == .pseudoAPDUs)
            do {
                _ = try await connection.transceive([0x30, 0x04], timeout: .milliseconds(50))
                Issue.record("a 4-byte answer passed for a READ")
            } catch let error as TransportError {
                #expect(error.code == .protocolViolation && error.reason.contains("utrust3700f"))
            }
        }
    }
}

extension LiveDriverTests {
    @Test(
        "ACR1252U and ACR1552U, given: NDEF through their transparent sessions (NTAG216, FeliCa Lite-S, SLIX2 on the ACR1552U) and APDUs (Type 4)",
        arguments: [
            (EmulatedReaderProfile.acr1252u, VirtualTagKind.ntag216), (.acr1252u, .felicaLiteS), (.acr1252u, .type4),
            (.acr1552u, .slix2), (.acr1552u, .ntag216),
        ])
    func acsNDEFRoundTrip(profile: EmulatedReaderProfile, kind: VirtualTagKind) async throws {
        let given = try ReaderProfile.named(profile.rawValue)
        let driver = PCSCDriver(readerFilter: LivePCSC.Slot.second.reader, profile: given)
        try await withEmulatedReader(try kind.make(), profile: profile, driver: driver) { connection, target in
            #expect(connection.profile == given)
            #expect(connection.mode == (kind == .type4 ? .passThrough : .transparentSession))
            if kind == .type4 { #expect(connection.limits.maxCommandLength == (profile == .acr1252u ? 512 : 506)) }
            if kind == .ntag216 {
                let fast = try await connection.transceive([0x3A, 0x00, 0x0F], timeout: .milliseconds(50))
                #expect(fast.count == 64, "FAST_READ through the transparent session")
            }
            try await roundTrip(connection, target)
        }
    }
}
