/// Who and what a virtual passport or ID card describes: the fields its MRZ prints and its data
/// groups hold (ICAO Doc 9303 Parts 4 and 5 for the MRZ, Part 10 for the data groups).
///
/// The defaults are the specimen of ICAO Doc 9303 Part 4 Appendix A (Utopia, Anna Maria Eriksson),
/// with BAC and PACE (brainpoolP256r1, CAN 123456), as a current European passport has.
public struct PassportHolder: Sendable, Hashable {
    /// Book (TD3 MRZ, document code `P`) or ID-1 card (TD1, code `I`).
    public enum DocumentKind: String, Sendable, Hashable {
        /// A passport book.
        case passport
        /// An ID card.
        case idCard = "id-card"
    }

    /// Book or card.
    public var kind: DocumentKind
    /// The document number (MRZ text, up to 9 characters).
    public var documentNumber: String
    /// `YYMMDD`.
    public var dateOfBirth: String
    /// `YYMMDD`.
    public var dateOfExpiry: String
    /// The primary identifier, as printed in the MRZ (A-Z, spaces).
    public var surname: String
    /// The secondary identifier.
    public var givenNames: String
    /// Three letters.
    public var nationality: String
    /// Three letters.
    public var issuingState: String
    /// `M`, `F` or `<`.
    public var sex: String
    /// The optional data (TD3: the personal number).
    public var personalNumber: String
    /// DG11's place of birth.
    public var placeOfBirth: String
    /// DG2's image: JPEG or JPEG 2000 bytes (the sample silhouette when `nil`).
    public var face: [UInt8]?
    /// Whether the chip accepts BAC.
    public var bac: Bool
    /// PACE as the chip offers it (`nil`: a BAC-only chip).
    public var pace: PassportApplet.PACESettings?
    /// Chip authentication (DG14), and with which secure messaging: `nil` none, else 3DES or AES-128.
    public var chipAuthentication: ChipAuthenticationCipher?
    /// Active authentication (DG15).
    public var activeAuthentication: Bool
    /// Active authentication's key: ECDSA P-256, or RSA-1024 with ISO/IEC 9796-2 as on older passports.
    public var activeAuthenticationAlgorithm: ActiveAuthenticationAlgorithm = .ecdsa

    /// The kind of key active authentication signs with.
    public enum ActiveAuthenticationAlgorithm: String, Sendable, Hashable, CaseIterable {
        /// ECDSA on P-256 with SHA-256, plain r ‖ s.
        case ecdsa = "ECDSA"
        /// RSA-1024 (its signature fits a short APDU, as on the passports that use it), ISO/IEC 9796-2 scheme 1 with SHA-1.
        case rsa = "RSA"
    }

    /// The secure messaging chip authentication moves to.
    public enum ChipAuthenticationCipher: String, Sendable, Hashable, CaseIterable {
        /// id-CA-ECDH-AES-CBC-CMAC-128.
        case aes128 = "AES-128"
        /// id-CA-ECDH-3DES-CBC-CBC, as on BAC-era passports.
        case tripleDES = "3DES"
    }

    /// A holder; every field defaults to the ICAO specimen.
    public init(
        kind: DocumentKind = .passport, documentNumber: String = "L898902C3", dateOfBirth: String = "740812",
        dateOfExpiry: String = "120415", surname: String = "ERIKSSON", givenNames: String = "ANNA MARIA", nationality: String = "UTO",
        issuingState: String = "UTO", sex: String = "F", personalNumber: String = "ZE184226B", placeOfBirth: String = "ZENITH",
        face: [UInt8]? = nil, bac: Bool = true, pace: PassportApplet.PACESettings? = PassportApplet.PACESettings(),
        chipAuthentication: ChipAuthenticationCipher? = .aes128, activeAuthentication: Bool = true
    ) {
        self.chipAuthentication = chipAuthentication
        self.activeAuthentication = activeAuthentication
        self.kind = kind
        self.documentNumber = documentNumber
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
        self.surname = surname
        self.givenNames = givenNames
        self.nationality = nationality
        self.issuingState = issuingState
        self.sex = sex
        self.personalNumber = personalNumber
        self.placeOfBirth = placeOfBirth
        self.face = face
        self.bac = bac
        self.pace = pace
    }

