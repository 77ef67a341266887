import Foundation
import ISO7816
import NFCBytes

/// An APDU script for `nfc apdu --script FILE` and the interactive prompt, one step per line
/// (the shape of pcsc-tools' `scriptor` files):
///
/// ```text
/// # comments start with '#', anywhere on a line
/// reset                                   # take the card out and activate it again
/// 00 A4 04 00 07 D2 76 00 00 85 01 01 00  # an APDU in hex (spaces and colons allowed)
/// 00 B0 00 00 02  expect 9000             # stop unless the status word matches
/// 00 B0 00 00 FF  expect 6Cxx             # x: any hex digit
/// quit                                    # end here (also: exit, or the end of the file)
/// ```
enum APDUScript {
    /// One line's step.
    enum Step: Equatable {
        /// Send this APDU; check its status word against `expect` when there is one.
        case apdu(bytes: [UInt8], command: CommandAPDU, expect: StatusPattern?)
        /// Disconnect and activate the card again.
        case reset
        /// End the script.
        case quit
    }

    /// A status word to expect: four hex digits, `x` for any digit (`90 00`, `61xx`, `63Cx`).
    struct StatusPattern: Equatable, CustomStringConvertible {
        let value: UInt16
        let mask: UInt16
        let description: String

        init?(_ text: String) {
            let digits = Array(text.filter { $0 != " " && $0 != ":" }.uppercased())
            guard digits.count == 4 else { return nil }
            var value: UInt16 = 0
            var mask: UInt16 = 0
            for digit in digits {
                value <<= 4
                mask <<= 4
                if digit == "X" { continue }
                guard let nibble = digit.hexDigitValue else { return nil }
                value |= UInt16(nibble)
                mask |= 0xF
            }
            self.value = value
            self.mask = mask
            description = String(digits).replacingOccurrences(of: "X", with: "x")
        }

        func matches(_ status: StatusWord) -> Bool { status.rawValue & mask == value }
    }

    /// The step on one line (`number` counts from 1, for the error), or nil for a blank or
    /// comment-only line.
    /// - Throws: ``CLIError`` `.badInput` naming the line: not hex, not an APDU, a bad `expect`.
    static func step(_ line: String, number: Int) throws -> Step? {
        let text = (line.firstIndex(of: "#").map { line[..<$0] } ?? line[...]).trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return nil }
        switch text.lowercased() {
        case "reset": return .reset
        case "quit", "exit": return .quit
        default: break
        }
        var apduText = text
        var expect: StatusPattern?
        if let range = text.range(of: "expect", options: .caseInsensitive) {
            apduText = String(text[..<range.lowerBound])
            let patternText = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard let pattern = StatusPattern(patternText) else {
                throw CLIError(
                    .badInput, "line \(number): expect \(patternText): give a status word as 4 hex digits, x for any (9000, 61xx)")
            }
            expect = pattern
        }
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(apduText)
        } catch {
            throw CLIError(.badInput, "line \(number): \(TerminalText.escape(text)) is neither an APDU in hex nor reset/quit: \(error)")
        }
        do {
            return .apdu(bytes: bytes, command: try CommandAPDU(parsing: bytes), expect: expect)
        } catch {
            throw CLIError(.badInput, "line \(number): \(Hex.encode(bytes)) is not a command APDU: \(error)")
        }
    }

    /// Every step of a whole script, checked before anything is sent.
    static func steps(_ text: String) throws -> [(line: Int, step: Step)] {
        var steps: [(Int, Step)] = []
        // By scalar: in a String "\r\n" is one Character, so a file with Windows line ends would
        // not split on "\n" at all.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0.last == "\r" ? $0.dropLast() : $0[...]))
        }
        for (index, line) in lines.enumerated() {
            guard let step = try step(line, number: index + 1) else { continue }
            steps.append((index + 1, step))
            if step == .quit { break }
        }
        return steps
    }
}
