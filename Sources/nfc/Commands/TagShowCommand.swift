import ArgumentParser
import NDEFJSON
import NFCJSON
import NFCSimulator
import NFCTransport

/// `nfc tag show FILE [--json]`
struct TagShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Check a tag image and print what tag it describes."
    )

    @Argument(help: "The tag image.")
    var image: String

    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() throws {
        let tag: any VirtualTag
        do {
            tag = try TagImageFile.load(image)
        } catch {
            throw CLIError(imageError: error, path: image)
        }
        if let warning = TagImageOutput.exposureWarning(tag, at: image) { Output.error(warning) }
        if json {
            Output.line(TagSummary.json(tag).serialized(pretty: true))
        } else {
            Output.line(TagSummary.line(tag))
        }
    }
}

/// How the CLI describes a virtual tag.
enum TagSummary {
    static func line(_ tag: any VirtualTag) -> String {
        let kind = VirtualTagKind(of: tag).map(\.rawValue) ?? "\(type(of: tag))"
        return "\(kind), \(tag.technology), UID \(tag.identifier.map { hexByte($0) }.joined())"
    }

    static func json(_ tag: any VirtualTag) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("type", .string(VirtualTagKind(of: tag).map(\.rawValue) ?? "\(type(of: tag))")),
            ("technology", .string(tag.technology.rawValue)),
            ("uid", .string(tag.identifier.map { hexByte($0) }.joined())),
        ]
        switch tag.parameters {
        case .iso14443A(let a):
            fields.append(("atqa", .string(hexByte(UInt8(a.atqa >> 8)) + hexByte(UInt8(a.atqa & 0xFF)))))
            fields.append(("sak", .string(hexByte(a.sak))))
            if let ats = a.ats { fields.append(("ats", .string(ats.bytes.map { hexByte($0) }.joined()))) }
        case .iso14443B:
            break
        case .iso15693(let v):
            fields.append(("dsfid", .string(hexByte(v.dsfid))))
        case .felica(let f):
            fields.append(("pmm", .string(f.pmm.map { hexByte($0) }.joined())))
            fields.append(("systemCode", .string(hexByte(UInt8(f.systemCode >> 8)) + hexByte(UInt8(f.systemCode & 0xFF)))))
        }
        return .object(fields)
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
