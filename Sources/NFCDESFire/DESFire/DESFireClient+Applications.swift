/// PICC-level commands (MIFARE DESFire EV1 short data sheet §9): selecting, listing, creating and
/// deleting applications, formatting, free memory, key settings.
extension DESFireClient {
    /// SelectApplication (`5A`); ``DESFireAID/picc`` for the PICC level. Ends any session.
    /// - Throws: ``DESFireError`` `.applicationNotFound` (`91 A0`) for an AID the card lacks.
    public func selectApplication(_ aid: DESFireAID) async throws {
        channel = nil
        let answer = try await exchange(0x5A, aid.wire, name: "SelectApplication \(aid)")
        guard answer.status == 0x00 else { throw DESFireError.status(answer.status, command: "SelectApplication \(aid)") }
        selected = aid
    }

    /// GetApplicationIDs (`6A`, PICC level).
    public func applicationIDs() async throws -> [DESFireAID] {
        let bytes = try await command("GetApplicationIDs", 0x6A, mode: managementMode)
        guard bytes.count % 3 == 0 else {
            throw DESFireError(.malformedResponse, "GetApplicationIDs answered \(bytes.count) bytes, not whole 3-byte AIDs")
        }
        return stride(from: 0, to: bytes.count, by: 3).map { DESFireAID(wire: bytes[$0..<$0 + 3]) }
    }

    /// CreateApplication (`CA`, PICC level): `keyCount` keys of `keyType` (all zero at version 0, or
    /// what ``setDefaultKey(_:version:)`` set),
    /// the key settings byte, and optionally an ISO DF identifier and DF name (both, for ISO access).
    /// - Throws: ``DESFireError`` `.invalidArgument` for 0 or more than 14 keys, a DF name without
    ///   an identifier or longer than 16 bytes; the card's `.duplicateError`, `.countError`, …
    public func createApplication(
        _ aid: DESFireAID, keySettings: UInt8 = 0x0F, keyCount: Int = 1, keyType: DESFireKeyType = .aes, isoFileIdentifier: UInt16? = nil,
        dfName: [UInt8]? = nil
    ) async throws {
        guard (1...14).contains(keyCount) else { throw DESFireError(.invalidArgument, "an application has 1 to 14 keys, not \(keyCount)") }
        guard aid != .picc else { throw DESFireError(.invalidArgument, "000000 is the PICC level, not an application") }
        var data = aid.wire + [keySettings, keyType.methodBits | UInt8(keyCount)]
        if let isoFileIdentifier {
            data[4] |= 0x20
            data += [UInt8(isoFileIdentifier & 0xFF), UInt8(isoFileIdentifier >> 8)]
            if let dfName {
                guard (1...16).contains(dfName.count) else { throw DESFireError(.invalidArgument, "a DF name has 1 to 16 bytes") }
                data += dfName
            }
        } else if dfName != nil {
            throw DESFireError(.invalidArgument, "a DF name needs an ISO file identifier")
        }
        _ = try await command("CreateApplication", 0xCA, data: data, mode: managementMode)
    }

    /// DeleteApplication (`DA`): under the PICC master key, or the application's own master key
    /// while it is selected — the card is then at the PICC level with no session.
    public func deleteApplication(_ aid: DESFireAID) async throws {
        _ = try await command("DeleteApplication", 0xDA, data: aid.wire, mode: managementMode)
        if selected == aid {
            channel = nil
            selected = .picc
        }
    }

    /// FormatPICC (`FC`, PICC level, PICC master key): deletes every application.
    public func formatPICC() async throws {
        _ = try await command("FormatPICC", 0xFC, mode: managementMode)
    }

    /// FreeMemory (`6E`): the bytes still free for files.
    public func freeMemory() async throws -> Int {
        let bytes = try await command("FreeMemory", 0x6E, mode: managementMode)
        guard bytes.count == 3 else { throw DESFireError(.malformedResponse, "FreeMemory answered \(bytes.count) bytes; 3 expected") }
        return Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
    }

    /// GetKeySettings (`45`) of the selected level.
    public func keySettings() async throws -> DESFireKeySettings {
        let bytes = try await command("GetKeySettings", 0x45, mode: managementMode)
        guard bytes.count == 2 else { throw DESFireError(.malformedResponse, "GetKeySettings answered \(bytes.count) bytes; 2 expected") }
        return DESFireKeySettings(
            rawValue: bytes[0], keyCount: Int(bytes[1] & 0x0F), keyType: bytes[1] >> 6, hasISOFileIdentifiers: bytes[1] & 0x20 != 0)
    }

