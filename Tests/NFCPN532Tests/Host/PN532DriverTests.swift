import NFCBytes
import NFCPN532
import NFCSimulator
import NFCTransport
import Testing

/// The PN532 reader (`pn532:PATH`) against the virtual PN532 over a socket pair: what it reads
/// must equal what the simulated field answers directly (UM0701-02 §7.3.5, §7.3.8, §7.3.9).
@Suite struct PN532DriverTests {
    /// The field's own answer to `command`, for comparison.
    private func direct(_ field: SimulatedField, _ target: TargetInfo, _ command: [UInt8]) async throws -> [UInt8] {
        let connection = try await field.connect(to: target, meter: AirTimeMeter())
        defer { Task { await connection.disconnect() } }
        return try await connection.transceive(command, timeout: .milliseconds(100))
    }

    @Test func listsWhatTheFieldHolds() async throws {
        let board = try await VirtualBoard([.ntag216, .felicaLiteS])
        defer { Task { await board.stop() } }
        let listed = try await board.driver.targets(matching: .all)
        let inField = try await board.field.targets(matching: .all)
        #expect(listed.count == 2)
        for target in inField {
            let match = try #require(listed.first { $0.identifier == target.identifier })
            #expect(match.parameters == target.parameters, "\(target)")
        }
        #expect(await board.driver.firmware == [0x32, 0x01, 0x06, 0x07])
    }

    /// A whole NTAG216 (231 pages) in four FAST_READs sized to a normal frame (63 pages, 252
    /// bytes), equal to the field's own answers; the link counts the three start commands, the
    /// two polls (Jewel, then type A) and the four reads.
    @Test func readsAWholeNTAG216InFourFastReads() async throws {
        let board = try await VirtualBoard([.ntag216])
        defer { Task { await board.stop() } }
        let target = try #require(try await board.driver.targets(matching: .iso14443A).first)
        let connection = try await board.driver.connect(to: target, meter: AirTimeMeter())
        #expect(connection.limits.maxResponseLength == 252)
        var memory: [UInt8] = []
        var expected: [UInt8] = []
        let fieldTarget = try #require(try await board.field.targets(matching: .iso14443A).first)
        for first in stride(from: 0, to: 231, by: 63) {
            let last = min(first + 62, 230)
            let command: [UInt8] = [0x3A, UInt8(first), UInt8(last)]
            memory += try await connection.transceive(command, timeout: .milliseconds(100))
            expected += try await direct(board.field, fieldTarget, command)
        }
        #expect(memory.count == 924)
        #expect(memory == expected)
        let link = try await board.driver.started()
        #expect(link.counters.commandCodes == [0x14, 0x02, 0x32, 0x4A, 0x4A, 0x42, 0x42, 0x42, 0x42])
        await connection.disconnect()
    }

    /// A 4-bit ACK or NAK comes back as the one byte TagConnection promises, its nibble intact:
    /// a READ past the end is NAK `0` (NTAG21x data sheet §9.3), a WRITE is ACK `A`.
    @Test func fourBitAnswersKeepTheirNibble() async throws {
        let board = try await VirtualBoard([.ntag213])
        defer { Task { await board.stop() } }
        let target = try #require(try await board.driver.targets(matching: .iso14443A).first)
        let connection = try await board.driver.connect(to: target, meter: AirTimeMeter())
        #expect(try await connection.transceive([0xA2, 0x10, 0x01, 0x02, 0x03, 0x04], timeout: .milliseconds(100)) == [0x0A])
        #expect(Array(try await connection.transceive([0x30, 0x10], timeout: .milliseconds(100)).prefix(4)) == [0x01, 0x02, 0x03, 0x04])
        #expect(try await connection.transceive([0x30, 0xFF], timeout: .milliseconds(100)) == [0x00])
        await connection.disconnect()
    }

    /// A connection closed (its target released) and opened again lists the target again.
    @Test func connectingAgainAfterADisconnect() async throws {
        let board = try await VirtualBoard([.ntag213])
        defer { Task { await board.stop() } }
        let target = try #require(try await board.driver.targets(matching: .iso14443A).first)
        for _ in 0..<2 {
            let connection = try await board.driver.connect(to: target, meter: AirTimeMeter())
            #expect(try await connection.transceive([0x30, 0x00], timeout: .milliseconds(100)).count == 16)
            await connection.disconnect()
        }
    }

