import NFCTransport

/// The engine for each tag family.
public enum TagEngines {
    /// The engine that handles a family.
    public static func engine(for family: TagFamily) -> any NDEFTagEngine {
        switch family {
        case .type3: Type3Engine()
        case .type4: Type4Engine()
        case .type5: Type5Engine()
        case .type2: PendingEngine(family: family)
        }
    }
}

/// Placeholder until the family's engine lands (this session's work in progress): every call
/// reports `.unsupported`.
struct PendingEngine: NDEFTagEngine {
    static var family: TagFamily { .type2 }
    let family: TagFamily
    private var error: TagEngineError { TagEngineError(.unsupported, "no \(family) engine in this build") }
    func identify(on connection: any TagConnection) async throws(TagEngineError) -> TagIdentity { throw error }
    func queryStatus(on connection: any TagConnection) async throws(TagEngineError) -> NDEFStatus { throw error }
    func readNDEF(on connection: any TagConnection) async throws(TagEngineError) -> NDEFReadResult { throw error }
    func writeNDEF(_ message: [UInt8], on connection: any TagConnection) async throws(TagEngineError) { throw error }
    func format(on connection: any TagConnection) async throws(TagEngineError) { throw error }
    func makeReadOnly(on connection: any TagConnection) async throws(TagEngineError) { throw error }
    func dump(on connection: any TagConnection) async throws(TagEngineError) -> [(String, [UInt8])] { throw error }
}
