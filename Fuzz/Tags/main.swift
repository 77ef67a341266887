import Foundation
import NDEF
import NFCSimulator
import NFCTransport

@testable import NFCTags

/// libFuzzer target for the NFC Forum tag engines (Type 1, 2, 3, 4, 5) and their parsers.
///
/// Input: `[kind] [operation] answers…` — the kind picks a tag (target info and exchange limits
/// taken from a simulated tag of that kind), the operation an engine call (identify, status,
/// read, dump, write, format, lock) or a direct parser (Type 2 CC and GET_VERSION, Type 3
/// attribute block and FeliCa responses, Type 4 CC file, Type 5 CC and system information, Type 1
/// RALL answer with its CC and TLV walk); the
/// rest is the tag's answers in ``AnswerScript`` framing.
///
/// Asserts: every failure is a typed `TagEngineError` (the engines' `throws(TagEngineError)`),
/// never a trap; an NDEF message read back is no longer than all the bytes the tag sent; a CC that
/// parses re-parses from its own bytes to the same value.
///
/// `FUZZ_MAKE_SEEDS=DIR` writes the seed corpus (answers recorded from the simulator) and exits.
struct Kind: @unchecked Sendable {
    let name: String
    let engine: any NDEFTagEngine
    let target: TargetInfo
    let limits: ExchangeLimits
    let tag: VirtualTagKind
}

nonisolated(unsafe) var kinds: [Kind] = []

let operations = ["identify", "status", "read", "dump", "write", "format", "lock"]
let parserOperations = 7..<17

func engine(for family: TagFamily) -> any NDEFTagEngine {
    switch family {
    case .type1: Type1Engine()
    case .type2: Type2Engine()
    case .type3: Type3Engine()
    case .type4: Type4Engine()
    case .type5: Type5Engine()
    }
}

/// A simulated tag of `kind` in a field, connected.
func connect(_ kind: VirtualTagKind) async throws -> (SimulatedField, any TagConnection) {
    let field = SimulatedField()
    _ = await field.place(try kind.make())
    guard let target = try await field.targets(matching: .all).first else { throw TransportError(.noSuchTarget, "no tag") }
    return (field, try await field.connect(to: target, meter: AirTimeMeter()))
}

let sample: [UInt8] = [0xD1, 0x01, 0x10, 0x55, 0x04] + Array("example.org/nfc".utf8)

func run(_ operation: Int, _ engine: any NDEFTagEngine, _ connection: any TagConnection) async throws(TagEngineError) -> [UInt8] {
    switch operation {
    case 0:
        _ = try await engine.identify(on: connection)
        return []
    case 1:
        _ = try await engine.queryStatus(on: connection)
        return []
    case 2: return try await engine.readNDEF(on: connection).message
    case 3: return try await engine.dump(on: connection).flatMap(\.1)
    case 4:
        try await engine.writeNDEF(sample, on: connection)
        return []
    case 5:
        try await engine.format(on: connection)
        return []
    default:
        try await engine.makeReadOnly(on: connection)
        return []
    }
}

