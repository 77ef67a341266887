import NFCBytes
import NFCTransport
import Testing

@testable import NFCPN532

/// The virtual PN532 in target mode (UM0701-02 §7.3.14 to §7.3.21), driven with the commands
/// libnfc 1.8's `nfc-emulate-forum-tag4` sends, and read by an initiator through
/// ``PN532TargetField`` as our engines read any card.
@Suite(.timeLimit(.minutes(1))) struct PN532TargetFieldTests {
    /// libnfc's TgInitAsTarget for its Type 4 emulation: Mode `05` (PassiveOnly, PICCOnly),
    /// SENS_RES `04 00`, NFCID1t `00 B0 0B`, SEL_RES `20`, FeliCa and NFCID3t parameters zero,
    /// no general bytes, no historical bytes.
    static let libnfcType4: [UInt8] = [0x05, 0x04, 0x00, 0x00, 0xB0, 0x0B, 0x20] + [UInt8](repeating: 0, count: 28) + [0x00, 0x00]

    static func chip(minimumWait: Duration = .seconds(5)) -> (RecordingHost, PN532TargetField) {
        let field = PN532TargetField(name: "pn532-target:test", minimumWait: minimumWait)
        return (RecordingHost(driver: EmptyField(), targetField: field), field)
    }

    /// Waits until the field offers a card.
    static func offered(_ field: PN532TargetField) async -> TargetInfo? {
        for await event in await field.events(matching: .all) {
            if case .targetArrived(let target) = event { return target }
        }
        return nil
    }

    @Test func libnfcsType4CardIsListedConnectedAndExchanged() async throws {
        let (host, field) = Self.chip()
        #expect(await host.command(0x12, [0x30]) == [])  // SetParameters: fAutomaticRATS, fISO14443-4_PICC
        let activation = Task { await host.command(0x8C, Self.libnfcType4) }
        let target = try #require(await Self.offered(field))
        #expect(target.identifier == [0x08, 0x00, 0xB0, 0x0B], "the chip puts 08 before NFCID1t")
        guard case .iso14443A(let a) = target.parameters else {
            Issue.record("expected a type A card")
            return
        }
        #expect(a.atqa == 0x0004)
        #expect(a.sak == 0x20)
        #expect(a.ats?.bytes == [0x05, 0x75, 0x77, 0x81, 0x02])
        #expect(try await field.targets(matching: .iso14443A) == [target])
        #expect(try await field.targets(matching: .felica).isEmpty)

        let connection = try await field.connect(to: target, meter: AirTimeMeter())
        #expect(await activation.value == [0x08, 0xE0, 0x80], "mode 08 (PICC, 106 kbit/s), then the RATS")

        let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
        let exchange = Task { try await connection.transceive(select, timeout: .milliseconds(100)) }
        #expect(await host.command(0x86) == [0x00] + select)
        #expect(await host.command(0x8E, [0x90, 0x00]) == [0x00])
        #expect(try await exchange.value == [0x90, 0x00])

        // An answer in parts: TgSetMetaData, then TgSetData.
        let read = Task { try await connection.transceive([0x00, 0xB0, 0x00, 0x00, 0x04], timeout: .milliseconds(100)) }
        #expect(await host.command(0x86) == [0x00, 0x00, 0xB0, 0x00, 0x00, 0x04])
        #expect(await host.command(0x94, [0x00, 0x0F]) == [0x00])
        #expect(await host.command(0x8E, [0x20, 0x00, 0x90, 0x00]) == [0x00])
        #expect(try await read.value == [0x00, 0x0F, 0x20, 0x00, 0x90, 0x00])
        #expect(await host.command(0x8A) == [0x01, 0x00], "TgGetTargetStatus: activated")

        // Released by the initiator: the host's next TgGetData says so (status 29).
        await connection.disconnect()
        #expect(await host.command(0x86) == [0x29])
        #expect(await host.command(0x86) == [0x25], "no initiator any more: invalid device state")
        await #expect(throws: TransportError(.notConnected)) { try await connection.transceive(select, timeout: .milliseconds(10)) }
    }

    /// An APDU the initiator sends before the host asks waits for the host's TgGetData.
    @Test func dataSentBeforeTheHostAsksIsKept() async throws {
        let (host, field) = Self.chip()
        let activation = Task { await host.command(0x8C, Self.libnfcType4) }
        let target = try #require(await Self.offered(field))
        let connection = try await field.connect(to: target, meter: AirTimeMeter())
        _ = await activation.value
        let exchange = Task { try await connection.transceive([0x00, 0xCA, 0x00, 0x00, 0x00], timeout: .milliseconds(100)) }
        // The host asks only once the exchange has queued its APDU and waits for the answer.
        while await !field.initiatorIsWaiting { await Task.yield() }
        #expect(await host.command(0x86) == [0x00, 0x00, 0xCA, 0x00, 0x00, 0x00])
        #expect(await host.command(0x8E, [0x6A, 0x88]) == [0x00])
        #expect(try await exchange.value == [0x6A, 0x88])
    }

    /// Without the PICC flag or mode bit the card has no ATS: raw frames, and the activating
    /// command reported is the SELECT (cascade level 1, `93 70`, UID and BCC).
    @Test func withoutPICCModeTheCardIsRaw() async throws {
        let (host, field) = Self.chip()
        var parameters = Self.libnfcType4
        parameters[0] = 0x01
        let activation = Task { await host.command(0x8C, parameters) }
        let target = try #require(await Self.offered(field))
        guard case .iso14443A(let a) = target.parameters else { return }
        #expect(a.ats == nil)
        _ = try await field.connect(to: target, meter: AirTimeMeter())
        let uid: [UInt8] = [0x08, 0x00, 0xB0, 0x0B]
        #expect(await activation.value == [0x00, 0x93, 0x70] + uid + [uid.reduce(0, ^)])
    }

    /// The host's ACK aborts a waiting TgInitAsTarget (§6.2.1.3): the card leaves the field and
    /// no response follows.
    @Test func abortedInitWithdrawsTheCard() async throws {
        let (host, field) = Self.chip()
        var events = await field.events(matching: .all).makeAsyncIterator()
        await host.chip.receive(PN532Frame.command(0x8C, Self.libnfcType4).bytes)
        guard case .targetArrived(let target)? = await events.next() else {
            Issue.record("expected the card to arrive")
            return
        }
        await host.chip.receive(PN532Frame.ack.bytes)
        #expect(await events.next() == .targetLeft(target))
        #expect(try await field.targets(matching: .all).isEmpty)
        await #expect(throws: TransportError(.noSuchTarget)) { try await field.connect(to: target, meter: AirTimeMeter()) }
        #expect(await host.line.all == [.ack], "no response to the aborted command")
    }

    /// A program that never answers: the exchange times out after the field's minimum wait, and
    /// the card is released — a late answer must not pass for the next command's.
    @Test func silentProgramTimesOutAndLosesTheCard() async throws {
        let (host, field) = Self.chip(minimumWait: .milliseconds(50))
        let activation = Task { await host.command(0x8C, Self.libnfcType4) }
        let target = try #require(await Self.offered(field))
        let connection = try await field.connect(to: target, meter: AirTimeMeter())
        _ = await activation.value
        await #expect(throws: TransportError(.timeout)) { try await connection.transceive([0x00, 0xB0, 0x00, 0x00, 0x01], timeout: .zero) }
        await #expect(throws: TransportError(.notConnected)) {
            try await connection.transceive([0x00, 0xB0, 0x00, 0x00, 0x01], timeout: .zero)
        }
        #expect(await host.command(0x86) == [0x29], "the program learns of the release")
    }

    /// A DEP-only target (Mode bit 1) waits for an NFC-DEP initiator, which never comes: nothing
    /// is offered, and the host's ACK ends the wait. The next offer is then the field's first
    /// (handle 1): had the DEP-only one been offered and withdrawn, it would be the second.
    @Test func depOnlyTargetIsNeverOffered() async throws {
        let (host, field) = Self.chip()
        var parameters = Self.libnfcType4
        parameters[0] = 0x02
        await host.chip.receive(PN532Frame.command(0x8C, parameters).bytes)
        #expect(await host.line.frames(1) == [.ack])
        await host.chip.receive(PN532Frame.ack.bytes)
        await host.chip.waitForCommands()
        #expect(await host.line.all == [.ack], "no response to the aborted command")
        let activation = Task { await host.command(0x8C, Self.libnfcType4) }
        let target = try #require(await Self.offered(field))
        #expect(target.handle == 1, "the DEP-only TgInitAsTarget offered a card")
        _ = try await field.connect(to: target, meter: AirTimeMeter())
        #expect(await activation.value == [0x08, 0xE0, 0x80])
    }

    /// A new TgInitAsTarget while a card is active replaces it: the waiting exchange fails as a lost tag.
    @Test func reInitLosesTheActiveCard() async throws {
        let (host, field) = Self.chip()
        let first = Task { await host.command(0x8C, Self.libnfcType4) }
        let target = try #require(await Self.offered(field))
        let connection = try await field.connect(to: target, meter: AirTimeMeter())
        _ = await first.value
        let exchange = Task { try await connection.transceive([0x00, 0xB0, 0x00, 0x00, 0x01], timeout: .seconds(10)) }
        #expect(await host.command(0x86) == [0x00, 0x00, 0xB0, 0x00, 0x00, 0x01])
        await host.chip.receive(PN532Frame.command(0x8C, Self.libnfcType4).bytes)
        await #expect(throws: TransportError(.tagLost)) { try await exchange.value }
        // The new TgInitAsTarget waits for an initiator: abort it, so that no task outlives the test.
        await host.chip.receive(PN532Frame.ack.bytes)
        await host.chip.waitForCommands()
    }

    /// Parameters the chip refuses get the error frame (§6.2.1.5): TgInitAsTarget shorter than its
    /// 37 fixed bytes, or with lengths that overrun it; TgGetData with parameters.
    @Test(arguments: [
        [UInt8](repeating: 0, count: 36),
        [UInt8](repeating: 0, count: 35) + [0x05, 0x00],
        [UInt8](repeating: 0, count: 36) + [0x03, 0x01],
    ])
    func refusedTargetParameters(_ parameters: [UInt8]) async {
        let (host, _) = Self.chip()
        await host.chip.receive(PN532Frame.command(0x8C, parameters).bytes)
        #expect(await host.line.frames(2) == [.ack, .syntaxError])
    }
}
