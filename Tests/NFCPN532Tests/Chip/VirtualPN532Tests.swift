import NFCBytes
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

@testable import NFCPN532

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The virtual PN532 in front of the simulated field, driven as libnfc and nfcpy drive a chip
/// (UM0701-02 §7; the host sequences in OUTSIDE-READERS.md).
@Suite struct VirtualPN532Tests {
    static func host(_ kinds: [VirtualTagKind]) async throws -> (RecordingHost, SimulatedField) {
        let field = SimulatedField(clock: SimulatedClock())
        for kind in kinds { await field.place(try kind.make()) }
        return (RecordingHost(driver: field), field)
    }

    /// libnfc's start (OUTSIDE-READERS.md): the HSU wake-up with SAMConfiguration, Diagnose
    /// test 0 echoing `"libnfc"`, then GetFirmwareVersion.
    @Test func libnfcsStartSequence() async throws {
        let (host, _) = try await Self.host([])
        await host.chip.receive([0x55, 0x55, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00] + PN532Frame.command(0x14, [0x01]).bytes)
        let frames = await host.line.frames(2)
        #expect(frames == [.ack, .information(tfi: 0xD5, data: [0x15])])
        let echo = await host.command(0x00, [0x00] + Array("libnfc".utf8))
        #expect(echo == [0x00, 0x6C, 0x69, 0x62, 0x6E, 0x66, 0x63])
        #expect(await host.command(0x02) == [0x32, 0x01, 0x06, 0x07])
    }

    /// InListPassiveTarget at 106 kbit/s type A finds the NTAG213 as the field reports it, and
    /// InDataExchange reads its pages (READ `30`, NTAG213 data sheet §10.2) with the chip doing CRC.
    @Test func listsAndReadsAnNTAG() async throws {
        let (host, field) = try await Self.host([.ntag213])
        let tag = try #require(try await field.targets(matching: .iso14443A).first)
        guard case .iso14443A(let a) = tag.parameters else { return }
        let listed = try #require(await host.command(0x4A, [0x01, 0x00]))
        #expect(listed == [0x01, 0x01, UInt8(a.atqa >> 8), UInt8(a.atqa & 0xFF), a.sak, UInt8(tag.identifier.count)] + tag.identifier)
        #expect(Array(listed[2...4]) == [0x00, 0x44, 0x00], "an NTAG: ATQA 0044, SAK 00")
        let read = try #require(await host.command(0x40, [0x01, 0x30, 0x00]))
        #expect(read.count == 17 && read[0] == 0x00)
        // Pages 0 and 1: UID0–2, BCC0 (88h ⊕ UID0 ⊕ UID1 ⊕ UID2), UID3–6 (NTAG213 data sheet §8.5).
        let uid = tag.identifier
        #expect(Array(read[1...3]) == Array(uid[0..<3]))
        #expect(read[4] == 0x88 ^ uid[0] ^ uid[1] ^ uid[2])
        #expect(Array(read[5...8]) == Array(uid[3..<7]))
        // Released, the target is gone.
        #expect(await host.command(0x52, [0x00]) == [0x00])
        #expect(await host.command(0x40, [0x01, 0x30, 0x00]) == [0x27])
    }

    /// nfcpy turns the CIU's CRC off (TxModeReg 6302h, RxModeReg 6303h bit 7) and sends CRC_A
    /// itself through InCommunicateThru; the answer comes with its CRC_A. A frame with a bad CRC
    /// gets no answer (status 01, time-out).
    @Test func inCommunicateThruWithTheCRCOffAsNfcpyDoes() async throws {
        let (host, _) = try await Self.host([.ntag213])
        _ = await host.command(0x4A, [0x01, 0x00])
        #expect(await host.command(0x06, [0x63, 0x02, 0x63, 0x03]) == [0x80, 0x80])
        #expect(await host.command(0x08, [0x63, 0x02, 0x00, 0x63, 0x03, 0x00]) == [])
        #expect(await host.command(0x06, [0x63, 0x02, 0x63, 0x03]) == [0x00, 0x00])
        let answer = try #require(await host.command(0x42, CRC16.crcA.appending(to: [0x30, 0x04])))
        #expect(answer.first == 0x00 && answer.count == 1 + 16 + 2)
        #expect(CRC16.crcA.isValid(frame: answer.dropFirst()))
        #expect(await host.command(0x42, [0x30, 0x04, 0x00, 0x00]) == [0x01])
        // With the CRC back on, the chip adds and checks it.
        _ = await host.command(0x08, [0x63, 0x02, 0x80, 0x63, 0x03, 0x80])
        let plain = try #require(await host.command(0x42, [0x30, 0x04]))
        #expect(Array(plain.dropFirst()) == Array(answer.dropFirst().dropLast(2)))
    }

