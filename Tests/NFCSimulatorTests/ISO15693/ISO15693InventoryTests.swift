import NFCSimulator
import NFCTransport
import Testing

/// Inventory, anticollision masks, AFI and the Ready / Quiet / Selected rules (ISO/IEC 15693-3).
@Suite("ISO15693 inventory and states")
struct ISO15693InventoryTests {
    typealias S = ISO15693TestSupport

    @Test("Inventory, one slot, no mask: flags, DSFID, UID least significant byte first")
    func inventoryOneSlot() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x26, 0x01, 0x00]) == [0x00, 0x00] + S.slix2Wire)
        #expect(S.slix2Wire == [0x92, 0x71, 0x5C, 0x3A, 0x08, 0x01, 0x04, 0xE0])
    }

    @Test(
        "Inventory with the AFI flag follows the family / sub-family rules",
        arguments: [
            (UInt8(0x00), true), (0x30, true), (0x35, true), (0x36, false), (0x05, false), (0x40, false),
        ])
    func inventoryAFI(requested: UInt8, answers: Bool) {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x02, 0x27, 0x35]) == [0x00])
        let answer = tag.exchange([0x36, 0x01, requested, 0x00])
        #expect((answer != nil) == answers)
        if answers { #expect(answer == [0x00, 0x00] + S.slix2Wire) }
    }

    @Test("A tag with AFI 0 answers only requests for AFI 0 or no AFI")
    func afiZeroTag() {
        var tag = ISO15693Tag.blank(.st25dv16k)
        #expect(tag.exchange([0x36, 0x01, 0x00, 0x00]) != nil)
        #expect(tag.exchange([0x36, 0x01, 0x10, 0x00]) == nil)
        #expect(tag.exchange([0x26, 0x01, 0x00]) != nil)
    }

    @Test(
        "The mask is compared with the UID's low bits",
        arguments: [
            ([UInt8(0x08), 0x92], true), ([0x08, 0x93], false), ([0x04, 0x02], true), ([0x04, 0x03], false),
            ([0x0C, 0x92, 0x01], true), ([0x0C, 0x92, 0x02], false),
            ([0x40, 0x92, 0x71, 0x5C, 0x3A, 0x08, 0x01, 0x04, 0xE0], true),
            ([0x40, 0x92, 0x71, 0x5C, 0x3A, 0x08, 0x01, 0x04, 0xE1], false),
        ])
    func inventoryMask(mask: [UInt8], answers: Bool) {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect((tag.exchange([0x26, 0x01] + mask) != nil) == answers)
    }

    @Test(
        "Malformed inventories get no answer",
        arguments: [
            [UInt8(0x26), 0x01], [0x26, 0x01, 0x08], [0x26, 0x01, 0x00, 0x00], [0x26, 0x01, 0x41] + Array(repeating: 0, count: 9),
            [0x06, 0x01, 0x3D] + Array(repeating: 0, count: 8), [0x36, 0x01], [0x02, 0x01, 0x00], [0x26, 0x20, 0x00],
        ])
    func malformedInventory(frame: [UInt8]) {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange(frame) == nil)
        #expect(tag.exchange([0x26, 0x01, 0x00]) != nil)
    }

    @Test("16 slots: the tag answers in the slot its next 4 UID bits name; the reader opens 15 more")
    func inventorySixteenSlots() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        let answer = tag.respond(to: [0x06, 0x01, 0x00], context: ExchangeContext())
        #expect(answer.transceivedBytes == [0x00, 0x00] + S.slix2Wire)
        let frames = answer.frames ?? []
        #expect(frames.count == 16)
        // UID bits 0–3 are 0x2 (wire byte 0x92): slot 2.
        #expect(frames.firstIndex { $0.tag != .none } == 2)
        #expect(frames.first?.reader == .bytes(3))
        #expect(frames.dropFirst().allSatisfy { $0.reader == .none && $0.processing == .nanoseconds(37_760) })
        // With a 4-bit mask 0x2, the next bits are 0x9 (upper nibble of 0x92): slot 9.
        let masked = tag.respond(to: [0x06, 0x01, 0x04, 0x02], context: ExchangeContext())
        #expect(masked.frames?.firstIndex { $0.tag != .none } == 9)
        #expect(tag.exchange([0x06, 0x01, 0x04, 0x03]) == nil)
    }

    @Test("Stay Quiet silences the tag for everything but addressed requests; Reset to Ready wakes it")
    func stayQuiet() {
        var tag = ISO15693Tag.formatted(.icodeSLIX2)
        #expect(tag.exchange([0x22, 0x02] + S.slix2Wire) == nil)
        #expect(tag.state == .quiet)
        #expect(tag.exchange([0x26, 0x01, 0x00]) == nil)
        #expect(tag.exchange([0x02, 0x20, 0x00]) == nil)
        #expect(tag.exchange([0x22, 0x20] + S.slix2Wire + [0x00]) == [0x00, 0xE1, 0x40, 0x27, 0x01])
        #expect(tag.exchange([0x22, 0x26] + S.slix2Wire) == [0x00])
        #expect(tag.state == .ready)
        #expect(tag.exchange([0x26, 0x01, 0x00]) != nil)
    }

    @Test("Stay Quiet that is not addressed, or for another UID, changes nothing")
    func stayQuietIgnored() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x02, 0x02]) == nil)
        #expect(tag.exchange([0x22, 0x02] + S.st25Wire) == nil)
        #expect(tag.state == .ready)
    }

    @Test("Select: select-mode requests reach only the selected tag; Select for another UID deselects")
    func select() {
        var tag = ISO15693Tag.formatted(.st25dv16k)
        #expect(tag.exchange([0x12, 0x20, 0x00]) == nil)
        #expect(tag.exchange([0x02, 0x25]) == nil)
        #expect(tag.exchange([0x22, 0x25] + S.st25Wire) == [0x00])
        #expect(tag.state == .selected)
        #expect(tag.exchange([0x12, 0x20, 0x00]) == [0x00, 0xE2, 0x40, 0x00, 0x01])
        #expect(tag.exchange([0x02, 0x20, 0x00]) == [0x00, 0xE2, 0x40, 0x00, 0x01])
        #expect(tag.exchange([0x22, 0x25] + S.slix2Wire) == nil)
        #expect(tag.state == .ready)
        #expect(tag.exchange([0x12, 0x20, 0x00]) == nil)
    }

    @Test("A quiet tag can be selected; Reset to Ready in select mode returns it to Ready")
    func selectFromQuiet() {
        var tag = ISO15693Tag.blank(.st25dv16k)
        _ = tag.exchange([0x22, 0x02] + S.st25Wire)
        #expect(tag.exchange([0x22, 0x25] + S.st25Wire) == [0x00])
        #expect(tag.exchange([0x12, 0x26]) == [0x00])
        #expect(tag.state == .ready)
        #expect(tag.exchange([0x12, 0x26, 0x00]) == nil)
        #expect(tag.exchange([0x02, 0x26, 0x00]) == [0x01, 0x02])
    }

    @Test(
        "Address and select flags together, a short UID, or another UID get no answer",
        arguments: [
            [UInt8(0x32), 0x20] + ISO15693TestSupport.slix2Wire + [0x00],
            [0x22, 0x20, 0x92, 0x71, 0x5C],
            [0x22, 0x20] + ISO15693TestSupport.st25Wire + [0x00],
            [0x22], [],
        ])
    func silentAddressing(frame: [UInt8]) {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange(frame) == nil)
    }

    @Test("Power-on clears quiet and selected; parameters report the DSFID; activation is one inventory")
    func powerOnAndParameters() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        _ = tag.exchange([0x22, 0x02] + S.slix2Wire)
        tag.powerOn()
        #expect(tag.state == .ready)
        #expect(tag.exchange([0x02, 0x29, 0x7A]) == [0x00])
        #expect(tag.parameters == .iso15693(.init(dsfid: 0x7A)))
        #expect(tag.identifier == ISO15693Tag.Model.icodeSLIX2.sampleUID)
        #expect(tag.activate(context: ExchangeContext()) == [AirFrame(reader: .bytes(3), tag: .bytes(10))])
    }

    @Test("Through the field: a quiet tag times out on non-addressed requests")
    func quietThroughField() async throws {
        let harness = try await FieldHarness(ISO15693Tag.formatted(.icodeSLIX2))
        #expect(try await harness.send([0x26, 0x01, 0x00]) == [0x00, 0x00] + S.slix2Wire)
        await #expect(throws: TransportError(.timeout)) {
            try await harness.send([0x22, 0x02] + S.slix2Wire)
        }
        await #expect(throws: TransportError(.timeout)) { try await harness.send([0x02, 0x20, 0x00]) }
        #expect(try await harness.send([0x22, 0x20] + S.slix2Wire + [0x01]) == [0x00, 0x03, 0x00, 0xFE, 0x00])
        #expect(await harness.tag(as: ISO15693Tag.self)?.state == .quiet)
    }
}
