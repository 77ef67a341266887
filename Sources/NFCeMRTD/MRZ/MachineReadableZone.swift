import Foundation

/// A machine readable zone as ICAO Doc 9303 prints it and DG1 stores it: TD1 (3 lines of 30
/// characters, ID cards), TD2 (2 × 36) or TD3 (2 × 44, passports) — Part 4 §4.2.2 (TD3), Part 5
/// §4.2.2 (TD1), Part 6 §4.2.2 (TD2). Every check digit is verified (Part 3 §4.9).
public struct MachineReadableZone: Sendable, Hashable {
    /// The document's size: which layout the lines follow.
    public enum Format: String, Sendable, Hashable {
        /// ID-1 size cards: 3 lines of 30 characters.
        case td1
        /// ID-2 size documents: 2 lines of 36.
        case td2
        /// Passport books: 2 lines of 44.
        case td3
    }

    /// The layout.
    public let format: Format
    /// The lines as given, fillers included.
    public let lines: [String]
    /// The document code (`P`, `I`, `ID`, `AC`…) with fillers removed.
    public let documentCode: String
    /// The issuing state or organization (three letters, e.g. `UTO`).
    public let issuingState: String
    /// The primary identifier (surname), fillers turned into spaces.
    public let primaryIdentifier: String
    /// The secondary identifier (given names), fillers turned into spaces.
    public let secondaryIdentifier: String
    /// The document number, fillers removed (TD1 numbers longer than 9 characters included).
    public let documentNumber: String
    /// The nationality (three letters).
    public let nationality: String
    /// The date of birth, `YYMMDD`.
    public let dateOfBirth: String
    /// `M`, `F` or `<` (unspecified).
    public let sex: String
    /// The date of expiry, `YYMMDD`.
    public let dateOfExpiry: String
    /// The optional data fields, fillers removed (TD3: the personal number).
    public let optionalData: String

    /// The BAC and PACE key the zone gives.
    /// - Throws: ``EMRTDError`` `.invalidMRZ` when a field is not what a key takes (an empty document number).
    public var key: MRZKey {
        get throws(EMRTDError) {
            try MRZKey(documentNumber: documentNumber, dateOfBirth: dateOfBirth, dateOfExpiry: dateOfExpiry)
        }
    }