    /// Checks every field an MRZ prints.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field.
    func validate() throws(TagImageError) {
        func isMRZText(_ text: String) -> Bool {
            text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("A"..."Z").contains($0) || $0 == "<" }
        }
        guard (1...9).contains(documentNumber.count), isMRZText(documentNumber) else {
            throw TagImageError(.invalidValue, field: "documentNumber", "\"\(documentNumber)\" is not 1-9 characters of 0-9, A-Z")
        }
        for (field, date) in [("dateOfBirth", dateOfBirth), ("dateOfExpiry", dateOfExpiry)] {
            guard date.count == 6, date.allSatisfy(\.isNumber), let month = Int(date.dropFirst(2).prefix(2)), (1...12).contains(month),
                let day = Int(date.suffix(2)), (1...31).contains(day)
            else { throw TagImageError(.invalidValue, field: field, "\"\(date)\" is not a date YYMMDD") }
        }
        for (field, code) in [("nationality", nationality), ("issuingState", issuingState)] {
            guard code.count == 3, isMRZText(code) else {
                throw TagImageError(.invalidValue, field: field, "\"\(code)\" is not a three-letter code")
            }
        }
        guard ["M", "F", "<"].contains(sex) else { throw TagImageError(.invalidValue, field: "sex", "\"\(sex)\" is not M, F or <") }
        for (field, name) in [("surname", surname), ("givenNames", givenNames)] {
            guard isMRZText(name.replacingSpaces) else {
                throw TagImageError(.invalidValue, field: field, "\"\(name)\" holds characters an MRZ cannot print (A-Z and spaces)")
            }
        }
        guard surname.count + givenNames.count > 0 else { throw TagImageError(.invalidValue, field: "surname", "a name is required") }
        if let pace {
            guard [12, 13].contains(pace.parameterIdentifier) else {
                throw TagImageError(
                    .invalidValue, field: "pace", "domain parameters \(pace.parameterIdentifier) are not 12 (P-256) or 13 (brainpoolP256r1)"
                )
            }
            if let can = pace.can, !(1...10).contains(can.count) || !can.allSatisfy(\.isNumber) {
                throw TagImageError(.invalidValue, field: "can", "\"\(can)\" is not a card access number (1-10 digits)")
            }
        }
        guard personalNumber.count <= 14, isMRZText(personalNumber) else {
            throw TagImageError(.invalidValue, field: "personalNumber", "\"\(personalNumber)\" is not up to 14 characters of 0-9, A-Z")
        }
    }

    /// The MRZ lines (TD3 for a passport, TD1 for an ID card), check digits computed (Part 3 §4.9).
    var mrzLines: [String] {
        let name = String((surname.replacingSpaces + "<<" + givenNames.replacingSpaces).prefix(kind == .passport ? 39 : 30))
        let number = documentNumber.padded(to: 9)
        switch kind {
        case .passport:
            let personal = personalNumber.padded(to: 14)
            let personalCheck = personalNumber.isEmpty ? "<" : Self.check(personal)
            let line2Start = number + Self.check(number) + nationality + dateOfBirth + Self.check(dateOfBirth) + sex
            let line2Middle = dateOfExpiry + Self.check(dateOfExpiry) + personal + personalCheck
            let composite = number + Self.check(number) + dateOfBirth + Self.check(dateOfBirth) + line2Middle
            return [("P<" + issuingState + name).padded(to: 44), line2Start + line2Middle + Self.check(composite)]
        case .idCard:
            let optional1 = personalNumber.padded(to: 15)
            let line1 = "I<" + issuingState + number + Self.check(number) + optional1
            let line2Start =
                dateOfBirth + Self.check(dateOfBirth) + sex + dateOfExpiry + Self.check(dateOfExpiry) + nationality
                + String(repeating: "<", count: 11)
            let composite =
                String(line1.dropFirst(5)) + dateOfBirth + Self.check(dateOfBirth) + dateOfExpiry + Self.check(dateOfExpiry)
                + String(repeating: "<", count: 11)
            return [line1, line2Start + Self.check(composite), name.padded(to: 30)]
        }
    }

    /// The check digit of an MRZ field: values 0-9, A-Z = 10-35, `<` = 0, weights 7, 3, 1, modulo 10.
    static func check(_ field: String) -> String {
        var sum = 0
        for (index, scalar) in field.unicodeScalars.enumerated() {
            let value: Int =
                switch scalar {
                case "0"..."9": Int(scalar.value) - 48
                case "A"..."Z": Int(scalar.value) - 55
                default: 0
                }
            sum += value * [7, 3, 1][index % 3]
        }
        return String(sum % 10)
    }
}

extension String {
    /// The text with `<` fillers appended up to `width`.
    fileprivate func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: "<", count: width - count) }
    /// Spaces as the MRZ's filler.
    fileprivate var replacingSpaces: String { String(map { $0 == " " ? "<" : $0 }) }
}
