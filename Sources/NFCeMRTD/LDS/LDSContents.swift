import Foundation
import ISO7816

/// EF.COM (ICAO Doc 9303 Part 10 §4.6.1): the LDS and Unicode versions and the data groups present.
public struct CommonData: Sendable, Hashable {
    /// `5F01`: the LDS version, e.g. `0107` (1.7).
    public let ldsVersion: String
    /// `5F36`: the Unicode version, e.g. `040000`.
    public let unicodeVersion: String
    /// `5C`: the data groups present, in the order listed.
    public let dataGroups: [LDSFile]

    /// Parses EF.COM's bytes.
    /// - Throws: ``EMRTDError`` `.malformedFile` naming what is missing or malformed.
    public init(_ bytes: [UInt8]) throws(EMRTDError) {
        let fields = try LDSTLV.contents(of: bytes, file: .com)
        guard let list = fields.first(tag: 0x5C) else { throw EMRTDError(.malformedFile, file: "EF.COM", "no tag list (5C)") }
        ldsVersion = String(decoding: fields.first(tag: 0x5F01)?.value ?? [], as: UTF8.self)
        unicodeVersion = String(decoding: fields.first(tag: 0x5F36)?.value ?? [], as: UTF8.self)
        dataGroups = list.value.compactMap { LDSFile(tag: $0) }
    }
}

/// DG1 (Part 10 §4.7.1): the MRZ as printed, in `5F1F`.
public enum DataGroup1 {
    /// The machine readable zone DG1 holds.
    /// - Throws: ``EMRTDError`` `.malformedFile` when `5F1F` is missing; `.invalidMRZ` when it does not parse.
    public static func parse(_ bytes: [UInt8]) throws(EMRTDError) -> MachineReadableZone {
        let fields = try LDSTLV.contents(of: bytes, file: .dataGroup(1))
        guard let mrz = fields.first(tag: 0x5F1F) else { throw EMRTDError(.malformedFile, file: "DG1", "no MRZ data element (5F1F)") }
        guard let text = String(validating: mrz.value, as: UTF8.self) else {
            throw EMRTDError(.malformedFile, file: "DG1", "the MRZ is not text")
        }
        do { return try MachineReadableZone(text) } catch { throw EMRTDError(.invalidMRZ, file: "DG1", error.reason) }
    }
}

/// A face image from DG2 (Part 10 §4.7.2; ISO/IEC 19794-5:2005 §5.4–5.7 for the record inside
/// the biometric data block `5F2E`).
public struct FaceImage: Sendable, Hashable {
    /// How the image is coded (ISO/IEC 19794-5 §5.7.2).
    public enum Format: String, Sendable, Hashable {
        /// `00`: JPEG (ISO/IEC 10918).
        case jpeg
        /// `01`: JPEG 2000 (ISO/IEC 15444).
        case jpeg2000
    }

    /// The coding.
    public let format: Format
    /// Width and height in pixels, as the record states them.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The image bytes, ready to be written to a `.jpg` or `.jp2` file.
    public let data: [UInt8]

    /// The first face image of DG2's bytes.
    /// - Throws: ``EMRTDError`` `.malformedFile` naming the part of the record at fault.
    public init(dataGroup2 bytes: [UInt8]) throws(EMRTDError) {
        let group = try LDSTLV.contents(of: bytes, file: .dataGroup(2))
        guard let template = group.first(tag: 0x7F61) else {
            throw EMRTDError(.malformedFile, file: "DG2", "no biometric information group template (7F61)")
        }
        let instances = try LDSTLV.parse(template.value, file: "DG2")
        guard let instance = instances.first(tag: 0x7F60) else {
            throw EMRTDError(.malformedFile, file: "DG2", "no biometric information template (7F60)")
        }
        let parts = try LDSTLV.parse(instance.value, file: "DG2")
        guard let block = parts.first(tag: 0x5F2E) ?? parts.first(tag: 0x7F2E) else {
            throw EMRTDError(.malformedFile, file: "DG2", "no biometric data block (5F2E)")
        }
        try self.init(facialRecord: block.value)
    }

