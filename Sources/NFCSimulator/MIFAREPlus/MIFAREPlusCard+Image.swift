import NFCBytes

extension MIFAREPlusCard {
    /// A MIFARE Plus's non-volatile state as saved in a tag image: the level, every block and
    /// every AES key. It holds keys: image files are written private (`0600`).
    public struct Image: Codable, Sendable, Hashable {
        /// Generation and size.
        public var model: MIFAREPlusModel
        /// 7 bytes.
        public var uid: HexBytes
        /// 0, 1 or 3.
        public var securityLevel: Int
        /// Every block, 16 bytes each (128 or 256).
        public var blocks: [HexBytes]
        /// AES keys and configuration blocks by address, four hex digits (`4000`, `9000`, `B000`…).
        public var keys: [String: HexBytes]
        /// The addresses WritePerso wrote, at SL0.
        public var personalized: [String]?
    }

    /// The card's state.
    public var image: Image {
        Image(
            model: model, uid: HexBytes(uid), securityLevel: securityLevel.rawValue, blocks: blocks.map(HexBytes.init),
            keys: Dictionary(uniqueKeysWithValues: keys.map { (Self.address($0.key), HexBytes($0.value)) }),
            personalized: securityLevel == .sl0 ? personalized.sorted().map(Self.address) : nil)
    }

    private static func address(_ value: UInt16) -> String {
        Hex.encode([UInt8(value >> 8), UInt8(value & 0xFF)], uppercase: true)
    }

    /// Rebuilds a card from an image, powered off.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field: a UID that is not 7 bytes, a
    ///   level other than 0, 1 or 3, a block count or block that does not fit the model, a key
    ///   address the model lacks or a key that is not 16 bytes.
    public init(image: Image) throws(TagImageError) {
        guard image.uid.bytes.count == 7 else {
            throw TagImageError(.invalidValue, field: "uid", "a MIFARE Plus UID has 7 bytes here, not \(image.uid.bytes.count)")
        }
        guard let level = SecurityLevel(rawValue: image.securityLevel) else {
            throw TagImageError(.invalidValue, field: "securityLevel", "the security level is 0, 1 or 3, not \(image.securityLevel)")
        }
        guard image.model.kilobytes == 2 || image.model.kilobytes == 4 else {
            throw TagImageError(.invalidValue, field: "model.kilobytes", "a MIFARE Plus has 2 or 4 KB, not \(image.model.kilobytes)")
        }
        self.init(model: image.model, uid: image.uid.bytes, securityLevel: level)
        guard image.blocks.count == model.blockCount else {
            throw TagImageError(
                .invalidValue, field: "blocks", "a \(model.kilobytes) KB card has \(model.blockCount) blocks, not \(image.blocks.count)")
        }
        for (index, block) in image.blocks.enumerated() {
            guard block.bytes.count == 16 else {
                throw TagImageError(.invalidValue, field: "blocks[\(index)]", "a block has 16 bytes, not \(block.bytes.count)")
            }
        }
        blocks = image.blocks.map(\.bytes)
        let known = Set(Self.keyAddresses(model))
        var keys: [UInt16: [UInt8]] = [:]
        for (name, value) in image.keys {
            guard let bytes = try? Hex.decode(name), bytes.count == 2 else {
                throw TagImageError(.invalidValue, field: "keys", "\"\(name)\" is not an address of four hex digits")
            }
            let address = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            guard known.contains(address) else {
                throw TagImageError(
                    .invalidValue, field: "keys.\(name)", "a \(model.kilobytes) KB MIFARE Plus has no key or configuration block \(name)")
            }
            guard value.bytes.count == 16 else {
                throw TagImageError(
                    .invalidValue, field: "keys.\(name)", "an AES key or configuration block has 16 bytes, not \(value.bytes.count)")
            }
            keys[address] = value.bytes
        }
        for address in known where keys[address] == nil { keys[address] = Self.defaultKey }
        self.keys = keys
        if level == .sl0 {
            var written: Set<UInt16> = []
            for name in image.personalized ?? [] {
                guard let bytes = try? Hex.decode(name), bytes.count == 2 else {
                    throw TagImageError(.invalidValue, field: "personalized", "\"\(name)\" is not an address of four hex digits")
                }
                written.insert(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
            }
            personalized = written
        }
    }
}
