extension PIVApplet {
    /// The persistent state of a PIV applet. It holds the PIN, the PUK, the administration key
    /// and every private key in the clear: an image file is as secret as the card it stands for.
    ///
    /// ```json
    /// {"applet": "piv", "pin": "313233343536", "pinRetries": 3, "pinMaxRetries": 3,
    ///  "puk": "3132333435363738", "pukRetries": 3, "pukMaxRetries": 3,
    ///  "managementKeyAlgorithm": 10, "managementKey": "010203…",
    ///  "objects": [{"tag": "5fc102", "data": "3019d4e7…"}],
    ///  "keys": [{"slot": "9a", "algorithm": 17, "privateKey": "…", "pinPolicy": "once"}]}
    /// ```
    public struct Image: Codable, Sendable, Hashable {
        /// One data object.
        public struct ObjectImage: Codable, Sendable, Hashable {
            /// The object's tag, 1–3 bytes (`5fc102`).
            public var tag: HexBytes
            /// Its contents (the value of tag `53`).
            public var data: HexBytes

            /// An object image from its fields as given; ``PIVApplet/init(image:)`` checks them.
            public init(tag: HexBytes, data: HexBytes) {
                self.tag = tag
                self.data = data
            }
        }

        /// One private key, in the clear.
        public struct KeyImage: Codable, Sendable, Hashable {
            /// The key reference, one byte (`9a`, `9c`, `9d`, `9e`).
            public var slot: HexBytes
            /// SP 800-78-4 algorithm identifier (17 = ECC P-256).
            public var algorithm: Int
            /// The private scalar, 32 bytes.
            public var privateKey: HexBytes
            /// When the key may be used.
            public var pinPolicy: PINPolicy

            /// A key image from its fields as given; ``PIVApplet/init(image:)`` checks them.
            public init(slot: HexBytes, algorithm: Int, privateKey: HexBytes, pinPolicy: PINPolicy) {
                self.slot = slot
                self.algorithm = algorithm
                self.privateKey = privateKey
                self.pinPolicy = pinPolicy
            }
        }

        /// The PIN, 1–8 bytes without the `FF` padding (the default `123456` is `313233343536`).
        public var pin: HexBytes
        /// PIN tries left, 0 to `pinMaxRetries`.
        public var pinRetries: Int
        /// What a successful PIN check (or a reset with the PUK) restores the tries to, 1–15.
        public var pinMaxRetries: Int
        /// The PUK, 1–8 bytes without the `FF` padding.
        public var puk: HexBytes
        /// PUK tries left, 0 to `pukMaxRetries`.
        public var pukRetries: Int
        /// What a successful PUK check restores the tries to, 1–15.
        public var pukMaxRetries: Int
        /// SP 800-78-4 identifier: 8 (AES-128), 10 (AES-192), 12 (AES-256).
        public var managementKeyAlgorithm: Int
        /// The administration key: 16, 24 or 32 bytes as `managementKeyAlgorithm` says.
        public var managementKey: HexBytes
        /// The data objects, sorted by tag (the discovery object is built by the applet, not stored).
        public var objects: [ObjectImage]
        /// The private keys, sorted by slot, at most one per slot.
        public var keys: [KeyImage]
    }

    /// The applet's persistent state; security status (PIN verified, administration key authenticated) is transient
    /// and not kept. It holds the PIN, PUK, administration key and private keys.
    public var image: Image {
        Image(
            pin: HexBytes(pin), pinRetries: pinRetries, pinMaxRetries: pinMaxRetries,
            puk: HexBytes(puk), pukRetries: pukRetries, pukMaxRetries: pukMaxRetries,
            managementKeyAlgorithm: Int(managementKeyAlgorithm), managementKey: HexBytes(managementKey),
            objects: objects.keys.sorted().map { tag in
                Image.ObjectImage(tag: HexBytes(PIVTLV.encodeTag(tag)), data: HexBytes(objects[tag] ?? []))
            },
            keys: keys.keys.sorted().compactMap { slot in
                guard let key = keys[slot] else { return nil }
                return Image.KeyImage(
                    slot: HexBytes([slot]), algorithm: Int(key.algorithm), privateKey: HexBytes(key.privateKey), pinPolicy: key.pinPolicy)
            }
        )
    }

