import NFCTransport
import Testing

@testable import NFCTags

/// The Type 3 operations driven without a transport: the test checks each frame and feeds the
/// answers, well-formed or not.
@Suite struct Type3OperationByHandTests {
    typealias F = Type3Frames
    static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0x8A, 0x21, 0x5D, 0x77, 0x03]
    static let litePMm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
    static let standardPMm: [UInt8] = [0x01, 0x20, 0x22, 0x04, 0x27, 0x67, 0x4E, 0xFF]
    static let mc: [UInt8] = [0xFF, 0xFF, 0xFF, 0x01, 0x07] + [UInt8](repeating: 0, count: 11)
    static let limits = ExchangeLimits(maxCommandLength: 300, maxResponseLength: 300, extendedLengthAPDUs: false, nativeCommands: .all)

    static func link(pmm: [UInt8] = litePMm, systemCode: UInt16 = 0x88B4) throws -> Type3Link {
        let target = TargetInfo(handle: 1, identifier: idm, parameters: .felica(.init(pmm: pmm, systemCode: systemCode)))
        return try Type3Link(target: target, limits: limits)
    }

    /// The frame of a transceive step.
    func frame<T>(_ step: TagStep<T>) -> [UInt8]? {
        if case .transceive(let frame, _) = step { return frame }
        return nil
    }

    /// The output of a done step.
    func output<T>(_ step: TagStep<T>) -> T? {
        if case .done(let value) = step { return value }
        return nil
    }

    /// A Lite-S read answer for blocks 0, 1, 2 and MC with this attribute block.
    func firstAnswer(_ attribute: [UInt8], data: [UInt8] = [UInt8](repeating: 0x41, count: 32)) -> [UInt8] {
        F.readAnswer(Self.idm, [attribute, Array(data.prefix(16)), Array(data.dropFirst(16).prefix(16)), Self.mc])
    }

    @Test func readsALiteSMessageInTwoCommands() throws {
        var operation = Type3ReadOperation(link: try Self.link())
        #expect(frame(try operation.start()) == F.read(Self.idm, blocks: [0, 1, 2, 0x88]))
        let data = (0..<48).map { UInt8($0) }
        let step = try operation.resume(with: .success(firstAnswer(F.attribute(ln: 40), data: data)))
        #expect(frame(step) == F.read(Self.idm, blocks: [3]))
        let done = try operation.resume(with: .success(F.readAnswer(Self.idm, [Array(data.suffix(16))])))
        let result = try #require(output(done))
        #expect(result.message == Array(data.prefix(40)))
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 208, messageLength: 40))
        #expect(throws: TagEngineError(.unexpectedResponse, "")) { try operation.resume(with: .success([])) }
    }

    @Test func everyTruncatedOrOverlongAnswerIsAnUnexpectedResponse() throws {
        let answer = firstAnswer(F.attribute(ln: 40))
        for count in 0..<answer.count {
            var operation = Type3ReadOperation(link: try Self.link())
            _ = try operation.start()
            let error = #expect(throws: TagEngineError(.unexpectedResponse, "")) {
                try operation.resume(with: .success(Array(answer.prefix(count))))
            }
            #expect(error?.reason.contains("Read Without Encryption of blocks 0, 1, 2, 0x88") == true)
        }
        var operation = Type3ReadOperation(link: try Self.link())
        _ = try operation.start()
        #expect(throws: TagEngineError(.unexpectedResponse, "")) { try operation.resume(with: .success(answer + [0])) }
    }

    @Test func answersFromAnotherCardOrWithAnotherCodeAreRefused() throws {
        var answer = firstAnswer(F.attribute())
        answer[3] ^= 0x01
        var operation = Type3ReadOperation(link: try Self.link())
        _ = try operation.start()
        let foreign = #expect(throws: TagEngineError(.unexpectedResponse, "")) { try operation.resume(with: .success(answer)) }
        #expect(foreign?.reason.contains("IDm") == true)

        var wrongCode = firstAnswer(F.attribute())
        wrongCode[0] = 0x09
        operation = Type3ReadOperation(link: try Self.link())
        _ = try operation.start()
        #expect(throws: TagEngineError(.unexpectedResponse, "")) { try operation.resume(with: .success(wrongCode)) }
    }

    @Test func statusFlagsAreTagErrorsCarryingTheFlags() throws {
        var operation = Type3ReadOperation(link: try Self.link())
        _ = try operation.start()
        let error = #expect(throws: TagEngineError(.tagError, "")) {
            try operation.resume(with: .success([0x07] + Self.idm + [0x02, 0xB1]))
        }
        #expect(error?.tagStatus == [0x02, 0xB1])
        #expect(error?.reason.contains("authentication required") == true)
    }

    @Test func theAttributeBlockIsValidated() throws {
        let cases: [([UInt8], String)] = [
            (F.attribute(ln: 40, checksum: 0), "checksum"),
            (F.attribute(nmaxb: 13, ln: 300), "Ln"),
            (F.attribute(nmaxb: 14, ln: 0), "Nmaxb"),
            (F.attribute(version: 0x21), "Ver"),
        ]
        for (block, field) in cases {
            var operation = Type3ReadOperation(link: try Self.link())
            _ = try operation.start()
            let error = #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) {
                try operation.resume(with: .success(firstAnswer(block)))
            }
            #expect(error?.reason.contains(field) == true, "\(error?.reason ?? "")")
            var status = Type3StatusOperation(link: try Self.link())
            #expect(frame(try status.start()) == F.read(Self.idm, blocks: [0, 0x88]))
            #expect(output(try status.resume(with: .success(F.readAnswer(Self.idm, [block, Self.mc])))) == .notSupported)
        }
    }

    @Test func writeInProgressIsReportedNotRead() throws {
        var operation = Type3ReadOperation(link: try Self.link())
        _ = try operation.start()
        let error = #expect(throws: TagEngineError(.invalidNDEFArea, "")) {
            try operation.resume(with: .success(firstAnswer(F.attribute(writeF: 0x0F, ln: 20))))
        }
        #expect(error?.reason.contains("write in progress") == true)
    }

    @Test func aStandardCardIsPolledAndAddressedByTheNDEFSystemsIDm() throws {
        var operation = Type3ReadOperation(link: try Self.link(pmm: Self.standardPMm, systemCode: 0x0003))
        #expect(frame(try operation.start()) == [0x00, 0x12, 0xFC, 0x01, 0x00])
        let ndefIDm = [0x21] + Self.idm.dropFirst()
        let polling = [0x01] + ndefIDm + Self.standardPMm + [0x12, 0xFC]
        #expect(frame(try operation.resume(with: .success(polling))) == F.read(ndefIDm, blocks: [0]))
        let attribute = F.attribute(nbr: 12, nbw: 10, nmaxb: 64, ln: 20)
        #expect(frame(try operation.resume(with: .success(F.readAnswer(ndefIDm, [attribute])))) == F.read(ndefIDm, blocks: [1, 2]))
        let data = (0..<32).map { UInt8($0) }
        let done = try operation.resume(with: .success(F.readAnswer(ndefIDm, [Array(data.prefix(16)), Array(data.suffix(16))])))
        #expect(output(done)?.message == Array(data.prefix(20)))
    }

    @Test func noAnswerToPollingMeansNoNDEFAndOtherFailuresPassThrough() throws {
        var status = Type3StatusOperation(link: try Self.link(pmm: Self.standardPMm, systemCode: 0x0003))
        _ = try status.start()
        #expect(output(try status.resume(with: .failure(TransportError(.timeout)))) == .notSupported)

        var read = Type3ReadOperation(link: try Self.link(pmm: Self.standardPMm, systemCode: 0x0003))
        _ = try read.start()
        #expect(throws: TagEngineError(.notFormatted, "")) { try read.resume(with: .failure(TransportError(.timeout))) }

        read = Type3ReadOperation(link: try Self.link(pmm: Self.standardPMm, systemCode: 0x0003))
        _ = try read.start()
        #expect(throws: TagEngineError(.tagLost, "")) { try read.resume(with: .failure(TransportError(.tagLost))) }

        for count in [0, 1, 9, 16, 18, 20] {
            read = Type3ReadOperation(link: try Self.link(pmm: Self.standardPMm, systemCode: 0x0003))
            _ = try read.start()
            let answer = Array(([0x01] + Self.idm + Self.standardPMm + [0x12, 0xFC, 0x00]).prefix(count))
            #expect(throws: TagEngineError(.unexpectedResponse, "")) { try read.resume(with: .success(answer)) }
        }
    }

    @Test func aWriteFollowsTheWriteFOrder() throws {
        let message = [UInt8](repeating: 0x42, count: 20)
        var operation = Type3WriteOperation(link: try Self.link(), message: message)
        #expect(frame(try operation.start()) == F.read(Self.idm, blocks: [0, 1, 2, 0x88]))
        let zeros = [UInt8](repeating: 0, count: 32)
        var step = try operation.resume(with: .success(firstAnswer(F.attribute(ln: 0), data: zeros)))
        let expected: [(UInt16, [UInt8])] = [
            (0, F.attribute(writeF: 0x0F, ln: 0)),
            (1, Array(message.prefix(16))),
            (2, Array(message.suffix(4)) + [UInt8](repeating: 0, count: 12)),
            (0, F.attribute(ln: 20)),
        ]
        for (block, data) in expected {
            #expect(frame(step) == F.write(Self.idm, block: block, data: data))
            step = try operation.resume(with: .success(F.writeAnswer(Self.idm)))
        }
        #expect(output(step) != nil)
    }

    @Test func aRefusedWriteIsATagError() throws {
        let first = F.readAnswer(Self.idm, [F.attribute(), F.zeros, Self.mc])
        var operation = Type3WriteOperation(link: try Self.link(), message: [1, 2, 3])
        #expect(frame(try operation.start()) == F.read(Self.idm, blocks: [0, 1, 0x88]))
        #expect(frame(try operation.resume(with: .success(first))) == F.write(Self.idm, block: 0, data: F.attribute(writeF: 0x0F)))
        let error = #expect(throws: TagEngineError(.tagError, "")) {
            try operation.resume(with: .success([0x09] + Self.idm + [0x01, 0xA8]))
        }
        #expect(error?.tagStatus == [0x01, 0xA8])
        for count in [0, 5, 10, 12] {
            var again = Type3WriteOperation(link: try Self.link(), message: [1, 2, 3])
            _ = try again.start()
            _ = try again.resume(with: .success(first))
            let answer = Array((F.writeAnswer(Self.idm) + [0]).prefix(count))
            #expect(throws: TagEngineError(.unexpectedResponse, "")) { try again.resume(with: .success(answer)) }
        }
    }
}
