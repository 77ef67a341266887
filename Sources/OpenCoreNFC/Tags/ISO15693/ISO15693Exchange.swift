import Foundation
import NFCCommandSets
import NFCTransport

/// The command codes the tag object sends: the shared command set (ISO/IEC 15693-3:2019 §10).
typealias ISO15693Code = ISO15693CommandCode

/// One answer of an ISO 15693 tag: its response flags and the bytes after them.
struct ISO15693Answer: Sendable {
    let flags: NFCISO15693ResponseFlag
    let payload: [UInt8]
}

@available(iOS 13.0, *)
extension ISO15693TagObject {
    /// The flags a command goes out with: the address flag is added unless the select flag is set,
    /// which excludes it (ISO/IEC 15693-3 §7.3.1, Table 4: select and address are exclusive).
    func addressing(_ flags: NFCISO15693RequestFlag) -> NFCISO15693RequestFlag {
        flags.contains(.select) ? flags.subtracting(.address) : flags.union(.address)
    }

    /// Builds a request: flags, command code, [IC manufacturer code], [UID least significant byte
    /// first when addressed], parameters (ISO/IEC 15693-3 §7.3, §10.5).
    func frame(
        _ flags: NFCISO15693RequestFlag, _ code: UInt8, manufacturer: UInt8? = nil, _ parameters: [UInt8] = []
    ) -> [UInt8] {
        var bytes = [flags.rawValue, code]
        if let manufacturer { bytes.append(manufacturer) }
        if flags.contains(.address) { bytes += target.identifier.reversed() }
        return bytes + parameters
    }

    /// Sends a command with the caller's flags (addressed as ``addressing(_:)`` says) and returns
    /// the successful answer's payload.
    func command(
        _ flags: NFCISO15693RequestFlag, _ code: UInt8, manufacturer: UInt8? = nil, _ parameters: [UInt8] = [],
        timeout: Duration = .seconds(1)
    ) async throws(NFCReaderError) -> [UInt8] {
        let answer = try await exchange(frame(addressing(flags), code, manufacturer: manufacturer, parameters), timeout: timeout)
        return answer.payload
    }

    /// Sends one frame; an error answer throws with the tag's error code, an empty answer throws.
    func exchange(_ request: [UInt8], timeout: Duration = .seconds(1)) async throws(NFCReaderError) -> ISO15693Answer {
        try Self.parse(try await transceive(request, timeout: timeout))
    }

    /// Splits an answer into flags and payload (ISO/IEC 15693-3 §7.4): error bit set → the error
    /// code under ``NFCISO15693TagResponseErrorKey``.
    static func parse(_ answer: [UInt8]) throws(NFCReaderError) -> ISO15693Answer {
        guard let first = answer.first else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, reason: "the tag answered no bytes")
        }
        let flags = NFCISO15693ResponseFlag(rawValue: first)
        if flags.contains(.error) {
            guard answer.count >= 2 else {
                throw NFCReaderError(.readerTransceiveErrorTagResponseError, reason: "an error answer without its error code")
            }
            throw tagError(answer[1])
        }
        return ISO15693Answer(flags: flags, payload: Array(answer.dropFirst()))
    }

    /// The error a tag's error code (ISO/IEC 15693-3 §7.4.2, Table 7) becomes.
    static func tagError(_ code: UInt8) -> NFCReaderError {
        NFCReaderError(
            .readerTransceiveErrorTagResponseError,
            userInfo: [
                NFCISO15693TagResponseErrorKey: Int(code),
                "NSLocalizedFailureReason": "the tag answered error code \(code)",
            ])
    }

    /// Sends a command the tag does not answer (Stay Quiet §10.3.2, Challenge): silence is
    /// success; an answer is checked for the error flag.
    func silentCommand(_ request: [UInt8]) async throws(NFCReaderError) {
        let answer: [UInt8]? = try await withConnection { connection throws(NFCReaderError) in
            do throws(TransportError) {
                return try await connection.transceive(request, timeout: .milliseconds(20))
            } catch let error where error.code == .timeout {
                return nil
            } catch {
                throw ErrorMapping.transceiveError(error)
            }
        }
        if let answer { _ = try Self.parse(answer) }
    }

    // MARK: Completion handlers

    /// Runs `work` and hands its error (or nil) to `handler` on the session's queue.
    func complete(_ handler: @escaping ((any Error)?) -> Void, _ work: @escaping @Sendable () async throws -> Void) {
        nonisolated(unsafe) let handler = handler
        Task {
            do {
                try await work()
                deliver { handler(nil) }
            } catch {
                deliver { handler(error) }
            }
        }
    }

    /// Runs `work` and hands its value (or `fallback` and the error) to `handler` on the session's
    /// queue.
    func complete<Value: Sendable>(
        _ fallback: Value, _ handler: @escaping (Value, (any Error)?) -> Void,
        _ work: @escaping @Sendable () async throws -> Value
    ) {
        nonisolated(unsafe) let handler = handler
        Task {
            do {
                let value = try await work()
                deliver { handler(value, nil) }
            } catch {
                deliver { handler(fallback, error) }
            }
        }
    }
}
