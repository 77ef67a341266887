import BigInt
import Crypto
import Foundation
import NFCEllipticCurves
import _CryptoExtras

extension PassportApplet {
    /// The persistent state of an eMRTD application.
    ///
    /// **An image holds personal data**: the holder's MRZ and face, and the BAC key they give.
    /// Images are written private (`0600`) like other images with secrets.
    ///
    /// ```json
    /// {"applet": "passport", "documentNumber": "L898902C<", "dateOfBirth": "690806",
    ///  "dateOfExpiry": "940623", "bac": true, "pace": {"parameterId": 13, "can": "123456", "mapping": "GM"},
    ///  "chipAuthentication": {"parameterId": 13, "key": "…", "cipher": "AES-128"},
    ///  "activeAuthenticationKey": "…",
    ///  "eacFiles": ["0103", "0104"], "files": [{"id": "011e", "data": "60…"}, …], "csca": "3082…"}
    /// ```
    ///
    /// The chip- and active-authentication private keys are test keys, kept in the image as a
    /// chip keeps them in its secure memory.
    public struct Image: Codable, Sendable, Hashable {
        /// PACE as offered: the standardized domain parameters and the CAN.
        public struct PACEImage: Codable, Sendable, Hashable {
            /// 13 (brainpoolP256r1) or 12 (P-256).
            public var parameterId: Int
            /// The card access number, when PACE accepts one.
            public var can: String?
            /// `GM` (generic, the default) or `IM` (integrated).
            public var mapping: String?
        }

        /// Chip authentication's static key.
        public struct ChipAuthenticationImage: Codable, Sendable, Hashable {
            /// 13 (brainpoolP256r1) or 12 (P-256).
            public var parameterId: Int
            /// The private key.
            public var key: HexBytes
            /// `AES-128` (the default) or `3DES`.
            public var cipher: String?
        }

        /// One file.
        public struct FileImage: Codable, Sendable, Hashable {
            /// The file identifier, 2 bytes.
            public var id: HexBytes
            /// The content.
            public var data: HexBytes
        }

        /// BAC's document number field (fillers included).
        public var documentNumber: String
        /// `YYMMDD`.
        public var dateOfBirth: String
        /// `YYMMDD`.
        public var dateOfExpiry: String
        /// Whether the chip accepts BAC.
        public var bac: Bool
        /// PACE, when offered.
        public var pace: PACEImage?
        /// Files refused without extended access control.
        public var eacFiles: [HexBytes]
        /// The files.
        public var files: [FileImage]
        /// The test CSCA's certificate, DER.
        public var csca: HexBytes
        /// Chip authentication, when offered.
        public var chipAuthentication: ChipAuthenticationImage?
        /// Active authentication's P-256 private key, when offered.
        public var activeAuthenticationKey: HexBytes?
        /// Active authentication's RSA private key (PKCS #1 DER), when the chip signs with RSA.
        public var activeAuthenticationRSAKey: HexBytes?
    }

    /// The applet's image.
    public var image: Image {
        Image(
            documentNumber: documentNumber, dateOfBirth: dateOfBirth, dateOfExpiry: dateOfExpiry, bac: bac,
            pace: pace.map {
                Image.PACEImage(parameterId: $0.parameterIdentifier, can: $0.can, mapping: $0.integratedMapping ? "IM" : nil)
            },
            eacFiles: eacFiles.sorted().map { HexBytes([UInt8($0 >> 8), UInt8($0 & 0xFF)]) },
            files: files.map {
                Image.FileImage(id: HexBytes([UInt8($0.identifier >> 8), UInt8($0.identifier & 0xFF)]), data: HexBytes($0.content))
            },
            csca: HexBytes(cscaCertificate),
            chipAuthentication: chipAuthentication.map {
                Image.ChipAuthenticationImage(
                    parameterId: $0.parameterIdentifier, key: HexBytes($0.privateKey), cipher: $0.tripleDES ? "3DES" : nil)
            },
            activeAuthenticationKey: activeAuthenticationKey.map(HexBytes.init),
            activeAuthenticationRSAKey: activeAuthenticationRSAKey.map(HexBytes.init))
    }

