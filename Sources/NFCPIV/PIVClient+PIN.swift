import ISO7816

/// VERIFY, CHANGE REFERENCE DATA, RESET RETRY COUNTER (SP 800-73-4 Part 2 §3.2.1–§3.2.3).
extension PIVClient {
    /// The 8-byte block of a PIN or PUK: its bytes then `FF` padding (Part 2 §2.4.3).
    static func block(_ value: String, _ reference: PIVReference) throws(PIVError) -> [UInt8] {
        var bytes = Array(value.utf8)
        defer { wipe(&bytes) }
        let minimum = reference == .pin ? 6 : 1
        guard (minimum...8).contains(bytes.count), !bytes.contains(0xFF) else {
            throw .invalidArgument("a \(reference) has \(minimum)–8 characters")
        }
        return bytes + [UInt8](repeating: 0xFF, count: 8 - bytes.count)
    }

    /// Reads a status word after a PIN or PUK was presented.
    static func check(_ statusWord: StatusWord, reference: PIVReference, command: String) throws(PIVError) {
        if statusWord == .success { return }
        if statusWord == .authenticationMethodBlocked { throw .blocked(reference) }
        if let retries = statusWord.retriesLeft {
            throw retries == 0 ? .blocked(reference) : .wrongReference(reference, retriesLeft: retries)
        }
        throw .status(command: command, statusWord)
    }

    /// Verifies the PIN. - Throws: ``PIVError/wrongReference(_:retriesLeft:)``, ``PIVError/blocked(_:)``.
    public func verifyPIN(_ pin: String) async throws {
        var command = CommandAPDU(ins: 0x20, p1: 0x00, p2: PIVReference.pin.rawValue, data: try Self.block(pin, .pin))
        defer { Self.wipe(&command.data) }
        let response = try await transmitter.send(command)
        try Self.check(response.statusWord, reference: .pin, command: "VERIFY")
    }

    /// The PIN's state from a VERIFY without data (`9000` verified, `63Cx` tries left).
    public func pinStatus() async throws -> PIVPINStatus {
        let response = try await transmitter.send(CommandAPDU(ins: 0x20, p1: 0x00, p2: PIVReference.pin.rawValue))
        if response.statusWord == .success { return .verified }
        if response.statusWord == .authenticationMethodBlocked { return .blocked }
        if let retries = response.statusWord.retriesLeft { return retries == 0 ? .blocked : .notVerified(retriesLeft: retries) }
        throw PIVError.status(command: "VERIFY", response.statusWord)
    }

    /// Forgets a verified PIN (`VERIFY` with P1 `FF`).
    public func resetPINStatus() async throws {
        _ = try await run("VERIFY", CommandAPDU(ins: 0x20, p1: 0xFF, p2: PIVReference.pin.rawValue))
    }

    /// Changes the PIN or the PUK.
    public func changeReferenceData(_ reference: PIVReference, old: String, new: String) async throws {
        var command = CommandAPDU(
            ins: 0x24, p1: 0x00, p2: reference.rawValue,
            data: try Self.block(old, reference) + Self.block(new, reference == .pin ? .pin : .puk))
        defer { Self.wipe(&command.data) }
        let response = try await transmitter.send(command)
        try Self.check(response.statusWord, reference: reference, command: "CHANGE REFERENCE DATA")
    }

    /// Unblocks (and sets) the PIN with the PUK.
    public func unblockPIN(puk: String, newPIN: String) async throws {
        var command = CommandAPDU(
            ins: 0x2C, p1: 0x00, p2: PIVReference.pin.rawValue, data: try Self.block(puk, .puk) + Self.block(newPIN, .pin))
        defer { Self.wipe(&command.data) }
        let response = try await transmitter.send(command)
        try Self.check(response.statusWord, reference: .puk, command: "RESET RETRY COUNTER")
    }
}
