extension OATHApplet {
    /// The persistent state of an OATH applet.
    ///
    /// **An image holds secrets**: the credentials' HMAC keys and the access key are stored in
    /// the clear as hex, so anyone who reads the file can make every code. Keep images of cards
    /// with real accounts private.
    ///
    /// ```json
    /// {"applet": "oath", "aid": "a0000005272101", "version": "050301", "salt": "8f1c…",
    ///  "capacity": 32, "accessKey": {"algorithm": "sha1", "key": "…"},
    ///  "credentials": [{"name": "4578616d706c653a616c696365", "type": "totp", "algorithm": "sha1",
    ///                   "digits": 6, "secret": "3132…", "touch": false, "counter": 0}]}
    /// ```
    /// `name` is hex because names are bytes (usually UTF-8 `[period/][issuer:]account`).
    public struct Image: Codable, Sendable, Hashable {
        /// The access key as stored (a secret).
        public struct AccessKeyImage: Codable, Sendable, Hashable {
            /// The HMAC hash of the challenge-response.
            public var algorithm: Algorithm
            /// The key, 1–128 bytes.
            public var key: HexBytes

            /// An access key image from its fields as given; ``OATHApplet/init(image:)`` checks them.
            public init(algorithm: Algorithm, key: HexBytes) {
                self.algorithm = algorithm
                self.key = key
            }
        }

        /// One credential as stored, secret included.
        public struct CredentialImage: Codable, Sendable, Hashable {
            /// The name's bytes (1–64), unique in the applet.
            public var name: HexBytes
            /// `hotp` or `totp`.
            public var type: Kind
            /// `sha1`, `sha256` or `sha512`.
            public var algorithm: Algorithm
            /// Digits per code: 6, 7 or 8.
            public var digits: Int
            /// The HMAC key; at most the hash's block size (64 bytes, 128 for SHA-512).
            public var secret: HexBytes
            /// Whether the credential requires touch.
            public var touch: Bool
            /// Stored when set; absent means no.
            public var onlyIncreasing: Bool?
            /// HOTP's next counter value (0 for TOTP).
            public var counter: UInt64

            /// A credential image from its fields as given; ``OATHApplet/init(image:)`` checks them.
            public init(
                name: HexBytes, type: Kind, algorithm: Algorithm, digits: Int, secret: HexBytes,
                touch: Bool, onlyIncreasing: Bool? = nil, counter: UInt64
            ) {
                self.name = name
                self.type = type
                self.algorithm = algorithm
                self.digits = digits
                self.secret = secret
                self.touch = touch
                self.onlyIncreasing = onlyIncreasing
                self.counter = counter
            }
        }

        /// The AID, 5–16 bytes.
        public var aid: HexBytes
        /// Three bytes, SELECT's tag `79`.
        public var version: HexBytes
        /// SELECT's tag `71`, the access key salt.
        public var salt: HexBytes
        /// The most credentials stored, 0–1024; the credentials must fit in it.
        public var capacity: Int
        /// The access key, absent when no access code is set.
        public var accessKey: AccessKeyImage?
        /// The credentials, in the applet's order.
        public var credentials: [CredentialImage]

        /// An image from its fields as given; ``OATHApplet/init(image:)`` checks them.
        public init(
            aid: HexBytes, version: HexBytes, salt: HexBytes, capacity: Int, accessKey: AccessKeyImage?, credentials: [CredentialImage]
        ) {
            self.aid = aid
            self.version = version
            self.salt = salt
            self.capacity = capacity
            self.accessKey = accessKey
            self.credentials = credentials
        }
    }

    /// The applet's persistent state (the session's authentication and pending data are transient).
    public var image: Image {
        Image(
            aid: HexBytes(aid), version: HexBytes(version), salt: HexBytes(salt), capacity: capacity,
            accessKey: accessKey.map { Image.AccessKeyImage(algorithm: $0.algorithm, key: HexBytes($0.key)) },
            credentials: credentials.map {
                Image.CredentialImage(
                    name: HexBytes($0.name), type: $0.kind, algorithm: $0.algorithm, digits: $0.digits,
                    secret: HexBytes($0.secret), touch: $0.touchRequired, onlyIncreasing: $0.onlyIncreasing ? true : nil,
                    counter: $0.counter
                )
            }
        )
    }

    /// Rebuilds an applet from its image.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field (`salt`, `credentials[2].digits`, …).
    public init(image: Image) throws(TagImageError) {
        guard (5...16).contains(image.aid.bytes.count) else {
            throw TagImageError(.invalidValue, field: "aid", "an AID has 5–16 bytes, not \(image.aid.bytes.count)")
        }
        guard image.version.bytes.count == 3 else {
            throw TagImageError(.invalidValue, field: "version", "a version has 3 bytes")
        }
        guard (1...64).contains(image.salt.bytes.count) else {
            throw TagImageError(.invalidValue, field: "salt", "the salt has 1–64 bytes")
        }
        guard (0...1024).contains(image.capacity) else {
            throw TagImageError(.invalidValue, field: "capacity", "must be 0–1024")
        }
        if let key = image.accessKey, key.key.bytes.isEmpty || key.key.bytes.count > 128 {
            throw TagImageError(.invalidValue, field: "accessKey.key", "an access key has 1–128 bytes")
        }
        guard image.credentials.count <= image.capacity else {
            throw TagImageError(
                .invalidValue, field: "credentials", "\(image.credentials.count) credentials exceed the capacity \(image.capacity)")
        }
        var credentials: [Credential] = []
        for (index, entry) in image.credentials.enumerated() {
            let field = "credentials[\(index)]"
            guard (1...Self.maximumNameLength).contains(entry.name.bytes.count) else {
                throw TagImageError(.invalidValue, field: "\(field).name", "a name has 1–\(Self.maximumNameLength) bytes")
            }
            guard !credentials.contains(where: { $0.name == entry.name.bytes }) else {
                throw TagImageError(.invalidValue, field: "\(field).name", "another credential has the same name")
            }
            guard (6...8).contains(entry.digits) else {
                throw TagImageError(.invalidValue, field: "\(field).digits", "6, 7 or 8")
            }
            guard entry.secret.bytes.count <= entry.algorithm.blockSize else {
                throw TagImageError(
                    .invalidValue, field: "\(field).secret", "at most \(entry.algorithm.blockSize) bytes for \(entry.algorithm.rawValue)")
            }
            credentials.append(
                Credential(
                    name: entry.name.bytes, kind: entry.type, algorithm: entry.algorithm, digits: entry.digits,
                    secret: entry.secret.bytes, touchRequired: entry.touch, onlyIncreasing: entry.onlyIncreasing ?? false,
                    counter: entry.counter
                ))
        }
        self.init(
            aid: image.aid.bytes, version: image.version.bytes, salt: image.salt.bytes, credentials: credentials,
            accessKey: image.accessKey.map { AccessKey(algorithm: $0.algorithm, key: $0.key.bytes) }, capacity: image.capacity
        )
    }
}
