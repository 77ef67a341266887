import ISO7816
import NFCBytes

/// A client of NXP MIFARE DESFire EV1/EV2/EV3 (and the core NTAG 424 DNA's client stands on) over
/// any `APDUTransmitter`: a Core NFC tag (`NFCMiFareTag` through its ISO 7816 transmitter, or
/// `NFCISO7816Tag`), a PC/SC card, a simulated card.
///
/// Native commands go ISO/IEC 7816-4 wrapped (`90 INS 00 00 Lc data 00`; MIFARE DESFire EV1
/// short data sheet §9.1, "ISO/IEC 7816-4 wrapping of native commands"): answers end `91 xx`, and
/// `91 AF` asks for the next frame, which the client fetches with `90 AF 00 00 00` and joins.
/// ``authenticate(keyNumber:key:)`` runs AuthenticateEV2First (EV2 and later, AES keys) and opens
/// an EV2 secure-messaging session (``EV2Session``); from then on each command is wrapped in the
/// mode it calls for: a file command in the file's mode when the session's key grants access and
/// plain when access is free, a management command with a MAC, key and settings changes
/// encrypted. Any error answer ends the session, on the card and here (NT4H2421Gx §9.1.9; AN12343).
public actor DESFireClient {
    /// The channel every command goes through.
    public nonisolated let transmitter: any APDUTransmitter
    /// The open secure channel, if any: an EV2 session, an LRP one or an EV1/legacy one.
    public internal(set) var channel: DESFireSecureChannel?
    /// The open EV2 session, if the channel is one.
    public var session: EV2Session? {
        if case .ev2(let session) = channel { return session }
        return nil
    }
    /// The level SelectApplication last chose: the PICC level after power-on, `nil` after an ISO
    /// SELECT (which may have chosen anything).
    public internal(set) var selected: DESFireAID?
    let random: @Sendable (Int) -> [UInt8]

    /// A client sending through `transmitter`; `random` supplies RndA (the system's generator
    /// unless a test replays a published exchange).
    public init(transmitter: any APDUTransmitter, random: (@Sendable (Int) -> [UInt8])? = nil) {
        self.init(transmitter: transmitter, random: random, level: .picc)
    }

    /// A client whose card is at `level` already (`nil`: an application an ISO SELECT chose, as
    /// for an NTAG 424 DNA or an `NFCISO7816Tag`).
    init(transmitter: any APDUTransmitter, random: (@Sendable (Int) -> [UInt8])?, level: DESFireAID?) {
        self.transmitter = transmitter
        selected = level
        self.random =
            random ?? { count in
                var generator = SystemRandomNumberGenerator()
                return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            }
    }

    /// Forgets the session (after a SELECT, which ends it on the card).
    func endSession() {
        channel = nil
        selected = nil
    }

    // MARK: Identity

    /// GetVersion: three frames; inside a session MACed over all three.
    public func version() async throws -> DESFireVersion {
        try DESFireVersion(parsing: try await command("GetVersion", 0x60, mode: managementMode))
    }

    /// GetCardUID: the real UID, to an authenticated reader only (full mode).
    public func cardUID() async throws -> [UInt8] {
        let uid = try await command("GetCardUID", 0x51, mode: .full, answerLength: 7)
        guard uid.count == 7 else { throw DESFireError(.malformedResponse, "GetCardUID answered \(uid.count) bytes; 7 expected") }
        return uid
    }

    /// Read_Sig (`3C`, address `00`; NTAG 424 DNA, MIFARE DESFire EV2 and later): the 56-byte
    /// originality signature of the UID, enciphered in a session (full mode), plain outside one.
    /// The chips answer `91 90` where the data sheets say `91 00` (NXP AN12196's exchange,
    /// proxmark3): both are success, and a session's answer MAC covers whichever came.
    /// ``OriginalitySignature/signer(of:uid:among:)`` says whose key made it.
    /// - Throws: ``DESFireError`` `.illegalCommand` from a card without one (an EV1),
    ///   `.malformedResponse` for an answer of another length.
    public func originalitySignature() async throws -> [UInt8] {
        let answer = try await command("Read_Sig", 0x3C, header: [0x00], mode: .full, answerLength: 56, success: [0x00, 0x90])
        guard answer.count == 56 else {
            throw DESFireError(.malformedResponse, "Read_Sig answered \(answer.count) bytes; a signature has 56")
        }
        return answer
    }

    // MARK: Authentication

    /// AuthenticateEV2First (NT4H2421Gx §9.1.5, AN12196 §6.6; DESFire EV2 the same): proves both
    /// sides hold key `keyNumber` of the selected level and opens a session (new TI, CmdCtr zero).
    /// - Throws: ``DESFireError`` `.authenticationError` when the card refuses the key (`91 AE`),
    ///   `.illegalCommand` from a card without EV2 authentication (DESFire EV1),
    ///   `.authenticationFailed` when the card's answer does not prove the key, `.wrongKey` for a
    ///   key that is not 16 bytes.
    public func authenticate(keyNumber: UInt8, key: [UInt8]) async throws {
        channel = nil
        let (rndA, rndB, answer) = try await challenge(0x71, [keyNumber, 0x00], key: key, name: "AuthenticateEV2First", answerLength: 32)
        guard Array(answer[4..<20]) == Self.rotated(rndA) else {
            throw DESFireError(.authenticationFailed, "the card's answer does not prove key \(keyNumber)")
        }
        channel = .ev2(try EV2Session(keyNumber: keyNumber, key: key, rndA: rndA, rndB: rndB, transactionIdentifier: Array(answer[0..<4])))
    }

    /// Opens a session with `method`: AuthenticateEV2First (``authenticate(keyNumber:key:)``),
    /// AuthenticateLRPFirst (``authenticateLRP(keyNumber:key:)``, a tag in LRP mode), AuthenticateAES (`AA`, AES keys), AuthenticateISO (`1A`: 8- or 16-byte keys are DES or
    /// 2K3DES, 24-byte keys 3K3DES) or the legacy Authenticate (`0A`, DES and 2K3DES). The last three
    /// open an EV1 or legacy session (``EV1Session``): RndB from E(RndB), E(RndA ‖ RndB') back, the
    /// card's E(RndA') checked — chained CBC for `AA` and `1A`, each message alone (the reader
    /// deciphering to send) for `0A` (MIFARE DESFire EV1 short data sheet §9; docs/desfire.md).
    /// - Throws: ``DESFireError`` `.authenticationError` when the card refuses the key or its type
    ///   (`91 AE`), `.authenticationFailed` when its answer does not prove the key, `.wrongKey`
    ///   for a key length the method does not take.
    public func authenticate(keyNumber: UInt8, key: [UInt8], method: DESFireAuthentication) async throws {
        if method == .ev2 { return try await authenticate(keyNumber: keyNumber, key: key) }
        if method == .lrp { return try await authenticateLRP(keyNumber: keyNumber, key: key) }
        channel = nil
        let type: DESFireKeyType = method == .aes ? .aes : key.count == 24 ? .tdes3 : .des
        if method == .legacy, type != .des {
            throw DESFireError(.wrongKey, "the legacy Authenticate takes DES and 2K3DES keys (8 or 16 bytes), not \(key.count) bytes")
        }
        let cipher = try DESFireBlockCipher(type: type, key: key)
        let ins: UInt8 = method == .legacy ? 0x0A : method == .iso ? 0x1A : 0xAA
        let name = method == .legacy ? "Authenticate" : method == .iso ? "AuthenticateISO" : "AuthenticateAES"
        let size = type == .des ? 8 : 16
        do {
            let first = try await exchange(ins, [keyNumber], name: name, follow: false)
            guard first.status == 0xAF else { throw DESFireError.status(first.status, command: name) }
            guard first.data.count == size else {
                throw DESFireError(.malformedResponse, "\(name) answered \(first.data.count) bytes; E(RndB) has \(size)")
            }
            let rndB = try cipher.decrypt(first.data, iv: cipher.zero)
            let rndA = random(size)
            guard rndA.count == size else { throw DESFireError(.invalidArgument, "RndA has \(size) bytes") }
            let plain = rndA + Self.rotated(rndB)
            let token =
                method == .legacy
                ? try cipher.legacySend(plain) : try cipher.encrypt(plain, iv: Array(first.data.suffix(cipher.blockSize))).data
            let second = try await exchange(0xAF, token, name: name, follow: false)
            guard second.status == 0x00 else { throw DESFireError.status(second.status, command: name) }
            guard second.data.count == size else {
                throw DESFireError(.malformedResponse, "\(name) answered \(second.data.count) bytes in its second frame; \(size) expected")
            }
            let answerIV = method == .legacy ? cipher.zero : Array(token.suffix(cipher.blockSize))
            guard try cipher.decrypt(second.data, iv: answerIV) == Self.rotated(rndA) else {
                throw DESFireError(.authenticationFailed, "the card's answer does not prove key \(keyNumber)")
            }
            let sessionKey = EV1Session.sessionKey(type: type, key: cipher.key, rndA: rndA, rndB: rndB)
            channel = .ev1(EV1Session(keyNumber: keyNumber, method: method, cipher: try DESFireBlockCipher(type: type, key: sessionKey)))
        } catch {
            channel = nil
            throw error
        }
    }

    /// AuthenticateEV2NonFirst (NT4H2421Gx §9.1.6, AN12196 §6.14): changes the session's key,
    /// keeping TI and CmdCtr.
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session, else as ``authenticate(keyNumber:key:)``.
    public func authenticateNonFirst(keyNumber: UInt8, key: [UInt8]) async throws {
        guard let current = session else {
            throw DESFireError(.notAuthenticated, "AuthenticateEV2NonFirst needs an EV2 session (AuthenticateEV2First)")
        }
        let (rndA, rndB, answer) = try await challenge(0x77, [keyNumber], key: key, name: "AuthenticateEV2NonFirst", answerLength: 16)
        guard answer == Self.rotated(rndA) else {
            channel = nil
            throw DESFireError(.authenticationFailed, "the card's answer does not prove key \(keyNumber)")
        }
        channel = .ev2(
            try EV2Session(
                keyNumber: keyNumber, key: key, rndA: rndA, rndB: rndB, transactionIdentifier: current.transactionIdentifier,
                commandCounter: current.commandCounter))
    }

    /// The two frames both authentications share: E(Kx, RndB) from the card, E(Kx, RndA ‖ RndB')
    /// back, the card's encrypted answer decrypted (IV zero, no padding).
    private func challenge(
        _ ins: UInt8, _ data: [UInt8], key: [UInt8], name: String, answerLength: Int
    ) async throws -> (rndA: [UInt8], rndB: [UInt8], answer: [UInt8]) {
        guard key.count == 16 else { throw DESFireError(.wrongKey, "an AES-128 key has 16 bytes, not \(key.count)") }
        do {
            let first = try await exchange(ins, data, name: name, follow: false)
            guard first.status == 0xAF else { throw DESFireError.status(first.status, command: name) }
            guard first.data.count == 16 else {
                throw DESFireError(.malformedResponse, "\(name) answered \(first.data.count) bytes; E(Kx, RndB) has 16")
            }
            let rndB = try DESFireCrypto.decryptCBC(first.data, key: key)
            let rndA = random(16)
            guard rndA.count == 16 else { throw DESFireError(.invalidArgument, "RndA has 16 bytes") }
            let second = try await exchange(
                0xAF, try DESFireCrypto.encryptCBC(rndA + Self.rotated(rndB), key: key), name: name, follow: false)
            guard second.status == 0x00 else { throw DESFireError.status(second.status, command: name) }
            guard second.data.count == answerLength else {
                throw DESFireError(
                    .malformedResponse, "\(name) answered \(second.data.count) bytes in its second frame; \(answerLength) expected")
            }
            return (rndA, rndB, try DESFireCrypto.decryptCBC(second.data, key: key))
        } catch {
            channel = nil
            throw error
        }
    }

    static func rotated(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) + bytes.prefix(1) }

    // MARK: Keys

    /// GetKeyVersion of a key of the selected level.
    public func keyVersion(_ keyNumber: UInt8) async throws -> UInt8 {
        let answer = try await command("GetKeyVersion", 0x64, header: [keyNumber], mode: managementMode)
        guard answer.count == 1 else { throw DESFireError(.malformedResponse, "GetKeyVersion answered \(answer.count) bytes; 1 expected") }
        return answer[0]
    }

    /// ChangeKey (`C4`) in the session. At the PICC level `type` is the new master key's type
    /// (bits 7–6 of KeyNo; by default the session key's, AES in an EV2 session); in an application
    /// the type is the application's. The session's own key gets the new key alone and the session
    /// ends; another key gets the new key XORed with `oldKey` (as the card holds it, version bits
    /// included) and a checksum of the new key. DES-family keys carry `version` in their parity
    /// bits, AES keys in a byte of their own.
    /// - EV2 (NT4H2421Gx §10.6.1, AN12196 §6.16): NewKey ‖ KeyVer, or (NewKey ⊕ OldKey) ‖ KeyVer ‖
    ///   CRC32(NewKey), in full mode.
    /// - EV1: NewKey [‖ KeyVer] ‖ CRC32(C4 ‖ KeyNo ‖ that), or (NewKey ⊕ OldKey) [‖ KeyVer] ‖
    ///   CRC32(C4 ‖ KeyNo ‖ that) ‖ CRC32(NewKey), zero-padded, enciphered from the IV.
    /// - Legacy: NewKey ‖ CRC16(NewKey), or (NewKey ⊕ OldKey) ‖ CRC16(that) ‖ CRC16(NewKey),
    ///   zero-padded, in the send mode.
    /// Which key may change which is the card's key settings' call; a refusal comes back as
    /// `.authenticationError` or `.permissionDenied`.
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session, `.wrongKey` for keys
    ///   of the wrong length.
    public func changeKey(_ keyNumber: UInt8, to newKey: [UInt8], version: UInt8, oldKey: [UInt8], type: DESFireKeyType? = nil) async throws
    {
        guard let current = channel else { throw DESFireError(.notAuthenticated, "ChangeKey needs a session") }
        let own = keyNumber & 0x3F == current.keyNumber
        switch current {
        case .ev2, .lrp:
            guard type == nil || type == .aes else { throw DESFireError(.invalidArgument, "an EV2 or LRP session changes AES keys only") }
            guard newKey.count == 16, oldKey.count == 16 else { throw DESFireError(.wrongKey, "AES-128 keys have 16 bytes") }
            // At the PICC level bits 7–6 name the new key's type: 10, AES (else a card would make it DES).
            let keyByte = selected == .picc ? 0x80 | (keyNumber & 0x3F) : keyNumber
            if own {
                var secure = current
                let wire = try secure.protect(command: 0xC4, header: [keyByte], data: newKey + [version], mode: .full)
                channel = nil
                let answer = try await exchange(0xC4, wire, name: "ChangeKey")
                guard answer.status == 0x00 else { throw DESFireError.status(answer.status, command: "ChangeKey") }
                return
            }
            let data = zip(newKey, oldKey).map { $0 ^ $1 } + [version] + DESFireCrypto.crc32(newKey)
            _ = try await command("ChangeKey", 0xC4, header: [keyByte], data: data, mode: .full)
        case .ev1(var ev1):
            let newType = type ?? ev1.keyType
            if selected != .picc, newType != ev1.keyType {
                throw DESFireError(
                    .invalidArgument, "an application's keys keep its type (\(ev1.keyType)); \(newType) is for the PICC master key")
            }
            if ev1.legacy, newType == .aes, version != 0 {
                throw DESFireError(
                    .invalidArgument,
                    "a legacy session sends no version byte for an AES key: authenticate with AuthenticateISO to set version \(version)")
            }
            let keyByte = selected == .picc ? newType.methodBits | (keyNumber & 0x3F) : keyNumber & 0x3F
            let value = newType.withVersion(try newType.cardKey(newKey), version)
            var plain = value
            if !own {
                let old = try newType.cardKey(oldKey)
                plain = zip(value, old).map { $0 ^ $1 }
            }
            if newType == .aes && !ev1.legacy { plain.append(version) }
            plain += ev1.legacy ? CRC16.crcA.bytes(plain) : DESFireCrypto.crc32([0xC4, keyByte] + plain)
            if !own { plain += ev1.legacy ? CRC16.crcA.bytes(value) : DESFireCrypto.crc32(value) }
            channel = nil
            let wire = [keyByte] + (try ev1.encipher(ev1.cipher.zeroPadded(plain)))
            let answer = try await exchange(0xC4, wire, name: "ChangeKey")
            guard answer.status == 0x00 else { throw DESFireError.status(answer.status, command: "ChangeKey") }
            if own { return }
            _ = try ev1.open(response: answer.data, mode: .plain)
            channel = .ev1(ev1)
        }
    }

    // MARK: Exchanges

    /// The mode a file command runs in: the file's when the session's key meets one of
    /// `conditions`, plain otherwise (free access, or no session).
    func mode(_ conditions: [DESFireAccess], file: DESFireCommunicationMode) -> DESFireCommunicationMode {
        guard let channel, conditions.contains(.key(channel.keyNumber)) else { return .plain }
        return file
    }

    /// The mode of a management command: MAC in an EV2 or LRP session, plain otherwise (an EV1 session
    /// still checks each answer's CMAC).
    var managementMode: DESFireCommunicationMode {
        switch channel {
        case .ev2, .lrp: return .mac
        default: break
        }
        return .plain
    }

    /// One command under the session's secure messaging (plain outside a session). `frameLimit`
    /// splits long data into `AF` frames (``exchange(_:_:name:follow:frameLimit:)``). With
    /// `noChanges`, a `91 0C` NO_CHANGES answer is success too (no data, no MAC, the session kept).
    /// `endMarker` ends a full-mode EV1 or legacy cryptogram with `CRC ‖ 80`. `success` lists
    /// the return codes that mean success (`00`; Read_Sig's `90` too), the answer MAC covering it.
    func command(
        _ name: String, _ ins: UInt8, header: [UInt8] = [], data: [UInt8] = [], mode: DESFireCommunicationMode,
        frameLimit: Int? = nil, noChanges: Bool = false, answerLength: Int? = nil, endMarker: Bool = false,
        success: Set<UInt8> = [0x00]
    ) async throws -> [UInt8] {
        guard var current = channel else {
            let answer = try await exchange(ins, header + data, name: name, frameLimit: frameLimit)
            guard success.contains(answer.status) || (noChanges && answer.status == 0x0C) else {
                throw DESFireError.status(answer.status, command: name)
            }
            return answer.data
        }
        channel = nil
        // EV1 and legacy sessions MAC a read's answer but not its command, and a legacy session
        // a write's command but not its answer (libfreefare's read_data and get_value send
        // MDCM_PLAIN | CMAC_COMMAND; proxmark3 MACs WriteData, Credit, Debit, LimitedCredit,
        // WriteRecord and UpdateRecord commands, and expects answer MACs of reads only).
        var commandMode = mode
        var answerMode = mode
        if case .ev1(let ev1) = current, mode == .mac {
            if Self.readCommands.contains(ins) { commandMode = .plain }
            if ev1.method == .legacy, Self.writeCommands.contains(ins) { answerMode = .plain }
        }
        let wire = try current.protect(command: ins, header: header, data: data, mode: commandMode, endMarker: endMarker)
        let answer = try await exchange(ins, wire, name: name, frameLimit: frameLimit)
        if noChanges && answer.status == 0x0C {
            // The short data sheets do not say whether NO_CHANGES carries a MAC: one that does
            // (8 bytes) is checked over RC 0C and steps CmdCtr; one that does not keeps it.
            if !answer.data.isEmpty { _ = try current.open(response: answer.data, mode: .mac, status: 0x0C) }
            channel = current
            return []
        }
        guard success.contains(answer.status) else { throw DESFireError.status(answer.status, command: name) }
        let plain = try current.open(response: answer.data, mode: answerMode, status: answer.status, length: answerLength)
        channel = current
        return plain
    }

    /// ReadData, ReadRecords and GetValue (plain and chained codes).
    static let readCommands: Set<UInt8> = [0xBD, 0xAD, 0xBB, 0xAB, 0x6C]
    /// WriteData, WriteRecord, Credit, Debit and LimitedCredit.
    static let writeCommands: Set<UInt8> = [0x3D, 0x8D, 0x3B, 0x8B, 0x0C, 0xDC, 0x1C]

    /// Authenticates with `key` as the selected level's key type asks (MIFARE DESFire EV1 short
    /// data sheet §9): 8- and 24-byte keys with AuthenticateISO; a 16-byte key by the type
    /// GetKeySettings reports when the level lets anyone read it — DES/2K3DES with
    /// AuthenticateISO, AES with AuthenticateEV2First, or AuthenticateAES on a card without it
    /// (an EV1). When the settings are not readable, AES is tried first (EV2, then AuthenticateAES
    /// on an EV1), then AuthenticateISO; when all refuse, the first refusal is thrown.
    public func authenticateAsKeyTypeAsks(keyNumber: UInt8, key: [UInt8]) async throws {
        guard key.count == 16 else { return try await authenticate(keyNumber: keyNumber, key: key, method: .iso) }
        let type = (try? await keySettings()).flatMap { DESFireKeyType(methodBits: $0.keyType << 6) }
        if type == .des { return try await authenticate(keyNumber: keyNumber, key: key, method: .iso) }
        var first: DESFireError?
        for method in [DESFireAuthentication.ev2, .aes, .iso] {
            if method == .aes, first?.code != .illegalCommand { continue }
            if method == .iso, type == .aes { break }
            do {
                try await authenticate(keyNumber: keyNumber, key: key, method: method)
                return
            } catch let error as DESFireError where error.code == .illegalCommand || error.code == .authenticationError {
                if first == nil || first?.code == .illegalCommand { first = error }
            }
        }
        throw first ?? DESFireError(.authenticationFailed, "no authentication took key \(keyNumber)")
    }

    /// Sends `90 INS 00 00 [Lc data] 00` and, when `follow`, `90 AF 00 00 00` while the card
    /// answers `91 AF`, joining the data. With `frameLimit`, data longer than that goes in frames
    /// of at most that many bytes, each after the first as `90 AF 00 00 Lc part 00` once the card
    /// asks for it with `91 AF` (EV1 short data sheet §9: commands longer than a frame continue
    /// with ADDITIONAL_FRAME).
    /// - Throws: ``DESFireError`` `.cardStatus` for an answer that does not end `91 xx`.
    func exchange(
        _ ins: UInt8, _ data: [UInt8], name: String, follow: Bool = true, frameLimit: Int? = nil
    ) async throws -> (data: [UInt8], status: UInt8) {
        var parts = [data]
        if let frameLimit, frameLimit > 0, data.count > frameLimit {
            parts = stride(from: 0, to: data.count, by: frameLimit).map { Array(data[$0..<min($0 + frameLimit, data.count)]) }
        }
        for (index, part) in parts.dropLast().enumerated() {
            let answer = try await frame(index == 0 ? ins : 0xAF, part, name: name)
            guard answer.status == 0xAF else {
                // An error ends the command early; success before all the data was sent is no success.
                guard answer.status != 0x00, answer.status != 0x0C else {
                    throw DESFireError(
                        .malformedResponse,
                        "\(name): the card ended the command after frame \(index + 1) of \(parts.count), before all the data was sent")
                }
                return answer
            }
            guard answer.data.isEmpty else {
                throw DESFireError(.malformedResponse, "\(name): the card asked for more data with \(answer.data.count) bytes of its own")
            }
        }
        var collected: [UInt8] = []
        var next = (parts.count > 1 ? 0xAF : ins, parts[parts.count - 1])
        for _ in 0..<Self.maximumFrames {
            let answer = try await frame(next.0, next.1, name: name)
            collected += answer.data
            guard follow, answer.status == 0xAF else { return (collected, answer.status) }
            next = (0xAF, [])
        }
        throw DESFireError(.malformedResponse, "\(name): more than \(Self.maximumFrames) frames")
    }

    /// One wrapped frame and its `91 xx` answer.
    private func frame(_ ins: UInt8, _ data: [UInt8], name: String) async throws -> (data: [UInt8], status: UInt8) {
        guard data.count <= 255 else { throw DESFireError(.invalidArgument, "\(name): \(data.count) bytes do not fit a short APDU") }
        let apdu = [0x90, ins, 0x00, 0x00] + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0x00]
        let response = try await transmitter.transmit(apdu)
        guard response.count >= 2 else { throw DESFireError(.malformedResponse, "\(name): an answer of \(response.count) bytes") }
        let sw1 = response[response.count - 2]
        let sw2 = response[response.count - 1]
        guard sw1 == 0x91 else {
            throw DESFireError(
                .cardStatus, "\(name) answered \(Self.hex([sw1, sw2])), not a 91xx status", status: UInt16(sw1) << 8 | UInt16(sw2))
        }
        return (Array(response.dropLast(2)), sw2)
    }

    /// The most frames one answer may take (a 8 KB file read in 59-byte frames takes 139).
    static let maximumFrames = 256

    static func threeBytes(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16)]
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }
}
