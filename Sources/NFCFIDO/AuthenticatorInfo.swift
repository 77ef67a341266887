import NFCCBOR

/// authenticatorGetInfo's answer (CTAP 2.1 §6.4).
public struct AuthenticatorInfo: Sendable, Hashable {
    /// 0x01, e.g. `["U2F_V2", "FIDO_2_0", "FIDO_2_1"]`.
    public var versions: [String]
    /// 0x02.
    public var extensions: [String]
    /// 0x03, 16 bytes.
    public var aaguid: [UInt8]
    /// 0x04 (`rk`, `up`, `clientPin`, `pinUvAuthToken`, …).
    public var options: [String: Bool]
    /// 0x05.
    public var maxMsgSize: Int?
    /// 0x06.
    public var pinUvAuthProtocols: [Int]
    /// 0x09.
    public var transports: [String]
    /// 0x0A: the COSE algorithm numbers of the `public-key` entries.
    public var algorithms: [Int]

    /// Parses getInfo's CBOR map; absent or ill-typed optional members read as empty or `nil`.
    /// - Throws: ``FIDOError`` `.malformedResponse` when versions (0x01) is missing or empty, or the AAGUID (0x03) is
    ///   missing or not 16 bytes.
    public init(_ map: CBOR) throws(FIDOError) {
        func field(_ name: String) -> String { "getInfo.\(name)" }
        guard let versions = map[1]?.arrayValue?.compactMap(\.textValue), !versions.isEmpty else {
            throw .malformedResponse(field: field("versions"), reason: "missing or not an array of text")
        }
        self.versions = versions
        extensions = map[2]?.arrayValue?.compactMap(\.textValue) ?? []
        guard let aaguid = map[3]?.bytesValue, aaguid.count == 16 else {
            throw .malformedResponse(field: field("aaguid"), reason: "missing or not 16 bytes")
        }
        self.aaguid = aaguid
        var options: [String: Bool] = [:]
        for (key, value) in map[4]?.mapValue ?? [:] {
            if let name = key.textValue, let flag = value.boolValue { options[name] = flag }
        }
        self.options = options
        maxMsgSize = map[5]?.intValue
        pinUvAuthProtocols = map[6]?.arrayValue?.compactMap(\.intValue) ?? []
        transports = map[9]?.arrayValue?.compactMap(\.textValue) ?? []
        algorithms = map[10]?.arrayValue?.compactMap { $0["alg"]?.intValue } ?? []
    }
}
