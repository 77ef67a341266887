import Foundation
import NFCJSON
import NFCSimulator

/// `nfc-bench images`: how fast tag images load, per image kind.
///
/// Parsing is measured against the peer on this platform, Foundation's `JSONSerialization`, on the
/// same bytes (both stop at a tree; ours keeps every value's location and refuses duplicate keys).
/// The whole load (`TagImageFile.decode`: parse, decode with paths, validate the tag) is shown
/// beside it for scale. Best of 5 runs, loads per second.
enum ImageLoading {
    static func run(seconds: Double) throws {
        print("| image | bytes | NFCJSON parse | JSONSerialization parse | ratio | TagImageFile.decode (whole load) |")
        print("|---|---|---|---|---|---|")
        for kind in [VirtualTagKind.ntag216, .type4, .securityKey, .felica] {
            let bytes = try TagImageFile.encode(try kind.make())
            let data = Data(bytes)
            let ours = try measure(seconds: seconds) {
                guard case .object(let members) = try JSONText.parse(bytes).value else { return 0 }
                return members.count
            }
            let peer = try measure(seconds: seconds) {
                (try JSONSerialization.jsonObject(with: data) as? [String: Any])?.count ?? 0
            }
            let whole = try measure(seconds: seconds) {
                try TagImageFile.decode(bytes).identifier.count
            }
            print(
                "| \(kind.rawValue) | \(bytes.count) | \(Int(ours))/s | \(Int(peer))/s | \(String(format: "%.2f", ours / peer))x | \(Int(whole))/s |"
            )
        }
    }
}
