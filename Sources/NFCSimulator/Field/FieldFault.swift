import NFCTransport

/// A fault the field applies to one tag, for reliability tests: what users' code must survive.
///
/// Command numbers count the commands the tag receives after the fault is injected, from 1.
public enum FieldFault: Sendable, Hashable {
    /// The tag answers `count` more commands, then leaves the field; the next command finds no tag.
    case removeAfterCommands(Int)
    /// The tag leaves the field at a simulated instant; an exchange in flight then is cut, and a
    /// write it carried ends as `tear` says.
    case removeAt(SimulatedClock.Instant, tear: TearOutcome = .oldData)
    /// Command number `command` is cut during the tag's processing: the tag leaves the field and a
    /// memory write it carried ends as `tear` says.
    case tear(command: Int, outcome: TearOutcome = .oldData)
    /// The answer to command number `command` is damaged.
    case corruptResponse(command: Int, Corruption)
    /// The tag answers command number `command` this much later than it would (a timeout when the
    /// reader's wait is shorter).
    case delayResponse(command: Int, by: Duration)

    /// What a torn EEPROM write leaves in memory.
    public enum TearOutcome: String, Sendable, Hashable, CaseIterable {
        /// The interrupted command left memory as it was.
        case oldData
        /// The interrupted command completed before power was lost.
        case newData
    }

    /// How an answer is damaged.
    public enum Corruption: Sendable, Hashable {
        /// The frame fails its CRC: the reader reports a transmission error.
        case crcError
        /// Bits flipped inside the payload with a CRC that still matches (what a lying tag does):
        /// byte `byte` of the answer is XORed with `mask`.
        case flipBits(byte: Int, mask: UInt8)
    }
}
