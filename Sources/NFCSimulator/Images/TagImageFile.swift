import Foundation
import NFCJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON tag image file: a versioned envelope around one tag's ``TagImageRepresentable/Image``.
///
/// ```json
/// { "format": "opencorenfc-tag-image", "version": 1, "type": "ntag213", "tag": { … } }
/// ```
/// `type` names the tag kind (the names `nfc tag new` takes); `tag` is that kind's image. The
/// format is documented in docs/tag-images.md. Loading checks everything and answers a
/// ``TagImageError`` naming the field; saving is atomic (temporary file, fsync, rename).
public enum TagImageFile {
    /// The value of the `format` field.
    public static let format = "opencorenfc-tag-image"
    /// The newest image version this build writes and reads.
    public static let version = 1
    /// The largest image file accepted (a 32 KB Type 4 tag is about 70 KB of JSON).
    public static let maximumFileSize = 4 << 20

    /// Decodes an image: strict JSON (`JSONText`), then the envelope and the tag through
    /// `JSONNodeDecoder`, so every error names the field path and the line, an out-of-range
    /// number is refused rather than wrapped, and an unknown field (a misspelling) is an error.
    public static func decode(_ bytes: [UInt8]) throws(TagImageError) -> any VirtualTag {
        guard bytes.count <= maximumFileSize else {
            throw TagImageError(.tooLarge, "\(bytes.count) bytes is larger than any tag image (\(maximumFileSize) at most)")
        }
        do {
            return try JSONNodeDecoder().decode(Envelope.self, from: bytes).tag
        } catch let error as TagImageError {
            throw error
        } catch let error as JSONError {
            let place = error.location.map { " (\($0))" } ?? ""
            throw TagImageError(.malformed, field: error.path, offset: error.location?.offset, error.reason + place)
        } catch {
            throw TagImageError(.malformed, "\(error)")
        }
    }

    /// Encodes a tag as an image (pretty-printed JSON, keys sorted so the same tag always gives the same bytes).
    public static func encode(_ tag: any VirtualTag) throws(TagImageError) -> [UInt8] {
        guard TagImageKinds.all.contains(where: { $0.typeName(tag) != nil }) else {
            throw TagImageError(.unknownType, "\(type(of: tag)) has no image format")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(Envelope(tag: tag))
            data.append(0x0A)
            return [UInt8](data)
        } catch {
            throw TagImageError(.malformed, "cannot encode \(type(of: tag)): \(error)")
        }
    }

    /// Loads the image at `path` without locking it (a save replaces the file whole, so a reader
    /// sees the old or the new image). Commands that may save it back use `TagImageStore`.
    public static func load(_ path: String) throws(TagImageError) -> any VirtualTag {
        try decode(RegularFile.read(path, limit: maximumFileSize))
    }