    /// FeliCa at 212 kbit/s: the Polling payload's system code selects the card; POL_RES carries
    /// IDm, PMm and (request code 01) the system code.
    @Test func listsAFeliCaLiteS() async throws {
        let (host, field) = try await Self.host([.felicaLiteS])
        let card = try #require(try await field.targets(matching: .felica).first)
        guard case .felica(let f) = card.parameters else { return }
        let listed = try #require(await host.command(0x4A, [0x01, 0x01, 0x00, 0xFF, 0xFF, 0x01, 0x00]))
        #expect(listed == [0x01, 0x01, 0x14, 0x01] + card.identifier + f.pmm + [UInt8(f.systemCode >> 8), UInt8(f.systemCode & 0xFF)])
        // Another system code: none.
        _ = await host.command(0x32, [0x05, 0xFF, 0x01, 0x00])
        #expect(await host.command(0x4A, [0x01, 0x01, 0x00, 0x12, 0x34, 0x00, 0x00]) == [0x00])
    }

    /// With passive-activation retries at 0 (RFConfiguration item 5) an empty field answers no
    /// target at once; at `FF` (the reset value) the chip waits, and the host's ACK aborts it
    /// (UM0701-02 §6.2.1.3): no response follows.
    @Test func anEmptyFieldAndAnAbortedPoll() async throws {
        let (host, _) = try await Self.host([])
        #expect(await host.command(0x32, [0x05, 0xFF, 0x01, 0x00]) == [])
        #expect(await host.command(0x4A, [0x01, 0x00]) == [0x00])
        _ = await host.command(0x32, [0x05, 0xFF, 0x01, 0xFF])
        let before = await host.line.all.count
        await host.chip.receive(PN532Frame.command(0x4A, [0x01, 0x00]).bytes)
        #expect(await host.line.frames(before + 1).last == .ack)
        await host.chip.receive(PN532Frame.ack.bytes)
        #expect(await host.command(0x02) == [0x32, 0x01, 0x06, 0x07], "the chip answers the next command, not the aborted one")
    }

    /// A host that runs ISO-DEP itself through InCommunicateThru, as nfcpy does for Type 4
    /// (ISO/IEC 14443-4 §5.6, §7): RATS gets the ATS; an I-block carries SELECT and its answer
    /// comes back in an I-block of the same number; a chained I-block gets R(ACK); an R-block with
    /// the card's number gets the last block again; S(DESELECT) is echoed.
    @Test func isoDEPRunByTheHost() async throws {
        let (host, field) = try await Self.host([.type4])
        let card = try #require(try await field.targets(matching: .iso14443A).first)
        guard case .iso14443A(let a) = card.parameters, let ats = a.ats else { return }
        #expect(await host.command(0x12, [0x04]) == [], "SetParameters: fAutomaticRATS off")
        let listed = try #require(await host.command(0x4A, [0x01, 0x00]))
        #expect(listed.count == 6 + card.identifier.count, "no ATS without fAutomaticRATS")
        #expect(await host.command(0x42, [0xE0, 0x80]) == [0x00] + ats.bytes)
        let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
        let answer = try #require(await host.command(0x42, [0x02] + select))
        #expect(answer.prefix(2) == [0x00, 0x02] && answer.suffix(2) == [0x90, 0x00])
        #expect(await host.command(0x42, [0xB2]) == answer, "R(NAK) with the card's number: the last block again")
        #expect(await host.command(0x42, [0xB3]) == [0x00, 0xA2], "R(NAK) with the other number: R(ACK) (rule 12)")
        #expect(await host.command(0x42, [0x13, 0x00, 0xA4]) == [0x00, 0xA3], "chaining: R(ACK) with the block number")
        let rest = try #require(await host.command(0x42, [0x02, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]))
        #expect(rest.suffix(2) == [0x90, 0x00], "the chain is one SELECT")
        #expect(await host.command(0x42, [0xC2]) == [0x00, 0xC2])
    }

