import NDEF
import NFCBytes
import Testing

@Suite("Handover messages")
struct HandoverMessageTests {
    /// A Bluetooth handover select message as ndeflib 0.3.3 encodes it: Hs 1.3 with one active
    /// carrier whose data reference is "0", then the BR/EDR OOB record with ID "0".
    static let bluetoothSelect =
        "91020a487313d102046163010130005a203c016170706c69636174696f6e2f766e642e626c7565746f6f74682e65702e6f6f62"
        + "303c00060504030201060948656c6c6f040d0c0240110e000102030405060708090a0b0c0d0e0f110f101112131415161718191a1b1c1d1e1f03020b11"

    @Test func bluetoothHandoverSelect() throws {
        let message = try NDEFMessage(decoding: bytes(Self.bluetoothSelect))
        let hs = try HandoverSelectRecord(message.records[0])
        #expect(hs.version == .v1_3)
        #expect(hs.error == nil && hs.otherRecords.isEmpty)
        let carrier = try #require(hs.alternativeCarriers.first)
        #expect(carrier.powerState == .active)
        let configuration = try #require(message.record(withIdentifier: carrier.carrierDataReference))
        let oob = try BluetoothOOB.BREDR(configuration)
        #expect(oob.address.description == "01:02:03:04:05:06")
        #expect(oob.localName == "Hello")
        // The whole message round-trips.
        let rebuilt = NDEFMessage(records: [try hs.record(), try oob.record().withIdentifier(configuration.identifier)])
        #expect(try rebuilt.encoded().hexString == Self.bluetoothSelect)
    }

    @Test func selectWithErrorAndUnknownRecords() throws {
        let hs = HandoverSelectRecord(
            version: .v1_2,
            alternativeCarriers: [AlternativeCarrierRecord(powerState: .active, carrierDataReference: "0")],
            error: .carrierSpecificConstraints(retryAfterMilliseconds: 10),
            otherRecords: [wellKnown("Di", [1])])
        let record = try hs.record()
        #expect(try HandoverSelectRecord(record) == hs)
    }

    @Test func selectNestedErrors() {
        // Nested message without ME.
        #expect(errorCode { _ = try HandoverSelectRecord(wellKnown("Hs", bytes("13910204616301013000"))) } == .truncated)
        // Bad nested ac: the error names the nested record.
        do {
            _ = try HandoverSelectRecord(wellKnown("Hs", bytes("13d10204616381013000")))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidPayload)
            #expect(error.recordIndex == 0)
        }
        // Two error records.
        let twoErrors = wellKnown("Hs", bytes("1291030265727201055103026572720106"))
        #expect(errorCode { _ = try HandoverSelectRecord(twoErrors) } == .invalidPayload)
        let relaxed = try? HandoverSelectRecord(twoErrors, options: lenient)
        #expect(relaxed?.error?.data == [5])
        #expect(relaxed?.otherRecords.count == 1)
        // Wrong type.
        #expect(errorCode { _ = try HandoverSelectRecord(wellKnown("Hr", bytes("12"))) } == .unexpectedRecordType)
        #expect(errorCode { _ = try HandoverSelectRecord(wellKnown("Hs", [])) } == .truncated)
    }

    @Test func requestRules() throws {
        // 1.2 without collision resolution.
        let noCR = wellKnown("Hr", bytes("12d10204616301013000"))
        #expect(errorCode { _ = try HandoverRequestRecord(noCR) } == .invalidPayload)
        #expect(try HandoverRequestRecord(noCR, options: lenient).collisionResolution == nil)
        // No alternative carrier.
        let noAC = wellKnown("Hr", bytes("12d102026372abcd"))
        #expect(errorCode { _ = try HandoverRequestRecord(noAC) } == .invalidPayload)
        #expect(try HandoverRequestRecord(noAC, options: lenient).collisionResolution?.randomNumber == 0xABCD)
        // Two collision resolution records.
        let twoCR = wellKnown("Hr", bytes("129102026372000111020263720002510204616301013000"))
        #expect(errorCode { _ = try HandoverRequestRecord(twoCR) } == .invalidPayload)
        // Building one.
        let hr = HandoverRequestRecord(
            version: .v1_2, collisionResolution: CollisionResolutionRecord(randomNumber: 0x0102),
            alternativeCarriers: [
                AlternativeCarrierRecord(powerState: .active, carrierDataReference: "0", auxiliaryDataReferences: ["aux1"])
            ])
        #expect(try hr.record().payload.hexString == "12910202637201025102096163010130010461757831")
    }

    @Test func nestingDepthLimit() throws {
        let hs = wellKnown("Hs", bytes("13d10204616301013000"))
        // The nested message is one level deeper than the record holding it.
        #expect(errorCode { _ = try HandoverSelectRecord(hs, options: NDEFDecodingOptions(maxNestingDepth: 0)) } == .limitExceeded)
        #expect(errorCode { _ = try HandoverSelectRecord(hs, options: NDEFDecodingOptions(maxNestingDepth: 1)) } == nil)
        // A handover select found inside another nested message, decoded with the options of
        // that level, fails once the limit is passed.
        let deep = NDEFDecodingOptions(maxNestingDepth: 2).nested().nested()
        #expect(errorCode { _ = try HandoverSelectRecord(hs, options: deep) } == .limitExceeded)
        #expect(
            errorCode { _ = try HandoverRequestRecord(wellKnown("Hr", bytes("11d10204616301013000")), options: deep) } == .limitExceeded)
        #expect(errorCode { _ = try HandoverMediationRecord(wellKnown("Hm", bytes("14")), options: deep) } == .limitExceeded)
        #expect(errorCode { _ = try HandoverInitiateRecord(wellKnown("Hi", bytes("14")), options: deep) } == .limitExceeded)

        // Hs inside Hs inside Hs: walking down with nested() options hits the limit.
        let inner = try HandoverSelectRecord(version: .v1_3, otherRecords: [hs]).record()
        let outer = try HandoverSelectRecord(version: .v1_3, otherRecords: [inner]).record()
        let options = NDEFDecodingOptions(maxNestingDepth: 2)
        let level0 = try HandoverSelectRecord(outer, options: options)
        let level1 = try HandoverSelectRecord(try #require(level0.otherRecords.first), options: options.nested())
        let level2Record = try #require(level1.otherRecords.first)
        #expect(errorCode { _ = try HandoverSelectRecord(level2Record, options: options.nested().nested()) } == .limitExceeded)
    }
}

extension NDEFRecord {
    fileprivate func withIdentifier(_ identifier: [UInt8]) -> NDEFRecord {
        var copy = self
        copy.identifier = identifier
        return copy
    }
}
