import NFCBytes

/// The common layout of the Hs, Hr, Hm and Hi payloads: a version byte, then an NDEF message.
///
/// NFC Forum Connection Handover 1.4 sections on the Handover Request, Select, Mediation and Initiate records: the records of the nested message are local to it
/// (`ac`, `cr`, `err`, …). The nested message may be absent (a payload of the version byte
/// only), e.g. a Handover Select that offers no carrier. It is decoded with
/// `options.nested()`, so ``NDEFDecodingOptions/maxNestingDepth`` bounds the recursion, and
/// errors in it carry offsets within the outer record's payload.
struct HandoverPayload {
    var version: HandoverVersion
    var records: [NDEFRecord]

    static func decode(
        _ record: NDEFRecord, type: [UInt8], name: String, options: NDEFDecodingOptions
    ) throws(NDEFError) -> HandoverPayload {
        try record.expect(.wellKnown, type, name)
        let nestedOptions = options.nested()
        guard nestedOptions.depth <= nestedOptions.maxNestingDepth else {
            throw NDEFError(
                .limitExceeded,
                "\(name): its message would be nested \(nestedOptions.depth) deep, more than \(options.maxNestingDepth)",
                offset: 1)
        }
        guard let first = record.payload.first else {
            throw NDEFError(.truncated, "\(name): the payload has no version byte", offset: 0)
        }
        let rest = record.payload[1...]
        if rest.isEmpty {
            return HandoverPayload(version: HandoverVersion(rawValue: first), records: [])
        }
        do {
            let records = try NDEFDecoder(options: nestedOptions).decodeRecords(rest)
            return HandoverPayload(version: HandoverVersion(rawValue: first), records: records)
        } catch {
            throw wrap(error, name: name, index: nil)
        }
    }

    /// The error located in the nested message, its reason prefixed with the outer record's name.
    static func wrap(_ error: NDEFError, name: String, index: Int?) -> NDEFError {
        var reason = error.reason
        if let index { reason = "record \(index): " + reason }
        return NDEFError(
            error.code, "\(name) message: \(reason)", offset: error.offset, recordIndex: error.recordIndex ?? index)
    }

    /// Decodes a nested record as a typed view, locating any error at that record.
    static func typed<T: NDEFRecordConvertible>(
        _ type: T.Type, _ record: NDEFRecord, index: Int, name: String, options: NDEFDecodingOptions
    ) throws(NDEFError) -> T {
        do {
            return try T(record, options: options.nested())
        } catch {
            throw wrap(error, name: name, index: index)
        }
    }

    /// Sorts nested records into alternative carriers and the rest. `special` sees every other
    /// record first and returns true when it has taken it (Hs's `err`, Hr's `cr`).
    static func splitCarriers(
        _ records: [NDEFRecord], name: String, options: NDEFDecodingOptions,
        special: (Int, NDEFRecord) throws(NDEFError) -> Bool
    ) throws(NDEFError) -> ([AlternativeCarrierRecord], [NDEFRecord]) {
        var carriers: [AlternativeCarrierRecord] = []
        var others: [NDEFRecord] = []
        for (i, nested) in records.enumerated() {
            if nested.hasType(.wellKnown, AlternativeCarrierRecord.recordType) {
                carriers.append(try typed(AlternativeCarrierRecord.self, nested, index: i, name: name, options: options))
            } else if try !special(i, nested) {
                // Strict decoding holds any other nested record's type to its TNF's rules, as at
                // the top level; the record itself is not interpreted.
                if options.isStrict {
                    do {
                        try NDEFTypeNameRules.check(nested.type, format: nested.typeNameFormat)
                    } catch {
                        throw wrap(error, name: name, index: i)
                    }
                }
                others.append(nested)
            }
        }
        return (carriers, others)
    }

    /// The payload: the version byte and, when there are records, their message.
    static func encode(version: HandoverVersion, records: [NDEFRecord]) throws(NDEFError) -> [UInt8] {
        if records.isEmpty { return [version.rawValue] }
        let nested = try NDEFMessage(records: records).encoded()
        return [version.rawValue] + nested
    }
}

extension NDEFMessage {
    /// The first record whose identifier (NDEF ID field) is `identifier`, or nil.
    ///
    /// In a handover message an ``AlternativeCarrierRecord``'s carrier data reference and
    /// auxiliary data references are such identifiers (NFC Forum Connection Handover 1.4
    /// section “Alternative Carrier Record”): `message.record(withIdentifier: carrier.carrierDataReference)` finds the
    /// carrier configuration record (or `Hc` record) that the alternative carrier describes.
    public func record(withIdentifier identifier: [UInt8]) -> NDEFRecord? {
        records.first { $0.identifier == identifier }
    }
}
