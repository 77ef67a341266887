import ISO7816

/// Yubico's RESET extension and what it needs first (Yubico, "PIV Introduction — Yubico
/// extensions": RESET `FB` succeeds only once both the PIN and the PUK are blocked).
extension PIVClient {
    /// Puts the PIV application back to its factory state: default PIN `123456`, PUK `12345678`
    /// and management key, no keys, no certificates.
    /// - Throws: ``PIVError`` `.status` with `6985` while the PIN or the PUK is not blocked
    ///   (``blockPINAndPUK()`` first), `6D00` on a card without the extension.
    public func reset() async throws {
        _ = try await run("RESET", CommandAPDU(ins: 0xFB, p1: 0x00, p2: 0x00))
    }

    /// Blocks the PIN (wrong VERIFYs) and then the PUK (wrong RESET RETRY COUNTERs) until each
    /// reports no tries left, as ykman does before a reset. Two different wrong values are
    /// tried in turn, so a card whose PIN happens to be one of them is blocked anyway.
    /// - Throws: ``PIVError`` `.status` for an answer that is neither a try counted nor blocked.
    public func blockPINAndPUK() async throws {
        let candidates = ["~wrong~1", "~wrong~2"]
        var attempt = 0
        blocking: while attempt < 64 {
            let command = CommandAPDU(
                ins: 0x20, p1: 0x00, p2: PIVReference.pin.rawValue, data: try Self.block(candidates[attempt % 2], .pin))
            let status = try await transmitter.send(command).statusWord
            attempt += 1
            switch status {
            case .authenticationMethodBlocked: break blocking
            case let counted where counted.retriesLeft == 0: break blocking
            case let counted where counted.retriesLeft != nil || counted == .success: continue
            default: throw PIVError.status(command: "VERIFY", status)
            }
        }
        attempt = 0
        while attempt < 64 {
            let data = try Self.block(candidates[attempt % 2], .puk) + Self.block("~new~pin", .pin)
            let status = try await transmitter.send(CommandAPDU(ins: 0x2C, p1: 0x00, p2: PIVReference.pin.rawValue, data: data)).statusWord
            attempt += 1
            switch status {
            case .authenticationMethodBlocked: return
            case let counted where counted.retriesLeft == 0: return
            case let counted where counted.retriesLeft != nil || counted == .success: continue
            default: throw PIVError.status(command: "RESET RETRY COUNTER", status)
            }
        }
        throw PIVError.unsupported("the card never reported the PIN and PUK blocked after 64 tries")
    }
}
