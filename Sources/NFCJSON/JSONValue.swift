/// A JSON value with ordered object keys, so output is stable byte for byte.
///
/// The writing side of ``JSONText``: ``JSONNode`` keeps where each value was in the text (for
/// errors), this keeps only the value. Foundation's `JSONSerialization` is not used because it
/// loses key order (output would not be byte-stable) and reports no line and column.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, written without a fraction or exponent.
    case int(Int64)
    /// A floating-point number; a non-finite one is written as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// The elements, in order.
    case array([JSONValue])
    /// The members, in the order they are written.
    case object([(String, JSONValue)])

    /// Whether two values are equal: same case and contents, object members in order (`.int(1)` and
    /// `.double(1)` differ).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// The Boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The integer, if this is one (or a double holding an integer below 2^53).
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }
    /// The keys of an object, in order; empty for other values.
    public var objectKeys: [String] { if case .object(let m) = self { return m.map(\.0) } else { return [] } }
}

/// Builds a JSON object while skipping absent values.
public struct JSONObjectBuilder {
    /// The members set so far, in order.
    public private(set) var members: [(String, JSONValue)] = []
    /// An empty object.
    public init() {}
    /// Sets `key` to `value` unless it is nil (and the overloads below for plain values).
    public mutating func set(_ key: String, _ value: JSONValue?) {
        if let value { members.append((key, value)) }
    }
    /// Appends `key` with `value` as a JSON string, unless `value` is nil.
    public mutating func set(_ key: String, _ value: String?) { set(key, value.map(JSONValue.string)) }
    /// Appends `key` with `value` as a JSON integer, unless `value` is nil.
    public mutating func set(_ key: String, _ value: Int?) { set(key, value.map { JSONValue.int(Int64($0)) }) }
    /// Appends `key` with `value` as `true` or `false`, unless `value` is nil.
    public mutating func set(_ key: String, _ value: Bool?) { set(key, value.map(JSONValue.bool)) }
    /// The object built.
    public var value: JSONValue { .object(members) }
}
