import SwiftASN1

/// DG14 (tag `6E`, ICAO Doc 9303 Part 10 §4.7.14, Part 11 §9.2): the chip's `SET OF
/// SecurityInfo` — for chip authentication a ChipAuthenticationInfo (the protocol) and a
/// ChipAuthenticationPublicKeyInfo (the chip's static key), for ECDSA active authentication an
/// ActiveAuthenticationInfo (the signature algorithm). Other SecurityInfos are skipped.
public struct ChipSecurityInfos: Sendable, Hashable {
    /// A chip-authentication protocol the chip offers (Part 11 §9.2.5).
    public struct ChipAuthenticationInfo: Sendable, Hashable, CustomStringConvertible {
        /// The protocol's arcs: `id-CA-{DH,ECDH}-{3DES-CBC-CBC,AES-CBC-CMAC-128/192/256}`.
        public let protocolIdentifier: [UInt]
        /// Its version (1 or 2).
        public let version: Int
        /// The key it uses, when the chip has several.
        public let keyIdentifier: Int?

        /// Whether the key agreement is ECDH (`id-CA-ECDH`, 0.4.0.127.0.7.2.2.3.2).
        public var isECDH: Bool { protocolIdentifier.count == 11 && protocolIdentifier[9] == 2 }

        /// The secure-messaging cipher's AES key length in bytes, or `nil` for 3DES (the last arc: 1 3DES, 2–4 AES).
        public var aesKeyLength: Int? {
            guard protocolIdentifier.count == 11 else { return nil }
            return [2: 16, 3: 24, 4: 32][protocolIdentifier[10]]
        }

        /// Whether the secure messaging is 3DES.
        public var isTripleDES: Bool { protocolIdentifier.count == 11 && protocolIdentifier[10] == 1 }

        /// The identifier's DER value bytes, as MSE:Set AT's `80` carries them.
        public var identifierBytes: [UInt8] {
            PACEInfo(protocolIdentifier: protocolIdentifier, parameterIdentifier: nil).identifierBytes
        }

        public var description: String {
            let cipher = aesKeyLength.map { "AES-\($0 * 8)" } ?? (isTripleDES ? "3DES" : "?")
            return "CA-\(isECDH ? "ECDH" : "DH")-\(cipher)"
        }
    }

    /// The chip-authentication protocols offered.
    public let chipAuthentication: [ChipAuthenticationInfo]
    /// The chip's static key-agreement keys, by key identifier (`nil` when the chip has one).
    public let chipAuthenticationKeys: [ChipAuthenticationKey]
    /// ActiveAuthenticationInfo's signature algorithm (ECDSA active authentication), when present.
    public let activeAuthenticationSignature: ActiveAuthentication.SignatureAlgorithm?

    /// A chip-authentication public key (ChipAuthenticationPublicKeyInfo).
    public struct ChipAuthenticationKey: Sendable, Hashable {
        /// The key.
        public let key: ChipPublicKey
        /// Its identifier, when the chip has several.
        public let keyIdentifier: Int?
    }

    /// id-CA (BSI TR-03110 Part 3 §A.1.1.2): 0.4.0.127.0.7.2.2.3.
    static let caPrefix: [UInt] = [0, 4, 0, 127, 0, 7, 2, 2, 3]
    /// id-PK (§A.1.1.2): 0.4.0.127.0.7.2.2.1.
    static let pkPrefix: [UInt] = [0, 4, 0, 127, 0, 7, 2, 2, 1]
    /// id-icao-mrtd-security-aaProtocolObject (Part 11 §9.2.3): 2.23.136.1.1.5.
    static let activeAuthenticationProtocol: [UInt] = [2, 23, 136, 1, 1, 5]

    /// Parses DG14's bytes (the `6E` object around a DER `SET OF SecurityInfo`).
    /// - Throws: ``EMRTDError`` `.malformedFile` (DG14) when the structure is wrong.
    public init(dataGroup14 bytes: [UInt8]) throws(EMRTDError) {
        let file = LDSFile.dataGroup(14).description
        let outer = try LDSTLV.parse(bytes, file: file)
        guard outer.count == 1, let first = outer.first, first.tag == 0x6E else {
            throw EMRTDError(.malformedFile, file: file, "the file is not one object with tag 6E")
        }
        var protocols: [ChipAuthenticationInfo] = []
        var keys: [ChipAuthenticationKey] = []
        var signature: ActiveAuthentication.SignatureAlgorithm?
        do {
            let root = try DER.parse(first.value)
            guard root.identifier == .set, case .constructed(let infos) = root.content else {
                throw EMRTDError(.malformedFile, file: file, "not a SET OF SecurityInfo")
            }
            for info in infos {
                guard case .constructed(let fields) = info.content else { continue }
                let nodes = Array(fields)
                guard nodes.count >= 2, nodes[0].identifier == .objectIdentifier else { continue }
                let arcs = try ASN1ObjectIdentifier(derEncoded: nodes[0]).oidComponents
                let optionalInteger = { (index: Int) throws -> Int? in
                    nodes.count > index && nodes[index].identifier == .integer ? try Int(derEncoded: nodes[index]) : nil
                }
                if arcs.count == 11, Array(arcs.prefix(9)) == Self.caPrefix, nodes[1].identifier == .integer {
                    protocols.append(
                        ChipAuthenticationInfo(
                            protocolIdentifier: arcs, version: try Int(derEncoded: nodes[1]), keyIdentifier: try optionalInteger(2)))
                } else if arcs.count == 10, Array(arcs.prefix(9)) == Self.pkPrefix {
                    guard arcs[9] == 2 else { continue }  // id-PK-DH: no DH chip authentication in this build
                    keys.append(
                        ChipAuthenticationKey(
                            key: try ChipPublicKey(subjectPublicKeyInfo: nodes[1], file: file), keyIdentifier: try optionalInteger(2)))
                } else if arcs == Self.activeAuthenticationProtocol, nodes.count >= 3, nodes[2].identifier == .objectIdentifier {
                    signature = ActiveAuthentication.SignatureAlgorithm(oid: try ASN1ObjectIdentifier(derEncoded: nodes[2]).oidComponents)
                }
            }
        } catch let error as EMRTDError {
            throw error
        } catch {
            throw EMRTDError(.malformedFile, file: file, "\(error)")
        }
        chipAuthentication = protocols
        chipAuthenticationKeys = keys
        activeAuthenticationSignature = signature
    }
}
