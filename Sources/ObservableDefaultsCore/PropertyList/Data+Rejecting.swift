import Foundation

extension Data {
  /// `withUnsafeBytes(_:)` for a body that throws only ``PropertyListRejection`` (the standard
  /// one rethrows untyped errors).
  func withUnsafeBytesRejecting<Result>(
    _ body: (UnsafeRawBufferPointer) throws(PropertyListRejection) -> Result
  ) throws(PropertyListRejection) -> Result {
    let outcome: Swift.Result<Result, PropertyListRejection> = withUnsafeBytes { bytes in
      do throws(PropertyListRejection) { return .success(try body(bytes)) } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }
}
