import Foundation
import ISO7816
import NFCDESFire
import NFCSimulator
import OpenCoreNFC
import Testing

/// Core NFC and MIFARE DESFire as iOS delivers it (Apple's `NFCMiFareTag` documentation): a
/// DESFire whose listed AIDs do not answer arrives as `NFCMiFareTag` with `mifareFamily`
/// `.desfire`, and native commands reach it wrapped through `sendMiFareISO7816Command(_:)`; an
/// NDEF-formatted DESFire is read by an `NFCNDEFReaderSession` like any Type 4 tag.
extension SessionTests {
    @Suite struct DESFireSessionTests {
        static let zero = [UInt8](repeating: 0, count: 16)

        @Test(arguments: DESFireModel.allCases)
        func blankCardIsAMiFareTagTheClientDrives(model: DESFireModel) async throws {
            let configuration = NFCAppConfiguration(
                usageDescription: "Reads DESFire cards.", readerSessionFormats: [.tag], iso7816SelectIdentifiers: ["A0000000041010"])
            let bench = await SessionBench([DESFireCard(model: model)], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            defer { session.invalidate() }
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .miFare(let mifare) = tag else {
                Issue.record("expected a MIFARE tag")
                return
            }
            #expect(mifare.mifareFamily == .desfire)
            #expect(mifare.identifier == Data(DESFireCard.defaultUID))
            try await session.connect(to: tag)
            // A native frame through sendMiFareCommand: GetVersion's first part, status first.
            let native = try await mifare.sendMiFareCommand(commandPacket: Data([0x60]))
            #expect(native.first == 0xAF && native.count == 8)
            let client = DESFireClient(transmitter: mifare.apduTransmitter)
            let version = try await client.version()
            #expect(
                version.desfireGeneration
                    == ["DESFire EV1", "DESFire EV2", "DESFire EV3"][DESFireModel.allCases.firstIndex(of: model) ?? 0])
            let aid = try #require(DESFireAID(0x00AB01))
            try await client.createApplication(aid, keyCount: 2)
            try await client.selectApplication(aid)
            try await client.createDataFile(1, size: 32, access: .init(mode: .full, read: .key(1), write: .key(1), readWrite: .key(1)))
            if model.hasEV2SecureMessaging {
                try await client.authenticate(keyNumber: 1, key: Self.zero)
                try await client.write(Array("through Core NFC".utf8), file: 1)
                #expect(try await client.read(file: 1, length: 16) == Array("through Core NFC".utf8))
            } else {
                await #expect(throws: DESFireError(.illegalCommand, "")) { try await client.authenticate(keyNumber: 1, key: Self.zero) }
            }
            session.invalidate()
            _ = bench
        }

        @Test func formattedCardReadsInAnNDEFSession() async throws {
            var card = DESFireCard.ndefFormatted(model: .ev2)
            let message: [UInt8] = [0xD1, 0x01, 0x06, 0x55, 0x04] + Array("a.org".utf8)
            card.applications[0].files[1].contents.replaceSubrange(0..<(2 + message.count), with: [0x00, UInt8(message.count)] + message)
            let configuration = NFCAppConfiguration(usageDescription: "Reads tags.", readerSessionFormats: [.ndef])
            let bench = await SessionBench([card], configuration: configuration)
            let reader = NDEFReaderDelegate()
            let reading = NFCNDEFReaderSession(delegate: reader, queue: nil, invalidateAfterFirstRead: true)
            defer { reading.invalidate() }
            reading.begin()
            guard case .ndefs(let messages)? = await reader.log.nextSignificant() else {
                Issue.record("expected didDetectNDEFs")
                return
            }
            #expect(messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://a.org")
            _ = bench
        }
    }
}
