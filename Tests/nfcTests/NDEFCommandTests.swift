import Foundation
import Testing

@Suite(.serialized) struct NDEFCommandTests {
    @Test func encodeKeepsTheOrderOfRecordOptions() async throws {
        let r = try await NFCTool.run([
            "ndef", "encode", "--text", "Hi", "--lang", "fr", "--uri", "https://example.com",
            "--external", "example.com:t", "--payload-hex", "0102", "--mime", "text/plain", "--payload-hex", "6869",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout == "9101055402667248691101 0c55046578616d706c652e636f6d".replacingOccurrences(of: " ", with: "")
                + "140d026578616d706c652e636f6d3a740102" + "520a02746578742f706c61696e6869\n")
    }

    @Test func decodePrintsRecordsForAPerson() async throws {
        let r = try await NFCTool.run(["ndef", "decode", "d1010855016e66632e636f6d"])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                NDEF message: 1 record, 12 bytes
                [0] wellKnown "U", 8 byte payload
                    URI: http://www.nfc.com

                """)
    }

    @Test func decodeJSONIsTheDocumentedForm() async throws {
        let r = try await NFCTool.run(
            ["ndef", "decode", "--json", "-"], stdin: "d1 01 10 54 02 65 6e 48 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21\n")
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let record = try #require((json["records"] as? [[String: Any]])?.first)
        #expect(record["tnf"] as? String == "wellKnown")
        #expect(record["type"] as? String == "T")
        #expect(record["text"] as? String == "Hello, world!")
        #expect(record["language"] as? String == "en")
        #expect(record["encoding"] as? String == "utf8")
        #expect(json["length"] as? Int == 20)
    }

    @Test func encodeFromJSONRoundTripsDecode() async throws {
        let hex = "d102225370910 10e5503 6e66632d666f72756d2e6f7267510 10c5402656e48656c6c6f204e4643".replacingOccurrences(
            of: " ", with: "")
        let decoded = try await NFCTool.run(["ndef", "decode", "--json", hex])
        let encoded = try await NFCTool.run(["ndef", "encode", "--json", "-"], stdin: decoded.stdout)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == hex + "\n")
    }

    @Test func batchModeAnswersEveryLine() async throws {
        let r = try await NFCTool.run(["ndef", "decode", "--json", "--lines"], stdin: "d00000\nzz\nd10101\n")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == #"{"records":[{"tnf":"empty","type":"","id":"","payload":""}]}"#)
        #expect(lines[1].contains(#""code":"invalidHex""#))
        #expect(lines[2].contains(#""code":"truncated""#))
        let e = try await NFCTool.run(["ndef", "encode", "--lines"], stdin: #"{"records":[{"uri":"https://a"}]}"# + "\n{}\n")
        #expect(e.stdout.split(separator: "\n").first == "d10102550461")
    }

    @Test func badInputFailsWithOneLine() async throws {
        let r = try await NFCTool.run(["ndef", "decode", "d1010855"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("truncated"))
        #expect(r.stderr.split(separator: "\n").count == 1)
        let h = try await NFCTool.run(["ndef", "decode", "xyz"])
        #expect(h.status != 0 && h.stderr.contains("not hex"))
        let l = try await NFCTool.run(["ndef", "encode", "--lang", "en", "--uri", "x"])
        #expect(l.status != 0 && l.stderr.contains("--lang"))
        let m = try await NFCTool.run(["ndef", "encode", "--mime", "text/plain"])
        #expect(m.status != 0 && m.stderr.contains("payload"))
        let lenient = try await NFCTool.run(["ndef", "decode", "--lenient", "51010155 00".replacingOccurrences(of: " ", with: "")])
        #expect(lenient.status == 0)
    }
}
