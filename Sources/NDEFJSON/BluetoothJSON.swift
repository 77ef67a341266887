import NDEF
import NFCBytes
import NFCJSON

// JSON forms of Bluetooth OOB records (docs/ndef-json.md, "## Bluetooth OOB").

/// `[{"type": number, "data": hex}]`, in order.
private func structuresJSON(_ structures: [BluetoothOOB.DataStructure]) -> JSONValue {
    .array(structures.map { .object([("type", .int(Int64($0.type.rawValue))), ("data", .string(Hex.encode($0.data)))]) })
}

private func readStructures(_ r: JSONReader) throws(TypedJSONError) -> [BluetoothOOB.DataStructure] {
    var out: [BluetoothOOB.DataStructure] = []
    for (i, item) in try r.optionalArray("structures").enumerated() {
        let s = try JSONReader(item, path: "\(r.path).structures[\(i)]")
        out.append(.init(type: .init(rawValue: try s.int("type")), data: try s.hex("data")))
    }
    return out
}

private func readAddress(_ r: JSONReader) throws(TypedJSONError) -> BluetoothOOB.Address {
    let text = try r.string("address")
    guard let address = BluetoothOOB.Address(string: text) else {
        throw r.fail("address", "expected six hex bytes like \"01:02:03:04:05:06\", got \"\(text)\"")
    }
    return address
}

private func readPadding(_ r: JSONReader) throws(TypedJSONError) -> Int {
    let padding: Int = try r.optionalInt("padding") ?? 0
    guard padding >= 0 else { throw r.fail("padding", "cannot be negative") }
    return padding
}

extension BluetoothOOB.BREDR {
    /// `{"address", "localName", "localNameComplete", "classOfDevice", "simplePairingHash", …,
    /// "serviceClassUUIDs", "structures", "padding"}`; typed keys appear when present.
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("address", address.description)
        o.set("localName", localName)
        if localName != nil { o.set("localNameComplete", isLocalNameComplete) }
        o.set("classOfDevice", classOfDevice.map(Int.init))
        o.set("simplePairingHash", simplePairingHash.map { Hex.encode($0) })
        o.set("simplePairingRandomizer", simplePairingRandomizer.map { Hex.encode($0) })
        o.set("simplePairingHash256", simplePairingHash256.map { Hex.encode($0) })
        o.set("simplePairingRandomizer256", simplePairingRandomizer256.map { Hex.encode($0) })
        let uuids = serviceClassUUIDs
        if !uuids.isEmpty { o.set("serviceClassUUIDs", .array(uuids.map { .string($0.description) })) }
        o.set("structures", structuresJSON(structures))
        if padding > 0 { o.set("padding", padding) }
        return o.value
    }

    /// Reads `address`, `structures` and `padding` (the typed keys are output only).
    package init(json: JSONValue, path: String = "bluetoothBREDR") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        self.init(address: try readAddress(r), structures: try readStructures(r), padding: try readPadding(r))
    }
}

extension BluetoothOOB.LowEnergy {
    /// `{"address", "addressType", "role", "appearance", "flags", "localName", …, "structures", "padding"}`.
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("address", address?.description)
        o.set("addressType", addressType?.description)
        if let byte = structures.first(where: { $0.type == .leRole })?.data.first {
            o.set("role", role.map { JSONValue.string($0.description) } ?? .int(Int64(byte)))
        }
        o.set("appearance", appearance.map(Int.init))
        o.set("flags", flags.map(Int.init))
        o.set("localName", localName)
        if localName != nil { o.set("localNameComplete", isLocalNameComplete) }
        o.set("securityManagerTKValue", securityManagerTKValue.map { Hex.encode($0) })
        o.set("secureConnectionsConfirmationValue", secureConnectionsConfirmationValue.map { Hex.encode($0) })
        o.set("secureConnectionsRandomValue", secureConnectionsRandomValue.map { Hex.encode($0) })
        o.set("structures", structuresJSON(structures))
        if padding > 0 { o.set("padding", padding) }
        return o.value
    }

    /// Reads `structures` and `padding` when `structures` is present (lossless); otherwise
    /// builds the mandatory address and role from `address`, `addressType` and `role`.
    package init(json: JSONValue, path: String = "bluetoothLE") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        if r.has("structures") {
            self.init(structures: try readStructures(r), padding: try readPadding(r))
            return
        }
        let typeName = try r.optionalString("addressType") ?? "public"
        guard let type = AddressType.allCases.first(where: { $0.description == typeName }) else {
            throw r.fail("addressType", "expected public or random, got \"\(typeName)\"")
        }
        let roleName = try r.string("role")
        guard let role = Role.allCases.first(where: { $0.description == roleName }) else {
            throw r.fail("role", "expected Peripheral, Central, Peripheral/Central or Central/Peripheral, got \"\(roleName)\"")
        }
        self.init(address: try readAddress(r), addressType: type, role: role)
    }
}
