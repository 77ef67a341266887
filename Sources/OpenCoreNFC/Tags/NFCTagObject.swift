import Foundation
import NDEF
import NFCTags
import NFCTransport

/// The object behind every tag a session hands out: it knows its target, its session and its
/// polling round, and runs the NDEF engine of its family.
///
/// Mutable state: none after creation; the session guards its own.
@available(iOS 13.0, *)
class NFCTagObject: NSObject, NFCNDEFTag, @unchecked Sendable {
    let target: TargetInfo
    let generation: Int
    weak var owner: NFCReaderSession?
    /// Whether NDEF and raw commands need `connect(to:)` first (tag sessions and NDEF sessions
    /// in read-write mode do; the read-only NDEF session reads by itself).
    let requiresConnection: Bool

    init(target: TargetInfo, generation: Int, session: NFCReaderSession, requiresConnection: Bool) {
        self.target = target
        self.generation = generation
        self.owner = session
        self.requiresConnection = requiresConnection
        super.init()
    }

    // NSSecureCoding and NSCopying, as Core NFC's tag protocols require. A tag is a live handle:
    // it copies as itself and does not survive archiving.
    class var supportsSecureCoding: Bool { true }
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) { nil }
    func copy(with zone: NSZone? = nil) -> Any { self }

    var engine: any NDEFTagEngine { TagEngines.engine(for: TagFamily(target)) }

    var isAvailable: Bool { owner?.isCurrent(target, generation: generation) ?? false }

    var session: (any NFCReaderSessionProtocol)? { owner }

    /// Runs work on the tag's connection after the session's checks; errors come back as
    /// `NFCReaderError`.
    func withConnection<T: Sendable>(_ body: (any TagConnection) async throws(NFCReaderError) -> T) async throws(NFCReaderError) -> T {
        guard let owner else { throw NFCReaderError(.readerTransceiveErrorSessionInvalidated, reason: "the session is gone") }
        try owner.checkUsable(target, generation: generation, requireConnected: requiresConnection)
        let connection = try await owner.connection(for: target, generation: generation)
        do {
            return try await body(connection)
        } catch {
            // A command found the tag gone: it is unavailable from now on, without waiting for
            // the reader's tag-left event.
            if error.code == .readerTransceiveErrorTagConnectionLost { await owner.targetWentAway(target) }
            throw error
        }
    }

    /// Delivers a result on the session's queue, or, once the session is gone, on a serial
    /// queue: handlers never run two at a time.
    func deliver(_ work: @escaping @Sendable () -> Void) {
        (owner?.sessionQueue ?? Self.fallbackQueue).async(execute: work)
    }

    /// Where handlers of tags whose session is gone run: one serial queue.
    static let fallbackQueue = DispatchQueue(label: "OpenCoreNFC.tag-without-session")

    // MARK: NFCNDEFTag

    func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) {
        let engine = self.engine
        let status = try await withConnection { connection throws(NFCReaderError) in
            do throws(TagEngineError) {
                return try await engine.queryStatus(on: connection)
            } catch {
                throw ErrorMapping.readError(error)
            }
        }
        switch status.state {
        case .notSupported: return (.notSupported, 0)
        case .readWrite: return (.readWrite, status.capacity)
        case .readOnly: return (.readOnly, status.capacity)
        }
    }

    func queryNDEFStatus(completionHandler: @escaping (NFCNDEFStatus, Int, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        Task {
            do {
                let (status, capacity) = try await queryNDEFStatus()
                deliver { completionHandler(status, capacity, nil) }
            } catch {
                deliver { completionHandler(.notSupported, 0, error) }
            }
        }
    }

    func readNDEF() async throws -> NFCNDEFMessage {
        let engine = self.engine
        let result = try await withConnection { connection throws(NFCReaderError) in
            do throws(TagEngineError) {
                return try await engine.readNDEF(on: connection)
            } catch {
                throw ErrorMapping.readError(error)
            }
        }
        guard !result.message.isEmpty else {
            throw NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, reason: "the tag holds no NDEF message")
        }
        do {
            return NFCNDEFMessage(try NDEFMessage(decoding: result.message))
        } catch {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, reason: "the tag holds a malformed NDEF message: \(error)")
        }
    }

    func readNDEF(completionHandler: @escaping (NFCNDEFMessage?, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        Task {
            do {
                nonisolated(unsafe) let message = try await readNDEF()
                deliver { completionHandler(message, nil) }
            } catch {
                deliver { completionHandler(nil, error) }
            }
        }
    }

    func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        guard !ndefMessage.records.isEmpty else {
            throw NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, reason: "an NDEF message to write needs at least one record")
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try ndefMessage.encoded())
        } catch {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "the message cannot be encoded: \(error)")
        }
        let engine = self.engine
        try await withConnection { connection throws(NFCReaderError) in
            do throws(TagEngineError) {
                try await engine.writeNDEF(bytes, on: connection)
            } catch {
                throw ErrorMapping.writeError(error)
            }
        }
    }

    func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping ((any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        nonisolated(unsafe) let message = ndefMessage
        Task {
            do {
                try await writeNDEF(message)
                deliver { completionHandler(nil) }
            } catch {
                deliver { completionHandler(error) }
            }
        }
    }

    func writeLock() async throws {
        let engine = self.engine
        try await withConnection { connection throws(NFCReaderError) in
            do throws(TagEngineError) {
                try await engine.makeReadOnly(on: connection)
            } catch {
                throw ErrorMapping.writeError(error)
            }
        }
    }

    func writeLock(completionHandler: @escaping ((any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        Task {
            do {
                try await writeLock()
                deliver { completionHandler(nil) }
            } catch {
                deliver { completionHandler(error) }
            }
        }
    }

    /// Sends one raw frame (a native command or an APDU) and returns the answer.
    func transceive(_ frame: [UInt8], timeout: Duration = .seconds(1)) async throws(NFCReaderError) -> [UInt8] {
        try await withConnection { connection throws(NFCReaderError) in
            do throws(TransportError) {
                return try await connection.transceive(frame, timeout: timeout)
            } catch {
                throw ErrorMapping.transceiveError(error)
            }
        }
    }
}
