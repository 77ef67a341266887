import ISO7816
import NFCBytes

/// A card that answers each command with the next scripted response (data + SW) and records
/// the commands, for feeding the client answers no real applet gives.
final class ScriptedTransmitter: APDUTransmitter {
    private let state: Guarded<(responses: [[UInt8]], commands: [[UInt8]])>
    let supportsExtendedLength = true

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
}