    /// Reads an ISO/IEC 19794-5 facial record: the 14-byte header (`FAC\0`, version, length,
    /// count), then the first record's 20-byte information, its feature points (8 bytes each) and
    /// the 12-byte image information before the image data.
    init(facialRecord record: [UInt8]) throws(EMRTDError) {
        guard record.count >= 14 + 20 + 12, Array(record[0..<4]) == Array("FAC\0".utf8) else {
            throw EMRTDError(.malformedFile, file: "DG2", "the biometric data block is not an ISO/IEC 19794-5 facial record (FAC)")
        }
        let blockStart = 14
        let blockLength = record[blockStart..<(blockStart + 4)].reduce(0) { $0 << 8 | Int($1) }
        let points = Int(record[blockStart + 4]) << 8 | Int(record[blockStart + 5])
        let imageInformation = blockStart + 20 + points * 8
        guard imageInformation + 12 <= record.count, blockLength >= 20 + points * 8 + 12,
            blockStart + blockLength <= record.count
        else {
            throw EMRTDError(.malformedFile, file: "DG2", "the facial record's lengths run past its \(record.count) bytes")
        }
        switch record[imageInformation + 1] {
        case 0: format = .jpeg
        case 1: format = .jpeg2000
        default:
            throw EMRTDError(.malformedFile, file: "DG2", "image data type \(record[imageInformation + 1]) is neither JPEG nor JPEG 2000")
        }
        width = Int(record[imageInformation + 2]) << 8 | Int(record[imageInformation + 3])
        height = Int(record[imageInformation + 4]) << 8 | Int(record[imageInformation + 5])
        data = Array(record[(imageInformation + 12)..<(blockStart + blockLength)])
    }
}

/// DG11 (additional personal details) and DG12 (additional document details), Part 10 §4.7.11
/// and §4.7.12: text fields by tag.
public struct AdditionalDetails: Sendable, Hashable {
    /// The fields present, by name (`full name`, `place of birth`, `date of issue`…), in file order.
    public let fields: [(name: String, value: String)]

    /// The names of the text tags of DG11 and DG12.
    static let names: [UInt32: String] = [
        0x5F0E: "full name", 0x5F0F: "other names", 0x5F10: "personal number", 0x5F2B: "full date of birth",
        0x5F11: "place of birth", 0x5F42: "address", 0x5F12: "telephone", 0x5F13: "profession", 0x5F14: "title",
        0x5F15: "personal summary", 0x5F18: "custody information", 0x5F19: "issuing authority",
        0x5F26: "date of issue", 0x5F1B: "endorsements", 0x5F1C: "tax or exit requirements", 0x5F55: "personalization time",
        0x5F56: "personalization device",
    ]

    /// Parses DG11 or DG12; tags it does not name are left out.
    /// - Throws: ``EMRTDError`` `.malformedFile` when the bytes are not the group's TLV.
    public init(_ bytes: [UInt8], file: LDSFile) throws(EMRTDError) {
        let objects = try LDSTLV.contents(of: bytes, file: file)
        fields = objects.compactMap { object in
            guard let name = Self.names[object.tag] else { return nil }
            return (name, String(decoding: object.value, as: UTF8.self))
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

/// BER-TLV parsing that names the file at fault.
enum LDSTLV {
    /// The objects inside a file's outer TLV, after checking its tag.
    static func contents(of bytes: [UInt8], file: LDSFile) throws(EMRTDError) -> [BERTLV] {
        let outer = try parse(bytes, file: file.description)
        guard outer.count == 1, let first = outer.first, first.tag == UInt32(file.tag) else {
            throw EMRTDError(.malformedFile, file: file.description, "the file is not one object with tag \(PassportChannel.hex(file.tag))")
        }
        return try parse(first.value, file: file.description)
    }

    static func parse(_ bytes: [UInt8], file: String) throws(EMRTDError) -> [BERTLV] {
        do { return try BERTLV.parseAll(bytes) } catch { throw EMRTDError(.malformedFile, file: file, "\(error)") }
    }
}
