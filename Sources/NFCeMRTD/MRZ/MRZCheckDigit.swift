/// The check digit of an MRZ field (ICAO Doc 9303 Part 3 §4.9): each character's value (`0`–`9`
/// as themselves, `A`–`Z` as 10–35, the filler `<` as 0) times the repeating weights 7, 3, 1,
/// summed modulo 10.
public enum MRZCheckDigit {
    /// The check digit of `field`, or `nil` when it holds a character the MRZ does not use.
    public static func compute(_ field: some StringProtocol) -> Character? {
        let weights = [7, 3, 1]
        var sum = 0
        for (index, character) in field.unicodeScalars.enumerated() {
            guard let value = value(of: character) else { return nil }
            sum += value * weights[index % 3]
        }
        return Character(String(sum % 10))
    }

    /// The value of one MRZ character, or `nil` outside `0-9`, `A-Z` and `<`.
    static func value(of scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x30...0x39: Int(scalar.value - 0x30)
        case 0x41...0x5A: Int(scalar.value - 0x41) + 10
        case 0x3C: 0
        default: nil
        }
    }

    /// Whether `text` uses only the MRZ's characters (`0-9`, `A-Z`, `<`).
    static func isMRZText(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { value(of: $0) != nil }
    }
}
