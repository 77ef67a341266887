import NFCBytes

/// What an engine learned about a tag's multi-block reads, kept between operations so a tag that
/// refused a long read is not asked again: the most blocks it answered, or that it only takes
/// Read Single Block.
struct Type5ReadLearning: Sendable, Hashable {
    /// The most blocks one Read Multiple Blocks may ask for (`nil`: no limit learned).
    var maximumBlocks: Int?
    /// The tag refused Read Multiple Blocks of even one block: use Read Single Block.
    var singleBlockOnly = false
}

/// The engine's memory of ``Type5ReadLearning`` per UID.
///
/// `Sendable` through its lock (`Guarded`); the engine is a value type sharing one instance between copies.
final class Type5LearnedLimits: Sendable {
    private let entries = Guarded<[[UInt8]: Type5ReadLearning]>([:])

    /// What is known about the tag with this UID.
    func learning(for uid: [UInt8]) -> Type5ReadLearning {
        entries.withLock { $0[uid] ?? Type5ReadLearning() }
    }

    /// Remembers what an operation learned (it started from ``learning(for:)``, so this only tightens).
    func store(_ learning: Type5ReadLearning, for uid: [UInt8]) {
        entries.withLock { table in
            guard learning != Type5ReadLearning() || table[uid] != nil else { return }
            table[uid] = learning
        }
    }
}
