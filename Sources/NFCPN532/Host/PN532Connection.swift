import NFCBytes
import NFCTransport

/// A connection to one target through a PN532 (UM0701-02 §7.3.8 InDataExchange, §7.3.9
/// InCommunicateThru):
/// - **ISO-DEP cards** (type A with an ATS, type B): InDataExchange carries the APDU; the chip
///   does the ISO/IEC 14443-4 blocks, their chaining and waiting-time extensions. An answer the
///   chip hands over in parts (status bit MI, §7.1) is fetched with further InDataExchange
///   commands holding only Tg, and a command longer than one frame is sent in parts with MI set
///   in Tg (§7.3.8).
/// - **Other type A tags** (NTAG, Ultralight): InCommunicateThru, the CIU adding and checking
///   CRC_A as it does after reset; a 4-bit ACK or NAK comes back as one byte, as
///   ``TagConnection`` carries it. (InDataExchange would report every NAK as MIFARE error `14`,
///   losing which NAK it was.)
/// - **FeliCa**: InDataExchange with the command's LEN byte (JIS X 6319-4 §6.2); the answer's
///   LEN byte is checked and removed.
///
/// A status byte other than success becomes the `TransportError` ``PN532Status`` maps it to
/// (time-out, CRC or parity error, card gone); error `27`, "not acceptable in this context",
/// means the chip no longer holds the target (another poll replaced it): `.notConnected`.
final class PN532Connection: TagConnection, Sendable {
    let target: TargetInfo
    let limits: ExchangeLimits
    let bitRate: BitRate
    let meter: AirTimeMeter
    private let driver: PN532Driver
    private let link: PN532Link
    /// Tg, and whether the connection was closed.
    private let state: Guarded<(number: UInt8, closed: Bool)>

    /// The most an InDataExchange or InCommunicateThru carries after its Tg: the frame's 265
    /// bytes less TFI, command code and Tg (§7.3.8).
    static let frameData = 262
    /// The most a response carries in a normal frame (LEN ≤ 255: TFI, code and status, then data).
    static let normalFrameAnswer = 252

