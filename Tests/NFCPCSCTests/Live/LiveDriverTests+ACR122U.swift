import Foundation
import NFCBytes
import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCPCSC

/// The driver's ACR122U profile against the emulated ACR122U (`EmulatedReaderProfile.acr122u`,
/// the other reading of ACS's manual) through a real pcscd and vpcd, whose reader name tells
/// nothing: the profile is found by the firmware probe, or given. Part of ``LiveDriverTests``:
/// the same vpcd slot, so the same serialized suite.
extension LiveDriverTests {
    /// Serves `tag` behind an emulated ACR122U and hands `body` a connection from `driver`.
    func withACR122U(
        _ tag: any VirtualTag, driver given: PCSCDriver? = nil,
        _ body: (PCSCConnection, TargetInfo) async throws -> Void
    ) async throws {
        try await withEmulatedReader(tag, profile: .acr122u, driver: given, body)
    }

    /// Serves `tag` behind an emulated reader of `profile` and hands `body` a connection from
    /// `driver`; the card goes, and pcscd has seen it go, before this returns.
    func withEmulatedReader(
        _ tag: any VirtualTag, profile: EmulatedReaderProfile, driver given: PCSCDriver? = nil,
        _ body: (PCSCConnection, TargetInfo) async throws -> Void
    ) async throws {
        let driver = given ?? self.driver
        var events = await driver.events(matching: .all).makeAsyncIterator()
        let card = LiveCard(tag, profile: profile)
        defer { card.stop() }
        guard case .targetArrived(let target)? = await LiveDriverTests.next(&events, LiveDriverTests.arrived) else {
            Issue.record("the card never arrived")
            return
        }
        let connection = try #require(try await driver.connect(to: target, meter: AirTimeMeter()) as? PCSCConnection)
        do {
            try await body(connection, target)
        } catch {
            await connection.disconnect()
            card.stop()
            _ = await LiveDriverTests.next(&events, LiveDriverTests.left)
            throw error
        }
        await connection.disconnect()
        card.stop()
        _ = await LiveDriverTests.next(&events, LiveDriverTests.left)
    }

    @Test(
        "probed as an ACR122U: NDEF written and read back through Direct Transmit (NTAG216, FeliCa Lite-S) and short APDUs (Type 4)",
        arguments: [VirtualTagKind.ntag216, .felicaLiteS, .type4])
    func acr122uNDEFRoundTrip(kind: VirtualTagKind) async throws {
        try await withACR122U(try kind.make()) { connection, target in
            #expect(connection.profile == .acr122u)
            #expect(connection.mode == (kind == .type4 ? .passThrough : .directTransmit))
            #expect(connection.limits.nativeCommands == .all)
            #expect(!connection.limits.extendedLengthAPDUs, "short APDUs only")
            let engine = TagEngines.engine(for: TagFamily(target))
            let message = hexBytes("d1010b5402656e7063736320746167")  // Text "pcsc tag"
            try await engine.writeNDEF(message, on: connection)
            let read = try await engine.readNDEF(on: connection)
            #expect(read.message == message)
        }
    }

    @Test("FeliCa: the ACR122U's ATR (03 F0 11) is FeliCa, and its PMm comes from a Polling through Direct Transmit")
    func acr122uFeliCaIdentification() async throws {
        let tag = try VirtualTagKind.felicaLiteS.make()
        try await withACR122U(tag) { _, target in
            guard case .felica(let felica) = target.parameters, case .felica(let expected) = tag.parameters else {
                Issue.record("not FeliCa: \(target)")
                return
            }
            #expect(target.identifier == tag.identifier)
            #expect(felica.pmm == expected.pmm)
        }
    }

    @Test("native commands a Part 3 reader cannot carry: GET_VERSION, FAST_READ, PWD_AUTH, then reads go on (FF B0 would fail)")
    func acr122uNativeCommands() async throws {
        try await withACR122U(try VirtualTagKind.ntag216.make()) { connection, _ in
            let version = try await connection.transceive([0x60], timeout: .milliseconds(50))
            #expect(version == hexBytes("0004040201001303"))
            let fast = try await connection.transceive([0x3A, 0x00, 0x0F], timeout: .milliseconds(50))
            #expect(fast.count == 64)
            let pack = try await connection.transceive([0x1B, 0xFF, 0xFF, 0xFF, 0xFF], timeout: .milliseconds(50))
            #expect(pack.count == 2)
            let read = try await connection.transceive([0x30, 0x00], timeout: .milliseconds(50))
            #expect(read == Array(fast.prefix(16)))
            let ack = try await connection.transceive([0xA2, 0x20, 1, 2, 3, 4], timeout: .milliseconds(50))
            #expect(ack == [0x0A])
            let nak = try await connection.transceive([0xA2, 0xFF, 1, 2, 3, 4], timeout: .milliseconds(50))
            #expect(nak.count == 1 && nak[0] != 0x0A, "a NAK, as one byte")
        }
    }

    @Test("the override: a driver told `generic` uses READ and UPDATE BINARY, which the ACR122U has")
    func acr122uOverriddenAsGeneric() async throws {
        let driver = PCSCDriver(readerFilter: LivePCSC.Slot.second.reader, profile: .generic)
        try await withACR122U(try VirtualTagKind.ntag216.make(), driver: driver) { connection, _ in
            #expect(connection.mode == .pseudoAPDUs && connection.profile == .generic)
            let read = try await connection.transceive([0x30, 0x04], timeout: .milliseconds(50))
            #expect(read.count == 16)
        }
    }

    @Test("reader status names the probed profile")
    func acr122uReaderStatus() async throws {
        let driver = PCSCDriver(readerFilter: LivePCSC.Slot.second.reader)
        try await withACR122U(try VirtualTagKind.ntag216.make(), driver: driver) { _, _ in
            let status = try #require(try driver.readerStatus(probingProfiles: true).first)
            #expect(status.profile == .acr122u && status.profileSource == .probe)
            let overridden = try #require(
                try PCSCDriver(readerFilter: LivePCSC.Slot.second.reader, profile: .generic).readerStatus().first)
            #expect(overridden.profile == .generic && overridden.profileSource == .override)
        }
    }
}
