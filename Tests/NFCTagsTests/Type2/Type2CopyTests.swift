import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

/// Copies of NTAG21x and Ultralight EV1 chips (capture, restore) and wipes, against the simulator's
/// independent reading of the data sheets (NTAG213/215/216 §8.5, §8.8, §10.6, §10.9; T2TOP §2.1).
@Suite struct Type2CopyTests {
    static let password: [UInt8] = [0x11, 0x22, 0x33, 0x44]

    /// A chip of `kind` holding a `length`-byte message.
    static func written(_ kind: VirtualTagKind, length: Int, fill: UInt8 = 0x33, uid: [UInt8]? = nil) async throws -> Type2Tag {
        let tag = try #require(try kind.make(identifier: uid) as? Type2Tag)
        let bench = try await Type2Bench(tag)
        if tag.page(3) == [0, 0, 0, 0] { try await bench.engine.format(on: bench.connection) }
        if length > 0 { try await bench.engine.writeNDEF(type2Message(length: length, fill: fill), on: bench.connection) }
        return try #require(await bench.chip())
    }

    @Test(arguments: VirtualTagKind.type2Kinds)
    func captureReadsEveryPageTheSignatureAndTheCounters(kind: VirtualTagKind) async throws {
        let tag = try await Self.written(kind, length: 30)
        let bench = try await Type2Bench(tag)
        let capture = try await bench.engine.capture(on: bench.connection)
        let chip = try #require(await bench.chip())
        #expect(capture.model.rawValue == chip.model.rawValue)
        #expect(capture.pages.count == chip.model.pageCount)
        for page in 0..<chip.model.pageCount {
            let secret = page == chip.model.passwordPage || page == chip.model.packPage
            #expect(capture.pages[page] == (secret ? nil : chip.page(page)), "page \(page)")
        }
        #expect(capture.uid == chip.uid)
        #expect(capture.signature == chip.signature)
        // NTAG21x answers READ_CNT only with NFC_CNT_EN set (§10.6); Ultralight EV1 always.
        #expect(capture.counters == (chip.model.isNTAG ? [nil] : chip.counters.map { $0 }))
        #expect(capture.unreadPages == [chip.model.passwordPage...chip.model.packPage])
    }

    @Test func theNFCCounterIsReadWhenEnabled() async throws {
        let tag = try type2Tag(.ntag215) { memory in memory[(135 - 3) * 4] |= 0x10 }  // CFG1 ACCESS: NFC_CNT_EN
        let bench = try await Type2Bench(tag)
        let capture = try await bench.engine.capture(on: bench.connection)
        let chip = try #require(await bench.chip())
        #expect(chip.counters == [1], "the first FAST_READ after power-on counted")
        #expect(capture.counters == [1])
    }