    /// The applet an image describes.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field: a date that is not `YYMMDD`,
    ///   a document number that is not MRZ text, a file identifier that is not 2 bytes or appears twice.
    public init(image: Image) throws(TagImageError) {
        func isMRZ(_ text: String) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("A"..."Z").contains($0) || $0 == "<" }
        }
        guard isMRZ(image.documentNumber) else {
            throw TagImageError(.invalidValue, field: "documentNumber", "\"\(image.documentNumber)\" is not MRZ text (0-9, A-Z, <)")
        }
        for (field, date) in [("dateOfBirth", image.dateOfBirth), ("dateOfExpiry", image.dateOfExpiry)] {
            guard date.count == 6, isMRZ(date) else { throw TagImageError(.invalidValue, field: field, "\"\(date)\" is not YYMMDD") }
        }
        if let pace = image.pace {
            guard [12, 13].contains(pace.parameterId) else {
                throw TagImageError(
                    .invalidValue, field: "pace.parameterId", "\(pace.parameterId) is not 12 (P-256) or 13 (brainpoolP256r1)")
            }
            if let can = pace.can, can.isEmpty || !can.allSatisfy(\.isNumber) {
                throw TagImageError(.invalidValue, field: "pace.can", "\"\(can)\" is not a card access number (digits)")
            }
            if let mapping = pace.mapping, !["GM", "IM"].contains(mapping) {
                throw TagImageError(.invalidValue, field: "pace.mapping", "\"\(mapping)\" is not GM or IM")
            }
        }
        if let chip = image.chipAuthentication {
            guard let curve = EllipticCurve.standardized(chip.parameterId), [12, 13].contains(chip.parameterId) else {
                throw TagImageError(
                    .invalidValue, field: "chipAuthentication.parameterId", "\(chip.parameterId) is not 12 (P-256) or 13 (brainpoolP256r1)")
            }
            guard chip.key.bytes.count == curve.byteCount, curve.scalar(chip.key.bytes) == BigUInt(Data(chip.key.bytes)) else {
                throw TagImageError(
                    .invalidValue, field: "chipAuthentication.key",
                    "not a private key of \(curve) (\(curve.byteCount) bytes below its order)")
            }
            if let cipher = chip.cipher, !["AES-128", "3DES"].contains(cipher) {
                throw TagImageError(.invalidValue, field: "chipAuthentication.cipher", "\"\(cipher)\" is not AES-128 or 3DES")
            }
        }
        if let key = image.activeAuthenticationKey, (try? P256.Signing.PrivateKey(rawRepresentation: key.bytes)) == nil {
            throw TagImageError(.invalidValue, field: "activeAuthenticationKey", "not a P-256 private key (32 bytes)")
        }
        if let key = image.activeAuthenticationRSAKey, (try? _RSA.Signing.PrivateKey(unsafeDERRepresentation: key.bytes)) == nil {
            throw TagImageError(
                .invalidValue, field: "activeAuthenticationRSAKey", "not an RSA private key (PKCS #1 DER, 1024 bits or more)")
        }
        var files: [File] = []
        for (index, file) in image.files.enumerated() {
            guard file.id.bytes.count == 2 else {
                throw TagImageError(.invalidValue, field: "files[\(index)].id", "a file identifier has 2 bytes, not \(file.id.bytes.count)")
            }
            let identifier = UInt16(file.id.bytes[0]) << 8 | UInt16(file.id.bytes[1])
            guard !files.contains(where: { $0.identifier == identifier }) else {
                throw TagImageError(.invalidValue, field: "files[\(index)].id", "file \(file.id) appears twice")
            }
            files.append(File(identifier: identifier, content: file.data.bytes))
        }
        var eac: Set<UInt16> = []
        for (index, id) in image.eacFiles.enumerated() {
            guard id.bytes.count == 2 else {
                throw TagImageError(.invalidValue, field: "eacFiles[\(index)]", "a file identifier has 2 bytes, not \(id.bytes.count)")
            }
            eac.insert(UInt16(id.bytes[0]) << 8 | UInt16(id.bytes[1]))
        }
        self.init(
            documentNumber: image.documentNumber, dateOfBirth: image.dateOfBirth, dateOfExpiry: image.dateOfExpiry,
            bac: image.bac,
            pace: image.pace.map { PACESettings(parameterIdentifier: $0.parameterId, can: $0.can, integratedMapping: $0.mapping == "IM") },
            files: files, eacFiles: eac, cscaCertificate: image.csca.bytes,
            chipAuthentication: image.chipAuthentication.map {
                ChipAuthenticationSettings(parameterIdentifier: $0.parameterId, privateKey: $0.key.bytes, tripleDES: $0.cipher == "3DES")
            },
            activeAuthenticationKey: image.activeAuthenticationKey?.bytes,
            activeAuthenticationRSAKey: image.activeAuthenticationRSAKey?.bytes)
    }
}
