import NFCTransport

/// A tag's memory as `nfc dump` shows it: the rows that were read and the spans that were not.
public struct TagMemoryDump: Sendable {
    /// Memory the tag gave, as (address label, bytes) rows in address order.
    public var rows: [(String, [UInt8])]
    /// Spans the tag holds but refused to give, with the reason; empty when the dump is complete.
    public var unreadable: [Gap]

    /// A span of memory the tag refused to read.
    public struct Gap: Sendable, Hashable {
        /// The first and last address labels of the span (`04h`, `2Ch`).
        public var first: String
        /// The last address label of the span (`2Ch`).
        public var last: String
        /// How many rows (pages, blocks) the span covers.
        public var count: Int
        /// Why, for people ("password-protected, locked or absent").
        public var reason: String

        /// A gap from its first and last address labels, its row count and the reason.
        public init(first: String, last: String, count: Int, reason: String) {
            self.first = first
            self.last = last
            self.count = count
            self.reason = reason
        }
    }

    /// Whether everything the tag holds was read.
    public var isComplete: Bool { unreadable.isEmpty }

    /// A dump from the rows read and the spans refused (none by default: a complete dump).
    public init(rows: [(String, [UInt8])], unreadable: [Gap] = []) {
        self.rows = rows
        self.unreadable = unreadable
    }
}

extension NDEFTagEngine {
    /// The dump with what could not be read; engines that cannot tell report only the rows.
    public func memoryDump(on connection: any TagConnection) async throws(TagEngineError) -> TagMemoryDump {
        TagMemoryDump(rows: try await dump(on: connection))
    }
}
