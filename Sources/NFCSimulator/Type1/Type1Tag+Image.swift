extension Type1Tag {
    /// A Type 1 chip's non-volatile state as saved in a tag image: the model and the whole
    /// memory (the UID is its first 7 bytes). Whether the tag is Ready is volatile and not saved.
    public struct Image: Codable, Sendable, Hashable {
        /// The chip.
        public var model: Model
        /// The whole memory, `model.blockCount` × 8 bytes, block 00h first.
        public var memory: HexBytes

        /// An image from its fields as given; ``Type1Tag/init(image:)`` checks them.
        public init(model: Model, memory: HexBytes) {
            self.model = model
            self.memory = memory
        }
    }

    /// The chip's memory.
    public var image: Image { Image(model: model, memory: HexBytes(memory)) }

    /// Rebuilds a chip from an image, powered off.
    /// - Throws: ``TagImageError`` `.invalidValue` at `memory` when it is not the model's size.
    public init(image: Image) throws(TagImageError) {
        let memory = image.memory.bytes
        guard memory.count == image.model.memorySize else {
            throw TagImageError(
                .invalidValue, field: "memory", "\(image.model) has \(image.model.memorySize) bytes of memory, the image \(memory.count)")
        }
        self.init(model: image.model, memory: memory)
    }
}
