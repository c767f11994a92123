import Foundation

/// A backend that keeps a local copy of its container (etcd's device journal), so that a new
/// device can answer reads from it while its servers do not answer.
package protocol CloudLocalFirstBackend: CloudBackend {
  /// The records of the local copy (the last ones read, with this device's pending writes over
  /// them), read without the network.
  func localBatch() -> CloudRecordBatch
}

/// A device's first load, started on the device's queue: a ``CloudLocalFirstBackend``'s runs
/// there while the device answers reads from the local copy; any other backend's is waited for.
final class FirstLoad: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let isLocalFirst: Bool
  /// Set once on the queue before `done` is signalled.
  private let outcome = AnnotatedMutex<Result<CloudRecordBatch, any Error>?>(nil)

  /// Starts `backend`'s load on `queue`.
  init(_ backend: any CloudBackend, on queue: DispatchQueue) {
    isLocalFirst = backend is any CloudLocalFirstBackend
    queue.async {
      let loaded = Result { try backend.load() }
      self.outcome.withLock { $0 = loaded }
      self.done.signal()
    }
  }

  /// The load's outcome, waiting up to `seconds` for a local-first backend's (without limit for
  /// another's); nil when it is still running.
  func result(within seconds: TimeInterval) -> Result<CloudRecordBatch, any Error>? {
    wait(until: isLocalFirst ? .now() + seconds : .distantFuture) ? outcome.withLock { $0 } : nil
  }

  /// The load's outcome, waiting for it without limit.
  var finished: Result<CloudRecordBatch, any Error> {
    _ = wait(until: .distantFuture)
    return outcome.withLock { $0 } ?? .failure(CancellationError())
  }

  /// Whether the load finished by `deadline`.
  private func wait(until deadline: DispatchTime) -> Bool {
    guard done.wait(timeout: deadline) == .success else { return false }
    done.signal()
    return true
  }
}