    /// Rebuilds an applet from its image.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field (`pin`, `keys[0].privateKey`, …).
    public init(image: Image) throws(TagImageError) {
        func check(_ condition: Bool, _ field: String, _ reason: String) throws(TagImageError) {
            if !condition { throw TagImageError(.invalidValue, field: field, reason) }
        }
        try check((1...8).contains(image.pin.bytes.count) && !image.pin.bytes.contains(0xFF), "pin", "a PIN has 1–8 bytes and no FF")
        try check((1...8).contains(image.puk.bytes.count) && !image.puk.bytes.contains(0xFF), "puk", "a PUK has 1–8 bytes and no FF")
        try check((1...15).contains(image.pinMaxRetries), "pinMaxRetries", "must be 1–15")
        try check((0...image.pinMaxRetries).contains(image.pinRetries), "pinRetries", "must be 0–pinMaxRetries")
        try check((1...15).contains(image.pukMaxRetries), "pukMaxRetries", "must be 1–15")
        try check((0...image.pukMaxRetries).contains(image.pukRetries), "pukRetries", "must be 0–pukMaxRetries")
        let algorithm = UInt8(truncatingIfNeeded: image.managementKeyAlgorithm)
        guard (0...255).contains(image.managementKeyAlgorithm), let length = Self.managementKeyLength(algorithm) else {
            throw TagImageError(
                .invalidValue, field: "managementKeyAlgorithm", "8 (AES-128), 10 (AES-192) or 12 (AES-256); 3DES is not supported")
        }
        try check(image.managementKey.bytes.count == length, "managementKey", "this algorithm takes a \(length)-byte key")
        var objects: [UInt32: [UInt8]] = [:]
        for (index, object) in image.objects.enumerated() {
            let tagBytes = object.tag.bytes
            try check((1...3).contains(tagBytes.count), "objects[\(index)].tag", "a tag has 1–3 bytes")
            let tag = tagBytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            try check(Self.isObjectTag(tag) && tag != PIVObjectTag.discovery, "objects[\(index)].tag", "not a PIV data object tag")
            try check(object.data.bytes.count <= Self.maxObjectSize, "objects[\(index)].data", "longer than \(Self.maxObjectSize) bytes")
            try check(objects[tag] == nil, "objects[\(index)].tag", "a second object with this tag")
            objects[tag] = object.data.bytes
        }
        var keys: [UInt8: KeySlot] = [:]
        for (index, key) in image.keys.enumerated() {
            try check(
                key.slot.bytes.count == 1 && Self.keySlots.contains(key.slot.bytes[0]), "keys[\(index)].slot", "one of 9a, 9c, 9d, 9e")
            try check(key.algorithm == Int(Self.eccP256), "keys[\(index)].algorithm", "only 17 (ECC P-256)")
            try check(key.privateKey.bytes.count == 32, "keys[\(index)].privateKey", "a P-256 scalar has 32 bytes")
            let slot = key.slot.bytes[0]
            try check(keys[slot] == nil, "keys[\(index)].slot", "a second key in this slot")
            keys[slot] = KeySlot(algorithm: Self.eccP256, privateKey: key.privateKey.bytes, pinPolicy: key.pinPolicy)
        }
        pin = image.pin.bytes
        pinRetries = image.pinRetries
        pinMaxRetries = image.pinMaxRetries
        puk = image.puk.bytes
        pukRetries = image.pukRetries
        pukMaxRetries = image.pukMaxRetries
        managementKeyAlgorithm = algorithm
        managementKey = image.managementKey.bytes
        self.objects = objects
        self.keys = keys
    }

    /// The image wrapped as an ISO 7816 applet image (`piv`).
    public var appletImage: ISO7816AppletImage? { .piv(image) }
}
