/// Decodes `Decodable` types from a ``JSONNode``, so that every error names the field path and
/// the line, and no Swift type name reaches the user.
///
/// Unlike Foundation's `JSONDecoder`, a number is converted only into a type that holds it
/// exactly (`-1` for a `UInt32` is an error naming `tag.counters[0]`), and with
/// `rejectUnknownFields` every object member no `Decodable` asked for is an error — a misspelt
/// key is reported instead of silently ignored.
public struct JSONNodeDecoder {
    /// Report members that nothing decoded (``JSONError/Code/unknownField``).
    public var rejectUnknownFields: Bool

    /// A decoder; by default members that nothing decoded are errors (``JSONError/Code/unknownField``).
    public init(rejectUnknownFields: Bool = true) {
        self.rejectUnknownFields = rejectUnknownFields
    }

    /// Decodes `type` from `node`.
    /// - Throws: ``JSONError`` with path and location for the shape of the data; errors the
    ///   type's own `init(from:)` throws (other than `DecodingError`) pass through unchanged.
    public func decode<T: Decodable>(_ type: T.Type, from node: JSONNode) throws -> T {
        let tracker = FieldTracker()
        let value: T
        do {
            value = try T(from: NodeDecoder(node: node, path: [], tracker: tracker))
        } catch let error as DecodingError {
            throw JSONNodeDecoder.translate(error, root: node)
        }
        if rejectUnknownFields, let (path, node) = tracker.firstUnused(in: node) {
            throw JSONError(.unknownField, path: path, at: node.location, "unknown field")
        }
        return value
    }

    /// Parses `bytes` and decodes `type` from them.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: try JSONText.parse(bytes))
    }

    /// A `DecodingError` a type threw itself, in this module's terms.
    static func translate(_ error: DecodingError, root: JSONNode) -> JSONError {
        let (code, path, reason): (JSONError.Code, [any CodingKey], String) =
            switch error {
            case .keyNotFound(let key, let context): (.missingField, context.codingPath + [key], "missing")
            case .valueNotFound(_, let context): (.invalidValue, context.codingPath, "missing value")
            case .typeMismatch(let type, let context): (.invalidValue, context.codingPath, "expected \(describe(type))")
            case .dataCorrupted(let context): (.invalidValue, context.codingPath, ownWords(context, root: root))
            @unknown default: (.invalidValue, [], "invalid")
            }
        return JSONError(code, path: render(path), at: locate(path, in: root)?.location, reason)
    }

    /// The reason for a value a type's own `init(from:)` refused. The standard library's words for
    /// an enum's unknown raw value name the Swift type ("Cannot initialize Model from invalid
    /// String value x"); those become "\"x\" is not a known value".
    static func ownWords(_ context: DecodingError.Context, root: JSONNode) -> String {
        guard context.debugDescription.hasPrefix("Cannot initialize") else { return context.debugDescription }
        switch locate(context.codingPath, in: root)?.value {
        case .string(let text)?: return "\"\(text)\" is not a known value"
        case .number(let text)?: return "\(text) is not a known value"
        default: return "not a known value"
        }
    }

    /// "a string", "an integer", … for a Swift type, so messages never name Swift types.
    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            "an integer"
        case is Double.Type, is Float.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array")
                ? "an array" : String(describing: type).hasPrefix("Dictionary") ? "an object" : "a value of another kind"
        }
    }

    /// `tag.counters[0]` for a coding path.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// The node a coding path names, when it exists.
    static func locate(_ path: [any CodingKey], in root: JSONNode) -> JSONNode? {
        var node = root
        for key in path {
            switch node.value {
            case .object(let members):
                guard let next = members.first(where: { $0.0 == key.stringValue })?.1 else { return node }
                node = next
            case .array(let items):
                guard let index = key.intValue, index >= 0, index < items.count else { return node }
                node = items[index]
            default:
                return node
            }
        }
        return node
    }
}

/// The object members decoding asked for, by the identity of their object (its location).
/// (A dictionary decodes every key it has, so its members all count as asked for.)
final class FieldTracker {
    private var asked: [JSONLocation: Set<String>] = [:]