    /// FeliCa polling goes to the card, which decides (JIS X 6319-4 §9.1): a Lite-S formatted
    /// for NDEF (SYS_OP 01) answers for its own 88B4 and for 12FC, each with the code asked for;
    /// for another system code nothing answers (FeliCa Lite-S user's manual §4.1).
    @Test func feliCaPollingIsTheCardsOwnAnswer() async throws {
        let (host, _) = try await Self.host([.felicaLiteS])
        #expect(await host.command(0x32, [0x05, 0xFF, 0x01, 0x00]) == [])
        let own = try #require(await host.command(0x4A, [0x01, 0x01, 0x00, 0x88, 0xB4, 0x01, 0x00]))
        #expect(own.count == 2 + 1 + 19 && Array(own.suffix(2)) == [0x88, 0xB4])
        let ndef = try #require(await host.command(0x4A, [0x01, 0x01, 0x00, 0x12, 0xFC, 0x01, 0x00]))
        #expect(ndef.first == 0x01 && Array(ndef.suffix(2)) == [0x12, 0xFC])
        #expect(await host.command(0x4A, [0x01, 0x01, 0x00, 0x00, 0x03, 0x01, 0x00]) == [0x00])
    }

    /// A poll that waits for a card (retries FF) does not keep the chip from stopping: what
    /// `serve` does when its line stops — abort what is queued, then wait for it — ends it.
    @Test func stoppingAbortsAPollThatWaitsForACard() async throws {
        let (host, _) = try await Self.host([])
        await host.chip.receive(PN532Frame.command(0x4A, [0x01, 0x00]).bytes)
        #expect(await host.line.frames(1) == [.ack])
        await host.chip.abortCommands()
        await host.chip.waitForCommands()
        #expect(await host.chip.statistics.commands[0x4A] == 1)
        #expect(await host.line.all == [.ack], "an aborted poll sends no response")
    }

    /// The host's NACK asks for the last response again (§6.2.1.4); an unknown command gets the
    /// error frame after its ACK (§6.2.1.5); a frame with a bad checksum gets nothing.
    @Test func nackRepeatsErrorsAreFramedBadChecksumsIgnored() async throws {
        let (host, _) = try await Self.host([])
        let firmware = await host.command(0x02)
        await host.chip.receive(PN532Frame.nack.bytes)
        let repeated = await host.line.frames(3)
        #expect(repeated.last == .information(tfi: 0xD5, data: [0x03] + (firmware ?? [])))
        await host.chip.receive(PN532Frame.command(0x70).bytes)
        #expect(Array(await host.line.frames(5).suffix(2)) == [.ack, .syntaxError])
        var bad = PN532Frame.command(0x02).bytes
        bad[6] ^= 0xFF
        await host.chip.receive(bad)
        #expect(await host.command(0x02) == [0x32, 0x01, 0x06, 0x07])
        #expect(await host.line.all.count == 7, "nothing was written for the bad frame")
    }

    /// libnfc selects a card by its UID in cascaded form (`88` then the 7 bytes, ISO/IEC 14443-3
    /// §6.5.4); with fAutomaticRATS cleared (SetParameters bit 4) no ATS is reported.
    @Test func aCascadedUIDSelectsTheCard() async throws {
        let (host, field) = try await Self.host([.ntag213])
        let tag = try #require(try await field.targets(matching: .iso14443A).first)
        _ = await host.command(0x32, [0x05, 0xFF, 0x01, 0x00])
        #expect(await host.command(0x4A, [0x01, 0x00, 0x88] + tag.identifier)?.first == 0x01)
        #expect(await host.command(0x4A, [0x01, 0x00, 0x88] + tag.identifier.reversed())?.first == 0x00)
    }

    /// A one-byte answer of data (CHECK_TEARING_EVENT `3E`, Ultralight EV1 data sheet §8.10) is
    /// data, not a 4-bit NAK; WRITE's ACK is success with no data.
    @Test func aOneByteAnswerIsDataAndAnAckIsEmpty() async throws {
        let (host, _) = try await Self.host([.ultralight])
        _ = await host.command(0x4A, [0x01, 0x00])
        let tearing = try #require(await host.command(0x40, [0x01, 0x3E, 0x00]))
        #expect(tearing.count == 2 && tearing[0] == 0x00, "status 00 and the flag: \(tearing)")
        #expect(await host.command(0x40, [0x01, 0xA2, 0x05, 0x01, 0x02, 0x03, 0x04]) == [0x00])
    }