    /// Parses the lines (separated by line breaks, or concatenated as DG1 stores them).
    /// - Throws: ``EMRTDError`` `.invalidMRZ` naming the shape, the character or the check digit at fault.
    public init(_ text: String) throws(EMRTDError) {
        let joined = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        guard MRZCheckDigit.isMRZText(joined) else {
            throw EMRTDError(.invalidMRZ, "an MRZ holds only 0-9, A-Z and <")
        }
        let characters = Array(joined)
        func field(_ line: Int, _ width: Int, _ range: Range<Int>) -> String {
            String(characters[(line * width + range.lowerBound)..<(line * width + range.upperBound)])
        }
        switch characters.count {
        case 88:
            format = .td3
            lines = [field(0, 44, 0..<44), field(1, 44, 0..<44)]
            documentCode = Self.clean(field(0, 44, 0..<2))
            issuingState = Self.clean(field(0, 44, 2..<5))
            (primaryIdentifier, secondaryIdentifier) = Self.names(field(0, 44, 5..<44))
            documentNumber = Self.clean(try Self.checked(field(1, 44, 0..<9), digit: field(1, 44, 9..<10), name: "document number"))
            nationality = Self.clean(field(1, 44, 10..<13))
            dateOfBirth = try Self.date(
                try Self.checked(field(1, 44, 13..<19), digit: field(1, 44, 19..<20), name: "date of birth"), name: "date of birth")
            sex = field(1, 44, 20..<21)
            dateOfExpiry = try Self.date(
                try Self.checked(field(1, 44, 21..<27), digit: field(1, 44, 27..<28), name: "date of expiry"), name: "date of expiry")
            optionalData = Self.clean(
                try Self.checked(field(1, 44, 28..<42), digit: field(1, 44, 42..<43), name: "personal number", fillerAllowed: true))
            _ = try Self.checked(
                field(1, 44, 0..<10) + field(1, 44, 13..<20) + field(1, 44, 21..<43), digit: field(1, 44, 43..<44), name: "composite")
        case 72:
            format = .td2
            lines = [field(0, 36, 0..<36), field(1, 36, 0..<36)]
            documentCode = Self.clean(field(0, 36, 0..<2))
            issuingState = Self.clean(field(0, 36, 2..<5))
            (primaryIdentifier, secondaryIdentifier) = Self.names(field(0, 36, 5..<36))
            documentNumber = Self.clean(try Self.checked(field(1, 36, 0..<9), digit: field(1, 36, 9..<10), name: "document number"))
            nationality = Self.clean(field(1, 36, 10..<13))
            dateOfBirth = try Self.date(
                try Self.checked(field(1, 36, 13..<19), digit: field(1, 36, 19..<20), name: "date of birth"), name: "date of birth")
            sex = field(1, 36, 20..<21)
            dateOfExpiry = try Self.date(
                try Self.checked(field(1, 36, 21..<27), digit: field(1, 36, 27..<28), name: "date of expiry"), name: "date of expiry")
            optionalData = Self.clean(field(1, 36, 28..<35))
            _ = try Self.checked(
                field(1, 36, 0..<10) + field(1, 36, 13..<20) + field(1, 36, 21..<35), digit: field(1, 36, 35..<36), name: "composite")
        case 90:
            format = .td1
            lines = [field(0, 30, 0..<30), field(1, 30, 0..<30), field(2, 30, 0..<30)]
            documentCode = Self.clean(field(0, 30, 0..<2))
            issuingState = Self.clean(field(0, 30, 2..<5))
            let optional1 = field(0, 30, 15..<30)
            if field(0, 30, 14..<15) == "<" && !Self.clean(optional1).isEmpty {
                // A number longer than 9: the rest and its check digit open the optional data (Part 5 §4.2.2.1 note j).
                let overflow = String(optional1.prefix { $0 != "<" })
                guard let digit = overflow.last else { throw EMRTDError(.invalidMRZ, "the long document number has no check digit") }
                let number = field(0, 30, 5..<14) + overflow.dropLast()
                documentNumber = Self.clean(try Self.checked(number, digit: String(digit), name: "document number"))
                optionalData = Self.clean(String(optional1.dropFirst(overflow.count)) + field(1, 30, 18..<29))
            } else {
                documentNumber = Self.clean(try Self.checked(field(0, 30, 5..<14), digit: field(0, 30, 14..<15), name: "document number"))
                optionalData = Self.clean(optional1 + field(1, 30, 18..<29))
            }
            dateOfBirth = try Self.date(
                try Self.checked(field(1, 30, 0..<6), digit: field(1, 30, 6..<7), name: "date of birth"), name: "date of birth")
            sex = field(1, 30, 7..<8)
            dateOfExpiry = try Self.date(
                try Self.checked(field(1, 30, 8..<14), digit: field(1, 30, 14..<15), name: "date of expiry"), name: "date of expiry")
            nationality = Self.clean(field(1, 30, 15..<18))
            (primaryIdentifier, secondaryIdentifier) = Self.names(field(2, 30, 0..<30))
            _ = try Self.checked(
                field(0, 30, 5..<30) + field(1, 30, 0..<7) + field(1, 30, 8..<15) + field(1, 30, 18..<29),
                digit: field(1, 30, 29..<30), name: "composite")
        default:
            throw EMRTDError(
                .invalidMRZ, "\(characters.count) characters: an MRZ has 90 (TD1, 3 × 30), 72 (TD2, 2 × 36) or 88 (TD3, 2 × 44)")
        }
    }

    /// `field` when it is a date, `YYMMDD` (`<` where the MRZ leaves a part unknown).
    private static func date(_ field: String, name: String) throws(EMRTDError) -> String {
        guard field.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "<" }) else {
            throw EMRTDError(.invalidMRZ, "the \(name) \(field) is not a date YYMMDD")
        }
        return field
    }

    /// `field` when `digit` is its check digit.
    private static func checked(_ field: String, digit: String, name: String, fillerAllowed: Bool = false) throws(EMRTDError) -> String {
        if fillerAllowed && digit == "<" && clean(field).isEmpty { return field }
        let expected = MRZCheckDigit.compute(field).map(String.init) ?? "?"
        guard digit == expected else {
            throw EMRTDError(.invalidMRZ, "the \(name) check digit is \(digit), but \(field) gives \(expected)")
        }
        return field
    }

    /// A field with its fillers removed.
    private static func clean(_ field: String) -> String {
        field.replacingOccurrences(of: "<", with: " ").trimmingCharacters(in: .whitespaces)
    }

    /// The primary and secondary identifiers of a name field (`ERIKSSON<<ANNA<MARIA`).
    private static func names(_ field: String) -> (String, String) {
        let parts = field.components(separatedBy: "<<")
        let primary = clean(parts.first ?? "")
        let secondary = clean(parts.dropFirst().joined(separator: " "))
        return (primary, secondary.split(separator: " ").joined(separator: " "))
    }
}
