import NFCBytes

/// One datagram of nfcpy's software-only `udp` frontend (nfcpy 1.0.4, `nfc/clf/udp.py`): one RF
/// frame as ASCII text, `"<brty> <hex>"` — the bit rate and technology, a space, the frame's bytes
/// in hex with no CRC and no parity (a FeliCa frame keeps its LEN byte) — or `RFOFF`, the field
/// switched off. A bare `"<brty>"` is a frame with no bytes: the listener's way of saying it does
/// not answer that technology. OUTSIDE-READERS.md has what each side expects.
package enum NfcpyUDPFrame: Sendable, Hashable, CustomStringConvertible {
    /// A frame at a bit rate and technology.
    case frame(NfcpyBitRate, [UInt8])
    /// The reader switched its field off.
    case fieldOff

    /// The bit rates and technologies the frontend names.
    package enum NfcpyBitRate: String, Sendable, Hashable, CaseIterable {
        /// 106 kbit/s, type A.
        case a106 = "106A"
        /// 212 kbit/s, type A.
        case a212 = "212A"
        /// 424 kbit/s, type A.
        case a424 = "424A"
        /// 106 kbit/s, type B.
        case b106 = "106B"
        /// 212 kbit/s, type B.
        case b212 = "212B"
        /// 424 kbit/s, type B.
        case b424 = "424B"
        /// 212 kbit/s, FeliCa.
        case f212 = "212F"
        /// 424 kbit/s, FeliCa.
        case f424 = "424F"

        /// Type A, B or F.
        package var technology: Character { rawValue.last ?? "A" }
    }

    /// Parses a datagram; nil for anything else (nfcpy drops such datagrams too).
    package init?(datagram: [UInt8]) {
        guard datagram.count <= 4096, let text = String(validating: datagram, as: UTF8.self) else { return nil }
        if text == "RFOFF" {
            self = .fieldOff
            return
        }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let rate = NfcpyBitRate(rawValue: String(parts[0])) else { return nil }
        guard parts.count == 2 else {
            self = .frame(rate, [])
            return
        }
        guard let bytes = try? Hex.decode(String(parts[1])) else { return nil }
        self = .frame(rate, bytes)
    }

    /// The datagram's bytes: `"212F 0600ffff0100"`, `"106A"` for an empty frame, `"RFOFF"`.
    package var datagram: [UInt8] { Array(description.utf8) }

    /// The datagram's text.
    package var description: String {
        switch self {
        case .fieldOff: "RFOFF"
        case .frame(let rate, let bytes) where bytes.isEmpty: rate.rawValue
        case .frame(let rate, let bytes): "\(rate.rawValue) \(Hex.encode(bytes))"
        }
    }
}
