/// The YKOATH instructions (Yubico, "YKOATH Protocol Specification").
extension OATHApplet {
    /// Time to compute an HMAC on a secure element (an estimate; the field charges it).
    static let hmacTime = Duration.milliseconds(2)
    /// Time to program a changed credential into non-volatile memory (an estimate).
    static let programmingTime = Duration.milliseconds(4)

    /// Runs one YKOATH instruction: PUT `01`, DELETE `02`, SET CODE `03`, RESET `04`, RENAME `05`, LIST `A1`,
    /// CALCULATE `A2`, VALIDATE `A3`, CALCULATE ALL `A4` and SEND REMAINING `A5`. A class other than `00` gets `6E00`
    /// (SEND REMAINING excepted), an unknown instruction `6D00`, and a locked instruction without VALIDATE `6982`.
    public mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        if command.ins == 0xA5 { return sendRemaining(command) }
        remaining = nil
        guard command.cla == 0x00 else { return SimResponseAPDU(.classNotSupported) }
        let needsAuthentication: Set<UInt8> = [0x01, 0x02, 0x03, 0x05, 0xA1, 0xA2, 0xA4]
        if accessKey != nil && !authenticated && needsAuthentication.contains(command.ins) {
            return SimResponseAPDU(.securityStatusNotSatisfied)
        }
        switch command.ins {
        case 0x01: return put(command)
        case 0x02: return delete(command)
        case 0x03: return setCode(command)
        case 0x04: return resetApplet(command)
        case 0x05: return rename(command)
        case 0xA1: return list(command)
        case 0xA2: return calculate(command)
        case 0xA3: return validate(command)
        case 0xA4: return calculateAll(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    // MARK: Answers longer than one response

    /// The most data one response carries: Ne when given (an extended Ne may exceed 256), else 256.
    private func chunkLimit(_ command: SimCommandAPDU) -> Int {
        guard let ne = command.ne else { return 256 }
        return command.isExtended ? ne : min(ne, 256)
    }

    /// `data` in one response, or its first part with `61xx` and the rest kept for SEND REMAINING.
    mutating func answer(_ data: [UInt8], to command: SimCommandAPDU, extraTime: Duration = .zero, writes: Bool = false) -> SimResponseAPDU
    {
        let limit = max(chunkLimit(command), 1)
        if data.count <= limit {
            remaining = nil
            return SimResponseAPDU(data: data, status: .success, additionalProcessingTime: extraTime, writesMemory: writes)
        }
        remaining = Array(data[limit...])
        return SimResponseAPDU(
            data: Array(data[..<limit]), status: .bytesRemaining(data.count - limit),
            additionalProcessingTime: extraTime, writesMemory: writes)
    }

    /// SEND REMAINING (`A5`): the next part of the last answer.
    private mutating func sendRemaining(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let rest = remaining else { return SimResponseAPDU(.conditionsNotSatisfied) }
        return answer(rest, to: command)
    }

    // MARK: Access code

    /// SET CODE (`03`): `73` = algorithm byte + key, `74` challenge, `75` HMAC(key, challenge);
    /// an empty `73` removes the code. A response that does not match gets `6A80`. The client
    /// proved it holds the new key, so the session stays authenticated.
    private mutating func setCode(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let objects = OATHAppletTLV.parse(command.data), let keyObject = objects.first(0x73) else {
            return SimResponseAPDU(.incorrectData)
        }
        if keyObject.isEmpty {
            accessKey = nil
            authenticated = false
            return SimResponseAPDU(data: [], status: .success, additionalProcessingTime: Self.programmingTime, writesMemory: true)
        }
        guard let algorithm = Algorithm(nibble: keyObject[0] & 0x0F), keyObject.count > 1,
            let challenge = objects.first(0x74), let response = objects.first(0x75)
        else {
            return SimResponseAPDU(.incorrectData)
        }
        let key = Array(keyObject.dropFirst())
        guard Self.equal(algorithm.mac(key: key, message: challenge), response) else {
            return SimResponseAPDU(.incorrectData)
        }
        accessKey = AccessKey(algorithm: algorithm, key: key)
        authenticated = true
        return SimResponseAPDU(
            data: [], status: .success, additionalProcessingTime: Self.programmingTime + Self.hmacTime, writesMemory: true)
    }

    /// VALIDATE (`A3`): `75` = HMAC(key, SELECT's challenge), `74` = the client's challenge;
    /// answers `75` = HMAC(key, client challenge). No code set: `6984`; no unspent challenge
    /// (VALIDATE twice without SELECT): `6985`; a wrong response: `6A80`. The challenge is spent
    /// either way.
    private mutating func validate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let accessKey else { return SimResponseAPDU(SimStatusWord(rawValue: 0x6984)) }
        guard let challenge = pendingChallenge else { return SimResponseAPDU(.conditionsNotSatisfied) }
        guard let objects = OATHAppletTLV.parse(command.data), let response = objects.first(0x75),
            let clientChallenge = objects.first(0x74)
        else {
            return SimResponseAPDU(.incorrectData)
        }
        pendingChallenge = nil
        guard Self.equal(accessKey.algorithm.mac(key: accessKey.key, message: challenge), response) else {
            authenticated = false
            return SimResponseAPDU(.incorrectData)
        }
        authenticated = true
        let proof = accessKey.algorithm.mac(key: accessKey.key, message: clientChallenge)
        return answer(OATHAppletTLV.encode(0x75, proof), to: command, extraTime: Self.hmacTime * 2)
    }

    // MARK: Credentials

    /// PUT (`01`): `71` name, `73` = type|algorithm, digits, secret; optional `78` property (no
    /// length) and `7A` initial counter. Replaces a credential of the same name.
    private mutating func put(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let objects = OATHAppletTLV.parse(command.data, propertyTagWithoutLength: true),
            let name = objects.first(0x71), !name.isEmpty, name.count <= Self.maximumNameLength,
            let key = objects.first(0x73), key.count >= 3,
            let kind = Kind(nibble: key[0] & 0xF0), let algorithm = Algorithm(nibble: key[0] & 0x0F)
        else {
            return SimResponseAPDU(.incorrectData)
        }
        let digits = Int(key[1])
        let secret = Array(key.dropFirst(2))
        guard (6...8).contains(digits), secret.count <= algorithm.blockSize else { return SimResponseAPDU(.incorrectData) }
        let property = objects.first(0x78)?.first ?? 0
        var counter: UInt64 = 0
        if let imf = objects.first(0x7A) {
            guard imf.count == 4 else { return SimResponseAPDU(.incorrectData) }
            counter = imf.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        let credential = Credential(
            name: name, kind: kind, algorithm: algorithm, digits: digits, secret: secret,
            touchRequired: property & 0x02 != 0, onlyIncreasing: property & 0x01 != 0, counter: counter
        )
        if let index = credentials.firstIndex(where: { $0.name == name }) {
            credentials[index] = credential
        } else {
            guard credentials.count < capacity else { return SimResponseAPDU(.notEnoughMemory) }
            credentials.append(credential)
        }
        return SimResponseAPDU(data: [], status: .success, additionalProcessingTime: Self.programmingTime, writesMemory: true)
    }

    /// DELETE (`02`): `71` name; an unknown name gets `6984`.
    private mutating func delete(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let objects = OATHAppletTLV.parse(command.data), let name = objects.first(0x71) else {
            return SimResponseAPDU(.incorrectData)
        }
        guard let index = credentials.firstIndex(where: { $0.name == name }) else {
            return SimResponseAPDU(SimStatusWord(rawValue: 0x6984))
        }
        credentials.remove(at: index)
        return SimResponseAPDU(data: [], status: .success, additionalProcessingTime: Self.programmingTime, writesMemory: true)
    }

    /// RENAME (`05`): `71` old name, `71` new name. Unknown old name: `6984`; a new name that
    /// is taken or malformed: `6A80`.
    private mutating func rename(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let objects = OATHAppletTLV.parse(command.data) else { return SimResponseAPDU(.incorrectData) }
        let names = objects.filter { $0.tag == 0x71 }.map(\.value)
        guard names.count == 2, !names[1].isEmpty, names[1].count <= Self.maximumNameLength else {
            return SimResponseAPDU(.incorrectData)
        }
        guard let index = credentials.firstIndex(where: { $0.name == names[0] }) else {
            return SimResponseAPDU(SimStatusWord(rawValue: 0x6984))
        }
        guard names[0] == names[1] || !credentials.contains(where: { $0.name == names[1] }) else {
            return SimResponseAPDU(.incorrectData)
        }
        credentials[index].name = names[1]
        return SimResponseAPDU(data: [], status: .success, additionalProcessingTime: Self.programmingTime, writesMemory: true)
    }

    /// RESET (`04`, P1 P2 = `DE AD`): every credential and the access code go, the salt is new.
    private mutating func resetApplet(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0xDE, command.p2 == 0xAD else { return SimResponseAPDU(.incorrectP1P2) }
        credentials = []
        accessKey = nil
        salt = Self.randomBytes(8)
        authenticated = false
        pendingChallenge = nil
        return SimResponseAPDU(data: [], status: .success, additionalProcessingTime: Self.programmingTime, writesMemory: true)
    }

    /// LIST (`A1`): `72` = type|algorithm, name — per credential, in the order they were added.
    private mutating func list(_ command: SimCommandAPDU) -> SimResponseAPDU {
        var data: [UInt8] = []
        for credential in credentials {
            data += OATHAppletTLV.encode(0x72, [credential.kind.nibble | credential.algorithm.nibble] + credential.name)
        }
        return answer(data, to: command)
    }

    /// CALCULATE (`A2`): `71` name, `74` challenge. P2 `01`: `76` = digits + the four bytes of
    /// dynamic truncation (RFC 4226 §5.3); P2 `00`: `75` = digits + the whole HMAC. HOTP ignores
    /// the challenge and uses, then increments, its counter (a state change: memory is written).
    private mutating func calculate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p2 <= 0x01 else { return SimResponseAPDU(.incorrectP1P2) }
        guard let objects = OATHAppletTLV.parse(command.data), let name = objects.first(0x71),
            let challenge = objects.first(0x74)
        else {
            return SimResponseAPDU(.incorrectData)
        }
        guard let index = credentials.firstIndex(where: { $0.name == name }) else {
            return SimResponseAPDU(SimStatusWord(rawValue: 0x6984))
        }
        let credential = credentials[index]
        var message = challenge
        var writes = false
        if credential.kind == .hotp {
            guard credential.counter < UInt64.max else { return SimResponseAPDU(.conditionsNotSatisfied) }
            message = (0..<8).map { UInt8(truncatingIfNeeded: credential.counter >> (56 - 8 * UInt64($0))) }
            credentials[index].counter += 1
            writes = true
        }
        let data = Self.result(credential, message: message, truncate: command.p2 == 0x01)
        let time = Self.hmacTime + (writes ? Self.programmingTime : .zero)
        return answer(data, to: command, extraTime: time, writes: writes)
    }

    /// CALCULATE ALL (`A4`): `74` challenge; per credential `71` name then `76`/`75` (TOTP),
    /// `77` (HOTP, not computed) or `7C` (touch required, not computed), each of these last two
    /// holding the digits.
    private mutating func calculateAll(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p2 <= 0x01 else { return SimResponseAPDU(.incorrectP1P2) }
        guard let objects = OATHAppletTLV.parse(command.data), let challenge = objects.first(0x74) else {
            return SimResponseAPDU(.incorrectData)
        }
        var data: [UInt8] = []
        var computed = 0
        for credential in credentials {
            data += OATHAppletTLV.encode(0x71, credential.name)
            if credential.kind == .hotp {
                data += OATHAppletTLV.encode(0x77, [UInt8(credential.digits)])
            } else if credential.touchRequired {
                data += OATHAppletTLV.encode(0x7C, [UInt8(credential.digits)])
            } else {
                data += Self.result(credential, message: challenge, truncate: command.p2 == 0x01)
                computed += 1
            }
        }
        return answer(data, to: command, extraTime: Self.hmacTime * computed)
    }

    /// The response object for one credential: truncated (`76`) or whole (`75`).
    static func result(_ credential: Credential, message: [UInt8], truncate: Bool) -> [UInt8] {
        let mac = credential.algorithm.mac(key: credential.secret, message: message)
        let digits = UInt8(credential.digits)
        guard truncate, let last = mac.last else { return OATHAppletTLV.encode(0x75, [digits] + mac) }
        // RFC 4226 §5.3: the offset is the low nibble of the last byte; the card sends the four
        // bytes there with the top bit cleared, the client reduces them modulo 10^digits.
        let offset = Int(last & 0x0F)
        var four = Array(mac[offset..<offset + 4])
        four[0] &= 0x7F
        return OATHAppletTLV.encode(0x76, [digits] + four)
    }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
