import ISO7816
import NFCBytes

/// Turns the status words of Type 4 commands into ``TagEngineError``s that say what and where,
/// with the status word in ``TagEngineError/tagStatus``.
///
/// ISO/IEC 7816-4:2020 Table 6 gives the meanings used: `6982`/`6985` (security or conditions
/// not satisfied: the file refuses the access), `6A82` (file or application not found), `6B00`
/// and `6282` (offset beyond the end of the file, or the end reached before Ne bytes), `6A84`
/// (not enough memory in the file).
enum Type4Status {
    static func hex(_ id: UInt16) -> String {
        Hex.encode([UInt8(id >> 8), UInt8(id & 0xFF)], uppercase: true)
    }

    /// A READ BINARY refused or cut short.
    static func readFailure(_ sw: StatusWord, file: UInt16, offset: Int) -> TagEngineError {
        let place = "READ BINARY of file \(hex(file)) at offset \(offset)"
        switch sw {
        case .wrongParameters, .endOfFileReached:
            return TagEngineError(
                .invalidNDEFArea, "\(place): the file ends before the length the tag announced (SW \(sw))", tagStatus: sw.bytes)
        case .securityStatusNotSatisfied, .conditionsNotSatisfied:
            return TagEngineError(.authenticationFailed, "\(place): read access refused (SW \(sw))", tagStatus: sw.bytes)
        default:
            return TagEngineError(.tagError, "\(place) failed (SW \(sw))", tagStatus: sw.bytes)
        }
    }

    /// An UPDATE BINARY refused.
    static func updateFailure(_ sw: StatusWord, file: UInt16, offset: Int) -> TagEngineError {
        let place = "UPDATE BINARY of file \(hex(file)) at offset \(offset)"
        switch sw {
        case .securityStatusNotSatisfied, .conditionsNotSatisfied:
            return TagEngineError(
                .readOnly, "\(place): the file is write-protected though its CC grants write access (SW \(sw))", tagStatus: sw.bytes)
        case .wrongParameters, .notEnoughMemory:
            return TagEngineError(.invalidNDEFArea, "\(place): the file is smaller than its CC says (SW \(sw))", tagStatus: sw.bytes)
        default:
            return TagEngineError(.tagError, "\(place) failed (SW \(sw))", tagStatus: sw.bytes)
        }
    }

    /// Any other command refused.
    static func failure(_ code: TagEngineError.Code, _ what: String, _ sw: StatusWord) -> TagEngineError {
        TagEngineError(code, "\(what) (SW \(sw))", tagStatus: sw.bytes)
    }
}
