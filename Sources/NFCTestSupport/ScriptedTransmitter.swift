import ISO7816
import NFCBytes

/// A card that answers each command with the next scripted response (data + SW, or any bytes a
/// test wants the client to see), `6F00` once the script is spent, and records every command:
/// for feeding applet clients answers no real applet gives.
package final class ScriptedTransmitter: APDUTransmitter {
    /// Whether the card takes extended-length APDUs, as given to ``init(_:extended:)``.
    package let supportsExtendedLength: Bool
    private let state: Guarded<(responses: [[UInt8]], commands: [[UInt8]])>

    /// A card answering `responses` in order; `extended` says whether it takes extended APDUs.
    package init(_ responses: [[UInt8]], extended: Bool = true) {
        supportsExtendedLength = extended
        state = Guarded((responses, []))
    }

    /// The commands received, in order.
    package var commands: [[UInt8]] { state.withLock { $0.commands } }

    /// Records `command` and returns the next scripted response, or `6F00` once the script is spent; never throws.
    package func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        state.withLock { state in
            state.commands.append(command)
            return state.responses.isEmpty ? [0x6F, 0x00] : state.responses.removeFirst()
        }
    }
}