    /// Saves a tag's image at `path` atomically, replacing what is there: a crash mid-save leaves
    /// the old file intact. An existing file keeps its mode and owner; a new one holding secrets
    /// is created `0600`. This takes no lock: a command that loaded the image uses
    /// `TagImageStore/Handle/save(_:)`, which does.
    public static func save(_ tag: any VirtualTag, to path: String) throws(TagImageError) {
        let bytes = try encode(tag)
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            try AtomicFile.write(bytes, to: path, mode: .exactly(status.st_mode & 0o7777), owner: (status.st_uid, status.st_gid))
        } else {
            try AtomicFile.write(bytes, to: path, mode: holdsSecrets(tag) ? .exactly(0o600) : .umask)
        }
    }

    /// Whether the tag holds secrets an image must not show to other users: private keys, PINs
    /// and OATH secrets (an ISO 7816 card with an OATH, PIV or FIDO applet), a Type 2 password, or
    /// an NTAG 424 DNA's, a DESFire's or a MIFARE Plus's keys (always: the factory keys are soon
    /// replaced, and a file keeps its mode).
    public static func holdsSecrets(_ tag: any VirtualTag) -> Bool {
        if tag is NTAG424Tag || tag is DESFireCard || tag is MIFAREPlusCard { return true }
        if let card = tag as? ISO7816Card {
            return card.image.applets.contains { applet in
                switch applet {
                case .ndef, .wallet: false  // a Wallet stores merchants' public keys only
                case .oath, .piv, .fido, .passport: true  // keys and PINs; a holder's personal data
                }
            }
        }
        if let type2 = tag as? Type2Tag {
            let image = type2.image
            let page = image.model.passwordPage
            guard page >= 0, (page + 1) * 4 <= image.memory.bytes.count else { return false }
            return Array(image.memory.bytes[(page * 4)..<(page * 4 + 4)]) != [0xFF, 0xFF, 0xFF, 0xFF]
        }
        return false
    }

    enum Key: String, CodingKey {
        case format, version, type, tag
    }

    struct Envelope: Codable {
        let tag: any VirtualTag

        init(tag: any VirtualTag) { self.tag = tag }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let format = try container.decode(String.self, forKey: .format)
            guard format == TagImageFile.format else {
                throw TagImageError(.malformed, field: "format", "\"\(format)\" is not \"\(TagImageFile.format)\"")
            }
            let version = try container.decode(Int.self, forKey: .version)
            guard version == TagImageFile.version else {
                throw TagImageError(
                    .unsupportedVersion, field: "version", "version \(version); this build reads version \(TagImageFile.version)")
            }
            let typeName = try container.decode(String.self, forKey: .type)
            guard let kind = TagImageKinds.all.first(where: { $0.typeNames.contains(typeName) }) else {
                let known = TagImageKinds.all.flatMap(\.typeNames).joined(separator: ", ")
                throw TagImageError(.unknownType, field: "type", "\"\(typeName)\" is not a tag type (known: \(known))")
            }
            let tag: any VirtualTag
            do {
                tag = try kind.decode(container)
            } catch let error as TagImageError {
                throw TagImageError(
                    error.code, field: error.field.isEmpty ? "tag" : "tag.\(error.field)", offset: error.offset, error.reason)
            }
            guard kind.typeName(tag) == typeName else {
                throw TagImageError(
                    .invalidValue, field: "type", "\"\(typeName)\" but the tag describes a \(kind.typeName(tag) ?? "different tag")")
            }
            self.tag = tag
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            guard let kind = TagImageKinds.all.first(where: { $0.typeName(tag) != nil }), let name = kind.typeName(tag) else {
                throw TagImageError(.unknownType, "\(type(of: tag)) has no image format")
            }
            try container.encode(TagImageFile.format, forKey: .format)
            try container.encode(TagImageFile.version, forKey: .version)
            try container.encode(name, forKey: .type)
            try kind.encode(tag, &container)
        }
    }
}

/// One kind of tag that tag image files can hold: its type names and how to code it.
public struct TagImageKind: Sendable {
    /// The `type` values this kind answers to.
    public let typeNames: [String]
    let decode: @Sendable (KeyedDecodingContainer<TagImageFile.Key>) throws -> any VirtualTag
    let encode: @Sendable (any VirtualTag, inout KeyedEncodingContainer<TagImageFile.Key>) throws -> Void
    /// The `type` value of a tag of this kind, `nil` for tags of other kinds.
    let typeName: @Sendable (any VirtualTag) -> String?

    /// A kind for one image-representable tag type.
    /// - Parameter name: the `type` value of a given tag (e.g. from its model).
    init<T: TagImageRepresentable>(_ type: T.Type, typeNames: [String], name: @escaping @Sendable (T) -> String) {
        self.typeNames = typeNames
        self.decode = { container in
            let image = try container.decode(T.Image.self, forKey: .tag)
            return try T(image: image)
        }
        self.encode = { tag, container in
            guard let tag = tag as? T else { return }
            try container.encode(tag.image, forKey: .tag)
        }
        self.typeName = { tag in (tag as? T).map(name) }
    }
}
