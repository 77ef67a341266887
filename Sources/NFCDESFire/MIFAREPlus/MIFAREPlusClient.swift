import ISO7816

/// A client of NXP MIFARE Plus EV1/EV2 at SL0 and SL3 over any `APDUTransmitter` (a Core NFC
/// `NFCMiFareTag` of family `.plus`, a PC/SC card, the simulator): native commands ISO/IEC 7816-4
/// wrapped (`90 cmd 00 00 Lc data 00`, answered `data 91 status`, `90` success).
///
/// SL0: ``writePerso(_:_:)`` and ``commitPerso(level:)``. SL3: ``authenticate(keyBlock:key:messaging:)``
/// (AuthenticateFirst), ``authenticateNonFirst(keyBlock:key:)``, then blocks read and written
/// enciphered or plain with MACs as asked, and value operations. Sector keys are addressed as
/// ``sectorKey(_:keyB:)``. Any refusal ends the session, on the card and here (docs/mifare-plus.md).
public actor MIFAREPlusClient {
    /// The channel every command goes through.
    public nonisolated let transmitter: any APDUTransmitter
    /// The open session, if any.
    public private(set) var session: MIFAREPlusSecureSession?
    private let random: @Sendable (Int) -> [UInt8]

    /// A client sending through `transmitter`; `random` supplies RndA.
    public init(transmitter: any APDUTransmitter, random: (@Sendable (Int) -> [UInt8])? = nil) {
        self.transmitter = transmitter
        self.random =
            random ?? { count in
                var generator = SystemRandomNumberGenerator()
                return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            }
    }

    /// The AES key block of a sector's key A (`4000` + 2 × sector) or key B (+ 1).
    public static func sectorKey(_ sector: Int, keyB: Bool) -> UInt16 { 0x4000 + UInt16(2 * sector + (keyB ? 1 : 0)) }

    /// The card master key's block.
    public static let cardMasterKey: UInt16 = 0x9000
    /// The card configuration key's block.
    public static let cardConfigurationKey: UInt16 = 0x9001
    /// The level 3 switch key's block.
    public static let levelThreeSwitchKey: UInt16 = 0x9003

    // MARK: Identity

    /// GetVersion: three frames (hardware, software, UID and production data), MACed in a session.
    public func version() async throws -> MIFAREPlusVersion {
        var data: [UInt8] = []
        if let session {
            data = try session.mac([0x60] + MIFAREPlusSecureSession.bytes(session.readCounter) + session.transactionIdentifier)
        }
        var collected: [UInt8] = []
        var answer = try await frame(0x60, data, name: "GetVersion")
        for _ in 0..<3 {
            collected += answer.data
            guard answer.status == 0xAF else { break }
            answer = try await frame(0xAF, [], name: "GetVersion")
        }
        // A MIFARE Plus ends GetVersion with 90, a DESFire with 00: the type byte tells them apart.
        guard answer.status == 0x90 || answer.status == 0x00 else {
            throw fail(MIFAREPlusError.refusal(answer.status, command: "GetVersion"))
        }
        if var current = session {
            guard collected.count >= 8 else { throw fail(MIFAREPlusError(.malformedResponse, "GetVersion: no MAC")) }
            current.readCounter &+= 1
            let body = Array(collected.dropLast(8))
            let expected = try current.mac(
                [0x90] + MIFAREPlusSecureSession.bytes(current.readCounter) + current.transactionIdentifier + body)
            guard expected == Array(collected.suffix(8)) else {
                throw fail(MIFAREPlusError(.responseIntegrity, "GetVersion: the answer's MAC is wrong"))
            }
            session = current
            collected = body
        }
        return try MIFAREPlusVersion(parsing: collected)
    }

    /// The security level from the answer to WritePerso at address `9090`, which no card has:
    /// `09` (invalid block) at SL0, `0B` (not in this state) or `06` at SL3 — proxmark3's
    /// `hf mfp info` probe. The probe changes nothing.
    public func securityLevel() async throws -> Int {
        let answer = try await frame(0xA8, [0x90, 0x90] + [UInt8](repeating: 0, count: 16), name: "WritePerso 9090")
        switch answer.status {
        case 0x09: return 0
        case 0x0B, 0x06: return 3
        default: throw MIFAREPlusError(.malformedResponse, "WritePerso 9090 answered \(answer.status); a MIFARE Plus answers 09 or 0B")
        }
    }

    // MARK: SL0

    /// WritePerso (`A8`): one to fifteen 16-byte blocks from `address` (data blocks, AES keys `4000`…,
    /// card keys `9000`…, configuration `B000`…).
    public func writePerso(_ address: UInt16, _ data: [UInt8]) async throws {
        guard !data.isEmpty, data.count % 16 == 0, data.count <= 240 else {
            throw MIFAREPlusError(.invalidArgument, "WritePerso takes 1 to 15 blocks of 16 bytes, not \(data.count) bytes")
        }
        let name = "WritePerso \(Self.hex(address))"
        try expectOK(await frame(0xA8, [UInt8(address & 0xFF), UInt8(address >> 8)] + data, name: name), name)
    }

    /// CommitPerso (`AA`): to SL3 (`level` 3 or `nil`) or SL1.
    public func commitPerso(level: Int? = nil) async throws {
        let option: [UInt8]
        switch level {
        case nil: option = []
        case 1: option = [0x01]
        case 3: option = [0x03]
        default: throw MIFAREPlusError(.invalidArgument, "CommitPerso switches to SL1 or SL3, not SL\(level ?? 0)")
        }
        try expectOK(await frame(0xAA, option, name: "CommitPerso"), "CommitPerso")
    }

    // MARK: Authentication

    /// AuthenticateFirst (`70`): proves both sides hold the AES key at `keyBlock`, opens a session
    /// (new TI, counters zero) with `messaging` (EV1 asked with PCDcap2 `01`; the card's PICCcap2 says).
    public func authenticate(keyBlock: UInt16, key: [UInt8], messaging: MIFAREPlusSecureSession.Messaging = .ev1) async throws {
        session = nil
        guard key.count == 16 else { throw MIFAREPlusError(.wrongKey, "an AES-128 key has 16 bytes, not \(key.count)") }
        let capabilities: [UInt8] = messaging == .ev1 ? [0x01, 0, 0, 0, 0, 0] : [0x00, 0, 0, 0, 0, 0]
        let name = "AuthenticateFirst \(Self.hex(keyBlock))"
        let (rndA, rndB, plain) = try await challenge(
            [0x70, UInt8(keyBlock & 0xFF), UInt8(keyBlock >> 8), 6] + capabilities, key: key, name: name, iv: nil)
        guard plain.count == 32, Array(plain[4..<20]) == Self.rotated(rndA) else {
            throw MIFAREPlusError(.authenticationFailed, "\(name): the card's answer does not prove the key")
        }
        let granted: MIFAREPlusSecureSession.Messaging = plain[20] == 0x01 ? .ev1 : .ev0
        session = try MIFAREPlusSecureSession(
            keyBlock: keyBlock, messaging: granted, key: key, rndA: rndA, rndB: rndB, ti: Array(plain[0..<4]))
    }

    /// AuthenticateNonFirst (`76`): another key in the same session; TI and counters kept.
    public func authenticateNonFirst(keyBlock: UInt16, key: [UInt8]) async throws {
        guard let current = session else { throw MIFAREPlusError(.notAuthenticated, "AuthenticateNonFirst needs a session") }
        guard key.count == 16 else { throw MIFAREPlusError(.wrongKey, "an AES-128 key has 16 bytes, not \(key.count)") }
        let name = "AuthenticateNonFirst \(Self.hex(keyBlock))"
        let (rndA, rndB, plain) = try await challenge(
            [0x76, UInt8(keyBlock & 0xFF), UInt8(keyBlock >> 8)], key: key, name: name, iv: current)
        guard plain == Self.rotated(rndA) else {
            throw fail(MIFAREPlusError(.authenticationFailed, "\(name): the card's answer does not prove the key"))
        }
        let (encryption, mac) = try MIFAREPlusSecureSession.keys(messaging: current.messaging, key: key, rndA: rndA, rndB: rndB)
        var next = MIFAREPlusSecureSession(previous: current, keyBlock: keyBlock)
        next.encryptionKey = encryption
        next.macKey = mac
        session = next
    }

    /// The two rounds both authentications share; `iv` the session whose EV0 IVs a NonFirst uses.
    private func challenge(_ first: [UInt8], key: [UInt8], name: String, iv current: MIFAREPlusSecureSession?) async throws
        -> (rndA: [UInt8], rndB: [UInt8], plain: [UInt8])
    {
        var commandIV = [UInt8](repeating: 0, count: 16)
        var answerIV = commandIV
        if let current, current.messaging == .ev0 {
            commandIV = try current.iv(response: false, read: current.readCounter, write: current.writeCounter)
            answerIV = try current.iv(response: true, read: current.readCounter, write: current.writeCounter)
        }
        do {
            let challenge = try await frame(first[0], Array(first.dropFirst()), name: name)
            guard challenge.status == 0x90 else { throw MIFAREPlusError.refusal(challenge.status, command: name) }
            guard challenge.data.count == 16 else {
                throw MIFAREPlusError(.malformedResponse, "\(name): E(RndB) has 16 bytes, not \(challenge.data.count)")
            }
            let rndB = try DESFireCrypto.decryptCBC(challenge.data, key: key, iv: answerIV)
            let rndA = random(16)
            guard rndA.count == 16 else { throw MIFAREPlusError(.invalidArgument, "RndA has 16 bytes") }
            let token = try DESFireCrypto.encryptCBC(rndA + Self.rotated(rndB), key: key, iv: commandIV)
            let answer = try await frame(0x72, token, name: name)
            guard answer.status == 0x90 else { throw MIFAREPlusError.refusal(answer.status, command: name) }
            guard answer.data.count % 16 == 0, !answer.data.isEmpty else {
                throw MIFAREPlusError(.malformedResponse, "\(name): an answer of \(answer.data.count) bytes")
            }
            return (rndA, rndB, try DESFireCrypto.decryptCBC(answer.data, key: key, iv: answerIV))
        } catch let error as DESFireError {
            session = nil
            throw MIFAREPlusError(.wrongKey, "\(name): \(error)")
        } catch {
            session = nil
            throw error
        }
    }

    /// ResetAuth (`78`): the session ends on both sides.
    public func resetAuthentication() async throws {
        session = nil
        try expectOK(await frame(0x78, [], name: "ResetAuth"), "ResetAuth")
    }

    // MARK: Blocks

    /// Read (`30`–`37`) of `count` blocks from `block`: enciphered unless `encrypted` is false,
    /// the command MACed unless `macOnCommand` is false, the answer MACed when `macOnAnswer`
    /// (an answer without a MAC is covered by the next MACed one, which the client checks).
    public func read(block: Int, count: Int = 1, encrypted: Bool = true, macOnAnswer: Bool = true, macOnCommand: Bool = true) async throws
        -> [UInt8]
    {
        guard var current = session else { throw MIFAREPlusError(.notAuthenticated, "Read needs a session") }
        guard (0...0xFFFF).contains(block), (1...15).contains(count) else {
            throw MIFAREPlusError(.invalidArgument, "Read takes 1 to 15 blocks from a block number, not \(count) from \(block)")
        }
        let ins: UInt8 = 0x30 | (macOnAnswer ? 1 : 0) | (encrypted ? 0 : 2) | (macOnCommand ? 0 : 4)
        let header = [UInt8(block & 0xFF), UInt8(block >> 8), UInt8(count)]
        var data = header
        if macOnCommand {
            data += try current.mac([ins] + MIFAREPlusSecureSession.bytes(current.readCounter) + current.transactionIdentifier + header)
        }
        session = nil
        let answer = try await frame(ins, data, name: "Read \(block)")
        guard answer.status == 0x90 else { throw MIFAREPlusError.refusal(answer.status, command: "Read \(block)") }
        let length = 16 * count + (macOnAnswer ? 8 : 0)
        guard answer.data.count == length else {
            throw MIFAREPlusError(.malformedResponse, "Read \(block): \(answer.data.count) bytes; \(length) expected")
        }
        current.readCounter &+= 1
        let sent = Array(answer.data.prefix(16 * count))
        if macOnAnswer {
            let head = current.pendingReadsCounter ?? current.readCounter
            let input = [0x90] + MIFAREPlusSecureSession.bytes(head) + current.transactionIdentifier + current.pendingReads + header + sent
            guard try current.mac(input) == Array(answer.data.suffix(8)) else {
                throw MIFAREPlusError(.responseIntegrity, "Read \(block): the answer's MAC is wrong")
            }
            current.pendingReads = []
            current.pendingReadsCounter = nil
        } else {
            if current.pendingReadsCounter == nil { current.pendingReadsCounter = current.readCounter }
            current.pendingReads += header + sent
        }
        let plain =
            encrypted
            ? try current.decrypt(sent, iv: try current.iv(response: true, read: current.readCounter, write: current.writeCounter)) : sent
        session = current
        return plain
    }

    /// Write (`A0`–`A3`) of whole blocks from `block` (data blocks, or one key or configuration
    /// block), enciphered unless `encrypted` is false; the answer MACed when `macOnAnswer`.
    public func write(block: UInt16, _ data: [UInt8], encrypted: Bool = true, macOnAnswer: Bool = true) async throws {
        guard !data.isEmpty, data.count % 16 == 0, data.count <= 240 else {
            throw MIFAREPlusError(.invalidArgument, "Write takes 1 to 15 blocks of 16 bytes, not \(data.count) bytes")
        }
        let ins: UInt8 = 0xA0 | (macOnAnswer ? 1 : 0) | (encrypted ? 0 : 2)
        try await writeCommand(
            ins, address: [UInt8(block & 0xFF), UInt8(block >> 8)], payload: data, encrypt: encrypted, name: "Write \(Self.hex(block))")
    }

    /// Writes `value` as a value block (V ‖ ~V ‖ V ‖ A ‖ ~A ‖ A ‖ ~A; `address` the block's own by default).
    public func writeValue(block: UInt16, _ value: Int32, address: UInt8? = nil) async throws {
        let bits = UInt32(bitPattern: value)
        let v = (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
        let a = address ?? UInt8(truncatingIfNeeded: block)
        try await write(block: block, v + v.map { ~$0 } + v + [a, ~a, a, ~a])
    }

    /// A value block's value.
    public func value(block: Int) async throws -> Int32 {
        let bytes = try await read(block: block)
        let v = Array(bytes[0..<4])
        guard Array(bytes[4..<8]) == v.map({ ~$0 }), Array(bytes[8..<12]) == v else {
            throw MIFAREPlusError(.malformedResponse, "block \(block) is not a value block")
        }
        return Int32(bitPattern: UInt32(v[0]) | UInt32(v[1]) << 8 | UInt32(v[2]) << 16 | UInt32(v[3]) << 24)
    }

    /// A value operation: Increment or Decrement (then Transfer into `transferTo` at once, the
    /// combined commands, when given), Transfer, Restore.
    public enum ValueOperation: Sendable, Hashable {
        /// Add an amount (Increment, or IncrementTransfer with a destination).
        case increment(Int32)
        /// Take an amount (Decrement, or DecrementTransfer with a destination).
        case decrement(Int32)
        /// Write the transfer buffer into the block.
        case transfer
        /// Load the block's value into the transfer buffer.
        case restore
    }

    /// Runs a value operation on `block` (the answer MACed).
    public func value(_ operation: ValueOperation, block: UInt16, transferTo destination: UInt16? = nil) async throws {
        let address = [UInt8(block & 0xFF), UInt8(block >> 8)]
        let target = destination.map { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } ?? []
        switch operation {
        case .increment(let amount), .decrement(let amount):
            guard amount >= 0 else { throw MIFAREPlusError(.invalidArgument, "a value operation's amount is not negative") }
            let increment = if case .increment = operation { true } else { false }
            let ins: UInt8 = destination == nil ? (increment ? 0xB1 : 0xB3) : (increment ? 0xB7 : 0xB9)
            let bits = UInt32(bitPattern: amount)
            let plain = (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) } + [0x80] + [UInt8](repeating: 0, count: 11)
            try await writeCommand(
                ins, address: address + target, payload: plain, encrypt: true, name: increment ? "Increment" : "Decrement")
        case .transfer: try await writeCommand(0xB5, address: address, payload: [], encrypt: false, name: "Transfer")
        case .restore: try await writeCommand(0xC3, address: address, payload: [], encrypt: false, name: "Restore")
        }
    }

    /// A write-type command: cmd ‖ address ‖ payload (enciphered with the command IV) ‖
    /// MAC(cmd ‖ W_Ctr ‖ TI ‖ address ‖ payload); the answer's MAC(`90` ‖ W_Ctr+1 ‖ TI) checked
    /// when the command's bit 0 asks for it.
    private func writeCommand(_ ins: UInt8, address: [UInt8], payload: [UInt8], encrypt: Bool, name: String) async throws {
        guard var current = session else { throw MIFAREPlusError(.notAuthenticated, "\(name) needs a session") }
        var sent = payload
        if encrypt {
            sent = try current.encrypt(payload, iv: try current.iv(response: false, read: current.readCounter, write: current.writeCounter))
        }
        let mac = try current.mac(
            [ins] + MIFAREPlusSecureSession.bytes(current.writeCounter) + current.transactionIdentifier + address + sent)
        session = nil
        let answer = try await frame(ins, address + sent + mac, name: name)
        guard answer.status == 0x90 else { throw MIFAREPlusError.refusal(answer.status, command: name) }
        current.writeCounter &+= 1
        if ins & 0x01 != 0 {
            let expected = try current.mac([0x90] + MIFAREPlusSecureSession.bytes(current.writeCounter) + current.transactionIdentifier)
            guard answer.data == expected else { throw MIFAREPlusError(.responseIntegrity, "\(name): the answer's MAC is wrong") }
        } else if !answer.data.isEmpty {
            throw MIFAREPlusError(.malformedResponse, "\(name): \(answer.data.count) unexpected bytes")
        }
        session = current
    }

    // MARK: Exchanges

    private func expectOK(_ answer: (data: [UInt8], status: UInt8), _ name: String) throws {
        guard answer.status == 0x90 else { throw fail(MIFAREPlusError.refusal(answer.status, command: name)) }
    }

    private func fail(_ error: MIFAREPlusError) -> MIFAREPlusError {
        session = nil
        return error
    }

    /// One wrapped frame (`90 cmd 00 00 [Lc data] 00`) and its `data 91 status` answer.
    private func frame(_ ins: UInt8, _ data: [UInt8], name: String) async throws -> (data: [UInt8], status: UInt8) {
        guard data.count <= 255 else { throw MIFAREPlusError(.invalidArgument, "\(name): \(data.count) bytes do not fit a short APDU") }
        let apdu = [0x90, ins, 0x00, 0x00] + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0x00]
        let response = try await transmitter.transmit(apdu)
        guard response.count >= 2, response[response.count - 2] == 0x91 else {
            session = nil
            throw MIFAREPlusError(.malformedResponse, "\(name): the answer does not end 91 xx (\(response.count) bytes)")
        }
        let status = response[response.count - 1]
        if status != 0x90, status != 0xAF { session = nil }
        return (Array(response.dropLast(2)), status)
    }

    static func rotated(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) + bytes.prefix(1) }

    static func hex(_ value: UInt16) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}

extension MIFAREPlusSecureSession {
    /// The session after AuthenticateNonFirst: TI and counters kept, the keys replaced by the caller.
    init(previous: MIFAREPlusSecureSession, keyBlock: UInt16) {
        self = previous
        self.keyBlock = keyBlock
        pendingReads = []
        pendingReadsCounter = nil
    }
}