    init(driver: PN532Driver, link: PN532Link, target: TargetInfo, number: UInt8, meter: AirTimeMeter) {
        self.driver = driver
        self.link = link
        self.target = target
        self.meter = meter
        state = Guarded((number, false))
        switch target.parameters {
        case .felica(let f):
            bitRate = f.maximumBitRate
            limits = ExchangeLimits(maxCommandLength: 253, maxResponseLength: 253, extendedLengthAPDUs: false, nativeCommands: .all)
        case .iso14443A, .iso14443B, .iso15693:
            bitRate = .kbps106
            if target.speaksISODEP {
                // Short APDUs whole: the chip chains ISO-DEP blocks itself, the host its frames.
                limits = ExchangeLimits(maxCommandLength: 261, maxResponseLength: 258, extendedLengthAPDUs: false, nativeCommands: .all)
            } else {
                limits = ExchangeLimits(
                    maxCommandLength: Self.frameData, maxResponseLength: Self.normalFrameAnswer, extendedLengthAPDUs: false,
                    nativeCommands: .all)
            }
        }
    }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        let (number, closed) = state.withLock { $0 }
        guard !closed else { throw TransportError(.notConnected, "\(driver.name): the connection to \(target) is closed") }
        guard command.count <= limits.maxCommandLength else {
            throw TransportError(.frameTooLong, "\(driver.name): a command of \(command.count) bytes (at most \(limits.maxCommandLength))")
        }
        return try await meter.measure(sending: command) { () throws(TransportError) -> [UInt8] in
            switch target.parameters {
            case .felica:
                let framed = try await exchange(.inDataExchange, [number, UInt8(command.count + 1)] + command, timeout)
                guard let length = framed.first, Int(length) == framed.count, framed.count >= 2 else {
                    throw TransportError(
                        .protocolViolation, "\(driver.name): a FeliCa answer whose LEN byte does not match (\(framed.count) bytes)")
                }
                return Array(framed.dropFirst())
            case .iso14443A(let a) where a.isType1Platform:
                return try await jewel(command, number: number, timeout)
            case .iso14443A where !target.speaksISODEP:
                return try await exchange(.inCommunicateThru, command, timeout)
            default:
                return try await isoDEP(command, number: number, timeout)
            }
        }
    }

    /// A Type 1 command through InDataExchange (UM0701-02 §7.3.8, Jewel): the chip adds the UID
    /// echo it learnt at activation, so the command goes without its zero data bytes and echo
    /// (`01 ADD`, `53 ADD DAT`, `02 ADD8`, `54 ADD8 D0…D7`, as libnfc's `nfc-jewel` sends them),
    /// and the chip takes the tag's address echo off the answer, which is put back here so the
    /// engine sees the tag's own answer (`TagConnection`'s contract).
    private func jewel(_ command: [UInt8], number: UInt8, _ timeout: Duration) async throws(TransportError) -> [UInt8] {
        guard let code = command.first, command.count == 7 || command.count == 14 else {
            throw TransportError(.unsupportedCommand, "\(driver.name): a Type 1 command has 7 or 14 bytes, not \(command.count)")
        }
        let meaningful: Int
        switch code {
        case 0x78, 0x00: meaningful = 1  // RID, RALL
        case 0x01, 0x10, 0x02: meaningful = 2  // READ, RSEG, READ8
        case 0x53, 0x1A: meaningful = 3  // WRITE-E, WRITE-NE
        case 0x54, 0x1B: meaningful = 10  // WRITE-E8, WRITE-NE8
        default: throw TransportError(.unsupportedCommand, "\(driver.name): \(Hex.encode([code])) is not a Type 1 command")
        }
        let (_, data) = try await statusAndData(.inDataExchange, [number] + command.prefix(meaningful), timeout)
        return code == 0x78 || code == 0x00 ? data : [command[1]] + data
    }

    /// An APDU through InDataExchange, sent and received in as many parts as the frames need.
    private func isoDEP(_ apdu: [UInt8], number: UInt8, _ timeout: Duration) async throws(TransportError) -> [UInt8] {
        var rest = apdu[...]
        var answer: [UInt8] = []
        while true {
            let part = rest.prefix(Self.frameData)
            rest = rest.dropFirst(part.count)
            let more: UInt8 = rest.isEmpty ? 0 : 0x40
            let (status, data) = try await statusAndData(.inDataExchange, [number | more] + part, timeout)
            if !rest.isEmpty { continue }
            answer += data
            var chained = status.moreInformation
            var parts = 1
            while chained {
                let (next, data) = try await statusAndData(.inDataExchange, [number], timeout)
                answer += data
                parts += 1
                chained = next.moreInformation
                guard answer.count <= limits.maxResponseLength + Self.frameData else {
                    // A chip that never clears MI must not keep the exchange going for ever.
                    throw TransportError(
                        .protocolViolation,
                        "\(driver.name): InDataExchange to \(target): the answer goes on past \(answer.count) bytes in \(parts) parts")
                }
            }
            return answer
        }
    }

    /// One command: the data after a success status.
    private func exchange(_ command: PN532Command, _ parameters: [UInt8], _ timeout: Duration) async throws(TransportError) -> [UInt8] {
        try await statusAndData(command, parameters, timeout).data
    }

    private func statusAndData(
        _ command: PN532Command, _ parameters: [UInt8], _ timeout: Duration
    ) async throws(TransportError) -> (status: PN532Status, data: [UInt8]) {
        let answer = try await link.execute(command, parameters, timeout: timeout)
        guard let first = answer.first else {
            throw TransportError(.protocolViolation, "\(driver.name): \(command.manualName) answered without a status byte")
        }
        let status = PN532Status(rawValue: first)
        if status.error == PN532Status.wrongContext.error {
            throw TransportError(.notConnected, "\(driver.name): the PN532 no longer holds \(target) (\(status))")
        }
        if let error = status.transportError {
            throw TransportError(error.code, "\(driver.name): \(command.manualName) to \(target): \(status)")
        }
        return (status, Array(answer.dropFirst()))
    }

    func reactivate() async throws(TransportError) {
        guard !state.withLock({ $0.closed }) else {
            throw TransportError(.notConnected, "\(driver.name): the connection to \(target) is closed")
        }
        let number = try await driver.relist(target)
        state.withLock { $0.number = number }
    }

    func disconnect() async {
        let (number, wasClosed) = state.withLock { value -> (UInt8, Bool) in
            defer { value.closed = true }
            return (value.number, value.closed)
        }
        guard !wasClosed else { return }
        _ = try? await link.execute(.inRelease, [number], timeout: .milliseconds(500))
        await driver.connectionClosed(number: number)
    }

    deinit {
        // Dropped without disconnect(): let polling go on (the chip keeps the target until the next poll).
        let (number, wasClosed) = state.withLock { $0 }
        guard !wasClosed else { return }
        let driver = self.driver
        Task { await driver.connectionClosed(number: number) }
    }
}
