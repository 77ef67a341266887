/// The card side of an EV2 secure-messaging session (MIFARE DESFire EV2 and NTAG 424 DNA share
/// it; NT4H2421Gx §9.1.4–§9.1.10, NXP AN12343 §5 for DESFire Light): the session keys, the
/// transaction identifier and the command counter, and the checks and wrapping of one command.
struct EV2CardSession: Sendable, Hashable {
    /// The key the session was opened with.
    var keyNumber: UInt8
    /// SesAuthENCKey.
    var encryption: [UInt8]
    /// SesAuthMACKey.
    var mac: [UInt8]
    /// TI.
    var ti: [UInt8]
    /// CmdCtr.
    var counter: UInt16

    /// CmdCtr least significant byte first.
    static func counterBytes(_ counter: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)]
    }

    /// Checks and removes a command's protection. `headerLength` bytes stay in the clear; in MAC
    /// and full mode the last 8 bytes are MACt(SesAuthMACKey, Cmd ‖ CmdCtr ‖ TI ‖ header ‖ data);
    /// in full mode the data is E(SesAuthENCKey, IV = E(A5 5A ‖ TI ‖ CmdCtr ‖ 0…), padded).
    func unwrap(
        ins: UInt8, _ data: [UInt8], headerLength: Int, mode: NTAG424File.CommunicationMode
    ) -> Result<(header: [UInt8], body: [UInt8]), DESFireStatus> {
        guard data.count >= headerLength else { return .failure(.lengthError) }
        let header = Array(data.prefix(headerLength))
        guard mode != .plain else { return .success((header, Array(data.dropFirst(headerLength)))) }
        guard data.count >= headerLength + 8 else { return .failure(.lengthError) }
        let protected = Array(data[headerLength..<data.count - 8])
        let input = [ins] + Self.counterBytes(counter) + ti + header + protected
        guard let expected = NTAG424Cipher.truncatedMAC(input, key: mac), expected == Array(data.suffix(8)) else {
            return .failure(.integrityError)
        }
        guard mode == .full, !protected.isEmpty else { return .success((header, protected)) }
        guard protected.count % 16 == 0,
            let iv = NTAG424Cipher.iv(label: [0xA5, 0x5A], ti: ti, counter: counter, key: encryption),
            let padded = NTAG424Cipher.cbc(protected, key: encryption, iv: iv, decrypt: true),
            let plain = NTAG424Cipher.unpad(padded)
        else { return .failure(.integrityError) }
        return .success((header, plain))
    }

    /// Protects a successful answer: CmdCtr steps, then in full mode the data is encrypted with IV
    /// = E(5A A5 ‖ TI ‖ CmdCtr ‖ 0…), and in MAC and full mode it gains MACt(SesAuthMACKey, `00` ‖
    /// CmdCtr ‖ TI ‖ data). A counter at its end aborts the command (`CA`).
    mutating func wrap(_ data: [UInt8], mode: NTAG424File.CommunicationMode, status: UInt8 = 0x00) -> Result<[UInt8], DESFireStatus> {
        guard counter < 0xFFFF else { return .failure(.commandAborted) }
        counter += 1
        guard mode != .plain else { return .success(data) }
        var payload = data
        if mode == .full, !data.isEmpty {
            guard let iv = NTAG424Cipher.iv(label: [0x5A, 0xA5], ti: ti, counter: counter, key: encryption),
                let encrypted = NTAG424Cipher.cbc(NTAG424Cipher.pad(data), key: encryption, iv: iv, decrypt: false)
            else { return .failure(.integrityError) }
            payload = encrypted
        }
        guard let tag = NTAG424Cipher.truncatedMAC([status] + Self.counterBytes(counter) + ti + payload, key: mac) else {
            return .failure(.integrityError)
        }
        return .success(payload + tag)
    }
}
