import NFCBytes
import NFCTransport

/// PWD_AUTH (1Bh): presents the 32-bit password to an NTAG21x or Ultralight EV1 and returns its
/// 2-byte PACK; until the next activation the protected pages are open.
///
/// NTAG213/215/216 §10.7 and §8.8.1 (password verification protection); MF0ULX1 “PWD_AUTH”. A
/// wrong password is NAKed (0h, or 4h once AUTHLIM attempts failed) and leaves the tag mute: the
/// tag is reactivated before `authenticationFailed` is reported with the NAK. A PACK other than
/// the expected one also fails (the answer does not come from the tag that was provisioned).
public struct Type2AuthenticateOperation: TagOperation {
    enum State: Sendable {
        case idle
        case authenticating
        case reactivatingAfter(TagEngineError)
        case finished
    }

    private let password: [UInt8]
    private let expectedPACK: [UInt8]?
    private let nativeCommands: ExchangeLimits.NativeCommands
    private let reader: String
    private var state = State.idle

    /// - Parameters:
    ///   - password: the 4-byte password.
    ///   - expectedPACK: the 2-byte PACK the tag must answer, or `nil` to accept any.
    ///   - limits: the connection's limits.
    public init(password: [UInt8], expectedPACK: [UInt8]? = nil, limits: ExchangeLimits) {
        self.password = password
        self.expectedPACK = expectedPACK
        nativeCommands = limits.nativeCommands
        reader = limits.readerPhrase
    }

    /// Sends PWD_AUTH with the password.
    /// - Throws: `.unsupported` when the password is not 4 bytes, the expected PACK not 2 bytes, or the
    ///   reader carries only READ and WRITE.
    public mutating func start() throws(TagEngineError) -> TagStep<[UInt8]> {
        guard password.count == 4 else {
            throw TagEngineError(.unsupported, "a PWD_AUTH password has 4 bytes, not \(password.count)")
        }
        if let expectedPACK, expectedPACK.count != 2 {
            throw TagEngineError(.unsupported, "a PACK has 2 bytes, not \(expectedPACK.count)")
        }
        guard case .all = nativeCommands else {
            throw TagEngineError(.unsupported, "\(reader) cannot send PWD_AUTH (it carries READ and WRITE only)")
        }
        state = .authenticating
        return .transceive(Type2Command.passwordAuthentication(password), timeout: Type2Command.shortTimeout)
    }

    /// Done with the 2-byte PACK; after a NAK or no answer the tag is reactivated, then the error thrown.
    /// - Throws: `.authenticationFailed` for a NAK (in `tagStatus`) or a PACK other than the expected one;
    ///   `.unsupported` when the tag does not answer; `.unexpectedResponse` for an answer that is not 2
    ///   bytes; other transport failures.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<[UInt8]> {
        switch state {
        case .authenticating:
            let answer: [UInt8]
            switch outcome {
            case .success(let bytes):
                answer = bytes
            case .failure(let error) where error.code == .timeout:
                state = .reactivatingAfter(TagEngineError(.unsupported, "the tag does not answer PWD_AUTH"))
                return .reactivate
            case .failure(let error):
                throw TagEngineError(transport: error)
            }
            if Type2Command.isNAK(answer) {
                state = .reactivatingAfter(
                    TagEngineError(.authenticationFailed, "PWD_AUTH refused with \(Type2Command.describeNAK(answer[0]))", tagStatus: answer)
                )
                return .reactivate
            }
            guard answer.count == 2 else {
                throw TagEngineError(.unexpectedResponse, "PWD_AUTH answered \(answer.count) bytes, expected the 2-byte PACK")
            }
            if let expectedPACK, answer != expectedPACK {
                throw TagEngineError(
                    .authenticationFailed,
                    "PWD_AUTH answered PACK \(Hex.encode(answer, uppercase: true)), expected \(Hex.encode(expectedPACK, uppercase: true))")
            }
            state = .finished
            return .done(answer)
        case .reactivatingAfter(let error):
            state = .finished
            throw error
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "PWD_AUTH resumed in state \(state)")
        }
    }
}

/// READ_SIG (3Ch 00h): the 32-byte ECC originality signature NXP programs into NTAG21x and
/// Ultralight EV1 (NTAG213/215/216 §10.9; MF0ULX1 “READ_SIG”).
public struct Type2ReadSignatureOperation: TagOperation {
    enum State: Sendable {
        case idle
        case reading
        case reactivatingAfter(TagEngineError)
        case finished
    }

    private let nativeCommands: ExchangeLimits.NativeCommands
    private let reader: String
    private var state = State.idle

    /// An operation for a connection with these limits (READ_SIG needs a reader that carries every
    /// native command).
    public init(limits: ExchangeLimits) {
        nativeCommands = limits.nativeCommands
        reader = limits.readerPhrase
    }

    /// Sends READ_SIG.
    /// - Throws: `.unsupported` when the reader carries only READ and WRITE.
    public mutating func start() throws(TagEngineError) -> TagStep<[UInt8]> {
        guard case .all = nativeCommands else {
            throw TagEngineError(.unsupported, "\(reader) cannot send READ_SIG (it carries READ and WRITE only)")
        }
        state = .reading
        return .transceive(Type2Command.readSignature, timeout: Type2Command.readTimeout(bytes: 32))
    }

    /// Done with the 32-byte signature; after a NAK or no answer the tag is reactivated, then the error thrown.
    /// - Throws: `.unsupported` when the tag NAKs or does not answer READ_SIG; `.unexpectedResponse` for an
    ///   answer of another length; other transport failures.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<[UInt8]> {
        switch state {
        case .reading:
            switch outcome {
            case .success(let answer) where answer.count == 32:
                state = .finished
                return .done(answer)
            case .success(let answer) where Type2Command.isNAK(answer):
                state = .reactivatingAfter(
                    TagEngineError(.unsupported, "READ_SIG refused with \(Type2Command.describeNAK(answer[0]))", tagStatus: answer))
                return .reactivate
            case .success(let answer):
                throw TagEngineError(.unexpectedResponse, "READ_SIG answered \(answer.count) bytes, expected 32")
            case .failure(let error) where error.code == .timeout:
                state = .reactivatingAfter(TagEngineError(.unsupported, "the tag does not answer READ_SIG"))
                return .reactivate
            case .failure(let error):
                throw TagEngineError(transport: error)
            }
        case .reactivatingAfter(let error):
            state = .finished
            throw error
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "READ_SIG resumed in state \(state)")
        }
    }
}