    /// ChangeKeySettings (`54`): under the level's master key, encrypted.
    public func changeKeySettings(_ settings: UInt8) async throws {
        guard channel != nil else { throw DESFireError(.notAuthenticated, "ChangeKeySettings needs a session with the master key") }
        _ = try await command("ChangeKeySettings", 0x54, data: [settings], mode: .full)
    }
}

/// What SetConfiguration option `00` turns on (MIFARE DESFire EV1 data sheet, SetConfiguration).
/// Both are permanent on a real card: once set, no command clears them.
public struct DESFirePICCConfiguration: OptionSet, Sendable, Hashable {
    /// The byte as sent.
    public let rawValue: UInt8
    /// Flags from the byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: FormatPICC is refused (`91 9D`) from then on.
    public static let formatDisabled = DESFirePICCConfiguration(rawValue: 0x01)
    /// Bit 1: anticollision gives a random 4-byte ID (`08 xx xx xx`, ISO/IEC 14443-3 §6.5.4) each
    /// time the card enters the field; ``DESFireClient/cardUID()`` still reads the real UID.
    public static let randomID = DESFirePICCConfiguration(rawValue: 0x02)
}

extension DESFireClient {
    /// SetConfiguration (`5C`) option `00`, at the PICC level under the PICC master key: the
    /// option in plain, the configuration byte enciphered (full mode), as libfreefare's
    /// `mifare_desfire_set_configuration` lays it out. Irreversible on a real card.
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session; `.invalidArgument` for an
    ///   empty configuration (nothing to set); the card's `.authenticationError` (`91 AE`) when
    ///   the session is not the PICC master key's.
    public func setPICCConfiguration(_ configuration: DESFirePICCConfiguration) async throws {
        guard channel != nil else { throw DESFireError(.notAuthenticated, "SetConfiguration needs a session with the PICC master key") }
        guard !configuration.isEmpty else { throw DESFireError(.invalidArgument, "SetConfiguration with nothing to set") }
        _ = try await command("SetConfiguration", 0x5C, header: [0x00], data: [configuration.rawValue], mode: .full)
    }

    /// SetConfiguration option `01`: the key every key of an application created from then on
    /// starts as, instead of zeros at version `00`. `key` is 8 bytes (single DES, sent twice as
    /// the card holds it), 16 or 24, padded with zeros to the 24 bytes the card takes; each key type
    /// uses its first 16 or 24. DES-family keys read their version from their parity bits, so
    /// give `key` those bits set as `version` says (libfreefare's `mifare_desfire_key_set_version`)
    /// when the applications will be DES ones. Under the PICC master key, full mode.
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session; `.wrongKey` for another
    ///   key length; the card's `.authenticationError` when the session is not the PICC master key's.
    public func setDefaultKey(_ key: [UInt8], version: UInt8) async throws {
        guard channel != nil else { throw DESFireError(.notAuthenticated, "SetConfiguration needs a session with the PICC master key") }
        guard [8, 16, 24].contains(key.count) else {
            throw DESFireError(.wrongKey, "a default key has 8, 16 or 24 bytes, not \(key.count)")
        }
        let value = key.count == 8 ? key + key : key
        let data = value + [UInt8](repeating: 0, count: 24 - value.count) + [version]
        _ = try await command("SetConfiguration", 0x5C, header: [0x01], data: data, mode: .full)
    }

    /// SetConfiguration option `02`: the ATS the card answers RATS with from its next activation,
    /// TL first (ISO/IEC 14443-4 §5.2). Its length is only in TL, so an EV1 or legacy cryptogram
    /// ends with `CRC ‖ 80` (libfreefare's `mifare_desfire_set_ats`). A real card keeps the ATS
    /// until it is set again; one that announces a frame size the reader cannot take makes the
    /// card unreadable there. Under the PICC master key, full mode.
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session; `.invalidArgument` for
    ///   an ATS whose TL is not its length or longer than 20 bytes; the card's `.parameterError`
    ///   for one it refuses.
    public func setATS(_ ats: [UInt8]) async throws {
        guard channel != nil else { throw DESFireError(.notAuthenticated, "SetConfiguration needs a session with the PICC master key") }
        guard ats.count >= 2, ats.count <= 20, Int(ats[0]) == ats.count else {
            throw DESFireError(.invalidArgument, "an ATS has 2 to 20 bytes, the first (TL) its length")
        }
        _ = try await command("SetConfiguration", 0x5C, header: [0x02], data: ats, mode: .full, endMarker: true)
    }
}