    /// An ISO-DEP card takes APDUs through InDataExchange: SELECT of the NDEF application
    /// answers as the field does.
    @Test func anISODEPCardAnswersAPDUs() async throws {
        let board = try await VirtualBoard([.type4])
        defer { Task { await board.stop() } }
        let target = try #require(try await board.driver.targets(matching: .all).first)
        #expect(target.speaksISODEP)
        let connection = try await board.driver.connect(to: target, meter: AirTimeMeter())
        let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
        let answer = try await connection.transceive(select, timeout: .milliseconds(500))
        #expect(answer.suffix(2) == [0x90, 0x00])
        await connection.disconnect()
    }

    /// FeliCa: the command goes with its LEN byte and the answer comes back without it, equal
    /// to the field's (Read Without Encryption of block 0, FeliCa Lite-S user's manual §4.4).
    @Test func feliCaReadWithoutEncryption() async throws {
        let board = try await VirtualBoard([.felicaLiteS])
        defer { Task { await board.stop() } }
        let target = try #require(try await board.driver.targets(matching: .felica).first)
        let connection = try await board.driver.connect(to: target, meter: AirTimeMeter())
        let read: [UInt8] = [0x06] + target.identifier + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
        let answer = try await connection.transceive(read, timeout: .milliseconds(100))
        let fieldTarget = try #require(try await board.field.targets(matching: .felica).first)
        #expect(answer == (try await direct(board.field, fieldTarget, read)))
        #expect(answer.first == 0x07)
        await connection.disconnect()
    }

    @Test func iso15693AloneIsRefusedWithAReason() async throws {
        let board = try await VirtualBoard([.slix2])
        defer { Task { await board.stop() } }
        do {
            _ = try await board.driver.targets(matching: .iso15693)
            Issue.record("polled for ISO 15693")
        } catch {
            #expect(error.code == .unsupportedCommand)
            #expect(error.reason.contains("ISO/IEC 15693"))
        }
        #expect(try await board.driver.targets(matching: .all).isEmpty)
    }

    /// Commands from many tasks at once are queued on the line, never interleaved: every answer
    /// is the page asked for.
    @Test func commandsFromManyTasksAreQueued() async throws {
        let board = try await VirtualBoard([.ntag213])
        defer { Task { await board.stop() } }
        let target = try #require(try await board.driver.targets(matching: .iso14443A).first)
        let connection = try await board.driver.connect(to: target, meter: AirTimeMeter())
        for page in 4..<12 {
            _ = try await connection.transceive([0xA2, UInt8(page), UInt8(page), 0, 0, 0], timeout: .milliseconds(100))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for page in 4..<12 {
                group.addTask {
                    let answer = try await connection.transceive([0x30, UInt8(page)], timeout: .milliseconds(100))
                    #expect(answer.first == UInt8(page), "page \(page)")
                }
            }
            try await group.waitForAll()
        }
        await connection.disconnect()
    }

    /// A tag taken out of the field: the next exchange fails as `.tagLost` (status 2B, card
    /// disappeared), and the event stream reports it gone once the connection is closed.
    @Test func aTagTakenAwayIsLostAndReportedGone() async throws {
        let board = try await VirtualBoard([.ntag213])
        defer { Task { await board.stop() } }
        var events = await board.driver.events(matching: .all).makeAsyncIterator()
        guard case .targetArrived(let target)? = await events.next() else {
            Issue.record("no arrival")
            return
        }
        let connection = try await board.driver.connect(to: target, meter: AirTimeMeter())
        await board.field.removeAll()
        await #expect(throws: TransportError(.tagLost)) { try await connection.transceive([0x30, 0x00], timeout: .milliseconds(100)) }
        await connection.disconnect()
        guard case .targetLeft(let gone)? = await events.next() else {
            Issue.record("no departure")
            return
        }
        #expect(gone.identifier == target.identifier)
    }
}
