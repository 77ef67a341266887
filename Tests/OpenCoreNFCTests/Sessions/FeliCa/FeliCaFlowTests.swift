import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// FeliCa as published apps use it: detect, connect, then the commands of `NFCFeliCaTag`.
extension SessionTests {
    @Suite struct FeliCaFlowTests {
        let liteSIDm = Data(FeliCaLiteSTag.defaultIDm)
        let readOnly = Data([0x0B, 0x00])
        let readWrite = Data([0x09, 0x00])

        @Test func liteSReadPollWriteAndStatusFlags() async throws {
            let felica = try await FeliCaSessionBench.start(FeliCaLiteSTag(formatting: .ndef))
            let tag = felica.tag
            #expect(tag.currentIDm == liteSIDm)
            // Detected by Polling for the app's first listed system code that answers: 12FC (the
            // formatted Lite-S enables it).
            #expect(tag.currentSystemCode == Data([0x12, 0xFC]))

            // The NFC Forum Type 3 attribute block through the read-only service.
            let (flag1, flag2, blocks) = try await tag.readWithoutEncryption(serviceCodeList: [readOnly], blockList: [element(0)])
            #expect(flag1 == 0 && flag2 == 0)
            #expect(blocks.count == 1)
            #expect(blocks.first?.prefix(5) == Data([0x10, 0x04, 0x01, 0x00, 0x0D]))

            // Polling the NDEF system selects it and reports its code.
            let (pmm, requestData) = try await tag.polling(systemCode: Data([0x12, 0xFC]), requestCode: .systemCode, timeSlot: .max1)
            #expect(pmm == Data(FeliCaLiteSTag.defaultPMm))
            #expect(requestData == Data([0x12, 0xFC]))
            #expect(tag.currentSystemCode == Data([0x12, 0xFC]))
            #expect(tag.currentIDm == liteSIDm)
            let (_, none) = try await tag.polling(systemCode: Data([0x88, 0xB4]), requestCode: .noRequest, timeSlot: .max16)
            #expect(none.isEmpty)
            #expect(tag.currentSystemCode == Data([0x88, 0xB4]))

            // Write through the read/write service, read back through the read-only one.
            let data = block(0xCA, 0xFE, 0x01)
            let written = try await tag.writeWithoutEncryption(serviceCodeList: [readWrite], blockList: [element(1)], blockData: [data])
            #expect(written == (0, 0))
            let (_, _, readBack) = try await tag.readWithoutEncryption(
                serviceCodeList: [readOnly], blockList: [element(1), Data([0x00, 0x00, 0x00])])
            #expect(readBack == [data, blocks[0]])

            // Refusals come back as status flags, not errors: a service the card lacks, a block it lacks.
            let refused = try await tag.readWithoutEncryption(serviceCodeList: [Data([0x34, 0x12])], blockList: [element(0)])
            #expect(refused.0 == 0x01 && refused.1 == 0xA6 && refused.2.isEmpty)
            let missing = try await tag.readWithoutEncryption(serviceCodeList: [readOnly], blockList: [element(0x40)])
            #expect(missing.0 == 0x01 && missing.1 == 0xA8)
            let notWritable = try await tag.writeWithoutEncryption(serviceCodeList: [readOnly], blockList: [element(1)], blockData: [data])
            #expect(notWritable == (0x01, 0xA6))
            let tooMany = try await tag.readWithoutEncryption(serviceCodeList: [readOnly], blockList: (0..<5).map { element($0) })
            #expect(tooMany.0 == 0xFF && tooMany.1 == 0xA2)

            // A raw Read Without Encryption: the IDm is the caller's to add.
            let packet = Data([0x06]) + liteSIDm + Data([0x01, 0x0B, 0x00, 0x01, 0x80, 0x00])
            let answer = try await tag.sendFeliCaCommand(commandPacket: packet)
            #expect(answer == Data([0x07]) + liteSIDm + Data([0x00, 0x00, 0x01]) + blocks[0])
            felica.session.invalidate()
        }

