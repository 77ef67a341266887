import ISO7816
import NFCBytes
import NFCTransport

/// One command APDU carried to its final response: encoding within the reader's limits, GET
/// RESPONSE after `61xx`, one retry after `6Cxx` (ISO/IEC 7816-4:2020 §5.3.4 and Table 6).
///
/// The async `APDUTransmitter.send` helper does the same over a live channel; a state machine
/// cannot await, so this is its step-by-step form. Every answer is checked: a response under two
/// bytes, more data than asked for, or a `61xx` chain that does not end within Ne bytes is an
/// ``TagEngineError/Code/unexpectedResponse``.
struct Type4APDUExchange: Sendable {
    /// What the exchange wants next.
    enum Progress: Sendable {
        /// Send these bytes and pass the answer to ``receive(_:)``.
        case send([UInt8])
        /// The final response (data gathered over `61xx` rounds, the last status word).
        case complete(ResponseAPDU)
    }

    enum State: Sendable {
        case idle
        /// The command itself (`retried` after a `6Cxx`).
        case command(retried: Bool)
        /// GET RESPONSE rounds, with the data gathered so far.
        case gettingResponse(collected: [UInt8])
        case complete
    }

    private(set) var command: CommandAPDU
    let limits: ExchangeLimits
    private var state = State.idle
    /// How long to wait for each answer: 1 s plus 150 µs per byte carried either way (transfer
    /// at 106 kbit/s and EEPROM programming stay well inside it).
    private(set) var timeout: Duration

    init(_ command: CommandAPDU, limits: ExchangeLimits) {
        self.command = command
        self.limits = limits
        timeout = Self.timeout(for: command)
    }

    static func timeout(for command: CommandAPDU) -> Duration {
        .seconds(1) + .microseconds(150 * (command.data.count + (command.expectedLength ?? 0)))
    }

    /// The first frame.
    mutating func start() throws(TagEngineError) -> [UInt8] {
        state = .command(retried: false)
        return try encode(command)
    }

    /// Consumes one answer.
    mutating func receive(_ answer: [UInt8]) throws(TagEngineError) -> Progress {
        let response: ResponseAPDU
        do {
            response = try ResponseAPDU(parsing: answer)
        } catch {
            throw TagEngineError(.unexpectedResponse, "the answer to \(Self.name(command)) has \(answer.count) byte(s), not even SW1 SW2")
        }
        let expected = command.expectedLength ?? 0
        switch state {
        case .command(let retried):
            try checkLength(response.data.count, expected: expected)
            if let available = response.statusWord.bytesAvailable {
                guard command.expectedLength != nil else {
                    // Completed normally; the data on offer was not asked for.
                    state = .complete
                    return .complete(ResponseAPDU(data: response.data, statusWord: .success))
                }
                return try getResponse(collected: response.data, available: available)
            }
            if let exact = response.statusWord.correctLength, !retried, command.expectedLength != nil {
                guard exact < expected else {
                    throw TagEngineError(
                        .unexpectedResponse,
                        "\(Self.name(command)) asked for \(expected) bytes but the tag offers \(exact) (SW \(response.statusWord))",
                        tagStatus: response.statusWord.bytes
                    )
                }
                command.expectedLength = exact
                state = .command(retried: true)
                return .send(try encode(command))
            }
            state = .complete
            return .complete(response)
        case .gettingResponse(let collected):
            let all = collected + response.data
            try checkLength(all.count, expected: expected)
            if let available = response.statusWord.bytesAvailable {
                guard !response.data.isEmpty else {
                    throw TagEngineError(
                        .unexpectedResponse, "GET RESPONSE after \(Self.name(command)) returned no data but announced more",
                        tagStatus: response.statusWord.bytes)
                }
                return try getResponse(collected: all, available: available)
            }
            state = .complete
            return .complete(ResponseAPDU(data: all, statusWord: response.statusWord))
        case .idle, .complete:
            throw TagEngineError(.unexpectedResponse, "an answer arrived with no command in flight")
        }
    }

    /// GET RESPONSE for the rest of a `61xx` answer, within Ne and the reader's buffer.
    private mutating func getResponse(collected: [UInt8], available: Int) throws(TagEngineError) -> Progress {
        let expected = command.expectedLength ?? 0
        // `6100` means 256 bytes or more: a card that took an extended command gets an extended
        // GET RESPONSE for the rest, so a long answer takes as few rounds as its buffer allows.
        let extended = limits.extendedLengthAPDUs && command.needsExtendedLength
        let offered = available == CommandAPDU.maximumShortExpectedLength && extended ? Int.max : available
        let largest = extended ? CommandAPDU.maximumExtendedExpectedLength : CommandAPDU.maximumShortExpectedLength
        let wanted = min(offered, expected - collected.count, largest, limits.maxResponseLength - 2)
        guard wanted > 0 else {
            throw TagEngineError(
                .unexpectedResponse, "\(Self.name(command)) announced more data (61xx) beyond the \(expected) bytes asked for",
                tagStatus: [0x61, UInt8(truncatingIfNeeded: available)]
            )
        }
        state = .gettingResponse(collected: collected)
        return .send(try encode(CommandAPDU.getResponse(length: wanted)))
    }

    /// More data than Ne is a broken answer; a command without Le may get data it ignores (a
    /// SELECT answered with an FCI anyway).
    private func checkLength(_ count: Int, expected: Int) throws(TagEngineError) {
        guard command.expectedLength != nil, count > expected else { return }
        throw TagEngineError(.unexpectedResponse, "\(Self.name(command)) asked for \(expected) bytes and got \(count)")
    }

    /// Encodes a command, refusing one the reader cannot carry.
    private func encode(_ apdu: CommandAPDU) throws(TagEngineError) -> [UInt8] {
        if apdu.needsExtendedLength && !limits.extendedLengthAPDUs {
            throw TagEngineError(.unsupported, "\(Self.name(apdu)) needs an extended-length APDU, which the reader does not carry")
        }
        let bytes: [UInt8]
        do {
            bytes = try apdu.encoded()
        } catch {
            throw TagEngineError(.unsupported, "\(Self.name(apdu)) cannot be encoded: \(error)")
        }
        guard bytes.count <= limits.maxCommandLength else {
            throw TagEngineError(
                .unsupported, "\(Self.name(apdu)) of \(bytes.count) bytes exceeds the reader's \(limits.maxCommandLength)-byte commands")
        }
        return bytes
    }

    /// A command's name for error messages.
    static func name(_ apdu: CommandAPDU) -> String {
        switch apdu.ins {
        case 0xA4: "SELECT"
        case 0xB0, 0xB1: "READ BINARY"
        case 0xD6, 0xD7: "UPDATE BINARY"
        case 0xC0: "GET RESPONSE"
        default: "INS \(Hex.encode([apdu.ins], uppercase: true))"
        }
    }
}
