import NFCSimulator
import NFCTestSupport

/// Helpers shared by the PC/SC suites: fronts over catalogue tags, APDUs from hex, and the parts
/// of a response APDU.
enum PCSCTestSupport {
    /// A powered front over a fresh tag of a kind (formatted unless `blank`).
    static func front(
        _ kind: VirtualTagKind, blank: Bool = false, basicReader: Bool = false, profile: EmulatedReaderProfile = .generic
    ) throws -> EmulatedReaderFront {
        var front = EmulatedReaderFront(tag: try kind.make(blank: blank), basicReader: basicReader, profile: profile)
        front.powerOn()
        return front
    }

    /// The status word (last two bytes).
    static func sw(_ response: [UInt8]) -> [UInt8] { Array(response.suffix(2)) }

    /// The data before the status word.
    static func data(_ response: [UInt8]) -> [UInt8] { Array(response.dropLast(2)) }

    /// A Transparent Exchange APDU carrying one frame in a `95` object (short lengths only).
    static func transceive(_ frame: [UInt8]) -> [UInt8] {
        let object: [UInt8] = frame.count < 0x80 ? [0x95, UInt8(frame.count)] + frame : [0x95, 0x81, UInt8(frame.count)] + frame
        return [0xFF, 0xC2, 0x00, 0x01, UInt8(object.count)] + object
    }

    /// A FeliCa frame with its LEN byte (JIS X 6319-4: LEN counts itself).
    static func withLength(_ frame: [UInt8]) -> [UInt8] { [UInt8(frame.count + 1)] + frame }

    /// The answer a Transparent Exchange gives for a tag's frame.
    static func exchanged(_ frame: [UInt8]) -> [UInt8] {
        hexBytes("C0 03 00 90 00 96 02 00 00") + [0x97, UInt8(frame.count)] + frame + [0x90, 0x00]
    }
}

extension EmulatedReaderFront {
    /// Answers an APDU written in hex.
    mutating func send(_ hex: String) -> [UInt8] { respond(to: hexBytes(hex)) }
}
