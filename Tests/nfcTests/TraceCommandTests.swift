import Foundation
import Testing

/// `--trace`: every exchange on standard error, with the simulator's air time; the number of
/// exchanges equals what `--stats` counts, and standard output is what it is without the trace.
@Suite(.serialized) struct TraceCommandTests {
    private func image(_ kind: String) async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).json").path
        #expect(try await NFCTool.run(["tag", "new", kind, "-o", path]).status == 0)
        return path
    }

    @Test(arguments: ["ntag213", "type4", "felica-lite-s", "slix2"])
    func everyExchangeIsPrintedWithItsAirTime(_ kind: String) async throws {
        let tag = try await image(kind)
        #expect(try await NFCTool.run(["write", "--reader", "sim:" + tag, "--text", "traced"]).status == 0)
        let plain = try await NFCTool.run(["read", "--reader", "sim:" + tag, "--json"])
        let traced = try await NFCTool.run(["read", "--reader", "sim:" + tag, "--json", "--trace", "--stats"])
        #expect(traced.status == 0, "\(traced.stderr)")
        let lines = traced.stderr.split(separator: "\n").map(String.init)
        let sent = lines.filter { $0.range(of: #"^trace +\d+  > [0-9a-f]+$"#, options: .regularExpression) != nil }
        let answered = lines.filter {
            $0.range(of: #"^trace +\d+  < [0-9a-f]+  \(air \d+\.\d{3} ms\)$"#, options: .regularExpression) != nil
        }
        #expect(!sent.isEmpty && sent.count == answered.count, "\(traced.stderr)")
        #expect(lines.first?.hasPrefix("trace     activated ") == true)
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(traced.stdout.utf8)) as? [String: Any])
        #expect((stats["stats"] as? [String: Any])?["commands"] as? Int == sent.count, "one trace line per counted command")
        let tracedOnly = try await NFCTool.run(["read", "--reader", "sim:" + tag, "--json", "--trace"])
        #expect(tracedOnly.stdout == plain.stdout, "the trace never reaches standard output")
    }

    @Test func aFailedExchangeIsTracedToo() async throws {
        let tag = try await image("ntag213")
        let result = try await NFCTool.run(["read", "--reader", "sim:" + tag, "--remove-after", "1", "--trace"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("  ! "), "\(result.stderr)")
    }
}