    func ask(_ key: String, in object: JSONLocation) { asked[object, default: []].insert(key) }

    /// The first member, in document order, of an object that was decoded as keyed, that
    /// nothing asked for; members of objects never reached do not count.
    func firstUnused(in node: JSONNode, path: String = "") -> (String, JSONNode)? {
        switch node.value {
        case .object(let members):
            let keys = asked[node.location]
            for (key, child) in members {
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                if let keys, !keys.contains(key) { return (childPath, child) }
                if let found = firstUnused(in: child, path: childPath) { return found }
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = firstUnused(in: item, path: "\(path)[\(index)]") { return found }
            }
        default:
            break
        }
        return nil
    }
}

struct IndexKey: CodingKey {
    var stringValue: String { "\(intValue ?? 0)" }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct NodeDecoder: Decoder {
    let node: JSONNode
    let path: [any CodingKey]
    let tracker: FieldTracker
    var codingPath: [any CodingKey] { path }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch(_ expected: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: "expected \(expected), found \(node.kindDescription)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = node.value else { throw mismatch("an object") }
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = node.value else { throw mismatch("an array") }
        return NodeUnkeyedContainer(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { NodeSingleValue(decoder: self) }

    func child(_ node: JSONNode, key: any CodingKey) -> NodeDecoder {
        NodeDecoder(node: node, path: path + [key], tracker: tracker)
    }

    // Scalars, shared by the three container kinds.

    func decodeBool() throws -> Bool {
        guard case .bool(let value) = node.value else { throw mismatch("true or false") }
        return value
    }

    func decodeString() throws -> String {
        guard case .string(let value) = node.value else { throw mismatch("a string") }
        return value
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let text) = node.value else { throw mismatch("an integer from \(T.min) to \(T.max)") }
        guard let value = T(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: "expected an integer from \(T.min) to \(T.max), found \(text)"))
        }
        return value
    }

    func decodeDouble() throws -> Double {
        guard case .number(let text) = node.value, let value = Double(text), value.isFinite else { throw mismatch("a number") }
        return value
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let scalar: Any? =
            switch type {
            case is Bool.Type: try decodeBool()
            case is String.Type: try decodeString()
            case is Int.Type: try decodeInteger(Int.self)
            case is Int8.Type: try decodeInteger(Int8.self)
            case is Int16.Type: try decodeInteger(Int16.self)
            case is Int32.Type: try decodeInteger(Int32.self)
            case is Int64.Type: try decodeInteger(Int64.self)
            case is UInt.Type: try decodeInteger(UInt.self)
            case is UInt8.Type: try decodeInteger(UInt8.self)
            case is UInt16.Type: try decodeInteger(UInt16.self)
            case is UInt32.Type: try decodeInteger(UInt32.self)
            case is UInt64.Type: try decodeInteger(UInt64.self)
            case is Double.Type: try decodeDouble()
            case is Float.Type: Float(try decodeDouble())
            default: nil
            }
        if let scalar, let value = scalar as? T { return value }
        return try T(from: self)
    }
}

struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let members: [(String, JSONNode)]
    var codingPath: [any CodingKey] { decoder.path }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    func contains(_ key: Key) -> Bool {
        decoder.tracker.ask(key.stringValue, in: decoder.node.location)
        return members.contains { $0.0 == key.stringValue }
    }

    private func member(_ key: Key) throws -> NodeDecoder {
        decoder.tracker.ask(key.stringValue, in: decoder.node.location)
        guard let node = members.first(where: { $0.0 == key.stringValue })?.1 else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return decoder.child(node, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let child = try member(key)
        return child.node.value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        let child = try member(key)
        if child.node.value == .null { return nil }
        return try child.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try member(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder {
        guard let key = Key(stringValue: "super") else { return decoder }
        return try member(key)
    }
    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
}

struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [JSONNode]
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.path }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> NodeDecoder {
        guard currentIndex < items.count else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "expected more elements (\(items.count) given)"))
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], key: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < items.count else { return false }
        if items[currentIndex].value == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct NodeSingleValue: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [any CodingKey] { decoder.path }
    func decodeNil() -> Bool { decoder.node.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
