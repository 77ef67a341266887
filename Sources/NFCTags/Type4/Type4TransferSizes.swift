import ISO7816
import NFCTransport

/// How much one READ BINARY and one UPDATE BINARY may carry, from the tag's CC (MLe, MLc) and
/// the reader's limits (extended APDUs, buffer sizes).
///
/// NFC Forum Type 4 Tag 2.0 §5.1.1: MLe and MLc bound the R-APDU and C-APDU data of READ and
/// UPDATE BINARY; values above 255/256 need extended-length APDUs (ISO/IEC 7816-4:2020 §5.1),
/// used only when the reader carries them. The fewer, larger exchanges the better: each one costs
/// two turnarounds and the tag's processing, so with extended APDUs a whole 8 KB message comes
/// back from one READ BINARY, chained by the ISO-DEP layer below.
public struct Type4TransferSizes: Sendable, Hashable {
    /// Ne for READ BINARY: the most response data one command asks for.
    public var readLength: Int
    /// Nc for UPDATE BINARY: the most command data one command carries.
    public var updateLength: Int

    /// Sizes as given, in bytes, not checked against a CC or reader.
    public init(readLength: Int, updateLength: Int) {
        self.readLength = readLength
        self.updateLength = updateLength
    }

    /// The sizes for a tag on a connection.
    /// - Parameters:
    ///   - capabilities: the tag's CC (MLe, MLc).
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on Ne (to emulate stacks that read in smaller pieces).
    public init(capabilities: Type4Capabilities, limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        let mle = capabilities.maxReadLength
        let responseRoom = limits.maxResponseLength - 2
        var read: Int
        if limits.extendedLengthAPDUs && mle > CommandAPDU.maximumShortExpectedLength {
            read = min(mle, CommandAPDU.maximumExtendedExpectedLength, responseRoom)
        } else {
            read = min(mle, CommandAPDU.maximumShortExpectedLength, responseRoom)
        }
        if let maximumReadLength { read = min(read, maximumReadLength) }
        readLength = max(read, 1)

        let mlc = capabilities.maxUpdateLength
        var update: Int
        if limits.extendedLengthAPDUs && mlc > 255 {
            update = min(mlc, 65_535, limits.maxCommandLength - 7)
        } else {
            update = min(mlc, 255, limits.maxCommandLength - 5)
        }
        updateLength = max(update, 1)
    }

    /// The data bytes one READ BINARY at `offset` may ask for (a `B1` answer's `53` header counts
    /// against Ne).
    func readCount(at offset: Int) -> Int {
        offset > Type4Commands.largestShortOffset ? Type4Commands.dataFitting(readLength) : readLength
    }

    /// The data bytes one UPDATE BINARY at `offset` may carry (a `D7` command's offset and data
    /// objects count against Nc).
    func updateCount(at offset: Int) -> Int {
        offset > Type4Commands.largestShortOffset ? Type4Commands.dataFitting(updateLength - 5) : updateLength
    }

    /// The UPDATE BINARY commands that turn `old` into `new` at `offset`: chunks of at most
    /// `updateCount(at:)` bytes that start at the first differing byte and end at the last, so
    /// ranges that already hold the wanted bytes are not written again.
    ///
    /// - Parameters:
    ///   - new: the bytes the file should hold from `offset` on.
    ///   - offset: where in the file `new` starts, in bytes.
    ///   - old: what the file holds from `offset` on, as far as it is known (bytes of `new`
    ///     beyond it are written); `nil` to write everything.
    /// - Throws: `.unsupported` when MLc is too small for an offset data object.
    public func updates(writing new: [UInt8], at offset: Int, over old: [UInt8]?) throws(TagEngineError) -> [(offset: Int, data: [UInt8])] {
        let previous = old ?? []
        func same(_ index: Int) -> Bool { index < previous.count && previous[index] == new[index] }
        var result: [(offset: Int, data: [UInt8])] = []
        var position = 0
        while position < new.count {
            if same(position) {
                position += 1
                continue
            }
            let room = updateCount(at: offset + position)
            guard room > 0 else {
                throw TagEngineError(
                    .unsupported,
                    "MLc \(updateLength) leaves no room for data after UPDATE BINARY D7's offset object at \(offset + position)")
            }
            var end = min(new.count, position + room)
            while end > position + 1 && same(end - 1) { end -= 1 }
            result.append((offset + position, Array(new[position..<end])))
            position = end
        }
        return result
    }
}
