import NFCTransport

/// Asks the tag for its system information: Get System Information (0x2B, ISO/IEC 15693-3
/// §10.4.12), then — when that fails or leaves out the memory size, as on tags with more than 256
/// blocks — Extended Get System Information (0x3B, ISO/IEC 15693-3:2019).
///
/// A tag or reader that answers neither gives empty information rather than an error: the UID
/// alone still names the manufacturer. Only losing the tag is an error.
struct Type5IdentifyOperation: Type5Operation {
    enum State: Sendable { case idle, basic, extended(Type5SystemInformation?), finished }

    private(set) var session: Type5Session
    private(set) var state = State.idle

    init(session: Type5Session) { self.session = session }

    static let timeout: Duration = .milliseconds(20)

    mutating func start() throws(TagEngineError) -> TagStep<Type5SystemInformation> {
        state = .basic
        return .transceive(Type5Frame.request(Type5Frame.Code.getSystemInformation, wireUID: session.wireUID), timeout: Self.timeout)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Type5SystemInformation> {
        switch state {
        case .basic:
            let info = try parse(outcome, extended: false)
            if let info, info.blockCount != nil {
                state = .finished
                return .done(info)
            }
            state = .extended(info)
            let frame = Type5Frame.request(
                Type5Frame.Code.extendedGetSystemInformation, wireUID: session.wireUID,
                leading: Type5SystemInformation.extendedRequestField
            )
            return .transceive(frame, timeout: Self.timeout)
        case .extended(let basic):
            state = .finished
            guard let info = try parse(outcome, extended: true) else { return .done(basic ?? Type5SystemInformation()) }
            var merged = info
            merged.dsfid = info.dsfid ?? basic?.dsfid
            merged.afi = info.afi ?? basic?.afi
            merged.icReference = info.icReference ?? basic?.icReference
            return .done(merged)
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 identify: an answer arrived with no command pending")
        }
    }

    /// The information in an answer, or `nil` when the tag refused or did not answer.
    private func parse(_ outcome: Result<[UInt8], TransportError>, extended: Bool) throws(TagEngineError) -> Type5SystemInformation? {
        let answer: [UInt8]
        switch outcome {
        case .success(let bytes): answer = bytes
        case .failure(let error):
            if error.code == .tagLost || error.code == .notConnected { throw TagEngineError(transport: error) }
            return nil
        }
        let name = extended ? "Extended Get System Information" : "Get System Information"
        do {
            let payload = try Type5Frame.payload(of: answer, for: name)
            return try Type5SystemInformation(parsing: payload, extended: extended, wireUID: session.wireUID)
        } catch {
            if error.code == .tagError { return nil }
            throw error
        }
    }
}
