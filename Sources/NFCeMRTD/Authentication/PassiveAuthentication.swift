import X509

/// Passive authentication (ICAO Doc 9303 Part 11 §5.1): the data groups read hash to the values
/// EF.SOD holds, EF.SOD's signature verifies with its Document Signer's key, and the Document
/// Signer's certificate is signed by a trusted Country Signing CA. Validity dates are not checked:
/// a Document Signer's certificate routinely expires long before the documents it signed.
public struct PassiveAuthentication: Sendable, Hashable {
    /// One step's outcome.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// The check passed; the text says what was checked.
        case passed(String)
        /// The check failed, with why.
        case failed(EMRTDError)
        /// The check could not be made (no CSCA given, an algorithm not built), with why.
        case notChecked(String)

        /// Whether it passed.
        public var passed: Bool {
            if case .passed = self { return true }
            return false
        }

        public var description: String {
            switch self {
            case .passed(let text): "passed: \(text)"
            case .failed(let error): "FAILED: \(error.reason)"
            case .notChecked(let text): "not checked: \(text)"
            }
        }
    }

    /// Each data group read: whether its hash matches EF.SOD's (`false` for one EF.SOD does not list).
    public let dataGroupHashes: [Int: Bool]
    /// The data groups' hashes as one outcome.
    public let hashes: Outcome
    /// EF.SOD's signature by the Document Signer.
    public let signature: Outcome
    /// The Document Signer's certificate against the trusted CSCAs.
    public let chain: Outcome

    /// The first failure, else the first step not checked, else passed.
    public var verdict: Outcome {
        let steps = [hashes, signature, chain]
        if let failure = steps.first(where: { if case .failed = $0 { true } else { false } }) { return failure }
        if let missing = steps.first(where: { if case .notChecked = $0 { true } else { false } }) { return missing }
        return .passed("data group hashes, EF.SOD's signature and the Document Signer's chain")
    }

    /// An algorithm as people write it (`ECDSA with SHA-256`).
    static func name(of algorithm: Certificate.SignatureAlgorithm) -> String {
        switch algorithm {
        case .ecdsaWithSHA256: "ECDSA with SHA-256"
        case .ecdsaWithSHA384: "ECDSA with SHA-384"
        case .ecdsaWithSHA512: "ECDSA with SHA-512"
        case .sha1WithRSAEncryption: "RSA PKCS #1 v1.5 with SHA-1"
        case .sha256WithRSAEncryption: "RSA PKCS #1 v1.5 with SHA-256"
        case .sha384WithRSAEncryption: "RSA PKCS #1 v1.5 with SHA-384"
        case .sha512WithRSAEncryption: "RSA PKCS #1 v1.5 with SHA-512"
        default: "\(algorithm)"
        }
    }

    /// Checks `files` (the data groups read) against `securityObject`, and its signer against `trustAnchors`.
    public init(securityObject: SecurityObject, dataGroups files: [Int: [UInt8]], trustAnchors: [Certificate]) {
        var matches: [Int: Bool] = [:]
        var tampered: [Int] = []
        for (number, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let matching = securityObject.dataGroupHashes[number] == securityObject.hashAlgorithm.hash(bytes)
            matches[number] = matching
            if !matching { tampered.append(number) }
        }
        dataGroupHashes = matches
        if let first = tampered.first {
            let listed = securityObject.dataGroupHashes[first] != nil
            hashes = .failed(
                EMRTDError(
                    .tamperedDataGroup, file: "DG\(first)",
                    listed
                        ? "DG\(first)'s \(securityObject.hashAlgorithm.rawValue) hash differs from the one EF.SOD signs: the data group was altered"
                        : "EF.SOD signs no hash for DG\(first)"))
        } else {
            let names = matches.keys.sorted().map { "DG\($0)" }.joined(separator: ", ")
            hashes = .passed("\(securityObject.hashAlgorithm.rawValue) hashes of \(names) match EF.SOD")
        }

        let signer = securityObject.documentSigner
        if let algorithm = securityObject.signatureAlgorithm {
            let digestMatches = securityObject.digestAlgorithm.hash(securityObject.securityObjectBytes) == securityObject.messageDigest
            let valid = signer.publicKey.isValidSignature(
                securityObject.signature, for: securityObject.signedAttributes, signatureAlgorithm: algorithm)
            if !digestMatches {
                signature = .failed(
                    EMRTDError(.invalidSignature, file: "EF.SOD", "the messageDigest attribute does not match the LDSSecurityObject"))
            } else if !valid {
                signature = .failed(
                    EMRTDError(
                        .invalidSignature, file: "EF.SOD",
                        "the signature does not verify with the Document Signer's key (\(signer.subject))"))
            } else {
                signature = .passed("\(Self.name(of: algorithm)) by \(signer.subject)")
            }
        } else {
            signature = .notChecked("EF.SOD's signature algorithm is not one this build verifies")
        }

        if trustAnchors.isEmpty {
            chain = .notChecked("no CSCA certificate was given (--csca)")
        } else if let anchor = trustAnchors.first(where: {
            $0.subject == signer.issuer && $0.publicKey.isValidSignature(signer.signature, for: signer)
        }) {
            chain = .passed("\(signer.subject) is signed by the CSCA \(anchor.subject)")
        } else {
            let named = trustAnchors.contains { $0.subject == signer.issuer }
            chain = .failed(
                EMRTDError(
                    .untrustedSigner, file: "EF.SOD",
                    named
                        ? "the Document Signer names the CSCA \(signer.issuer) but its signature does not verify with that CSCA's key"
                        : "the Document Signer's issuer \(signer.issuer) is none of the \(trustAnchors.count) CSCA certificate(s) given"))
        }
    }
}
