import ISO7816
import NFCBytes

/// A card that answers from a script: each command gets the next response (data + SW) and is
/// recorded, so a test can feed the client any bytes.
final class ScriptedCard: APDUTransmitter {
    let supportsExtendedLength = false
    private let state: Guarded<(responses: [[UInt8]], commands: [[UInt8]])>

    init(_ responses: [[UInt8]]) {
        state = Guarded((responses, []))
    }

    var commands: [[UInt8]] { state.withLock { $0.commands } }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        state.withLock { state in
            state.commands.append(command)
            return state.responses.isEmpty ? [0x6F, 0x00] : state.responses.removeFirst()
        }
    }

    /// A SELECT answer: version 5.3.1, name 0102030405060708, and a challenge when given.
    static func selectAnswer(challenge: [UInt8]? = nil) -> [UInt8] {
        var data: [UInt8] = [0x79, 0x03, 0x05, 0x03, 0x01, 0x71, 0x08, 1, 2, 3, 4, 5, 6, 7, 8]
        if let challenge { data += [0x74, UInt8(challenge.count)] + challenge + [0x7B, 0x01, 0x01] }
        return data + [0x90, 0x00]
    }
}
