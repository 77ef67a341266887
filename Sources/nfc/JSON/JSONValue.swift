/// A JSON value with ordered object keys, so the CLI's output is stable byte for byte.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member named `key` of an object, or nil.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }
    var objectKeys: [String] { if case .object(let m) = self { return m.map(\.0) } else { return [] } }
}

/// Builds a JSON object while skipping absent values.
struct JSONObjectBuilder {
    private(set) var members: [(String, JSONValue)] = []
    mutating func set(_ key: String, _ value: JSONValue?) {
        if let value { members.append((key, value)) }
    }
    mutating func set(_ key: String, _ value: String?) { set(key, value.map(JSONValue.string)) }
    mutating func set(_ key: String, _ value: Int?) { set(key, value.map { JSONValue.int(Int64($0)) }) }
    mutating func set(_ key: String, _ value: Bool?) { set(key, value.map(JSONValue.bool)) }
    var value: JSONValue { .object(members) }
}
