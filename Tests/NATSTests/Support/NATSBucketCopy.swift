import ObservableDefaultsCore

@testable import ObservableDefaultsNATS

/// A device that saved `k` ("first", at time 5) to its bucket, and another copy of that bucket
/// (``NATSMirror``) opened on the device's connection: how the backend tests look at what a
/// device's copy holds and what a conditional write does.
struct NATSBucketCopy {
  let device: NATSCloudBackend
  let bucket: NATSBucket
  let mirror: NATSMirror

  /// Saves `k` with a device of `configuration` and opens the copy.
  /// - Throws: What the device's save or the bucket's opening throws; `NATSError` when the
  ///   device has no connection.
  init(_ configuration: NATSConfiguration) throws {
    device = try NATSCloudBackend(configuration: configuration)
    try device.save([
      "k": CloudRecord(
        value: "first", timestamp: CloudTimestamp(time: 5, counter: 0, device: "d"))
    ])
    guard let connection = device.connection else {
      throw NATSError(kind: .unreachable, message: "the device has no connection")
    }
    bucket = try NATSBucket(
      NATSKeyLayout(container: configuration.container, account: "default"),
      on: connection, replicas: 3)
    mirror = NATSMirror(bucket, on: connection)
  }
}
