import NDEF

/// The benchmark workloads, identical to Integration/ndeflib/bench_ndeflib.py's.
enum Workload: String, CaseIterable {
    /// 10 records: URI and Text interleaved, 5 of each.
    case a
    /// One 8 KiB `application/octet-stream` record.
    case b
    /// 1,000 small Text records.
    case c

    var title: String {
        switch self {
        case .a: return "(a) 10 records: 5 URI + 5 Text"
        case .b: return "(b) one 8 KiB MIME record"
        case .c: return "(c) 1,000 small Text records"
        }
    }

    /// The typed values the message is built from (what encoding starts from).
    var typedRecords: [NDEFTypedRecord] {
        switch self {
        case .a:
            return (0..<5).flatMap { i -> [NDEFTypedRecord] in
                [
                    .uri(URIRecord(uri: "https://www.example.com/path/\(i)")),
                    .text(TextRecord(text: "Hello, world \(i)", languageCode: "en")),
                ]
            }
        case .b:
            let data = (0..<8192).map { UInt8($0 % 251) }
            return [.mime(MIMERecord(mimeType: "application/octet-stream", data: data))]
        case .c:
            return (0..<1000).map { .text(TextRecord(text: "r\($0)", languageCode: "en")) }
        }
    }
}
