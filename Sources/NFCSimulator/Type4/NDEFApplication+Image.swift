extension NDEFApplication {
    /// The persistent state of an NDEF application: AID, buffer limits and files.
    ///
    /// ```json
    /// {"applet": "ndef", "aid": "d2760000850101", "maxReadLength": 255, "maxUpdateLength": 255,
    ///  "offsetDataObjects": false,
    ///  "files": [{"id": "e103", "readAccess": "always", "writeAccess": "never", "data": "000f20…"},
    ///            {"id": "e104", "readAccess": "always", "writeAccess": "always", "data": "0000…"}]}
    /// ```
    public struct Image: Codable, Sendable, Hashable {
        /// One elementary file.
        public struct FileImage: Codable, Sendable, Hashable {
            /// The 2-byte file identifier.
            public var id: HexBytes
            /// Who may read the file: `always` or `never`.
            public var readAccess: Access
            /// Who may write the file: `always` or `never`.
            public var writeAccess: Access
            /// The whole file (its size is the file's size).
            public var data: HexBytes

            /// A file image from its fields as given; ``NDEFApplication/init(image:)`` checks them.
            public init(id: HexBytes, readAccess: Access, writeAccess: Access, data: HexBytes) {
                self.id = id
                self.readAccess = readAccess
                self.writeAccess = writeAccess
                self.data = data
            }
        }

        /// The application identifier, 5–16 bytes.
        public var aid: HexBytes
        /// The most data one READ BINARY returns.
        public var maxReadLength: Int
        /// The most data one UPDATE BINARY takes.
        public var maxUpdateLength: Int
        /// Whether `B1`/`D7` with offset data objects are supported.
        public var offsetDataObjects: Bool
        /// The files, in order.
        public var files: [FileImage]

        /// An image from its fields as given; ``NDEFApplication/init(image:)`` checks them.
        public init(aid: HexBytes, maxReadLength: Int, maxUpdateLength: Int, offsetDataObjects: Bool, files: [FileImage]) {
            self.aid = aid
            self.maxReadLength = maxReadLength
            self.maxUpdateLength = maxUpdateLength
            self.offsetDataObjects = offsetDataObjects
            self.files = files
        }
    }

    /// The largest file: the most a 3-byte offset data object addresses.
    public static let maxFileSize = 0xFF_FFFF

    /// The application's persistent state (the current EF is transient and not saved).
    public var image: Image {
        Image(
            aid: HexBytes(aid), maxReadLength: maxReadLength, maxUpdateLength: maxUpdateLength,
            offsetDataObjects: offsetDataObjects,
            files: files.map { file in
                Image.FileImage(
                    id: HexBytes([UInt8(truncatingIfNeeded: file.id >> 8), UInt8(truncatingIfNeeded: file.id)]),
                    readAccess: file.readAccess, writeAccess: file.writeAccess, data: HexBytes(file.contents)
                )
            }
        )
    }

    /// Rebuilds an application from its image.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field (`aid`, `files[1].id`, …).
    public init(image: Image) throws(TagImageError) {
        guard (5...16).contains(image.aid.bytes.count) else {
            throw TagImageError(.invalidValue, field: "aid", "an AID has 5–16 bytes, not \(image.aid.bytes.count)")
        }
        guard (1...65_536).contains(image.maxReadLength) else {
            throw TagImageError(.invalidValue, field: "maxReadLength", "must be 1–65 536")
        }
        guard (1...65_535).contains(image.maxUpdateLength) else {
            throw TagImageError(.invalidValue, field: "maxUpdateLength", "must be 1–65 535")
        }
        var files: [File] = []
        for (index, fileImage) in image.files.enumerated() {
            let idBytes = fileImage.id.bytes
            guard idBytes.count == 2 else {
                throw TagImageError(.invalidValue, field: "files[\(index)].id", "a file identifier has 2 bytes")
            }
            let id = UInt16(idBytes[0]) << 8 | UInt16(idBytes[1])
            guard ![0x3F00, 0x3FFF, 0xFFFF].contains(id) else {
                throw TagImageError(.invalidValue, field: "files[\(index)].id", "3F00, 3FFF and FFFF are reserved by ISO/IEC 7816-4")
            }
            guard !files.contains(where: { $0.id == id }) else {
                throw TagImageError(.invalidValue, field: "files[\(index)].id", "another file has the same identifier")
            }
            guard (1...Self.maxFileSize).contains(fileImage.data.bytes.count) else {
                throw TagImageError(.invalidValue, field: "files[\(index)].data", "a file holds 1–\(Self.maxFileSize) bytes")
            }
            files.append(File(id: id, contents: fileImage.data.bytes, readAccess: fileImage.readAccess, writeAccess: fileImage.writeAccess))
        }
        self.init(
            aid: image.aid.bytes, files: files, maxReadLength: image.maxReadLength,
            maxUpdateLength: image.maxUpdateLength, offsetDataObjects: image.offsetDataObjects
        )
    }
}
