import Foundation
import ISO7816
import NFCDESFire
import NFCSimulator
import OpenCoreNFC
import Testing

/// Core NFC and MIFARE Plus: a card at SL0 or SL3 whose listed AIDs do not answer arrives as
/// `NFCMiFareTag` with `mifareFamily` `.plus` (Apple's `NFCMiFareFamily.plus`), told from a DESFire
/// by its ATS's historical bytes; the client drives it through `sendMiFareISO7816Command`. A card
/// at SL1 (MIFARE Classic's Crypto1) is not delivered, as on an iPhone.
extension SessionTests {
    @Suite struct MIFAREPlusSessionTests {
        static let configuration = NFCAppConfiguration(
            usageDescription: "Reads MIFARE Plus cards.", readerSessionFormats: [.tag], iso7816SelectIdentifiers: ["A0000000041010"])

        @Test func anSL3CardIsAPlusTagTheClientDrives() async throws {
            var card = MIFAREPlusCard(securityLevel: .sl3)
            card.blocks[4] = Array("through Core NFC".utf8)
            let bench = await SessionBench([card], configuration: Self.configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            defer { session.invalidate() }
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .miFare(let mifare) = tag else {
                Issue.record("expected a MIFARE tag")
                return
            }
            #expect(mifare.mifareFamily == .plus)
            #expect(mifare.historicalBytes == Data([0xC1, 0x05, 0x2F, 0x2F, 0x01, 0xBC, 0xD6]))
            try await session.connect(to: tag)
            let native = try await mifare.sendMiFareCommand(commandPacket: Data([0x60]))
            #expect(native.first == 0xAF && native.count == 8, "GetVersion's first part, status first")
            let client = MIFAREPlusClient(transmitter: mifare.apduTransmitter)
            try await client.authenticate(keyBlock: MIFAREPlusClient.sectorKey(1, keyB: false), key: [UInt8](repeating: 0xFF, count: 16))
            #expect(try await client.read(block: 4) == Array("through Core NFC".utf8))
            session.invalidate()
            _ = bench
        }

        @Test func anSL1CardIsNotDelivered() async throws {
            let bench = await SessionBench(
                [MIFAREPlusCard(securityLevel: .sl1), DESFireCard(model: .ev2)], configuration: Self.configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            defer { session.invalidate() }
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant() else {
                Issue.record("expected tags")
                return
            }
            #expect(tags.count == 1)
            if case .miFare(let mifare)? = tags.first { #expect(mifare.mifareFamily == .desfire, "only the DESFire arrives") }
            session.invalidate()
            _ = bench
        }
    }
}
