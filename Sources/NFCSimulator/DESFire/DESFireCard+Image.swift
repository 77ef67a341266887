extension DESFireCard {
    /// A DESFire's non-volatile state as saved in a tag image: the PICC key and settings and each
    /// application with its keys and files. It holds keys: image files are written private (`0600`).
    public struct Image: Codable, Sendable, Hashable {
        /// One key.
        public typealias KeyImage = NTAG424Tag.Image.KeyImage

        /// One file.
        public struct FileImage: Codable, Sendable, Hashable {
            /// `0`–`31`.
            public var number: UInt8
            /// The ISO identifier, 4 hex digits, when the application has them.
            public var isoID: HexBytes?
            /// `standard`, `backup`, `value`, `linear-record` or `cyclic-record`.
            public var type: String
            /// Communication mode bits: `0` plain, `1` MAC, `3` full.
            public var mode: UInt8
            /// The access rights as GetFileSettings sends them (`EEE0`: read-write, change, read, write).
            public var access: HexBytes
            /// A data file's bytes.
            public var contents: HexBytes?
            /// A value file's lowest value.
            public var lowerLimit: Int32?
            /// A value file's highest value.
            public var upperLimit: Int32?
            /// A value file's committed value.
            public var value: Int32?
            /// Whether a value file allows LimitedCredit.
            public var limitedCredit: Bool?
            /// What LimitedCredit may still give back.
            public var limitedCreditValue: Int32?
            /// A record file's record size.
            public var recordSize: Int?
            /// A record file's capacity (a cyclic file keeps one record free).
            public var maximumRecords: Int?
            /// A record file's committed records, oldest first.
            public var records: [HexBytes]?
        }

        /// One application.
        public struct ApplicationImage: Codable, Sendable, Hashable {
            /// The AID, 3 bytes as sent (least significant first).
            public var aid: HexBytes
            /// The key settings byte.
            public var keySettings: UInt8
            /// `des` (DES or 2K3DES), `3k3des` or `aes` (absent: `aes`, as images before key types).
            public var keyType: DESFireKeyType?
            /// The keys, 1–14.
            public var keys: [KeyImage]
            /// The ISO DF identifier, when present.
            public var isoID: HexBytes?
            /// The DF name, when present.
            public var dfName: HexBytes?
            /// The files.
            public var files: [FileImage]
        }

        /// `ev1`, `ev2` or `ev3`.
        public var model: DESFireModel
        /// 7 bytes.
        public var uid: HexBytes
        /// The PICC master key.
        public var piccKey: KeyImage
        /// The PICC master key's type (absent: `aes`, as images before key types).
        public var piccKeyType: DESFireKeyType?
        /// The PICC key settings.
        public var piccKeySettings: UInt8
        /// The applications.
        public var applications: [ApplicationImage]
        /// SetConfiguration option `00`'s byte (bit 0 FormatPICC disabled, bit 1 random ID);
        /// absent: `0`, as shipped.
        public var piccConfiguration: UInt8?
        /// SetConfiguration option `01`'s key (24 bytes) and version; absent: zeros, as shipped.
        public var defaultKey: KeyImage?
        /// SetConfiguration option `02`'s ATS, TL first; absent: the model's own.
        public var ats: HexBytes?
        /// The 56-byte originality signature (EV2, EV3); absent: the simulator's test key's signature of the UID.
        public var signature: HexBytes?
    }

    /// The card's state.
    public var image: Image {
        Image(
            model: model, uid: HexBytes(uid), piccKey: .init(key: HexBytes(piccKey.value), version: piccKey.version),
            piccKeyType: piccKeyType, piccKeySettings: piccKeySettings,
            applications: applications.map { app in
                Image.ApplicationImage(
                    aid: HexBytes(app.aid), keySettings: app.keySettings, keyType: app.keyType,
                    keys: app.keys.map { .init(key: HexBytes($0.value), version: $0.version) },
                    isoID: app.isoID.map { HexBytes([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }, dfName: app.dfName.map(HexBytes.init),
                    files: app.files.map(Self.fileImage))
            }, piccConfiguration: piccConfiguration == 0 ? nil : piccConfiguration,
            defaultKey: defaultKey.map { .init(key: HexBytes($0.value), version: $0.version) }, ats: userATS.map(HexBytes.init),
            signature: originalitySignature.map(HexBytes.init))
    }

    private static func fileImage(_ file: DESFireDataFile) -> Image.FileImage {
        var image = Image.FileImage(
            number: file.number, isoID: file.isoID.map { HexBytes([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }, type: "standard",
            mode: file.mode.rawValue, access: HexBytes(file.access.bytes))
        switch file.kind {
        case .standard, .backup:
            image.type = file.kind == .standard ? "standard" : "backup"
            image.contents = HexBytes(file.contents)
        case .value(let value):
            image.type = "value"
            image.lowerLimit = value.lowerLimit
            image.upperLimit = value.upperLimit
            image.value = value.value
            image.limitedCredit = value.limitedCreditEnabled
            image.limitedCreditValue = value.limitedCreditValue
        case .linearRecord(let records), .cyclicRecord(let records):
            if case .cyclicRecord = file.kind { image.type = "cyclic-record" } else { image.type = "linear-record" }
            image.recordSize = records.recordSize
            image.maximumRecords = records.maximumRecords
            image.records = records.records.map(HexBytes.init)
        }
        return image
    }

    /// Rebuilds a card from an image, powered off.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field: a UID that is not 7 bytes, a
    ///   key of another length than its type's, a default key that is not 24 bytes, an ATS that
    ///   does not parse, a signature that is not 56 bytes, an AID that is not 3, too many applications, keys or files, a
    ///   duplicate, an unknown file type, access rights or limits the card cannot hold, records
    ///   of the wrong size or too many.
    public init(image: Image) throws(TagImageError) {
        guard image.uid.bytes.count == 7 else {
            throw TagImageError(.invalidValue, field: "uid", "a DESFire UID has 7 bytes, not \(image.uid.bytes.count)")
        }
        self.init(model: image.model, uid: image.uid.bytes)
        piccKeyType = image.piccKeyType ?? .aes
        piccKey = try Self.key(image.piccKey, type: piccKeyType, field: "piccKey")
        piccKeySettings = image.piccKeySettings
        guard (image.piccConfiguration ?? 0) & ~0x03 == 0 else {
            throw TagImageError(.invalidValue, field: "piccConfiguration", "only bits 0 (format disabled) and 1 (random ID) exist")
        }
        piccConfiguration = image.piccConfiguration ?? 0
        if let key = image.defaultKey {
            guard key.key.bytes.count == 24 else {
                throw TagImageError(.invalidValue, field: "defaultKey.key", "the default key has 24 bytes, not \(key.key.bytes.count)")
            }
            defaultKey = Key(value: key.key.bytes, version: key.version)
        }
        if let ats = image.ats?.bytes {
            guard Self.isValidATS(ats) else {
                throw TagImageError(
                    .invalidValue, field: "ats",
                    "an ATS has 2 to \(Self.maximumATSLength) bytes, TL first equal to its length, and the interface bytes T0 announces")
            }
            userATS = ats
        }
        if let signature = image.signature?.bytes {
            guard signature.count == 56 else {
                throw TagImageError(.invalidValue, field: "signature", "an originality signature has 56 bytes, not \(signature.count)")
            }
            originalitySignature = signature
        }
        guard image.applications.count <= Self.maximumApplications else {
            throw TagImageError(.invalidValue, field: "applications", "a DESFire holds at most \(Self.maximumApplications) applications")
        }
        for (index, app) in image.applications.enumerated() {
            let field = "applications[\(index)]"
            guard app.aid.bytes.count == 3, app.aid.bytes != [0, 0, 0], !applications.contains(where: { $0.aid == app.aid.bytes }) else {
                throw TagImageError(.invalidValue, field: field + ".aid", "an AID has 3 bytes, is not 000000 and is not repeated")
            }
            guard (1...Self.maximumKeys).contains(app.keys.count) else {
                throw TagImageError(.invalidValue, field: field + ".keys", "an application has 1 to \(Self.maximumKeys) keys")
            }
            var application = DESFireApplication(
                aid: app.aid.bytes, keySettings: app.keySettings, keyCount: app.keys.count, keyType: app.keyType ?? .aes,
                isoID: try Self.isoID(app.isoID, field: field + ".isoID"),
                dfName: app.dfName?.bytes)
            if let name = app.dfName?.bytes, name.isEmpty || name.count > 16 {
                throw TagImageError(.invalidValue, field: field + ".dfName", "a DF name has 1 to 16 bytes")
            }
            for (number, key) in app.keys.enumerated() {
                application.keys[number] = try Self.key(key, type: application.keyType, field: field + ".keys[\(number)]")
            }
            guard app.files.count <= Self.maximumFiles else {
                throw TagImageError(.invalidValue, field: field + ".files", "an application holds at most \(Self.maximumFiles) files")
            }
            for (fileIndex, file) in app.files.enumerated() {
                let parsed = try Self.file(file, field: field + ".files[\(fileIndex)]")
                guard application.fileIndex(parsed.number) == nil else {
                    throw TagImageError(.invalidValue, field: field + ".files[\(fileIndex)].number", "file \(parsed.number) is repeated")
                }
                application.files.append(parsed)
            }
            applications.append(application)
        }
        guard usedMemory <= DESFireModel.capacity else {
            throw TagImageError(
                .invalidValue, field: "applications", "the files take \(usedMemory) bytes; the card has \(DESFireModel.capacity)")
        }
    }

    private static func key(_ image: Image.KeyImage, type: DESFireKeyType, field: String) throws(TagImageError) -> Key {
        guard image.key.bytes.count == type.keyLength else {
            throw TagImageError(
                .invalidValue, field: field + ".key", "a \(type.rawValue) key has \(type.keyLength) bytes, not \(image.key.bytes.count)")
        }
        return Key(value: image.key.bytes, version: image.version)
    }

    private static func isoID(_ bytes: HexBytes?, field: String) throws(TagImageError) -> UInt16? {
        guard let bytes else { return nil }
        guard bytes.bytes.count == 2 else { throw TagImageError(.invalidValue, field: field, "an ISO identifier has 2 bytes") }
        return UInt16(bytes.bytes[0]) << 8 | UInt16(bytes.bytes[1])
    }

    private static func file(_ image: Image.FileImage, field: String) throws(TagImageError) -> DESFireDataFile {
        guard image.number <= 0x1F else { throw TagImageError(.invalidValue, field: field + ".number", "file numbers are 0 to 31") }
        guard [0, 1, 3].contains(image.mode) else {
            throw TagImageError(.invalidValue, field: field + ".mode", "the mode is 0 (plain), 1 (MAC) or 3 (full), not \(image.mode)")
        }
        guard let access = accessRights(image.access.bytes[...]) else {
            throw TagImageError(.invalidValue, field: field + ".access", "access rights have 2 bytes")
        }
        let kind: DESFireDataFile.Kind
        var contents: [UInt8] = []
        switch image.type {
        case "standard", "backup":
            guard let bytes = image.contents?.bytes, !bytes.isEmpty else {
                throw TagImageError(.invalidValue, field: field + ".contents", "a data file has at least one byte")
            }
            contents = bytes
            kind = image.type == "standard" ? .standard : .backup
        case "value":
            guard let lower = image.lowerLimit, let upper = image.upperLimit, let value = image.value, lower <= upper,
                (lower...upper).contains(value)
            else {
                throw TagImageError(.invalidValue, field: field + ".value", "a value file has lowerLimit <= value <= upperLimit")
            }
            var file = DESFireDataFile.ValueFile(
                lowerLimit: lower, upperLimit: upper, value: value, limitedCreditEnabled: image.limitedCredit ?? false)
            file.limitedCreditValue = max(0, image.limitedCreditValue ?? 0)
            kind = .value(file)
        case "linear-record", "cyclic-record":
            let cyclic = image.type == "cyclic-record"
            guard let size = image.recordSize, let maximum = image.maximumRecords, size > 0, size <= 0xFF_FFFF, maximum >= (cyclic ? 2 : 1),
                maximum <= 0xFF_FFFF
            else {
                throw TagImageError(
                    .invalidValue, field: field + ".recordSize",
                    "a record file has records of 1 byte or more and room for at least \(cyclic ? 2 : 1)")
            }
            var records = DESFireDataFile.RecordFile(recordSize: size, maximumRecords: maximum)
            records.records = (image.records ?? []).map(\.bytes)
            guard records.records.allSatisfy({ $0.count == size }), records.records.count <= (cyclic ? maximum - 1 : maximum) else {
                throw TagImageError(.invalidValue, field: field + ".records", "records have \(size) bytes and fit the file")
            }
            kind = cyclic ? .cyclicRecord(records) : .linearRecord(records)
        default:
            throw TagImageError(
                .invalidValue, field: field + ".type", "\"\(image.type)\" is not standard, backup, value, linear-record or cyclic-record")
        }
        return DESFireDataFile(
            number: image.number, isoID: try isoID(image.isoID, field: field + ".isoID"), kind: kind,
            mode: NTAG424File.CommunicationMode(bits: image.mode),
            access: access, contents: contents)
    }
}
