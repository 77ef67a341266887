import SwiftASN1

/// A PACE protocol a chip offers: one `PACEInfo` of EF.CardAccess (ICAO Doc 9303 Part 11
/// §9.2.1): the protocol's object identifier, its version and the standardized domain parameters.
public struct PACEInfo: Sendable, Hashable, CustomStringConvertible {
    /// How the nonce is mapped to a generator.
    public enum Mapping: String, Sendable, Hashable {
        /// Generic mapping (§4.4.3.3.1).
        case generic = "GM"
        /// Integrated mapping (§4.4.3.3.2).
        case integrated = "IM"
        /// Chip authentication mapping (§4.4.3.3.3).
        case chipAuthentication = "CAM"
    }

    /// The object identifier's arcs.
    public let protocolIdentifier: [UInt]
    /// The version (2 for ICAO Doc 9303).
    public let version: Int
    /// The standardized domain parameters' identifier (13: brainpoolP256r1, 12: P-256), when given.
    public let parameterIdentifier: Int?

    /// id-PACE (BSI TR-03110 Part 3 §A.1.1.1): 0.4.0.127.0.7.2.2.4.
    static let pacePrefix: [UInt] = [0, 4, 0, 127, 0, 7, 2, 2, 4]

    /// The mapping, key agreement and cipher the identifier names: `id-PACE-{DH,ECDH}-{GM,IM,CAM}-{3DES,AES-128,AES-192,AES-256}`.
    public var mapping: Mapping? {
        guard protocolIdentifier.count == 11, Array(protocolIdentifier.prefix(9)) == Self.pacePrefix else { return nil }
        switch protocolIdentifier[9] {
        case 1, 2: return .generic
        case 3, 4: return .integrated
        case 6: return .chipAuthentication
        default: return nil
        }
    }

    /// Whether the key agreement is on an elliptic curve (ECDH) rather than modular (DH).
    public var isECDH: Bool { protocolIdentifier.count == 11 && [2, 4, 6].contains(protocolIdentifier[9]) }

    /// The AES key length in bytes (16, 24, 32), or `nil` for 3DES or an unknown cipher.
    public var aesKeyLength: Int? {
        guard protocolIdentifier.count == 11 else { return nil }
        switch protocolIdentifier[10] {
        case 2: return 16
        case 3: return 24
        case 4: return 32
        default: return nil
        }
    }

    /// The DER value bytes of the identifier, as MSE:Set AT's `80` and the tokens' `06` carry them.
    public var identifierBytes: [UInt8] {
        guard protocolIdentifier.count >= 2 else { return [] }
        var out = [UInt8(protocolIdentifier[0] * 40 + protocolIdentifier[1])]
        for arc in protocolIdentifier.dropFirst(2) {
            var chunk = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            out += chunk
        }
        return out
    }

    public var description: String {
        let cipher = aesKeyLength.map { "AES-\($0 * 8)" } ?? "3DES"
        let parameters: String =
            switch parameterIdentifier {
            case nil: ""
            case 12: " on P-256"
            case 13: " on brainpoolP256r1"
            case let other?: ", domain parameters \(other)"
            }
        return "PACE-\(isECDH ? "ECDH" : "DH")-\(mapping?.rawValue ?? "?")-\(cipher)\(parameters)"
    }

    /// A PACEInfo from its fields.
    public init(protocolIdentifier: [UInt], version: Int = 2, parameterIdentifier: Int?) {
        self.protocolIdentifier = protocolIdentifier
        self.version = version
        self.parameterIdentifier = parameterIdentifier
    }

    /// The PACEInfos of EF.CardAccess's bytes (`SET OF SecurityInfo`; other infos are skipped).
    /// - Throws: ``EMRTDError`` `.malformedFile` when the file is not DER SecurityInfos.
    public static func parse(cardAccess bytes: [UInt8]) throws(EMRTDError) -> [PACEInfo] {
        do {
            let root = try DER.parse(bytes)
            guard root.identifier == .set, case .constructed(let infos) = root.content else {
                throw EMRTDError(.malformedFile, file: "EF.CardAccess", "not a SET OF SecurityInfo")
            }
            var found: [PACEInfo] = []
            for info in infos {
                guard case .constructed(let fields) = info.content else { continue }
                let nodes = Array(fields)
                guard nodes.count >= 2, nodes[0].identifier == .objectIdentifier else { continue }
                let arcs = try ASN1ObjectIdentifier(derEncoded: nodes[0]).oidComponents
                guard arcs.count == 11, Array(arcs.prefix(9)) == pacePrefix, nodes[1].identifier == .integer else { continue }
                let version = try Int(derEncoded: nodes[1])
                let parameter = nodes.count > 2 && nodes[2].identifier == .integer ? try Int(derEncoded: nodes[2]) : nil
                found.append(PACEInfo(protocolIdentifier: arcs, version: version, parameterIdentifier: parameter))
            }
            return found
        } catch let error as EMRTDError {
            throw error
        } catch {
            throw EMRTDError(.malformedFile, file: "EF.CardAccess", "\(error)")
        }
    }
}
