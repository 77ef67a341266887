import Testing

@testable import NFCPN532

/// The card's side of ISO/IEC 14443-4 as nfcpy and other hosts that run the protocol drive it:
/// block numbers (§7.5.3), chaining both ways (§7.5.2) and the card's R-block rules (§7.5.4).
@Suite struct ISODEPCardSideTests {
    static let ats: [UInt8] = [0x05, 0x78, 0x80, 0x70, 0x02]

    /// An activated side whose RATS asked for frames of FSDI `code`.
    static func activated(frameSizeCode code: UInt8) -> ISODEPCardSide {
        var side = ISODEPCardSide()
        #expect(side.receive([0xE0, code << 4], ats: ats) == .answer(ats))
        return side
    }

    @Test func ratsSetsTheReaderFrameSize() {
        #expect(Self.activated(frameSizeCode: 0).readerFrameSize == 16)
        #expect(Self.activated(frameSizeCode: 5).readerFrameSize == 64)
        #expect(Self.activated(frameSizeCode: 8).readerFrameSize == 256)
        // ISO/IEC 14443-4:2008 §5.2.1: a code above 8 is RFU and read as 8.
        #expect(Self.activated(frameSizeCode: 0xF).readerFrameSize == 256)
        var none = ISODEPCardSide()
        #expect(none.receive([0xE0, 0x80], ats: nil) == .mute)
    }

    @Test func aShortResponseIsOneBlockWithTheReceivedBlockNumber() {
        var side = Self.activated(frameSizeCode: 8)
        #expect(side.receive([0x02, 0x00, 0xA4], ats: Self.ats) == .apdu([0x00, 0xA4]))
        #expect(side.answered([0x90, 0x00]) == [0x02, 0x90, 0x00])
        #expect(side.receive([0x03, 0x00, 0xB0], ats: Self.ats) == .apdu([0x00, 0xB0]))
        #expect(side.answered([0x6A, 0x82]) == [0x03, 0x6A, 0x82])
    }

    /// FSD 32 leaves 29 bytes of INF (PCB and two EDC bytes), 28 with a CID: a 70-byte response
    /// goes out as 29 + 29 + 12, the reader's R(ACK) with the other block number asking for each.
    @Test func aLongResponseIsChainedToTheReaderFrameSize() {
        var side = Self.activated(frameSizeCode: 2)
        let response = (0..<70).map { UInt8($0) }
        #expect(side.receive([0x02, 0x00, 0xB0, 0x00, 0x00, 0x44], ats: Self.ats) == .apdu([0x00, 0xB0, 0x00, 0x00, 0x44]))
        #expect(side.answered(response) == [0x12] + response[0..<29])
        #expect(side.receive([0xA3], ats: Self.ats) == .answer([0x13] + response[29..<58]))
        #expect(side.receive([0xA2], ats: Self.ats) == .answer([0x02] + response[58..<70]))
        // Nothing left: another R(ACK) with the other number is not answered.
        #expect(side.receive([0xA3], ats: Self.ats) == .mute)
    }

    @Test func aChainedResponseEchoesTheCID() {
        var side = Self.activated(frameSizeCode: 2)
        let response = (0..<40).map { UInt8($0) }
        #expect(side.receive([0x0A, 0x01, 0x00, 0xB0], ats: Self.ats) == .apdu([0x00, 0xB0]))
        #expect(side.answered(response) == [0x1A, 0x01] + response[0..<28])
        #expect(side.receive([0xAB, 0x01], ats: Self.ats) == .answer([0x0B, 0x01] + response[28..<40]))
    }

    /// Rule 11: an R-block with the card's own number gets the last block again; rule 12: an
    /// R(NAK) with the other number gets an R(ACK).
    @Test func rBlocksResendOrAcknowledge() {
        var side = Self.activated(frameSizeCode: 2)
        let response = (0..<40).map { UInt8($0) }
        _ = side.receive([0x02, 0x00, 0xB0], ats: Self.ats)
        let first = side.answered(response)
        #expect(side.receive([0xA2], ats: Self.ats) == .answer(first))  // R(ACK) 0: lost, resend
        #expect(side.receive([0xB2], ats: Self.ats) == .answer(first))  // R(NAK) 0: resend
        #expect(side.receive([0xB3], ats: Self.ats) == .answer([0xA2]))  // R(NAK) 1: R(ACK) 0
    }

    /// The reader's chained command: each block but the last is acknowledged with its number,
    /// and the APDU is the blocks' INF joined.
    @Test func aChainedCommandIsGathered() {
        var side = Self.activated(frameSizeCode: 8)
        #expect(side.receive([0x12, 0x00, 0xD6], ats: Self.ats) == .answer([0xA2]))
        #expect(side.receive([0x13, 0x00, 0x00], ats: Self.ats) == .answer([0xA3]))
        #expect(side.receive([0x02, 0x01, 0xAA], ats: Self.ats) == .apdu([0x00, 0xD6, 0x00, 0x00, 0x01, 0xAA]))
        #expect(side.answered([0x90, 0x00]) == [0x02, 0x90, 0x00])
    }

    @Test func attribSetsTheFrameSizeOfATypeBCard() {
        let attrib: [UInt8] = [0x1D, 0x01, 0x02, 0x03, 0x04, 0x00, 0x03, 0x01, 0x00]
        let command = TypeBCardSide.command(attrib, pupi: [0x01, 0x02, 0x03, 0x04])
        #expect(command == .attrib(cid: 0, frameSizeCode: 3))
        var side = ISODEPCardSide(frameSizeCode: 3)  // 40 bytes
        #expect(side.readerFrameSize == 40)
        _ = side.receive([0x02, 0x00], ats: nil)
        #expect(side.answered(Array(repeating: 0x55, count: 40)).count == 38)
    }

    @Test func deselectEndsAChainAndIsEchoed() {
        var side = Self.activated(frameSizeCode: 2)
        _ = side.receive([0x02, 0x00, 0xB0], ats: Self.ats)
        _ = side.answered(Array(repeating: 0x11, count: 60))
        #expect(side.receive([0xC2], ats: Self.ats) == .answer([0xC2]))
        #expect(side.receive([0xA3], ats: Self.ats) == .mute)
        #expect(side.receive([], ats: Self.ats) == .mute)
        #expect(side.receive([0x0A], ats: Self.ats) == .mute)  // CID bit without its byte
    }
}
