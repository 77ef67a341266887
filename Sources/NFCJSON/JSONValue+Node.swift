extension JSONValue {
    /// The CLI's value for a parsed ``JSONNode``: integers that fit in 64 bits stay integers,
    /// other numbers become doubles.
    public init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text): self = Int64(text).map(JSONValue.int) ?? .double(Double(text) ?? .nan)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let members): self = .object(members.map { ($0.0, JSONValue($0.1)) })
        }
    }

    /// Parses strict JSON (``JSONText``); errors say the line, column and offset.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        JSONValue(try JSONText.parse(bytes))
    }
}