func parsers(_ operation: Int, _ bytes: [UInt8]) {
    switch operation {
    case 7:
        if case .valid(let cc) = Type2CapabilityContainer.parse(bytes, userMemorySize: nil) {
            guard case .valid(let again) = Type2CapabilityContainer.parse(cc.bytes, userMemorySize: nil), again == cc else {
                fatalError("Type 2 CC does not re-parse")  // trap-ok: fuzz oracle
            }
        }
        _ = Type2CapabilityContainer.parse(bytes, userMemorySize: 868)
    case 8: _ = Type2Version(bytes)
    case 9:
        if let info = try? Type3AttributeInformation(validating: bytes) {
            _ = info.description
        }
    case 10:
        _ = Type4Capabilities.length(toParse: bytes)
        if let cc = try? Type4Capabilities(parsing: bytes) {
            guard let again = try? Type4Capabilities(parsing: cc.bytes), again == cc else {
                fatalError("Type 4 CC does not re-parse")  // trap-ok: fuzz oracle
            }
        }
    case 11:
        _ = Type5CapabilityContainer.neededLength(bytes[...])
        _ = try? Type5CapabilityContainer(parsing: bytes[...])
    case 12:
        let uid = Array(bytes.prefix(8))
        _ = try? Type5SystemInformation(parsing: bytes.dropFirst(8), extended: false, wireUID: uid)
        _ = try? Type5SystemInformation(parsing: bytes.dropFirst(8), extended: true, wireUID: uid)
    case 13: _ = try? FeliCaResponse.polling(bytes)
    case 14:
        let idm = Array(bytes.prefix(8))
        _ = try? FeliCaResponse.read(Array(bytes.dropFirst(8)), idm: idm, blocks: [0, 1, 2, 3])
        _ = try? FeliCaResponse.write(Array(bytes.dropFirst(8)), idm: idm, blocks: [0])
    case 15:
        _ = try? FeliCaResponse.systemCodes(Array(bytes.dropFirst(8)), idm: Array(bytes.prefix(8)))
    default:
        guard let memory = try? Type1Memory(readAll: Array(bytes.prefix(122))) else { return }
        _ = try? Type1Snapshot(memory: memory, uid: [0, 0, 0, 0]).area()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTags(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2, !kinds.isEmpty else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let operation = Int(bytes[1]) % parserOperations.upperBound
    if parserOperations.contains(operation) {
        parsers(operation, Array(bytes.dropFirst(2)))
        return 0
    }
    let kind = kinds[Int(bytes[0]) % kinds.count]
    let script = AnswerScript(bytes.dropFirst(2))
    let connection = ScriptedConnection(target: kind.target, limits: kind.limits, script: script)
    let engine = kind.engine
    let read = runBlocking { () async -> [UInt8] in
        (try? await run(operation, engine, connection)) ?? []
    }
    // A dump also shows what the reader knows (IDm, UID): only the NDEF message must come from the tag.
    if operation == 2, read.count > size {
        fatalError("\(kind.name) \(operations[operation]) returned \(read.count) bytes from a \(size)-byte script")  // trap-ok: fuzz oracle
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    kinds = runBlocking { () async -> [Kind] in
        var kinds: [Kind] = []
        // New kinds go at the end: a seed's first byte picks its kind by index.
        for tag in [VirtualTagKind.ntag215, .ultralight, .type4, .slix2, .iso15693_2k, .felicaLiteS, .felica, .topaz512, .topaz96] {
            guard let (_, connection) = try? await connect(tag) else { continue }
            let family = TagFamily(connection.target)
            kinds.append(
                Kind(name: tag.rawValue, engine: engine(for: family), target: connection.target, limits: connection.limits, tag: tag))
        }
        return kinds
    }
    if let directory = ProcessInfo.processInfo.environment["FUZZ_MAKE_SEEDS"] {
        makeSeeds(directory)
        exit(0)
    }
    return 0
}

/// Records each engine operation against a simulated tag holding a short URI message.
func makeSeeds(_ directory: String) {
    let count = runBlocking { () async -> Int in
        var written = 0
        for (index, kind) in kinds.enumerated() {
            for operation in 0..<operations.count {
                guard let (_, inner) = try? await connect(kind.tag) else { continue }
                try? await kind.engine.writeNDEF(sample, on: inner)
                let recorder = RecordingConnection(inner)
                _ = try? await run(operation, kind.engine, recorder)
                let seed = [UInt8(index), UInt8(operation)] + AnswerScript.encode(recorder.answers)
                let url = URL(fileURLWithPath: "\(directory)/\(kind.name)-\(operations[operation])")
                try? Data(seed).write(to: url)
                written += 1
            }
        }
        return written
    }
    print("wrote \(count) seeds to \(directory)")
}
