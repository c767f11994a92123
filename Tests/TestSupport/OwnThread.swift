import Foundation

/// Runs `work` — blocking work such as starting servers and waiting until they answer — on a
/// thread of its own, and waits for it without holding a thread of Swift's cooperative pool.
///
/// That pool has one thread per core (two on the test machines): a test that blocks one of
/// them for the seconds a cluster takes to start stalls every other async test meanwhile, and
/// their waits run out under load.
///
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
public func onOwnThread<Value: Sendable>(
  _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try work() }) }
    thread.name = "test setup"
    thread.start()
  }
}
