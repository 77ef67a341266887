extension ISO15693Tag {
    /// The grid on which a tag answers a write when the option flag is clear: t1 plus a multiple of
    /// 4096/fc (ISO/IEC 15693-3:2009 §9.1 and §10.4.2).
    static let responseGrid: Duration = .nanoseconds(Int64((4096.0 / AirTimeModel.carrierFrequency * 1e9).rounded()))

    /// How long after a write request with the option flag set the reader sends the EOF that asks
    /// for the answer: the 20 ms ISO/IEC 15693-3:2009 §10.4.2 allows a write, plus the EOF itself
    /// (37.76 µs at 1-of-4).
    static let optionFlagEOFDelay: Duration = .milliseconds(20) + .nanoseconds(37_760)

    /// The time a write-type command spends before the tag answers.
    ///
    /// Option flag clear: the programming time of `blocks` blocks, rounded up to the 4096/fc
    /// response grid. Option flag set: the tag waits for the reader's EOF (20 ms after the request),
    /// or for the end of programming when that is later.
    /// - Parameters:
    ///   - blocks: EEPROM blocks programmed (0 for an error answer).
    ///   - option: the request's option flag.
    func writeProcessing(blocks: Int, option: Bool) -> Duration {
        let programming = model.blockProgrammingTime * blocks
        if option { return max(programming, .milliseconds(20)) + .nanoseconds(37_760) }
        guard blocks > 0 else { return .zero }
        var slots = 0
        var waited: Duration = .zero
        while waited < programming {
            waited += Self.responseGrid
            slots += 1
        }
        return Self.responseGrid * slots
    }

    /// A successful answer: response flags 0x00 and the payload.
    func ok(
        _ payload: [UInt8], _ request: ISO15693Request, processing: Duration = .zero,
        writesMemory: Bool = false, fast: Bool = false
    ) -> TagAnswer {
        answer(
            [0x00] + payload, flags: request.flags, requestLength: request.frame.count,
            processing: processing, writesMemory: writesMemory, fast: fast
        )
    }

    /// An error answer: response flags 0x01 and the error code (ISO/IEC 15693-3:2009 §7.4.2).
    func error(
        _ code: ISO15693ErrorCode, _ request: ISO15693Request, processing: Duration = .zero, fast: Bool = false
    ) -> TagAnswer {
        answer([0x01, code.rawValue], flags: request.flags, requestLength: request.frame.count, processing: processing, fast: fast)
    }

    /// An answer with its air frames.
    ///
    /// At the high data rate with one sub-carrier the field derives the frames itself. The low data
    /// rate (6.62 kbit/s, four times slower) and the fast commands of the ST25DV (the tag's rate
    /// doubled, SOF and EOF halved too) are expressed as an explicit tag frame of so many bits that
    /// ``AirTimeModel``'s formula gives the exact duration: a tag frame of n bytes plus CRC at k
    /// quarters of the normal bit time lasts k/4 · 302.08 µs · (n + 3), which is `.bits(2k(n + 3) − 8)`.
    /// Two sub-carriers are timed as one.
    func answer(
        _ bytes: [UInt8], flags: ISO15693RequestFlags, requestLength: Int, processing: Duration = .zero,
        writesMemory: Bool = false, fast: Bool = false
    ) -> TagAnswer {
        let highRate = flags.contains(.highDataRate)
        if highRate, !fast {
            return TagAnswer(.bytes(bytes), processingTime: processing, writesMemory: writesMemory)
        }
        let frame = AirFrame(
            reader: .bytes(requestLength), tag: Self.tagFrame(bytes.count, highRate: highRate, fast: fast),
            processing: processing
        )
        return TagAnswer(.bytes(bytes), processingTime: processing, frames: [frame], writesMemory: writesMemory)
    }

    /// The tag's frame of `count` payload bytes at a data rate (see ``answer(_:flags:requestLength:processing:writesMemory:fast:)``).
    static func tagFrame(_ count: Int, highRate: Bool, fast: Bool) -> AirFrame.Part {
        let quarters = (highRate ? 4 : 16) / (fast ? 2 : 1)
        if quarters == 4 { return .bytes(count) }
        return .bits(2 * quarters * (count + 3) - 8)
    }
}
