import NFCSimulator
import NFCTestSupport

/// A UID for the tests: 04 E1 41 12 4C 28 80 (BCC0 = 88h ⊕ 04h ⊕ E1h ⊕ 41h = 2Ch, BCC1 = F6h).
let exampleUID: [UInt8] = [0x04, 0xE1, 0x41, 0x12, 0x4C, 0x28, 0x80]

/// A chip on the test bench: a box around a ``Type2Tag`` so that commands, which mutate the tag,
/// can be sent inside `#expect`. Properties of the tag read through (`chip.state`, `chip.memory`).
@dynamicMemberLookup
final class Chip {
    var tag: Type2Tag

    /// A chip in the field and selected, as a reader finds it.
    init(_ model: Type2Tag.Model, blank: Bool = false) {
        tag = Type2Tag(model: model, uid: exampleUID, blank: blank)
        powerCycle()
    }

    /// A chip as given, not yet powered.
    init(_ tag: Type2Tag) { self.tag = tag }

    subscript<T>(dynamicMember keyPath: KeyPath<Type2Tag, T>) -> T { tag[keyPath: keyPath] }

    /// Sends a command written in hex and returns the answer.
    @discardableResult
    func send(_ hex: String) -> TagAnswer {
        tag.respond(to: hexBytes(hex), context: ExchangeContext())
    }

    /// Sends a command and returns what `transceive` would return (nil when mute).
    func exchange(_ hex: String) -> [UInt8]? { send(hex).transceivedBytes }

    /// Reactivates the chip (WUPA + SELECT), as after a NAK.
    func reactivate() { _ = tag.activate(context: ExchangeContext()) }

    /// Power cycle: the tag leaves the field and comes back, then is selected.
    func powerCycle() {
        tag.powerOn()
        reactivate()
    }

    /// Writes a page; true on ACK.
    func mustWrite(_ page: Int, _ data: String) -> Bool {
        send("A2" + hex2(page) + data).reply == .ack
    }

    func page(_ address: Int) -> [UInt8] { tag.page(address) }
    func isLocked(_ address: Int) -> Bool { tag.isLocked(address) }
}

/// A byte as two hex digits.
func hex2(_ value: Int) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[(value >> 4) & 0xF], digits[value & 0xF]])
}

extension TagAnswer {
    /// The data bytes of a `.bytes` answer, else nil.
    var data: [UInt8]? {
        if case .bytes(let bytes) = reply { return bytes }
        return nil
    }
}
