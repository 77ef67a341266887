import NFCTransport

/// The engine for each tag family.
public enum TagEngines {
    /// The engine that handles a family, with its default (fastest) strategy.
    public static func engine(for family: TagFamily) -> any NDEFTagEngine {
        switch family {
        case .type1: Type1Engine()
        case .type2: Type2Engine()
        case .type3: Type3Engine()
        case .type4: Type4Engine()
        case .type5: Type5Engine()
        }
    }
}
