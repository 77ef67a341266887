import Foundation

/// What Basic Access Control derives its keys from: the document number, the date of birth and
/// the date of expiry as the MRZ prints them (ICAO Doc 9303 Part 11 §9.7.2, "MRZ_information").
public struct MRZKey: Sendable, Hashable, CustomStringConvertible {
    /// The document number, upper case, padded with `<` to at least 9 characters.
    public let documentNumber: String
    /// The date of birth, `YYMMDD` (`<` where the MRZ leaves a part unknown).
    public let dateOfBirth: String
    /// The date of expiry, `YYMMDD`.
    public let dateOfExpiry: String

    /// A key from the three fields (the document number may be shorter than 9 characters and is
    /// padded; lower case is taken as upper case).
    /// - Throws: ``EMRTDError`` `.invalidMRZ` naming the field that is not MRZ text or not 6 digits.
    public init(documentNumber: String, dateOfBirth: String, dateOfExpiry: String) throws(EMRTDError) {
        var number = documentNumber.uppercased().replacingOccurrences(of: " ", with: "<")
        guard !number.isEmpty, MRZCheckDigit.isMRZText(number) else {
            throw EMRTDError(.invalidMRZ, "document number \"\(documentNumber)\" is not MRZ text (0-9, A-Z, <)")
        }
        while number.count < 9 { number += "<" }
        for (name, date) in [("date of birth", dateOfBirth), ("date of expiry", dateOfExpiry)] {
            guard date.count == 6, date.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "<" }) else {
                throw EMRTDError(.invalidMRZ, "\(name) \"\(date)\" is not YYMMDD")
            }
        }
        self.documentNumber = number
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
    }

    /// A key from `DOCNO,YYMMDD,YYMMDD` (the CLI's `--mrz`).
    /// - Throws: ``EMRTDError`` `.invalidMRZ` when there are not three fields or one is invalid.
    public init(commaSeparated text: String) throws(EMRTDError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3 else {
            throw EMRTDError(.invalidMRZ, "expected DOCUMENT-NUMBER,BIRTH(YYMMDD),EXPIRY(YYMMDD), got \(parts.count) field(s)")
        }
        try self.init(documentNumber: parts[0], dateOfBirth: parts[1], dateOfExpiry: parts[2])
    }

    /// The key of a printed MRZ: its lines (TD1: 3 × 30, TD2: 2 × 36, TD3: 2 × 44 characters), with
    /// each field's check digit verified.
    /// - Throws: ``EMRTDError`` `.invalidMRZ` for another shape or a wrong check digit.
    public init(mrz text: String) throws(EMRTDError) {
        self = try MachineReadableZone(text).key
    }

    /// MRZ_information: each field followed by its check digit (Part 11 §9.7.2).
    public var information: String {
        func withCheck(_ field: String) -> String { field + String(MRZCheckDigit.compute(field) ?? "0") }
        return withCheck(documentNumber) + withCheck(dateOfBirth) + withCheck(dateOfExpiry)
    }

    /// The document number with its trailing fillers removed.
    public var description: String {
        var number = documentNumber
        while number.hasSuffix("<") { number.removeLast() }
        return "\(number), born \(dateOfBirth), expires \(dateOfExpiry)"
    }
}
