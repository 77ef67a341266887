import Foundation

/// A tag's common face (Core NFC's `__NFCTag`): its kind, its session and whether it is usable.
@available(iOS 13.0, *)
@preconcurrency
public protocol __NFCTag: NSObjectProtocol, NSSecureCoding, NSCopying {
    /// The kind of tag.
    var type: NFCTagType { get }
    /// The session that found the tag.
    var session: (any NFCReaderSessionProtocol)? { get }
    /// Whether the tag is still in the field, in the session's current polling round, with the
    /// session active.
    var isAvailable: Bool { get }
}

/// A tag that holds NDEF (Core NFC's `NFCNDEFTag`): every tag kind adopts it.
@available(iOS 13.0, *)
@preconcurrency
public protocol NFCNDEFTag: NSObjectProtocol, NSSecureCoding, NSCopying {
    /// Whether the tag is still in the field, in the session's current polling round, with the session active.
    var isAvailable: Bool { get }

    /// The NDEF status and the largest message the tag can hold, in bytes.
    func queryNDEFStatus(completionHandler: @escaping (NFCNDEFStatus, Int, (any Error)?) -> Void)
    /// The NDEF status and the largest message the tag can hold, in bytes (0 when NDEF is not supported).
    func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int)

    /// Reads the NDEF message (an empty tag fails with `ndefReaderSessionErrorZeroLengthMessage`).
    func readNDEF(completionHandler: @escaping (NFCNDEFMessage?, (any Error)?) -> Void)
    /// Reads the NDEF message (an empty tag fails with `ndefReaderSessionErrorZeroLengthMessage`).
    func readNDEF() async throws -> NFCNDEFMessage

    /// Writes an NDEF message.
    func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping ((any Error)?) -> Void)
    /// Writes an NDEF message; a message without records fails with `ndefReaderSessionErrorZeroLengthMessage`.
    func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws

    /// Makes the tag permanently read-only.
    func writeLock(completionHandler: @escaping ((any Error)?) -> Void)
    /// Makes the tag permanently read-only.
    func writeLock() async throws
}
