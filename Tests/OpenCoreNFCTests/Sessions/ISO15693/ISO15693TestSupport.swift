import Foundation
import NFCSimulator
import OpenCoreNFC
import Testing

/// Opens a tag reader session polling ISO 15693 over one simulated tag and connects to it.
struct ISO15693Bench {
    let bench: SessionBench
    let session: NFCTagReaderSession
    let tag: any NFCISO15693Tag

    init(_ kind: VirtualTagKind) async throws {
        bench = await SessionBench([try kind.make()])
        let delegate = TagReaderDelegate()
        session = try #require(NFCTagReaderSession(pollingOption: .iso15693, delegate: delegate, queue: nil))
        session.begin()
        guard case .tags(let tags)? = await delegate.log.nextSignificant(), let first = tags.first,
            case .iso15693(let vicinity) = first
        else { throw ISO15693BenchError.noTag }
        try await session.connect(to: first)
        tag = vicinity
    }

    func end() { session.invalidate() }
}

enum ISO15693BenchError: Error { case noTag }

/// Expects `body` to fail with `readerTransceiveErrorTagResponseError` carrying the tag's error code.
func expectTagError(
    _ code: Int, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any
) async {
    do {
        _ = try await body()
        Issue.record("expected tag error \(code), got success", sourceLocation: sourceLocation)
    } catch let error as NFCReaderError {
        #expect(error.code == .readerTransceiveErrorTagResponseError, sourceLocation: sourceLocation)
        #expect(error.userInfo[NFCISO15693TagResponseErrorKey] as? Int == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected NFCReaderError, got \(error)", sourceLocation: sourceLocation)
    }
}

/// Bridges a completion handler to `async` for tests that exercise the handler forms.
func handled<Value: Sendable>(_ start: (@escaping @Sendable (Value, (any Error)?) -> Void) -> Void) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        start { value, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: value) }
        }
    }
}

/// The same for handlers that pass only an error.
func handled(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        start { error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }
}

/// The same for `Result` handlers.
func resulted<Value: Sendable>(_ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        start { result in continuation.resume(with: result) }
    }
}
