import NFCBytes

/// A Flipper Zero `.nfc` file read into its `Key: value` lines.
///
/// The format (Flipper firmware `lib/nfc`, versions 2–4): a `Filetype: Flipper NFC device` line,
/// `Version: N`, then one `Key: value` per line; `#` starts a comment. Byte values are hex pairs
/// separated by spaces. Keys may repeat only where the format does not use them (the first wins).
public struct FlipperNFCFile: Sendable, Hashable {
    /// One `Key: value` line.
    public struct Entry: Sendable, Hashable {
        /// The text before the first colon, without surrounding spaces and tabs.
        public var key: String
        /// The text after the first colon, without surrounding spaces and tabs.
        public var value: String
        /// 1-based line number in the file.
        public var line: Int
    }

    /// The `Version:` value, 1–4.
    public var version: Int
    /// Every `Key: value` line in file order, `Filetype` first; blank and `#` comment lines are skipped.
    public var entries: [Entry]

    /// Parses the text of a `.nfc` file.
    /// - Throws: ``FlipperImportError`` naming the line.
    public init(text: String) throws(FlipperImportError) {
        var entries: [Entry] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...]
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                throw FlipperImportError(line: lineNumber, "expected \"Key: value\", found \"\(trimmed.prefix(40))\"")
            }
            let key = String(trimmed[..<colon]).trimmingSpaces
            let value = String(trimmed[trimmed.index(after: colon)...]).trimmingSpaces
            entries.append(Entry(key: key, value: value, line: lineNumber))
        }
        guard let filetype = entries.first, filetype.key == "Filetype" else {
            throw FlipperImportError(
                line: entries.first?.line ?? 1, "not a Flipper file: the first line must be \"Filetype: Flipper NFC device\"")
        }
        guard filetype.value == "Flipper NFC device" else {
            throw FlipperImportError(line: filetype.line, "Filetype \"\(filetype.value)\" is not \"Flipper NFC device\"")
        }
        self.entries = entries
        self.version = 0
        let versionEntry = try entry("Version")
        guard let version = Int(versionEntry.value), (1...4).contains(version) else {
            throw FlipperImportError(line: versionEntry.line, "Version \"\(versionEntry.value)\" is not one this importer reads (1–4)")
        }
        self.version = version
    }

    /// The first entry with a key, or `nil`.
    public func optionalEntry(_ key: String) -> Entry? { entries.first { $0.key == key } }

    /// The first entry with a key.
    public func entry(_ key: String) throws(FlipperImportError) -> Entry {
        guard let entry = optionalEntry(key) else { throw FlipperImportError(line: nil, "missing \"\(key):\" line") }
        return entry
    }

    /// A string value.
    public func string(_ key: String) throws(FlipperImportError) -> String { try entry(key).value }

    /// A hex byte value (`04 A1 B2`), optionally of an exact length.
    public func bytes(_ key: String, count: Int? = nil) throws(FlipperImportError) -> [UInt8] {
        try Self.bytes(of: entry(key), count: count)
    }

    /// A decimal integer value.
    public func integer(_ key: String, in range: ClosedRange<Int>) throws(FlipperImportError) -> Int {
        let entry = try entry(key)
        guard let value = Int(entry.value), range.contains(value) else {
            throw FlipperImportError(
                line: entry.line, "\(key) \"\(entry.value)\" is not a number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// A boolean value (`true` / `false`).
    public func boolean(_ key: String) throws(FlipperImportError) -> Bool {
        let entry = try entry(key)
        switch entry.value.lowercased() {
        case "true": return true
        case "false": return false
        default: throw FlipperImportError(line: entry.line, "\(key) \"\(entry.value)\" is not true or false")
        }
    }

    /// The hex bytes of an entry.
    public static func bytes(of entry: Entry, count: Int? = nil) throws(FlipperImportError) -> [UInt8] {
        var result: [UInt8] = []
        for token in entry.value.split(separator: " ", omittingEmptySubsequences: true) {
            guard token.count == 2, let byte = UInt8(token, radix: 16) else {
                throw FlipperImportError(line: entry.line, "\(entry.key): \"\(token)\" is not a hex byte")
            }
            result.append(byte)
        }
        if let count, result.count != count {
            throw FlipperImportError(line: entry.line, "\(entry.key) has \(result.count) bytes, expected \(count)")
        }
        return result
    }
}

/// A Flipper `.nfc` file that cannot be imported, with the line at fault.
public struct FlipperImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number, or `nil` when the problem is a missing line.
    public let line: Int?
    /// What is wrong, in words.
    public let reason: String

    /// An error at a 1-based line, or with `line` `nil` for a missing line.
    public init(line: Int?, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line N: ` followed by the reason, or the reason alone when there is no line.
    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}

extension String {
    var trimmingSpaces: String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