        @Test func standardCardSystemsServicesAndModes() async throws {
            let card = FeliCaStandardTag()
            let felica = try await FeliCaSessionBench.start(card, configuration: FeliCaSessionBench.standardConfiguration)
            let tag = felica.tag
            #expect(tag.currentSystemCode == Data([0x00, 0x03]))
            #expect(try await tag.requestResponse() == 0)
            #expect(try await tag.requestSystemCode() == [Data([0x00, 0x03]), Data([0xFE, 0x00])])

            // Key versions: a service without key, the area, a node the system lacks.
            let versions = try await tag.requestService(nodeCodeList: [Data([0x8B, 0x00]), Data([0x00, 0x00]), Data([0x48, 0x10])])
            #expect(versions == [Data([0x00, 0x00]), Data([0x00, 0x00]), Data([0xFF, 0xFF])])

            let version = try await tag.requestSpecificationVersion()
            #expect(version.0 == 0 && version.1 == 0)
            #expect(version.2 == Data([0x00, 0x01]))
            #expect(version.3 == Data([0x00, 0x01]))
            #expect(try await tag.resetMode() == (0, 0))

            // Card information of the transit system, three-byte element form.
            let info = try await tag.readWithoutEncryption(serviceCodeList: [Data([0x8B, 0x00])], blockList: [Data([0x00, 0x00, 0x00])])
            #expect(info.0 == 0 && info.2.first?.prefix(3) == Data([0x01, 0x10, 0x20]))

            // Polling the common area selects system 1: its own IDm addresses what follows.
            let (_, code) = try await tag.polling(systemCode: Data([0xFE, 0x00]), requestCode: .systemCode, timeSlot: .max4)
            #expect(code == Data([0xFE, 0x00]))
            #expect(tag.currentIDm == Data(card.idm(ofSystem: 1)))
            #expect(tag.currentSystemCode == Data([0xFE, 0x00]))
            let member = try await tag.readWithoutEncryption(serviceCodeList: [Data([0x4B, 0x10])], blockList: [element(0)])
            #expect(member.2.first?.prefix(6) == Data("MEMBER".utf8))
            let (_, performance) = try await tag.polling(
                systemCode: Data([0x00, 0x03]), requestCode: .communicationPerformance, timeSlot: .max2)
            #expect(performance == Data([0x00, 0x83]))
            #expect(tag.currentIDm == Data(card.idm))
            felica.session.invalidate()
        }

        @Test func completionHandlersRunOnTheSessionQueue() async throws {
            let card = FeliCaStandardTag()
            let felica = try await FeliCaSessionBench.start(card, configuration: FeliCaSessionBench.standardConfiguration)
            let tag = felica.tag
            let mode: (Int, Bool) = await withCheckedContinuation { continuation in
                tag.requestResponse { mode, error in
                    continuation.resume(returning: (error == nil ? mode : -1, FeliCaSessionBench.onSessionQueue))
                }
            }
            #expect(mode == (0, true))
            let codes: [Data] = await withCheckedContinuation { continuation in
                tag.requestSystemCode { codes, _ in continuation.resume(returning: codes) }
            }
            #expect(codes.count == 2)
            let versions: [Data] = await withCheckedContinuation { continuation in
                tag.requestService(nodeCodeList: [Data([0x8B, 0x00])]) { versions, _ in continuation.resume(returning: versions) }
            }
            #expect(versions == [Data([0x00, 0x00])])
            let read: (Int, Int, [Data]) = await withCheckedContinuation { continuation in
                tag.readWithoutEncryption(serviceCodeList: [Data([0x8B, 0x00])], blockList: [element(0)]) { flag1, flag2, blocks, _ in
                    continuation.resume(returning: (flag1, flag2, blocks))
                }
            }
            #expect(read.0 == 0 && read.2.count == 1)
            let write: (Int, Int) = await withCheckedContinuation { continuation in
                tag.writeWithoutEncryption(serviceCodeList: [Data([0x8B, 0x00])], blockList: [element(0)], blockData: [block(1)]) {
                    f1, f2, _ in
                    continuation.resume(returning: (f1, f2))
                }
            }
            #expect(write.0 != 0)  // a read-only service: refused by status flags
            let polled: (Data, Data) = await withCheckedContinuation { continuation in
                tag.polling(systemCode: Data([0x00, 0x03]), requestCode: .systemCode, timeSlot: .max1) { pmm, data, _ in
                    continuation.resume(returning: (pmm, data))
                }
            }
            #expect(polled == (Data(FeliCaStandardTag.defaultPMm), Data([0x00, 0x03])))
            let spec: (Data, Data) = await withCheckedContinuation { continuation in
                tag.requestSpecificationVersion { _, _, basic, option, _ in continuation.resume(returning: (basic, option)) }
            }
            #expect(spec == (Data([0x00, 0x01]), Data([0x00, 0x01])))
            let reset: Int = await withCheckedContinuation { continuation in
                tag.resetMode { flag1, _, _ in continuation.resume(returning: flag1) }
            }
            #expect(reset == 0)
            let raw: Data = await withCheckedContinuation { continuation in
                tag.sendFeliCaCommand(commandPacket: Data([0x04]) + Data(card.idm)) { answer, _ in continuation.resume(returning: answer) }
            }
            #expect(raw == Data([0x05]) + Data(card.idm) + Data([0x00]))
            let v2Error: (any Error)? = await withCheckedContinuation { continuation in
                tag.requestServiceV2(nodeCodeList: [Data([0x8B, 0x00])]) { _, _, _, _, _, error in continuation.resume(returning: error) }
            }
            #expect((v2Error as? NFCReaderError)?.code == .readerTransceiveErrorTagResponseError)
            felica.session.invalidate()
        }

