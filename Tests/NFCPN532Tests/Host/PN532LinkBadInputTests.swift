import NFCBytes
import NFCPN532
import NFCTransport
import Testing

/// A chip that misbehaves on the line: every case ends in a typed error that names the command
/// and the line, within the link's time-outs (UM0701-02 §6.2.1, §6.2.3) — never a hang.
/// (A wait on the scripted chip that never ends fails the suite's time limit.)
@Suite(.timeLimit(.minutes(1))) struct PN532LinkBadInputTests {
    @Test func silenceIsATimeoutAfterThreeSends() async {
        let chip = ScriptedChip { _, _ in [] }
        defer { chip.stop() }
        let driver = chip.driver(slack: .milliseconds(50))
        do {
            _ = try await driver.started()
            Issue.record("started without a chip")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.reason.contains("SAMConfiguration"))
            #expect(error.reason.contains("pn532:scripted"))
        }
        // The chip's thread may still be decoding the last frame: wait for it (or for the thread's end).
        let frames = await chip.received { $0.count >= 3 }
        #expect(frames.count == 3, "the command frame is sent three times (§6.2.3)")
    }

    /// Commands are named as the manual names them (Table 20).
    @Test func commandsHaveTheManualsNames() {
        #expect(PN532Command.samConfiguration.manualName == "SAMConfiguration")
        #expect(PN532Command.rfConfiguration.manualName == "RFConfiguration")
        #expect(PN532Command.inListPassiveTarget.manualName == "InListPassiveTarget")
        #expect(PN532Command.tgGetData.manualName == "TgGetData")
    }

    /// A response whose checksum is wrong is asked for again with a NACK (§6.2.1.4); the chip's
    /// second, good copy is taken.
    @Test func aDamagedResponseIsAskedForAgain() async throws {
        let chip = ScriptedChip { data, _ in
            if data == [0xFF] { return PN532Frame.response(to: 0x14).bytes }
            if data.first == 0x14 {
                var damaged = PN532Frame.response(to: 0x14).bytes
                damaged[damaged.count - 2] &+= 1
                return PN532Frame.ack.bytes + damaged
            }
            return ScriptedChip.start(data)
        }
        defer { chip.stop() }
        let link = try await chip.driver().started()
        #expect(link.counters.nacks == 1)
        #expect(chip.received.withLock { $0 }.filter { $0 == .nack }.count == 1)
    }

    @Test func responsesDamagedEveryTimeAreATransmissionError() async {
        let chip = ScriptedChip { data, _ in
            var damaged = PN532Frame.response(to: 0x14).bytes
            damaged[damaged.count - 2] &+= 1
            return data == [0xFF] ? damaged : PN532Frame.ack.bytes + damaged
        }
        defer { chip.stop() }
        await #expect(throws: TransportError(.transmission)) { try await chip.driver().started() }
        #expect(chip.received.withLock { $0 }.filter { $0 == .nack }.count == 3)
    }

    /// The error frame (§6.2.1.5) is the chip refusing the command.
    @Test func theErrorFrameIsARefusal() async {
        let chip = ScriptedChip { _, _ in PN532Frame.ack.bytes + PN532Frame.syntaxError.bytes }
        defer { chip.stop() }
        do {
            _ = try await chip.driver().started()
            Issue.record("started on error frames")
        } catch {
            #expect(error.code == .unsupportedCommand)
            #expect(error.reason.contains("error frame"))
        }
    }

    @Test func anotherChipIsNotAPN532() async {
        let chip = ScriptedChip { data, _ in
            data.first == 0x02 ? ScriptedChip.answer(data, [0x33, 0x01, 0x06, 0x07]) : ScriptedChip.start(data)
        }
        defer { chip.stop() }
        do {
            _ = try await chip.driver().started()
            Issue.record("took IC 33 for a PN532")
        } catch {
            #expect(error.code == .unsupportedCommand)
            #expect(error.reason.contains("not a PN532"))
        }
    }

    /// An InListPassiveTarget answer cut short: a protocol violation naming the target and the
    /// field it ends in.
    @Test func aTruncatedTargetListNamesWhereItEnds() async {
        let chip = ScriptedChip { data, _ in
            data.first == 0x4A ? ScriptedChip.answer(data, [0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xAA]) : ScriptedChip.start(data)
        }
        defer { chip.stop() }
        do {
            _ = try await chip.driver().targets(matching: .iso14443A)
            Issue.record("took a truncated answer")
        } catch {
            #expect(error.code == .protocolViolation)
            #expect(error.reason.contains("target 1"))
            #expect(error.reason.contains("NFCID1"))
        }
    }

    /// The answer to another command (a late one, say) is not taken for this one's.
    @Test func anAnswerToAnotherCommandIsAViolation() async {
        let chip = ScriptedChip { data, _ in
            data.first == 0x02 ? PN532Frame.ack.bytes + PN532Frame.response(to: 0x14).bytes : ScriptedChip.start(data)
        }
        defer { chip.stop() }
        await #expect(throws: TransportError(.protocolViolation)) { try await chip.driver().started() }
    }

    /// A chip that sets MI (more information, §7.1) on every part of an answer: the exchange
    /// stops past what an APDU answer can hold, as a protocol violation.
    @Test func anAnswerThatNeverEndsIsAViolation() async throws {
        let ats: [UInt8] = [0x06, 0x77, 0x77, 0x71, 0x02, 0x80]
        let chip = ScriptedChip { data, _ in
            switch data.first {
            // Jewel polling (BrTy 04) finds nothing; type A the ISO-DEP card.
            case 0x4A where data.count > 2 && data[2] == 0x04: ScriptedChip.answer(data, [0x00])
            case 0x4A: ScriptedChip.answer(data, [0x01, 0x01, 0x03, 0x44, 0x20, 0x07, 0x04, 1, 2, 3, 4, 5, 6] + ats)
            case 0x40: ScriptedChip.answer(data, [0x40] + [UInt8](repeating: 0xAB, count: 200))
            default: ScriptedChip.start(data)
            }
        }
        defer { chip.stop() }
        let driver = chip.driver()
        let target = try #require(try await driver.targets(matching: .iso14443A).first)
        #expect(target.speaksISODEP)
        let connection = try await driver.connect(to: target, meter: AirTimeMeter())
        do {
            _ = try await connection.transceive([0x00, 0xA4, 0x04, 0x00, 0x00], timeout: .milliseconds(100))
            Issue.record("took an endless answer")
        } catch {
            #expect(error.code == .protocolViolation)
            #expect(error.reason.contains("parts"))
        }
    }

    /// The line closing under a command (the board unplugged, the emulator stopped).
    @Test func theLineClosedMidReadIsReaderRemoved() async {
        let chip = ScriptedChip { data, _ in data.first == 0x02 ? nil : ScriptedChip.start(data) }
        defer { chip.stop() }
        await #expect(throws: TransportError(.readerRemoved)) { try await chip.driver().started() }
    }

    /// A chip that acknowledges and never answers: the link aborts with an ACK (§6.2.1.3) and
    /// reports the time-out.
    @Test func anAcknowledgedCommandWithoutAnswerIsAborted() async {
        let chip = ScriptedChip { data, _ in data.first == 0x02 ? PN532Frame.ack.bytes : ScriptedChip.start(data) }
        defer { chip.stop() }
        await #expect(throws: TransportError(.timeout)) { try await chip.driver(slack: .seconds(1)).started() }
        #expect(await chip.received { $0.last == .ack }.last == .ack)
    }
}
