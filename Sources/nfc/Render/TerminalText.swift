/// Text from a tag, a card or a file, made safe for a terminal: data, never terminal control.
///
/// A tag's text record can hold ESC sequences that clear the screen or retitle the window
/// (ECMA-48 §5: C0 and C1 control functions), a carriage return or line feed that forges output
/// lines, or bidirectional overrides that reorder what the reader sees (Unicode UAX #9 §2: the
/// explicit embedding, override and isolate controls, CVE-2021-42574). Each becomes a visible
/// `\uXXXX` escape — the same spelling JSON uses, so escaped JSON output is still the same JSON.
enum TerminalText {
    /// Escapes every control character in `text`, line breaks and tabs included: for one line of
    /// output that holds outside text.
    static func escape(_ text: String) -> String {
        escape(text, keeping: [])
    }

    /// Escapes every control character except the line feeds and tabs the CLI itself put there:
    /// the last line of defence in ``Output``.
    static func escapeKeepingLayout(_ text: String) -> String {
        escape(text, keeping: [0x0A, 0x09])
    }

    /// Whether `scalar` must not reach a terminal raw.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1
        case 0x061C, 0x200E, 0x200F: true  // ALM, LRM, RLM
        case 0x202A...0x202E, 0x2066...0x2069: true  // embeddings, overrides, isolates
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }

    private static func escape(_ text: String, keeping kept: Set<UInt32>) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && !kept.contains($0.value) }) else { return text }
        var out = String.UnicodeScalarView()
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        for scalar in text.unicodeScalars {
            guard isUnsafe(scalar), !kept.contains(scalar.value) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: "\\u".unicodeScalars)
            for shift in stride(from: 12, through: 0, by: -4) {
                out.append(digits[Int((scalar.value >> UInt32(shift)) & 0xF)])
            }
        }
        return String(out)
    }
}
