// Apple's CoreNFC is a framework module whose headers import Foundation, so `import CoreNFC`
// makes Foundation (and Dispatch, through it) visible to the importing file: iOS code that
// imports only CoreNFC uses `Data`, `NSObject`, `NSError` and `DispatchQueue` freely. The same
// holds for `import OpenCoreNFC`, so that such a file compiles with only its import changed.
@_exported import Dispatch
@_exported import Foundation
