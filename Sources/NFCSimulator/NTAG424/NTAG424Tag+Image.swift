extension NTAG424Tag {
    /// An NTAG 424 DNA's non-volatile state as saved in a tag image. It holds the tag's AES keys:
    /// image files are written private (`0600`).
    public struct Image: Codable, Sendable, Hashable {
        /// One key.
        public struct KeyImage: Codable, Sendable, Hashable {
            /// 16 bytes.
            public var key: HexBytes
            /// Its version.
            public var version: UInt8
        }

        /// One file.
        public struct FileImage: Codable, Sendable, Hashable {
            /// `1`, `2` or `3`.
            public var number: UInt8
            /// Communication mode bits: `0` plain, `1` MAC, `3` full.
            public var mode: UInt8
            /// The access rights as GetFileSettings sends them (`E0EE`: read, write, read-write free, change with key 0).
            public var access: HexBytes
            /// The SDM settings as GetFileSettings sends them after the size; absent when SDM is off.
            public var sdm: HexBytes?
            /// SDMReadCtr.
            public var readCounter: UInt32
            /// The file's bytes.
            public var contents: HexBytes
        }

        /// 7 bytes.
        public var uid: HexBytes
        /// Keys 0–4.
        public var keys: [KeyImage]
        /// Files 1–3.
        public var files: [FileImage]
        /// The 56-byte originality signature; absent: the simulator's test key's signature of the UID.
        public var signature: HexBytes?
        /// `true` once SetConfiguration has switched the tag to LRP mode; absent: AES mode.
        public var lrp: Bool?
    }

    /// The tag's state.
    public var image: Image {
        Image(
            uid: HexBytes(uid), keys: keys.map { Image.KeyImage(key: HexBytes($0.value), version: $0.version) },
            files: files.map { file in
                Image.FileImage(
                    number: file.number, mode: file.mode.rawValue, access: HexBytes(file.access.bytes),
                    sdm: file.sdm.map { HexBytes($0.bytes) },
                    readCounter: file.readCounter, contents: HexBytes(file.contents))
            }, signature: originalitySignature.map(HexBytes.init), lrp: lrpMode ? true : nil)
    }

    /// Rebuilds a tag from an image, powered off.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field: a UID that is not 7 bytes,
    ///   a signature that is not 56 bytes, not five 16-byte keys, files other than 1–3 at their sizes (32, 256, 128), an access
    ///   condition or SDM setting the chip cannot hold.
    public init(image: Image) throws(TagImageError) {
        guard image.uid.bytes.count == 7 else {
            throw TagImageError(.invalidValue, field: "uid", "an NTAG 424 DNA UID has 7 bytes, not \(image.uid.bytes.count)")
        }
        self.init(uid: image.uid.bytes)
        if let signature = image.signature?.bytes {
            guard signature.count == 56 else {
                throw TagImageError(.invalidValue, field: "signature", "an originality signature has 56 bytes, not \(signature.count)")
            }
            originalitySignature = signature
        }
        lrpMode = image.lrp ?? false
        guard image.keys.count == 5 else {
            throw TagImageError(.invalidValue, field: "keys", "NTAG 424 DNA has 5 keys, not \(image.keys.count)")
        }
        for (index, key) in image.keys.enumerated() {
            guard key.key.bytes.count == 16 else {
                throw TagImageError(.invalidValue, field: "keys[\(index)].key", "an AES-128 key has 16 bytes, not \(key.key.bytes.count)")
            }
            keys[index] = Key(value: key.key.bytes, version: key.version)
        }
        guard image.files.map(\.number) == [1, 2, 3] else {
            throw TagImageError(.invalidValue, field: "files", "NTAG 424 DNA has files 1, 2 and 3, in that order")
        }
        for (index, file) in image.files.enumerated() {
            let field = "files[\(index)]"
            guard file.contents.bytes.count == files[index].contents.count else {
                throw TagImageError(
                    .invalidValue, field: field + ".contents",
                    "file \(file.number) has \(files[index].contents.count) bytes, not \(file.contents.bytes.count)")
            }
            guard [0, 1, 3].contains(file.mode) else {
                throw TagImageError(.invalidValue, field: field + ".mode", "the mode is 0 (plain), 1 (MAC) or 3 (full), not \(file.mode)")
            }
            guard let access = NTAG424File.AccessRights(bytes: file.access.bytes[...]) else {
                throw TagImageError(.invalidValue, field: field + ".access", "two bytes of conditions 0-4, E or F")
            }
            var sdm: NTAG424SDM?
            if let settings = file.sdm {
                guard file.number == 2,
                    let parsed = NTAG424SDM(parsing: settings.bytes[...], fileSize: files[index].contents.count, lrp: lrpMode)
                else {
                    throw TagImageError(
                        .invalidValue, field: field + ".sdm", "not SDM settings the NDEF file can hold (data sheet §10.7.1)")
                }
                sdm = parsed
            }
            guard file.readCounter <= 0xFF_FFFF else {
                throw TagImageError(.invalidValue, field: field + ".readCounter", "SDMReadCtr has 24 bits")
            }
            files[index].mode = NTAG424File.CommunicationMode(bits: file.mode)
            files[index].access = access
            files[index].sdm = sdm
            files[index].readCounter = file.readCounter
            files[index].contents = file.contents.bytes
        }
    }
}
