import NDEF

/// A URL with SUN placeholders, turned into what an NTAG 424 DNA needs to mirror it: the NDEF
/// file (NLEN and one URI record) and the SDM settings whose offsets point at the placeholders.
///
/// Placeholders (NT4H2421Gx §9.3 and AN12196 §4): `{picc}` the encrypted PICC data (32
/// characters, UID and counter under the SDM meta read key; 48 on a tag in LRP mode, whose PICC
/// data is PICCRand ‖ one LRICB block, §9.3.4.2), `{uid}` and `{ctr}` the UID (14) and
/// counter (6) in the clear, `{enc:TEXT}` file data the tag encrypts on every read (TEXT of 16 or
/// 32 ASCII characters, held in the file and mirrored as twice as many hex characters), `{mac}`
/// SDMMAC (16 characters). `{picc}` cannot be mixed with `{uid}`/`{ctr}`. SDMMAC covers the
/// mirrored text from `{enc:…}` up to the MAC when file data is encrypted, else nothing
/// (SDMMACInputOffset = SDMMACOffset), the layouts `nfc sun verify` and `SUNMessage` read.
public struct NTAG424SUNTemplate: Sendable, Hashable {
    /// The NDEF file's bytes from offset 0: NLEN, then the message.
    public let ndefFile: [UInt8]
    /// The SDM settings (with SDMMetaRead and SDMFileRead as given).
    public let sdm: NTAG424SDMSettings

    /// Builds the file and settings.
    /// - Parameters:
    ///   - url: the URL with placeholders; it must hold `{mac}`.
    ///   - metaReadKey: the key that encrypts `{picc}` (unused with plain mirrors).
    ///   - fileReadKey: the key SDMMAC and `{enc:…}` derive from.
    ///   - counterRetrieval: who may read the counter with GetFileCounters.
    ///   - fileSize: the NDEF file's size (256 on NTAG 424 DNA).
    ///   - lrp: lay `{picc}` out for a tag in LRP mode (48 characters).
    /// - Throws: ``DESFireError`` `.invalidArgument` naming the problem: an unknown or repeated
    ///   placeholder, no `{mac}`, PICC data both encrypted and plain, encrypted data without the
    ///   UID and counter, a URL too long for the file.
    public init(
        url: String, metaReadKey: UInt8 = 2, fileReadKey: UInt8 = 1, counterRetrieval: NTAG424Access = .never, fileSize: Int = 256,
        lrp: Bool = false
    ) throws(DESFireError) {
        guard metaReadKey <= 4, fileReadKey <= 4 else { throw DESFireError(.invalidArgument, "SDM keys are numbered 0-4") }
        var text: [UInt8] = []
        var positions: [String: (offset: Int, length: Int)] = [:]
        var encryptedText: [UInt8] = []
        var rest = Substring(url)
        while let open = rest.firstIndex(of: "{") {
            text += Array(rest[..<open].utf8)
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw DESFireError(.invalidArgument, "a placeholder opened at \"\(rest[open...].prefix(12))\" is not closed")
            }
            let inside = String(rest[rest.index(after: open)..<close])
            let name = String(inside.prefix { $0 != ":" })
            let length: Int
            switch name {
            case "picc": length = lrp ? 48 : 32
            case "uid": length = 14
            case "ctr": length = 6
            case "mac": length = 16
            case "enc":
                encryptedText = Array(inside.dropFirst(4).utf8)
                guard [16, 32].contains(encryptedText.count), encryptedText.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                    throw DESFireError(
                        .invalidArgument, "{enc:TEXT} takes 16 or 32 printable ASCII characters, not \(encryptedText.count) bytes")
                }
                length = encryptedText.count * 2
            default:
                throw DESFireError(.invalidArgument, "unknown placeholder {\(inside)}: use {picc}, {uid}, {ctr}, {enc:TEXT}, {mac}")
            }
            guard positions[name] == nil else { throw DESFireError(.invalidArgument, "{\(name)} appears twice") }
            positions[name] = (text.count, length)
            text +=
                name == "enc"
                ? encryptedText + Array(repeating: UInt8(ascii: "0"), count: length - encryptedText.count)
                : Array(repeating: UInt8(ascii: "0"), count: length)
            rest = rest[rest.index(after: close)...]
        }
        text += Array(rest.utf8)
        guard positions["mac"] != nil else {
            throw DESFireError(.invalidArgument, "the URL has no {mac}: without SDMMAC nothing can be verified")
        }
        let plain = positions["uid"] != nil || positions["ctr"] != nil
        guard !(plain && positions["picc"] != nil) else {
            throw DESFireError(.invalidArgument, "{picc} (encrypted) and {uid}/{ctr} (in the clear) cannot be mixed")
        }
        guard positions["enc"] == nil || positions["picc"] != nil || (positions["uid"] != nil && positions["ctr"] != nil) else {
            throw DESFireError(.invalidArgument, "{enc:…} needs the UID and counter mirrored: add {picc}, or {uid} and {ctr}")
        }
        let placeholderText = String(decoding: text, as: UTF8.self)
        let message: [UInt8]
        do {
            message = try NDEFMessage(URIRecord(uri: placeholderText).record()).encoded()
        } catch {
            throw DESFireError(.invalidArgument, "the URL cannot be an NDEF URI record: \(error)")
        }
        guard message.count + 2 <= fileSize else {
            throw DESFireError(.invalidArgument, "the NDEF message takes \(message.count + 2) bytes; the file has \(fileSize)")
        }
        // The URI's text ends the message: placeholder i sits (text.count - i) bytes before its end.
        let base = 2 + message.count - text.count
        func offset(_ name: String) -> Int? { positions[name].map { base + $0.offset } }
        ndefFile = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        let mac = base + positions["mac"]!.offset
        sdm = NTAG424SDMSettings(
            mirrorsUID: positions["picc"] != nil || positions["uid"] != nil,
            mirrorsCounter: positions["picc"] != nil || positions["ctr"] != nil,
            counterRetrieval: counterRetrieval, metaRead: plain ? .free : .key(metaReadKey), fileRead: .key(fileReadKey),
            uidOffset: offset("uid"), counterOffset: offset("ctr") ?? (plain ? 0xFF_FFFF : nil), piccDataOffset: offset("picc"),
            macInputOffset: offset("enc") ?? mac, encryptedDataOffset: offset("enc"), encryptedDataLength: positions["enc"]?.length,
            macOffset: mac)
    }
}
