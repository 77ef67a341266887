import Foundation
import Testing

/// `nfc dispatch`: what background tag reading does with a message, as text and JSON.
@Suite(.serialized) struct DispatchCommandTests {
    static func configuration(in directory: URL) throws -> String {
        let aasa = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/item/*"}]}]}}"#
        try Data(aasa.utf8).write(to: directory.appendingPathComponent("shop-aasa.json"))
        let config = """
            {"apps": [{"appID": "ABCDE12345.com.example.shop", "associatedDomains": ["applinks:shop.example.com"],
                       "handler": ["/usr/bin/shop", "{url}"]}],
             "associations": {"shop.example.com": "shop-aasa.json"},
             "handlers": {"phone": ["/usr/bin/dialer"]}}
            """
        let path = directory.appendingPathComponent("apps.json")
        try Data(config.utf8).write(to: path)
        return path.path
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-dispatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func encode(_ arguments: [String]) async throws -> String {
        let result = try await NFCTool.run(["ndef", "encode"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func universalLinkToConfiguredApp() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let apps = try Self.configuration(in: directory)
        let hex = try await encode(["--text", "first a text record", "--uri", "https://shop.example.com/item/7"])
        let result = try await NFCTool.run(["dispatch", hex, "--apps", apps, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try json(result.stdout)
        #expect(object["delivered"] as? Bool == true)
        #expect(object["record"] as? Int == 1)
        #expect(object["url"] as? String == "https://shop.example.com/item/7")
        #expect(object["target"] as? String == "app:ABCDE12345.com.example.shop")
        #expect(object["handler"] as? [String] == ["/usr/bin/shop", "{url}"])
        #expect(object["reason"] is NSNull)
    }

    @Test func textOutputAndSystemHandler() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let apps = try Self.configuration(in: directory)
        let result = try await NFCTool.run(["dispatch", try encode(["--uri", "tel:+15550100"]), "--apps", apps])
        #expect(result.status == 0)
        #expect(result.stdout == "record 0: tel:+15550100\ndelivered to phone\nhandler: /usr/bin/dialer\n")
    }

    @Test func pathOutsideTheFileOpensInSafari() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let apps = try Self.configuration(in: directory)
        let object = try json(
            try await NFCTool.run(["dispatch", try encode(["--uri", "https://shop.example.com/cart"]), "--apps", apps, "--json"]).stdout)
        #expect(object["target"] as? String == "system:safari")
    }

    @Test func notDeliveredExitsOne() async throws {
        let custom = try await NFCTool.run(["dispatch", try encode(["--uri", "myapp://open"]), "--json"])
        #expect(custom.status == 1)
        let object = try json(custom.stdout)
        #expect(object["delivered"] as? Bool == false && object["reason"] as? String == "unsupported-scheme")
        let text = try await NFCTool.run(["dispatch", try encode(["--text", "no link here"])])
        #expect(text.status == 1 && text.stdout.contains("not delivered: the message has no URI record"))
    }

    @Test func deviceConditions() async throws {
        let hex = try await encode(["--uri", "https://example.org/"])
        let locked = try json(try await NFCTool.run(["dispatch", hex, "--device", "locked", "--json"]).stdout)
        #expect(locked["delivered"] as? Bool == true && locked["requiresUnlock"] as? Bool == true)
        let busy = try await NFCTool.run(["dispatch", hex, "--device", "camera", "--json"])
        #expect(busy.status == 1)
        #expect(try json(busy.stdout)["reason"] as? String == "unavailable:camera")
    }

    @Test func messageFromFileAndStandardInput() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hex = try await encode(["--uri", "mailto:a@example.org"])
        let file = directory.appendingPathComponent("message.ndef")
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        try Data(bytes).write(to: file)
        #expect(try await NFCTool.run(["dispatch", "--message", file.path]).stdout.contains("delivered to mail"))
        #expect(try await NFCTool.run(["dispatch"], stdin: hex).stdout.contains("delivered to mail"))
    }

    @Test(arguments: [
        (#"{"apps": [{"associatedDomains": []}]}"#, "apps[0].appID"),
        (#"{"apps": [{"appID": "T.x", "associatedDomains": ["applinks:bad host"]}]}"#, "apps[0].associatedDomains[0]"),
        (#"{"handlers": {"browser": ["x"]}}"#, "handlers.browser"),
        (#"{"handlers": {"mail": []}}"#, "handlers.mail"),
        (
            #"{"associations": {"a.com": {"applinks": {"details": [{"appIDs": [1]}]}}}}"#,
            "associations.a.com: applinks.details[0].appIDs[0]"
        ),
        (#"{"associations": {"a.com": "missing.json"}}"#, "associations.a.com: cannot read"),
        (#"{"app": []}"#, "app: unknown key"),
        ("not json", "not valid JSON: expected null at line 1, column 2, offset 1"),
        (#"{"apps": [{"appID": "T.x""#, "not valid JSON: unterminated object (the text ends early) at line 1, column 26, offset 25"),
        ("[]", "expected a JSON object at the top level"),
    ])
    func badConfigurationsNameTheKey(config: String, expected: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("apps.json")
        try Data(config.utf8).write(to: path)
        let result = try await NFCTool.run(["dispatch", "d1010655052b31353535", "--apps", path.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(path.path) && result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test func malformedMessage() async throws {
        let result = try await NFCTool.run(["dispatch", "d10120"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("malformed NDEF"))
    }
}
