import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// A tag reader that switches over the four tag kinds, as published apps do.
extension SessionTests {
    @Suite struct TagReaderFlowTests {
        @Test func switchOverTagKinds() async throws {
            let bench = await SessionBench([
                try VirtualTagKind.ntag213.make(), try VirtualTagKind.slix2.make(), try VirtualTagKind.felicaLiteS.make(),
            ])
            let delegate = TagReaderDelegate()
            let session = try #require(
                NFCTagReaderSession(pollingOption: [.iso14443, .iso15693, .iso18092], delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant() else {
                Issue.record("expected tags")
                return
            }
            var kinds: [String] = []
            for tag in tags {
                switch tag {
                case .miFare(let mifare):
                    kinds.append("miFare")
                    #expect(mifare.mifareFamily == .ultralight)
                    #expect(mifare.identifier.count == 7)
                case .iso15693(let vicinity):
                    kinds.append("iso15693")
                    #expect(vicinity.identifier.first == 0xE0)
                case .feliCa(let felica):
                    kinds.append("feliCa")
                    #expect(felica.currentIDm.count == 8)
                case .iso7816:
                    kinds.append("iso7816")
                @unknown default:
                    Issue.record("unknown tag kind")
                }
            }
            #expect(kinds.sorted() == ["feliCa", "iso15693", "miFare"])
            // Each kind reads NDEF once connected.
            for tag in tags {
                try await session.connect(to: tag)
                #expect(session.connectedTag != nil)
                let (status, _) = try await ndefTag(tag).queryNDEFStatus()
                #expect(status == .readWrite)
            }
            session.invalidate()
            _ = bench
        }

        private func ndefTag(_ tag: NFCTag) -> any NFCNDEFTag {
            switch tag {
            case .feliCa(let t): t
            case .iso7816(let t): t
            case .iso15693(let t): t
            case .miFare(let t): t
            @unknown default: fatalError("unknown tag kind")
            }
        }
    }
}
