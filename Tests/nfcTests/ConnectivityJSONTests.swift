import Foundation
import Testing

/// The Handover, Wi-Fi and Bluetooth JSON forms survive decode --json → encode --json unchanged.
@Suite(.serialized) struct ConnectivityJSONTests {
    @Test(arguments: [
        ("handoverSelect", "d1020a487313d10204616301013000"),
        (
            "wifiSimpleConfig",
            "d217466170706c69636174696f6e2f766e642e7766612e777363104a000110100e0033102600010110450007486f6d654e6574100300020020100f000200081027000973656372657431323310200006ffffffffffff1049000600372a000120"
        ),
        (
            "bluetoothLE",
            "d220266170706c69636174696f6e2f766e642e626c7565746f6f74682e6c652e6f6f62081b06050403020101021c020319400003094c45111000000000000000000000000000000000"
        ),
    ])
    func jsonRoundTrips(_ key: String, _ hex: String) async throws {
        let decoded = try await NFCTool.run(["ndef", "decode", "--json", hex])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout.contains("\"\(key)\""), "the typed field is present")
        #expect(!decoded.stdout.contains("\"invalid\""))
        // Drop the raw payload so encode has to build the record from the typed field.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [String: Any])
        var records = try #require(object["records"] as? [[String: Any]])
        records[0]["payload"] = nil
        let input = try JSONSerialization.data(withJSONObject: ["records": records])
        let encoded = try await NFCTool.run(["ndef", "encode", "--json", "-"], stdin: String(decoding: input, as: UTF8.self))
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == hex + "\n")
    }
}