    /// The host's ACK aborts every command queued behind the running one, not only the last
    /// (UM0701-02 §6.2.1.3): none of them answers, and the next command is answered.
    @Test func anAckAbortsEveryQueuedCommand() async throws {
        let (host, _) = try await Self.host([])
        _ = await host.command(0x32, [0x05, 0xFF, 0x01, 0xFF])
        let before = await host.line.all.count
        await host.chip.receive(PN532Frame.command(0x4A, [0x01, 0x00]).bytes + PN532Frame.command(0x52, [0x00]).bytes)
        #expect(await host.line.frames(before + 2).suffix(2) == [.ack, .ack])
        await host.chip.receive(PN532Frame.ack.bytes)
        #expect(await host.command(0x02) == [0x32, 0x01, 0x06, 0x07])
        let written = await host.line.all
        #expect(written.count == before + 4, "only the ACKs and GetFirmwareVersion's answer: \(written)")
    }

    /// FeliCa through InCommunicateThru: the host sends the frame with its length byte and gets
    /// the answer with its own (Read Without Encryption `06` of block 0 through service `000B`,
    /// FeliCa Lite-S user's manual §5.2: answered `07`, IDm, status flags 00 00, one block).
    @Test func feliCaThroughInCommunicateThru() async throws {
        let (host, field) = try await Self.host([.felicaLiteS])
        let card = try #require(try await field.targets(matching: .felica).first)
        _ = await host.command(0x4A, [0x01, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        let read: [UInt8] = [0x06] + card.identifier + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
        let answer = try #require(await host.command(0x42, [UInt8(read.count + 1)] + read))
        #expect(answer.first == 0x00, "\(answer)")
        let expected = 30  // status, LEN, 07, IDm (8), status flags (2), block count, one block (16)
        #expect(answer.count == expected, "\(answer)")
        #expect(Array(answer.dropFirst().prefix(2)) == [UInt8(answer.count - 1), 0x07])
        #expect(Array(answer[11...13]) == [0x00, 0x00, 0x01])
    }
}

/// Type 1 tags through the virtual PN532: found by Jewel polling only, commands in libnfc's
/// short form (UM0701-02 §7.3.5 and §7.3.8; libnfc's `jewel.h` request and answer layouts).
@Suite struct VirtualPN532JewelTests {
    @Test func jewelPollingFindsTheTopazAndTypeAPollingDoesNot() async throws {
        let (host, field) = try await VirtualPN532Tests.host([.topaz512])
        let tag = try #require(try await field.targets(matching: .iso14443A).first)
        // Passive activation retries 02 (RFConfiguration item 5, §7.3.1): an empty poll ends.
        _ = await host.command(0x32, [0x05, 0xFF, 0x01, 0x02])
        #expect(await host.command(0x4A, [0x01, 0x00]) == [0x00])
        let listed = try #require(await host.command(0x4A, [0x01, 0x04]))
        #expect(listed == [0x01, 0x01, 0x0C, 0x00] + tag.identifier)
        // READ of byte 8 (NMN): `01 08` answers the byte alone; RID answers HR0 HR1 UID-0…3.
        #expect(await host.command(0x40, [0x01, 0x01, 0x08]) == [0x00, 0xE1])
        #expect(await host.command(0x40, [0x01, 0x78]) == [0x00, 0x12, 0x48] + tag.identifier)
        // WRITE-E then READ8 of block 04h (8 bytes, no ADD8 echo).
        #expect(await host.command(0x40, [0x01, 0x53, 0x20, 0x5A]) == [0x00, 0x5A])
        let block = try #require(await host.command(0x40, [0x01, 0x02, 0x04]))
        #expect(block == [0x00, 0x5A, 0, 0, 0, 0, 0, 0, 0])
        // RALL: HR0 HR1 and blocks 00h–0Eh.
        #expect(await host.command(0x40, [0x01, 0x00])?.count == 1 + 122)
        // A barred write (block 00h) gets no answer: time-out.
        #expect(await host.command(0x40, [0x01, 0x53, 0x00, 0xFF]) == [0x01])
        // An unknown code is refused by the firmware.
        #expect(await host.command(0x40, [0x01, 0x7F]) == [0x10])
    }
}

extension PN532DriverTests {
    /// Our PN532 reader finds a Topaz by Jewel polling and the Type 1 engine reads and writes it
    /// through InDataExchange, the chip adding the UID echo.
    @Test func theType1EngineThroughTheChip() async throws {
        let board = try await VirtualBoard([.topaz512])
        defer { Task { await board.stop() } }
        let target = try #require(try await board.driver.targets(matching: .iso14443A).first)
        #expect(TagFamily(target) == .type1)
        let connection = try await board.driver.connect(to: target, meter: AirTimeMeter())
        let message: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.org".utf8)
        try await Type1Engine().writeNDEF(message, on: connection)
        #expect(try await Type1Engine().readNDEF(on: connection).message == message)
        await connection.disconnect()
    }
}
