import NFCBytes
import NFCDESFire
import NFCJSON

/// What a Read_Sig (or a Type 2 chip's READ_SIG) answer says about a chip, as `nfc ntag424 info`,
/// `nfc desfire info` and `nfc dump -o` print it.
struct OriginalityVerdict {
    /// Read_Sig's answer; `nil` when the chip refused it or has none.
    var signature: [UInt8]?
    /// The UID it signs, when known (a random ID hides it until GetCardUID).
    var uid: [UInt8]?

    /// Read_Sig's answer through `read`, or `nil` when the card refuses the command (a chip
    /// without a signature answers a status); anything else — a tag taken away, an answer that
    /// does not parse — is thrown, not shown as a refusal.
    static func signature(_ read: () async throws -> [UInt8]) async throws -> [UInt8]? {
        do {
            return try await read()
        } catch let error as DESFireError where error.status != nil {
            return nil
        }
    }

    /// Whose key made ``signature`` over ``uid``.
    var signer: OriginalityKey? {
        guard let signature, let uid else { return nil }
        return OriginalitySignature.signer(of: signature, uid: uid)
    }

    /// One line after "originality: ".
    var text: String {
        guard signature != nil else { return "not answered (the chip refused Read_Sig or has no signature)" }
        guard uid != nil else { return "not checked: the UID is hidden (--key reads it with GetCardUID)" }
        guard let signer else { return "INVALID: no known key signed this UID (not a genuine NXP chip, or a family not listed)" }
        if signer.isTestKey { return "signed with the \(signer.name) test key: a virtual card, not a genuine NXP chip" }
        return "valid, signed with NXP's \(signer.name) key"
    }

    /// `{"signature", "valid", "signer", "testKey"}`.
    var json: JSONValue {
        let signer = signer
        return .object([
            ("signature", signature.map { .string(Hex.encode($0)) } ?? .null), ("valid", .bool(signer != nil)),
            ("signer", signer.map { .string($0.name) } ?? .null), ("testKey", .bool(signer?.isTestKey ?? false)),
        ])
    }
}
