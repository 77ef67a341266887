import ISO7816

/// GET DATA and PUT DATA (SP 800-73-4 Part 2 §3.1.2, §3.3.2).
extension PIVClient {
    /// The contents of a data object (the value of its `53`, or the whole `7E` for the discovery
    /// object); `nil` when the card has no such object (`6A82`).
    public func getObject(_ object: PIVDataObject) async throws -> [UInt8]? {
        let command = CommandAPDU(
            ins: 0xCB, p1: 0x3F, p2: 0xFF, data: BERTLV(tag: 0x5C, value: object.tagBytes).encoded, expectedLength: 65_536)
        let response = try await transmitter.send(command)
        switch response.statusWord {
        case .success: break
        case .fileNotFound: return nil
        case .securityStatusNotSatisfied: throw PIVError.securityStatusNotSatisfied(command: "GET DATA \(object)")
        default: throw PIVError.status(command: "GET DATA \(object)", response.statusWord)
        }
        if object == .discovery { return response.data }
        return try PIVParse.single(0x53, in: response.data, command: "GET DATA \(object)").value
    }

    /// Writes (or, with empty `contents`, deletes) a data object; needs the administration key.
    public func putObject(_ object: PIVDataObject, contents: [UInt8]) async throws {
        guard object != .discovery else { throw PIVError.invalidArgument("the discovery object cannot be written") }
        let data = BERTLV(tag: 0x5C, value: object.tagBytes).encoded + BERTLV(tag: 0x53, value: contents).encoded
        _ = try await run("PUT DATA \(object)", CommandAPDU(ins: 0xDB, p1: 0x3F, p2: 0xFF, data: data))
    }

    /// The CHUID, `nil` when absent.
    public func readCHUID() async throws -> PIVCHUID? {
        guard let contents = try await getObject(.chuid) else { return nil }
        return try PIVCHUID(parsing: contents)
    }

    /// The Card Capability Container, `nil` when absent.
    public func readCCC() async throws -> PIVCCC? {
        guard let contents = try await getObject(.cardCapabilityContainer) else { return nil }
        return try PIVCCC(parsing: contents)
    }

    /// The discovery object, `nil` when absent.
    public func readDiscovery() async throws -> PIVDiscoveryObject? {
        guard let data = try await getObject(.discovery) else { return nil }
        return try PIVDiscoveryObject(parsing: data)
    }

    /// A slot's certificate container, `nil` when the slot has none.
    public func readCertificate(slot: PIVSlot) async throws -> PIVCertificateContainer? {
        guard let contents = try await getObject(slot.certificateObject) else { return nil }
        return try PIVCertificateContainer(parsing: contents)
    }

    /// Stores a DER certificate (or gzip data, flagged) in a slot's certificate object.
    public func putCertificate(_ certificate: PIVCertificateContainer, slot: PIVSlot) async throws {
        try await putObject(slot.certificateObject, contents: certificate.contents)
    }
}
