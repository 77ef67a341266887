import ISO7816

/// A client of NXP NTAG 424 DNA over any `APDUTransmitter`: a Core NFC tag
/// (`NFCISO7816Tag` or `NFCMiFareTag`), a PC/SC card, a simulated tag.
///
/// Native commands go ISO/IEC 7816-4 wrapped (`90 INS 00 00 Lc data 00`, NT4H2421Gx §8.3;
/// the chip knows no other framing), answers end `91 xx` and `91 AF` asks for the next frame.
/// ``authenticate(keyNumber:key:)`` opens an EV2 secure-messaging session (``EV2Session``), or an
/// LRP one (``LRPSession``) on a tag switched to LRP mode (``enableLRP()``); from
/// then on every command is wrapped in the mode its access condition calls for: the file's mode
/// when the session's key grants access, plain when access is free (§8.2.3.3). Any error answer
/// ends the session on the card, and here too (§9.1.9).
///
/// Reads and writes go in parts: a write of at most 128 bytes per command, the size the chip
/// writes atomically (§8.6); a read of at most 192 bytes, so a full-mode answer fits one frame.
public actor NTAG424Client {
    /// The channel every command goes through.
    public nonisolated let transmitter: any APDUTransmitter
    /// The DESFire client underneath: framing, authentication and secure messaging.
    public nonisolated let core: DESFireClient

    /// The open EV2 (AES) session, if any.
    public var session: EV2Session? {
        get async { await core.session }
    }

    /// The open secure channel, if any: an EV2 (AES) or an LRP session.
    public var channel: DESFireSecureChannel? {
        get async { await core.channel }
    }

    /// The NDEF application's DF name (§8.2.1).
    public static let applicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// The most data one WriteData carries (single frames up to 128 bytes are tearing-protected, §8.6).
    public static let writeChunk = 128
    /// The most data one ReadData asks for.
    public static let readChunk = 192

    /// A client sending through `transmitter`; `random` supplies RndA (the system's generator
    /// unless a test replays a published exchange).
    public init(transmitter: any APDUTransmitter, random: (@Sendable (Int) -> [UInt8])? = nil) {
        self.transmitter = transmitter
        core = DESFireClient(transmitter: transmitter, random: random, level: nil)
    }

    // MARK: Selection and identity

    /// How ``selectApplication(by:)`` names the application.
    public enum ApplicationReference: Sendable, Hashable {
        /// By DF name `D2760000850101` (AN12196 §6.3: `00 A4 04 0C 07 D2760000850101`).
        case name
        /// By ISO file identifier `E110` (`00 A4 00 0C 02 E110`, data sheet §8.2.1): on iOS a tag
        /// delivered as `NFCMiFareTag` may not be sent a SELECT by a DF name the app's Info.plist
        /// does not list (`readerErrorSecurityViolation`); this one names no AID.
        case fileIdentifier
    }

    /// The NDEF application's ISO file identifier.
    public static let applicationFileIdentifier: [UInt8] = [0xE1, 0x10]

    /// ISOSelectFile of the NDEF application. Ends any session. On iOS an `NFCISO7816Tag` found
    /// through the AID arrives with it selected already.
    /// - Throws: ``DESFireError`` `.cardStatus` when the card answers other than `9000` (`6A82`: not an NTAG 424 DNA).
    public func selectApplication(by reference: ApplicationReference = .name) async throws {
        await core.endSession()
        let command =
            switch reference {
            case .name: CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: Self.applicationName)
            case .fileIdentifier: CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: Self.applicationFileIdentifier)
            }
        let response = try await transmitter.send(command)
        guard response.statusWord == .success else {
            throw DESFireError(
                .cardStatus, "ISOSelectFile \(Self.hex(command.data)) answered \(response.statusWord)", status: response.statusWord.rawValue
            )
        }
    }

    /// GetVersion (§10.5.2): three frames; inside a session MACed over all three.
    public func version() async throws -> NTAG424Version {
        try await core.version()
    }

    /// GetCardUID (§10.5.3): the real UID, to an authenticated reader only (full mode).
    public func cardUID() async throws -> [UInt8] {
        try await core.cardUID()
    }

    /// Read_Sig (`3C`, address `00`; NT4H2421Gx, originality check): the 56-byte originality
    /// signature of the UID, enciphered in a session (full mode), plain outside one.
    /// ``OriginalitySignature/signer(of:uid:among:)`` says whose key made it.
    /// - Throws: ``DESFireError`` `.malformedResponse` for an answer of another length.
    public func originalitySignature() async throws -> [UInt8] {
        try await core.originalitySignature()
    }

    // MARK: Authentication

    /// AuthenticateEV2First (§9.1.5, AN12196 §6.6): proves both sides hold key `keyNumber` and
    /// opens a session (new TI, CmdCtr zero). A tag in LRP mode refuses AES authentication with
    /// PERMISSION_DENIED (§9.2, Table 27); then AuthenticateLRPFirst follows
    /// (``authenticateLRP(keyNumber:key:)``), so one call opens a session in either mode.
    /// - Throws: ``DESFireError`` `.authenticationError` when the card refuses the key (`91 AE`: a
    ///   wrong key), `.authenticationFailed` when the card's answer does not prove the key,
    ///   `.wrongKey` for a key that is not 16 bytes.
    ///   A tag that refuses both ways answers with AES's refusal.
    public func authenticate(keyNumber: UInt8, key: [UInt8]) async throws {
        do {
            try await core.authenticate(keyNumber: keyNumber, key: key)
        } catch let refusal as DESFireError where refusal.code == .permissionDenied {
            do {
                try await core.authenticateLRP(keyNumber: keyNumber, key: key)
            } catch let error as DESFireError where error.code == .permissionDenied {
                // Not in LRP mode either (it answered the AES way, or refused again): AES's refusal says why.
                throw refusal
            }
        }
    }

    /// AuthenticateLRPFirst (§9.2.5, §10.4.3): an LRP session (``LRPSession``) on a tag in LRP mode.
    /// - Throws: ``DESFireError`` `.permissionDenied` from a tag in AES mode, else as
    ///   ``authenticate(keyNumber:key:)``.
    public func authenticateLRP(keyNumber: UInt8, key: [UInt8]) async throws {
        try await core.authenticateLRP(keyNumber: keyNumber, key: key)
    }

    /// AuthenticateEV2NonFirst (§9.1.6, AN12196 §6.14), or AuthenticateLRPNonFirst in an LRP
    /// session (§9.2.6): changes the session's key, keeping TI and CmdCtr.
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session, else as ``authenticate(keyNumber:key:)``.
    public func authenticateNonFirst(keyNumber: UInt8, key: [UInt8]) async throws {
        if case .lrp = await core.channel { return try await core.authenticateLRPNonFirst(keyNumber: keyNumber, key: key) }
        try await core.authenticateNonFirst(keyNumber: keyNumber, key: key)
    }

    /// SetConfiguration option `05` with PDCap2.1 bit 1 (§10.5.1, Table 50; AN12343 Table 18):
    /// switches the tag to LRP mode. **This cannot be undone.** It needs an AES session with key
    /// 0; the session ends (the answer carries no MAC), SDM is off on every file until
    /// ChangeFileSettings sets it again, and from then on only LRP authentication opens a session.
    /// In an LRP session the tag is in LRP mode already: nothing is sent.
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session with key 0, the card's
    ///   status otherwise.
    public func enableLRP() async throws {
        guard let current = await core.channel, current.keyNumber == 0 else {
            throw DESFireError(.notAuthenticated, "SetConfiguration needs a session with key 0, the application master key")
        }
        if case .lrp = current { return }
        try await core.commandEndingSession(
            "SetConfiguration", 0x5C, header: [0x05], data: [0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    // MARK: Files

    /// GetFileSettings (§10.7.2); MAC mode inside a session.
    public func fileSettings(_ file: UInt8) async throws -> NTAG424FileSettings {
        try NTAG424FileSettings(parsing: try await command("GetFileSettings", 0xF5, header: [file], mode: .mac))
    }

    /// ChangeFileSettings (§10.7.1): full mode under the file's Change key, plain when Change is
    /// free. Without `mode` the file's settings are read first to tell which.
    public func changeFileSettings(_ file: UInt8, to settings: NTAG424FileSettings, mode given: DESFireCommunicationMode? = nil)
        async throws
    {
        var mode = given
        if mode == nil { mode = await self.mode([try await fileSettings(file).change], file: .full) }
        _ = try await command("ChangeFileSettings", 0x5F, header: [file], data: settings.changeBytes, mode: mode ?? .plain)
    }

    /// ReadData (§10.8.1) of `length` bytes from `offset` (`nil`: to the end of the file), in parts.
    public func read(file: UInt8, offset: Int = 0, length: Int? = nil) async throws -> [UInt8] {
        let settings = try await fileSettings(file)
        let total = length ?? max(settings.size - offset, 0)
        guard offset >= 0, total >= 0, offset + total <= settings.size else {
            throw DESFireError(.invalidArgument, "bytes \(offset)..<\(offset + total) are outside file \(file) of \(settings.size) bytes")
        }
        let mode = await mode([settings.read, settings.readWrite], file: settings.mode)
        var out: [UInt8] = []
        while out.count < total {
            let count = min(Self.readChunk, total - out.count)
            let header = [file] + Self.threeBytes(offset + out.count) + Self.threeBytes(count)
            let part = try await command("ReadData", 0xAD, header: header, mode: mode)
            guard part.count == count else {
                throw DESFireError(.malformedResponse, "ReadData answered \(part.count) bytes; \(count) asked")
            }
            out += part
        }
        return out
    }

    /// WriteData (§10.8.2) at `offset`, in parts of at most ``writeChunk`` bytes. Without `mode`
    /// the file's settings are read first (for its size and the mode its access calls for).
    public func write(_ data: [UInt8], file: UInt8, offset: Int = 0, mode given: DESFireCommunicationMode? = nil) async throws {
        var mode = given ?? .plain
        if given == nil {
            let settings = try await fileSettings(file)
            guard offset >= 0, offset + data.count <= settings.size else {
                throw DESFireError(.invalidArgument, "\(data.count) bytes at \(offset) do not fit file \(file) of \(settings.size) bytes")
            }
            mode = await self.mode([settings.write, settings.readWrite], file: settings.mode)
        }
        guard offset >= 0, offset + data.count <= 0xFF_FFFF else {
            throw DESFireError(.invalidArgument, "offset \(offset) is out of range")
        }
        var done = 0
        while done < data.count {
            let part = Array(data[done..<min(done + Self.writeChunk, data.count)])
            let header = [file] + Self.threeBytes(offset + done) + Self.threeBytes(part.count)
            _ = try await command("WriteData", 0x8D, header: header, data: part, mode: mode)
            done += part.count
        }
    }

    /// GetFileCounters (§10.7.3): SDMReadCtr of an SDM file, under SDMCtrRet.
    public func readCounter(file: UInt8) async throws -> UInt32 {
        let settings = try await fileSettings(file)
        guard let sdm = settings.sdm else { throw DESFireError(.invalidArgument, "file \(file) has no SDM, so no read counter") }
        let answer = try await command("GetFileCounters", 0xF6, header: [file], mode: await mode([sdm.counterRetrieval], file: .full))
        guard answer.count == 5 else {
            throw DESFireError(.malformedResponse, "GetFileCounters answered \(answer.count) bytes; 5 expected")
        }
        return UInt32(answer[0]) | UInt32(answer[1]) << 8 | UInt32(answer[2]) << 16
    }

    // MARK: Keys

    /// GetKeyVersion (§10.6.2).
    public func keyVersion(_ keyNumber: UInt8) async throws -> UInt8 {
        try await core.keyVersion(keyNumber)
    }

    /// ChangeKey (§10.6.1, AN12196 §6.16), under key 0: the session's own key gets NewKey ‖ KeyVer
    /// and the session ends; another key gets (NewKey ⊕ OldKey) ‖ KeyVer ‖ CRC32(NewKey).
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session with key 0, `.wrongKey`
    ///   for keys that are not 16 bytes.
    public func changeKey(_ keyNumber: UInt8, to newKey: [UInt8], version: UInt8, oldKey: [UInt8]) async throws {
        guard let current = await core.channel, current.keyNumber == 0 else {
            throw DESFireError(.notAuthenticated, "ChangeKey needs a session with key 0, the application master key")
        }
        try await core.changeKey(keyNumber, to: newKey, version: version, oldKey: oldKey)
    }

    // MARK: Exchanges

    /// The mode a command runs in: the file's when the session's key meets one of `conditions`,
    /// plain otherwise (free access, or no session).
    func mode(_ conditions: [NTAG424Access], file: DESFireCommunicationMode) async -> DESFireCommunicationMode {
        await core.mode(conditions, file: file)
    }

    /// One command under the session's secure messaging (plain outside a session).
    func command(
        _ name: String, _ ins: UInt8, header: [UInt8] = [], data: [UInt8] = [], mode: DESFireCommunicationMode
    ) async throws -> [UInt8] {
        try await core.command(name, ins, header: header, data: data, mode: mode)
    }

    static func threeBytes(_ value: Int) -> [UInt8] { DESFireClient.threeBytes(value) }

    static func hex(_ bytes: [UInt8]) -> String { DESFireClient.hex(bytes) }
}
