import Foundation
import NFCPCSC
import NFCSimulator
import NFCTestSupport
import NFCTransport
import OpenCoreNFC
import Testing

/// docs/readers.md's "Core NFC sessions" row: the same app code through every reader profile (the
/// generic one is the plain `OPENCORENFC_READER=pcsc` case) —
/// an `NFCNDEFReaderSession` writes and reads an NTAG216, an `NFCTagReaderSession` sends
/// GET_VERSION with `sendMiFareCommand` where the reader carries native commands, and where it
/// carries only READ and WRITE the command fails with `readerErrorUnsupportedFeature` naming the
/// reader (the tag is still there: not a lost connection), while READ still goes through.
extension SessionTests.PCSCSessionTests {
    /// Every emulated reader, and the generic one without a transparent session (`basic`).
    static let readers = EmulatedReaderProfile.allCases.map { ($0, false) } + [(.generic, true)]

    /// Serves an NTAG216 behind the emulated `profile` (`basic`: a generic reader that refuses a
    /// transparent session) and points sessions at a driver that takes the
    /// reader for that profile: given, as vpcd's name tells nothing, except for the readers the
    /// driver probes (ACR122U, OMNIKEY).
    func withProfile(_ profile: EmulatedReaderProfile, basic: Bool, _ body: () async throws -> Void) async throws {
        let probed: Set<EmulatedReaderProfile> = [.generic, .acr122u, .omnikey5022, .omnikey5427]
        let given = probed.contains(profile) ? nil : try ReaderProfile.named(profile.rawValue)
        NFCSessionEnvironment.shared.driver = PCSCDriver(readerFilter: Self.slot.reader, profile: given)
        let card = LiveCard(try VirtualTagKind.ntag216.make(), slot: Self.slot, basicReader: basic, profile: profile)
        do {
            try await body()
        } catch {
            await remove(card)
            throw error
        }
        await remove(card)
    }

    @Test("an NDEF session writes and reads an NTAG216 through every reader profile", arguments: readers)
    func ndefSessionThroughProfile(_ profile: EmulatedReaderProfile, basic: Bool) async throws {
        try await withProfile(profile, basic: basic) {
            let url = "https://example.com/\(profile.rawValue)"
            let writer = NDEFWriterDelegate()
            let writeSession = NFCNDEFReaderSession(delegate: writer, queue: nil, invalidateAfterFirstRead: false)
            writeSession.begin()
            guard case .ndefTags(let tags)? = await writer.log.nextSignificant(), let tag = tags.first else {
                Issue.record("expected didDetect tags")
                return
            }
            try await writeSession.connect(to: tag)
            let (status, capacity) = try await tag.queryNDEFStatus()
            #expect(status == .readWrite && capacity == 868)
            try await tag.writeNDEF(NFCNDEFMessage(records: [try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: url))]))
            writeSession.invalidate()
            _ = await writer.log.next()

            let reader = NDEFReaderDelegate()
            let readSession = NFCNDEFReaderSession(delegate: reader, queue: nil, invalidateAfterFirstRead: true)
            readSession.begin()
            guard case .ndefs(let messages)? = await reader.log.nextSignificant() else {
                Issue.record("expected didDetectNDEFs")
                return
            }
            #expect(messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == url)
            #expect(await reader.log.next()?.readerError?.code == .readerSessionInvalidationErrorFirstNDEFTagRead)
        }
    }

    @Test(
        "a tag reader session's sendMiFareCommand: GET_VERSION where the reader carries native commands, READ everywhere",
        arguments: readers)
    func mifareCommandsThroughProfile(_ profile: EmulatedReaderProfile, basic: Bool) async throws {
        let native = !basic && [.generic, .acr122u, .acr1252u, .acr1552u].contains(profile)
        try await withProfile(profile, basic: basic) {
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            defer { session.invalidate() }
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .miFare(let mifare) = tag else {
                Issue.record("expected a MIFARE tag")
                return
            }
            try await session.connect(to: tag)
            let read = try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x03]))
            #expect(read.prefix(4) == Data([0xE1, 0x10, 0x6D, 0x00]), "the NTAG216's CC through READ")
            if native {
                let version = try await mifare.sendMiFareCommand(commandPacket: Data([0x60]))
                #expect(version == Data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03]))
            } else {
                do {
                    _ = try await mifare.sendMiFareCommand(commandPacket: Data([0x60]))
                    Issue.record("GET_VERSION went through a reader that carries READ and WRITE only")
                } catch let error as NFCReaderError {
                    #expect(error.code == .readerErrorUnsupportedFeature, "\(error)")
                    let reason = error.userInfo["NSLocalizedFailureReason"] as? String ?? ""
                    let name = basic ? Self.slot.reader : try ReaderProfile.named(profile.rawValue).readerModel
                    #expect(reason.contains(name) && reason.contains("READ and WRITE"), "\(reason)")
                }
            }
        }
    }
}
