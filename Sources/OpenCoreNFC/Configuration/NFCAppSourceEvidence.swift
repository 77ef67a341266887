import Foundation

/// What an app's Swift sources show about its NFC use, for the findings of
/// ``NFCConfigurationLint`` that depend on what the app does (`nfc lint --sources DIR`).
///
/// The reading is lexical, and lopsided on purpose so that it never cries wolf:
/// - a **SELECT** counts only where the source spells one out — an APDU hex string or byte array
///   `xx A4 04 P2 Lc AID…` (ISO/IEC 7816-4 §11.2.2), or `NFCISO7816APDU(… instructionCode: 0xA4,
///   p1Parameter: 0x04 … data: <literal>)`; an AID built at run time is never "used but
///   undeclared";
/// - an AID counts as **mentioned** wherever its bytes appear in any literal, as hex text or as
///   a byte array, so a declared AID kept in a constant is never "declared but unused";
/// - the polling options are Core NFC's names (`.iso14443`, `.iso15693`, `.iso18092`, `.pace`,
///   Apple's `NFCTagReaderSession.PollingOption`) wherever they appear.
///
/// Comments are skipped; string literals are read (escapes, raw and multi-line ones included).
public struct NFCAppSourceEvidence: Sendable, Hashable {
    /// A polling option of `NFCTagReaderSession`.
    public enum PollingOption: String, Sendable, Hashable, CaseIterable {
        /// ISO/IEC 14443 (MIFARE, ISO 7816 cards).
        case iso14443
        /// ISO/IEC 15693.
        case iso15693
        /// ISO/IEC 18092 (FeliCa).
        case iso18092
        /// PACE (iOS 16).
        case pace
    }

    /// The polling options the sources name.
    public var pollingOptions: Set<PollingOption> = []
    /// Whether the sources use a tag reader session (`NFCTagReaderSession`).
    public var usesTagReaderSession = false
    /// Whether the sources handle ISO 7816 tags (`NFCISO7816Tag`, `.iso7816(`).
    public var handlesISO7816Tags = false
    /// The AIDs the sources SELECT in literal APDUs, each with the first place it is selected.
    public var selectedAIDs: [[UInt8]: String] = [:]
    /// The Swift files read.
    public var filesRead = 0
    /// Every byte sequence written as a literal (hex text or a byte array).
    var literalBytes: [[UInt8]] = []

    /// Evidence from source texts given directly (`name` is how findings cite each one).
    public init(sources: [(name: String, text: String)]) {
        for (name, text) in sources { read(text, name: name) }
    }