    @Test func readProtectedPagesAreMarkedUnlessThePasswordOpensThem() async throws {
        let tag = try await Self.written(.ntag213, length: 20)
        let setup = try await Type2Bench(tag)
        try await setup.engine.setPassword(Self.password, pack: [0xAB, 0xCD], protectFrom: 0x10, protectReads: true, on: setup.connection)
        let protected = try #require(await setup.chip())

        let closed = try await Type2Bench(protected)
        let partial = try await closed.engine.capture(on: closed.connection)
        #expect(partial.unreadPages == [0x10...0x2C])
        #expect(partial.pages[0x0F] == protected.page(0x0F))

        let open = try await Type2Bench(protected)
        try await open.engine.authenticate(password: Self.password, on: open.connection)
        let whole = try await open.engine.capture(on: open.connection)
        #expect(whole.unreadPages == [0x2B...0x2C])
        #expect(whole.pages[0x29] == protected.page(0x29))

        // A partial copy is refused by restore unless asked for: its message could run into pages it lacks.
        let target = try await Type2Bench(.ntag213)
        let refused = await #expect(throws: TagEngineError.self) { try await target.engine.restore(partial, on: target.connection) }
        #expect(
            refused?.code == .unsupported && refused?.reason.contains("lacks 24 user pages from 10h") == true,
            "\(String(describing: refused))")
        #expect(target.connection.count(0xA2) == 0)
        try await target.engine.restore(partial, parts: .partial, on: target.connection)
        let chip = try #require(await target.chip())
        #expect(chip.page(0x0F) == protected.page(0x0F) && chip.page(0x10) == [0, 0, 0, 0], "the pages it lacks are left alone")
    }

    @Test func writesBehindAUTH0NeedThePasswordBeforeAnythingIsWritten() async throws {
        let source = try await Self.written(.ntag213, length: 80, fill: 0x77)
        let copy = try await { () async throws -> Type2Capture in
            let bench = try await Type2Bench(source)
            return try await bench.engine.capture(on: bench.connection)
        }()
        let setup = try await Type2Bench(try await Self.written(.ntag213, length: 100, fill: 0x55))  // pages 04h–1Eh
        try await setup.engine.setPassword(Self.password, pack: [0, 0], protectFrom: 0x10, protectReads: false, on: setup.connection)
        let protected = try #require(await setup.chip())

        let closed = try await Type2Bench(protected)
        let restore = await #expect(throws: TagEngineError.self) { try await closed.engine.restore(copy, on: closed.connection) }
        #expect(restore?.code == .authenticationFailed && restore?.reason.contains("from 10h on") == true)
        let wipe = await #expect(throws: TagEngineError.self) { try await closed.engine.wipe(on: closed.connection) }
        #expect(wipe?.code == .authenticationFailed)
        #expect(closed.connection.count(0xA2) == 0, "nothing written")

        let open = try await Type2Bench(protected)
        try await open.engine.authenticate(password: Self.password, on: open.connection)
        try await open.engine.restore(copy, authenticated: true, on: open.connection)
        #expect(try await open.engine.readNDEF(on: open.connection).message == type2Message(length: 80, fill: 0x77))
        #expect(try await open.engine.wipe(authenticated: true, on: open.connection) > 0)
    }

    @Test func aLockedPage4RefusesAReplacementThatCannotBeTearingSafe() async throws {
        let source = try await Self.written(.ntag213, length: 30, fill: 0x12)
        let copy = try await { () async throws -> Type2Capture in
            let bench = try await Type2Bench(source)
            return try await bench.engine.capture(on: bench.connection)
        }()
        let written = try await Self.written(.ntag213, length: 30, fill: 0x34)
        let locked = try type2Tag(.ntag213) { memory in
            for page in 3...12 { memory.replaceSubrange(page * 4..<page * 4 + 4, with: written.page(page)) }
            memory[10] = 0x10  // static lock bit 4: page 04h
        }
        let bench = try await Type2Bench(locked)
        let refused = await #expect(throws: TagEngineError.self) { try await bench.engine.restore(copy, on: bench.connection) }
        #expect(refused?.code == .readOnly && refused?.reason.contains("page 04h") == true, "\(String(describing: refused))")
        #expect(bench.connection.count(0xA2) == 0)
    }

    @Test func restoredLockBitsAreMergedIntoTheChipsOwnPage2() async throws {
        let tag = try await Self.written(.ntag213, length: 10)
        var copy = try await { () async throws -> Type2Capture in
            let bench = try await Type2Bench(tag)
            return try await bench.engine.capture(on: bench.connection)
        }()
        copy.pages[2] = [0xAA, 0xBB, 0x00, 0x80]  // static lock bit 15: page 0Fh (bytes 0–1 are the copy's serial)
        let target = try await Type2Bench(try VirtualTagKind.ntag213.make(identifier: [0x04, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36]))
        let before = try #require(await target.chip()).page(2)
        try await target.engine.restore(copy, parts: .locks, on: target.connection)
        let after = try #require(await target.chip()).page(2)
        #expect(Array(after.prefix(2)) == Array(before.prefix(2)), "the chip's own serial byte and internal byte stay")
        #expect(after[3] & 0x80 != 0, "the lock bit is set")
        let refused = await #expect(throws: TagEngineError.self) {
            try await target.engine.writeNDEF(type2Message(length: 40), on: target.connection)
        }
        #expect(refused?.code == .readOnly || refused?.code == .tagError)
    }

    @Test(arguments: VirtualTagKind.type2Kinds)
    func restoreWritesTheCopyOntoAnotherChipAndSkipsEqualPages(kind: VirtualTagKind) async throws {
        let source = try await Self.written(kind, length: 40, fill: 0x44)
        let copy = try await { () async throws -> Type2Capture in
            let bench = try await Type2Bench(source)
            return try await bench.engine.capture(on: bench.connection)
        }()
        let other = try await Self.written(kind, length: 12, fill: 0x55, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        let bench = try await Type2Bench(other)
        let written = try await bench.engine.restore(copy, on: bench.connection)
        let chip = try #require(await bench.chip())
        #expect(written > 0)
        for page in 3...chip.model.lastUserPage { #expect(chip.page(page) == source.page(page), "page \(page)") }
        #expect(chip.uid == other.uid, "the UID is the chip's own")
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == type2Message(length: 40, fill: 0x44))
        #expect(try await bench.engine.restore(copy, on: bench.connection) == 0, "a second restore finds every page equal")
    }

    @Test func restoreRefusesAnotherModelAndACapabilityContainerThatWouldClearBits() async throws {
        let ntag213 = try await Self.written(.ntag213, length: 10)
        let copy = try await { () async throws -> Type2Capture in
            let bench = try await Type2Bench(ntag213)
            return try await bench.engine.capture(on: bench.connection)
        }()
        let other = try await Type2Bench(.ntag215)
        let model = await #expect(throws: TagEngineError.self) { try await other.engine.restore(copy, on: other.connection) }
        #expect(model?.code == .unsupported && model?.reason.contains("same model") == true)
        #expect(other.connection.count(0xA2) == 0)

        var blankCC = copy
        blankCC.pages[3] = [0xE1, 0x10, 0x06, 0x00]  // fewer bits than the chip's E1 10 12 00
        let same = try await Type2Bench(ntag213)
        let cc = await #expect(throws: TagEngineError.self) { try await same.engine.restore(blankCC, on: same.connection) }
        #expect(cc?.code == .unsupported && cc?.reason.contains("one-time programmable") == true)
        #expect(same.connection.count(0xA2) == 0, "refused before anything is written")
    }

    @Test func restoreOfConfigurationAndLocksGoesLast() async throws {
        let tag = try await Self.written(.ntag213, length: 20)
        var copy = try await { () async throws -> Type2Capture in
            let bench = try await Type2Bench(tag)
            return try await bench.engine.capture(on: bench.connection)
        }()
        copy.pages[0x2B] = Self.password
        copy.pages[0x2C] = [0x12, 0x34, 0, 0]
        copy.pages[0x29] = [0x04, 0x00, 0x00, 0x10]  // AUTH0 10h
        copy.pages[0x28] = [0x01, 0x00, 0x00, 0xBD]  // dynamic lock bit 0: pages 10h–11h
        let target = try await Type2Bench(.ntag213)
        try await target.engine.restore(copy, parts: [.configuration, .locks], on: target.connection)
        let writes = target.connection.frames.filter { $0.first == 0xA2 }.map { Int($0[1]) }
        #expect(Array(writes.suffix(4)) == [0x28, 0x2B, 0x2C, 0x29], "the lock bits, then PWD, PACK and AUTH0 last")
        let chip = try #require(await target.chip())
        #expect(chip.page(0x2B) == Self.password)
        #expect(chip.page(0x29)[3] == 0x10)
        #expect(chip.page(0x28)[0] == 0x01)
    }

    @Test(arguments: [(60, 90), (60, 60)])
    func everyInterruptedRestoreLeavesOldNewOrEmpty(newLength: Int, oldLength: Int) async throws {
        // (60, 60): the same length, so page 04h is equal on both sides and is still emptied first.
        let source = try await Self.written(.ntag213, length: newLength, fill: 0x22)
        let copy = try await { () async throws -> Type2Capture in
            let bench = try await Type2Bench(source)
            return try await bench.engine.capture(on: bench.connection)
        }()
        let old = type2Message(length: oldLength, fill: 0x11)
        let target = try await Self.written(.ntag213, length: oldLength, fill: 0x11, uid: [0x04, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F])
        let clean = try await Type2Bench(target)
        try await clean.engine.restore(copy, on: clean.connection)
        let commands = clean.connection.frames.count
        for interruption in Type2TearingTests.Interruption.allCases {
            for command in 1...commands {
                let bench = try await Type2Bench(target)
                await bench.field.inject(interruption.fault(at: command), into: bench.id)
                await #expect(throws: TagEngineError(.tagLost, "")) { try await bench.engine.restore(copy, on: bench.connection) }
                let connection = try await bench.reinsertAndConnect()
                let found = try await bench.engine.readNDEF(on: connection).message
                #expect(
                    found == old || found == type2Message(length: newLength, fill: 0x22) || found == [],
                    "\(interruption) at command \(command): \(found.count) B")
            }
        }
    }

    @Test(arguments: VirtualTagKind.type2Kinds)
    func wipeClearsBrokenTLVsBackToAnEmptyFormattedTag(kind: VirtualTagKind) async throws {
        let formatted = try await Self.written(kind, length: 30)
        let broken = try type2Tag(kind) { memory in
            memory.replaceSubrange(12..<16, with: formatted.page(3))
            type2Put([0x03, 0xFF, 0x7F, 0xFF, 0x01, 0x09, 0x99, 0x02], at: 16, in: &memory)  // a length past the data area
        }
        let bench = try await Type2Bench(broken)
        await #expect(throws: TagEngineError.self) { try await bench.engine.readNDEF(on: bench.connection) }
        try await bench.engine.wipe(on: bench.connection)
        let chip = try #require(await bench.chip())
        #expect(chip.page(4) == [0x03, 0x00, 0xFE, 0x00])
        for page in 5...chip.model.lastUserPage { #expect(chip.page(page) == [0, 0, 0, 0], "page \(page)") }
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == [])
        #expect(try await bench.engine.wipe(on: bench.connection) == 0, "a wiped tag needs no writes")
    }

    @Test func wipeFormatsABlankChipAndRefusesALockedOne() async throws {
        let blank = try await Type2Bench(.ultralightMF0UL11, blank: true)
        try await blank.engine.wipe(on: blank.connection)
        #expect(blank.connection.frames.filter { $0.first == 0xA2 }.last?[1] == 3, "the CC last")
        #expect(try await blank.engine.readNDEF(on: blank.connection).message == [])

        let tag = try await Self.written(.ntag213, length: 20)
        let locking = try await Type2Bench(tag)
        try await locking.engine.makeReadOnly(on: locking.connection)
        let locked = try await Type2Bench(try #require(await locking.chip()))
        let refused = await #expect(throws: TagEngineError.self) { try await locked.engine.wipe(on: locked.connection) }
        #expect(refused?.code == .readOnly)
        #expect(locked.connection.count(0xA2) == 0)
    }

    @Test func everyInterruptedWipeLeavesOldOrEmpty() async throws {
        let tag = try await Self.written(.ntag215, length: 120, fill: 0x66)
        let old = type2Message(length: 120, fill: 0x66)
        let clean = try await Type2Bench(tag)
        try await clean.engine.wipe(on: clean.connection)
        let commands = clean.connection.frames.count
        for interruption in Type2TearingTests.Interruption.allCases {
            for command in 1...commands {
                let bench = try await Type2Bench(tag)
                await bench.field.inject(interruption.fault(at: command), into: bench.id)
                await #expect(throws: TagEngineError(.tagLost, "")) { try await bench.engine.wipe(on: bench.connection) }
                let connection = try await bench.reinsertAndConnect()
                let found = try await bench.engine.readNDEF(on: connection).message
                #expect(found == old || found == [], "\(interruption) at command \(command): \(found.count) B")
            }
        }
    }
}
