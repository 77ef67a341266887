/// Anything that sends one command APDU to a card and returns its raw answer: a tag connection,
/// a PC/SC card handle, a simulated card.
public protocol APDUTransmitter: Sendable {
    /// Whether extended-length APDUs reach the card (the reader and the card both accept them).
    var supportsExtendedLength: Bool { get }
    /// Sends the bytes of one command APDU and returns the bytes of the response (data + SW).
    func transmit(_ command: [UInt8]) async throws -> [UInt8]
}

/// How ``APDUTransmitter/send(_:options:)`` completes an exchange.
public struct APDUExchangeOptions: Sendable, Hashable {
    /// Collect the rest of a response announced by `61xx` with GET RESPONSE.
    public var followGetResponse: Bool
    /// Repeat a command answered `6Cxx` with Le = xx.
    public var retryWrongLength: Bool
    /// Send a data field over 255 bytes by command chaining (CLA bit 5) when extended length
    /// is not available; otherwise such a command fails with `valueOutOfRange`.
    public var allowChaining: Bool
    /// The most exchanges one `send` may take.
    public var maximumExchanges: Int

    /// Options; by default GET RESPONSE is followed, `6Cxx` retried, chaining allowed, and one `send`
    /// takes at most 512 exchanges.
    public init(followGetResponse: Bool = true, retryWrongLength: Bool = true, allowChaining: Bool = true, maximumExchanges: Int = 512) {
        self.followGetResponse = followGetResponse
        self.retryWrongLength = retryWrongLength
        self.allowChaining = allowChaining
        self.maximumExchanges = maximumExchanges
    }

    /// The default options: GET RESPONSE after `61xx`, a retry after `6Cxx`, chaining allowed, at most
    /// 512 exchanges.
    public static let standard = APDUExchangeOptions()
}

extension APDUTransmitter {
    /// Sends a command and completes the exchange as ISO/IEC 7816-4 describes.
    ///
    /// - A data field over 255 bytes goes in one extended APDU when ``supportsExtendedLength``,
    ///   else as a chain of short APDUs (§5.3; each but the last with CLA bit 5 set and answered
    ///   `9000`). An Ne over 256 without extended length is lowered to 256 and the rest is
    ///   collected by GET RESPONSE where the card offers it.
    /// - `61xx`: GET RESPONSE (`00 C0 00 00 xx`) until the card stops announcing more (§5.6).
    /// - `6Cxx`: the same command again with Ne = xx.
    ///
    /// - Throws: the transmitter's errors; ``APDUError`` for a malformed response or a command
    ///   that cannot be encoded.
    public func send(_ command: CommandAPDU, options: APDUExchangeOptions = .standard) async throws -> ResponseAPDU {
        var exchanges = 0
        func exchange(_ apdu: CommandAPDU, extended: Bool) async throws -> ResponseAPDU {
            exchanges += 1
            guard exchanges <= options.maximumExchanges else {
                throw APDUError(.tooManyExchanges, "more than \(options.maximumExchanges) exchanges for one command")
            }
            return try ResponseAPDU(parsing: try await transmit(try apdu.encoded(extended: extended)))
        }

        var command = command
        let extended = supportsExtendedLength && command.needsExtendedLength
        if !supportsExtendedLength, let ne = command.expectedLength, ne > CommandAPDU.maximumShortExpectedLength {
            command.expectedLength = CommandAPDU.maximumShortExpectedLength
        }

        var response: ResponseAPDU
        if command.data.count > 255 && !supportsExtendedLength {
            guard options.allowChaining else {
                throw APDUError(.valueOutOfRange, "a data field of \(command.data.count) bytes needs extended length or chaining")
            }
            var offset = 0
            while true {
                let end = min(offset + 255, command.data.count)
                var part = command
                part.data = Array(command.data[offset..<end])
                let last = end == command.data.count
                if !last {
                    part.cla |= 0x10
                    part.expectedLength = nil
                }
                response = try await exchange(part, extended: false)
                if last || response.statusWord != .success { break }
                offset = end
            }
        } else {
            response = try await exchange(command, extended: extended)
        }

        if options.retryWrongLength, let length = response.statusWord.correctLength {
            var retry = command
            retry.expectedLength = length
            response = try await exchange(retry, extended: false)
        }

        guard options.followGetResponse else { return response }
        var data = response.data
        while let available = response.statusWord.bytesAvailable {
            let getResponse = CommandAPDU(cla: command.cla & 0x03, ins: 0xC0, p1: 0, p2: 0, expectedLength: available)
            response = try await exchange(getResponse, extended: false)
            data += response.data
        }
        return ResponseAPDU(data: data, statusWord: response.statusWord)
    }
}