    /// Reads every `.swift` file under `directory` (hidden folders and `.build` skipped; at most
    /// 20 000 files of 4 MiB each).
    /// - Throws: ``NFCConfigurationError`` when the directory cannot be listed.
    public init(directory: URL) throws(NFCConfigurationError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue,
            let walker = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey], options: [.skipsHiddenFiles])
        else {
            throw NFCConfigurationError(.unreadableFile, in: .sources, "\(directory.path) is not a folder that can be read")
        }
        var files: [URL] = []
        for case let url as URL in walker {
            if url.lastPathComponent == ".build" || url.lastPathComponent == "Pods" {
                walker.skipDescendants()
                continue
            }
            guard url.pathExtension == "swift", files.count < 20_000,
                let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
                values.isRegularFile == true, (values.fileSize ?? 0) <= 4 << 20
            else { continue }
            files.append(url)
        }
        guard !files.isEmpty else {
            throw NFCConfigurationError(
                .unreadableFile, in: .sources, "\(directory.path) holds no .swift file: there is nothing to take evidence from")
        }
        for url in files.sorted(by: { $0.path < $1.path }) {
            guard let data = try? Data(contentsOf: url) else { continue }
            let relative = url.path.hasPrefix(directory.path) ? String(url.path.dropFirst(directory.path.count + 1)) : url.path
            read(String(decoding: data, as: UTF8.self), name: relative)
        }
    }

    /// Whether `aid` appears in any literal of the sources.
    public func mentions(_ aid: [UInt8]) -> Bool {
        literalBytes.contains { sequence in
            sequence.count >= aid.count && (0...(sequence.count - aid.count)).contains { Array(sequence[$0..<($0 + aid.count)]) == aid }
        }
    }

    private mutating func read(_ text: String, name: String) {
        filesRead += 1
        let lexed = SwiftLexer.split(text)
        let code = lexed.code
        for option in PollingOption.allCases where Self.containsMember(option.rawValue, in: code) {
            pollingOptions.insert(option)
        }
        if code.contains("NFCTagReaderSession") { usesTagReaderSession = true }
        if code.contains("NFCISO7816Tag") || Self.containsMember("iso7816", in: code) { handlesISO7816Tags = true }
        for literal in lexed.strings {
            guard let bytes = Self.hexBytes(literal) else { continue }
            literalBytes.append(bytes)
            if let aid = Self.selectedAID(apdu: bytes) { note(aid, at: "\(name): \"\(literal)\"") }
        }
        for array in Self.byteArrays(in: code) {
            literalBytes.append(array)
            if let aid = Self.selectedAID(apdu: array) { note(aid, at: "\(name): a SELECT byte array") }
        }
        for aid in Self.apduInitializerSelections(in: code, strings: lexed.strings) {
            note(aid, at: "\(name): NFCISO7816APDU(instructionCode: 0xA4 …)")
        }
    }

    private mutating func note(_ aid: [UInt8], at place: String) {
        if selectedAIDs[aid] == nil { selectedAIDs[aid] = place }
    }

    /// `.name` not followed by an identifier character.
    static func containsMember(_ name: String, in code: String) -> Bool {
        var searchRange = code.startIndex..<code.endIndex
        while let found = code.range(of: "." + name, range: searchRange) {
            let next = found.upperBound < code.endIndex ? code[found.upperBound] : " "
            if !(next.isLetter || next.isNumber || next == "_") { return true }
            searchRange = found.upperBound..<code.endIndex
        }
        return false
    }

    /// The bytes of a hex literal: 5 bytes or more of hex digits, spaces and colons allowed between.
    static func hexBytes(_ literal: String) -> [UInt8]? {
        let digits = literal.filter { $0 != " " && $0 != ":" }
        guard digits.count >= 10, digits.count % 2 == 0, digits.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// The AID of a SELECT by name written out as an APDU: `CLA A4 04 P2 Lc AID…` with Lc 5–16
    /// and the AID complete (ISO/IEC 7816-4 §11.2.2; Core NFC's AIDs are 5–16 bytes).
    static func selectedAID(apdu: [UInt8]) -> [UInt8]? {
        guard apdu.count >= 10, apdu[1] == 0xA4, apdu[2] == 0x04 else { return nil }
        let length = Int(apdu[4])
        guard (5...16).contains(length), apdu.count >= 5 + length else { return nil }
        return Array(apdu[5..<(5 + length)])
    }

    /// Every array literal of byte values (`[0xA0, 0x00, …]`, hex or decimal, 5 or more) in `code`.
    static func byteArrays(in code: String) -> [[UInt8]] {
        var arrays: [[UInt8]] = []
        var index = code.startIndex
        while let open = code[index...].firstIndex(of: "[") {
            guard let close = code[open...].firstIndex(of: "]") else { break }
            let inside = code[code.index(after: open)..<close]
            index = code.index(after: open)
            let items = inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            guard items.count >= 5 else { continue }
            let bytes = items.compactMap { item -> UInt8? in
                let item = item.replacingOccurrences(of: "_", with: "")
                if item.hasPrefix("0x") || item.hasPrefix("0X") { return UInt8(item.dropFirst(2), radix: 16) }
                return UInt8(item)
            }
            if bytes.count == items.count { arrays.append(bytes) }
        }
        return arrays
    }

    /// AIDs given as the literal `data:` of `NFCISO7816APDU(… instructionCode: 0xA4, p1Parameter:
    /// 0x04 …)` (Apple's initializer; decimal 164 and 4 count too).
    static func apduInitializerSelections(in code: String, strings: [String]) -> [[UInt8]] {
        var found: [[UInt8]] = []
        var searchRange = code.startIndex..<code.endIndex
        while let start = code.range(of: "NFCISO7816APDU(", range: searchRange) {
            searchRange = start.upperBound..<code.endIndex
            // The call's text, up to its closing parenthesis.
            var depth = 1
            var end = start.upperBound
            while end < code.endIndex, depth > 0 {
                if code[end] == "(" { depth += 1 } else if code[end] == ")" { depth -= 1 }
                end = code.index(after: end)
            }
            let call = String(code[start.upperBound..<end].filter { !$0.isWhitespace })
            let select =
                call.contains("instructionCode:0xA4") || call.contains("instructionCode:0xa4") || call.contains("instructionCode:164")
            let byName = call.contains("p1Parameter:0x04") || call.contains("p1Parameter:4,") || call.contains("p1Parameter:0x4,")
            guard select, byName, let data = call.range(of: "data:") else { continue }
            let rest = String(call[data.upperBound...])
            if let array = byteArrays(in: rest).first, rest.hasPrefix("Data([") || rest.hasPrefix("[") {
                if (5...16).contains(array.count) { found.append(array) }
            } else if let marker = rest.range(of: SwiftLexer.stringMarker), rest[..<marker.lowerBound].count < 30 {
                // The lexer left a numbered marker where each string literal stood.
                let digits = rest[marker.upperBound...].prefix { $0.isNumber }
                if let number = Int(digits), strings.indices.contains(number), let bytes = hexBytes(strings[number]),
                    (5...16).contains(bytes.count)
                {
                    found.append(bytes)
                }
            }
        }
        return found
    }
}

/// Splits Swift source into code without comments (each string literal replaced by a numbered
/// marker) and the string literals' contents.
enum SwiftLexer {
    static let stringMarker = "\u{1}S"

    static func split(_ text: String) -> (code: String, strings: [String]) {
        var code = ""
        var strings: [String] = []
        // Carriage returns out first: "\r\n" is one Character, which would not end a `//` comment.
        let characters = Array(String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" })))
        var index = 0
        func at(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            if character == "/", at(1) == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "/", at(1) == "*" {
                var depth = 0
                repeat {
                    if characters[index] == "/", at(1) == "*" {
                        depth += 1
                        index += 2
                    } else if characters[index] == "*", at(1) == "/" {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while index < characters.count && depth > 0
                code.append(" ")
                continue
            }
            if character == "#" || character == "\"" {
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                guard at(hashes) == "\"" else {
                    code.append(character)
                    index += 1
                    continue
                }
                index += hashes
                let multiline = at(1) == "\"" && at(2) == "\""
                let quotes = multiline ? 3 : 1
                index += quotes
                var literal = ""
                while index < characters.count {
                    if characters[index] == "\\", hashes == 0 {
                        if let next = at(1) { literal.append(next) }
                        index += 2
                        continue
                    }
                    if characters[index] == "\"", (0..<quotes).allSatisfy({ at($0) == "\"" }),
                        (0..<hashes).allSatisfy({ at(quotes + $0) == "#" })
                    {
                        index += quotes + hashes
                        break
                    }
                    if !multiline, characters[index] == "\n" { break }
                    literal.append(characters[index])
                    index += 1
                }
                code += stringMarker + String(strings.count) + " "
                strings.append(literal)
                continue
            }
            code.append(character)
            index += 1
        }
        return (code, strings)
    }
}