        @Test func resultHandlerForms() async throws {
            let card = FeliCaStandardTag()
            let felica = try await FeliCaSessionBench.start(card, configuration: FeliCaSessionBench.standardConfiguration)
            let tag = felica.tag
            let polled = await withCheckedContinuation { continuation in
                tag.polling(systemCode: Data([0x00, 0x03]), requestCode: .noRequest, timeSlot: .max1) { continuation.resume(returning: $0) }
            }
            let response = try polled.get()
            #expect(response.manufactureParameter == Data(FeliCaStandardTag.defaultPMm) && response.requestData == nil)
            let read = await withCheckedContinuation { continuation in
                tag.readWithoutEncryption(serviceCodeList: [Data([0x34, 0x12])], blockList: [element(0)]) {
                    continuation.resume(returning: $0)
                }
            }
            let (flags, blocks) = try read.get()
            #expect(flags.statusFlag1 != 0 && blocks.isEmpty)
            let mode = await withCheckedContinuation { continuation in tag.requestResponse { continuation.resume(returning: $0) } }
            #expect(try mode.get() == 0)
            let spec = await withCheckedContinuation { continuation in
                tag.requestSpecificationVersion { continuation.resume(returning: $0) }
            }
            #expect(try spec.get().basicVersion == Data([0x00, 0x01]))
            let reset = await withCheckedContinuation { continuation in tag.resetMode { continuation.resume(returning: $0) } }
            #expect(try reset.get().statusFlag1 == 0)
            let codes = await withCheckedContinuation { continuation in tag.requestSystemCode { continuation.resume(returning: $0) } }
            #expect(try codes.get().count == 2)
            let refused = await withCheckedContinuation { continuation in
                tag.writeWithoutEncryption(serviceCodeList: [Data([0x8B, 0x00])], blockList: [element(0)], blockData: [block()]) {
                    continuation.resume(returning: $0)
                }
            }
            #expect(try refused.get().statusFlag1 != 0)
            let bad = await withCheckedContinuation { continuation in
                tag.requestService(nodeCodeList: []) { continuation.resume(returning: $0) }
            }
            #expect(throws: NFCReaderError.self) { try bad.get() }
            let raw = await withCheckedContinuation { continuation in
                tag.sendFeliCaCommand(commandPacket: Data([0x0C]) + Data(card.idm)) { continuation.resume(returning: $0) }
            }
            #expect(try raw.get().first == 0x0D)
            felica.session.invalidate()
        }
    }
}
