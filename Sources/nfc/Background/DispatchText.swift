import NFCBytes
import NFCJSON
import OpenCoreNFC

/// How a dispatch result prints: text lines or the stable JSON object (docs/background.md).
enum DispatchText {
    static func target(_ target: NFCBackgroundTarget) -> String {
        switch target {
        case .app(let appID): "app:" + appID
        case .system(let app): "system:" + app.rawValue
        }
    }

    static func json(_ dispatch: NFCBackgroundDispatch, handler: [String]?) -> [(String, JSONValue)] {
        var unlock = false
        if case .awaitingUnlock = dispatch.outcome { unlock = true }
        return [
            ("delivered", .bool(dispatch.isDelivered)),
            ("url", dispatch.url.map { .string($0.absoluteString) } ?? .null),
            ("record", dispatch.recordIndex.map { .int(Int64($0)) } ?? .null),
            ("target", dispatch.target.map { .string(target($0)) } ?? .null),
            ("reason", dispatch.refusal.map { .string($0.code) } ?? .null),
            ("detail", dispatch.refusal.map { .string($0.description) } ?? .null),
            ("requiresUnlock", .bool(unlock)),
            ("handler", handler.map { .array($0.map(JSONValue.string)) } ?? .null),
        ]
    }

    static func lines(_ dispatch: NFCBackgroundDispatch, handler: [String]?) -> [String] {
        var out: [String] = []
        if let index = dispatch.recordIndex {
            out.append("record \(index): " + (dispatch.url?.absoluteString ?? "(no URL)"))
        }
        switch dispatch.outcome {
        case .delivered(let target):
            out.append("delivered to \(target)")
        case .awaitingUnlock(let target):
            out.append("delivered to \(target) once the device is unlocked")
        case .notDelivered(let refusal):
            out.append("not delivered: \(refusal)")
        }
        if let handler { out.append("handler: " + handler.joined(separator: " ")) }
        return out
    }
}
