import ArgumentParser
import NDEFJSON
import NFCBytes
import NFCFIDO
import NFCJSON

/// `nfc fido info [--u2f] [--json]`
struct FIDOInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print what the security key answers: SELECT, authenticatorGetInfo (or U2F VERSION), PIN retries."
    )

    @OptionGroup var options: FIDOOptions

    func run() async throws {
        let u2f = options.u2f
        let (select, info, u2fVersion, retries) = try await FIDOCLI.run(options, access: .read) {
            client, version -> (FIDOClient.Version, AuthenticatorInfo?, String?, Int?) in
            if u2f { return (version, nil, try await client.u2fVersion(), nil) }
            let info = try await client.getInfo()
            let retries = info.options["clientPin"] == true ? try await client.getPINRetries() : nil
            return (version, info, nil, retries)
        }
        if options.json {
            var fields: [(String, JSONValue)] = [("select", .string(select.rawValue))]
            if let u2fVersion { fields.append(("u2fVersion", .string(u2fVersion))) }
            if let info {
                fields += [
                    ("versions", .array(info.versions.map(JSONValue.string))),
                    ("aaguid", .string(Hex.encode(info.aaguid))),
                    ("options", .object(info.options.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.bool($0.value)) })),
                    ("maxMsgSize", info.maxMsgSize.map { .int(Int64($0)) } ?? .null),
                    ("pinUvAuthProtocols", .array(info.pinUvAuthProtocols.map { .int(Int64($0)) })),
                    ("algorithms", .array(info.algorithms.map { .int(Int64($0)) })),
                    ("transports", .array(info.transports.map(JSONValue.string))),
                    ("extensions", .array(info.extensions.map(JSONValue.string))),
                    ("pinRetries", retries.map { .int(Int64($0)) } ?? .null),
                ]
            }
            FIDOCLI.printJSON(fields)
            return
        }
        var lines: [(String, String)] = [("select", select.rawValue)]
        if let u2fVersion { lines.append(("U2F version", u2fVersion)) }
        if let info {
            lines += [
                ("versions", info.versions.joined(separator: ", ")),
                ("AAGUID", Hex.encode(info.aaguid)),
                ("options", info.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")),
                ("maxMsgSize", info.maxMsgSize.map(String.init) ?? "-"),
                ("PIN protocols", info.pinUvAuthProtocols.map(String.init).joined(separator: ", ")),
                ("algorithms", info.algorithms.map { $0 == -7 ? "ES256 (-7)" : String($0) }.joined(separator: ", ")),
                ("transports", info.transports.joined(separator: ", ")),
            ]
            if let retries { lines.append(("PIN retries", String(retries))) }
        }
        FIDOCLI.printText(lines)
    }
}
