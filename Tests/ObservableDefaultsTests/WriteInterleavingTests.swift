import Dispatch
import Foundation
import ObservableDefaults
import Synchronization
import TestSupport
import Testing

/// Writes of settings objects interleaved with observers and outside changes on other threads:
/// none of them may hang, and each object ends with the value its store holds.
///
/// Serialized: two tests install the one global `OutsideChangeProbe`, and run at once the later
/// replaced the earlier's (which then waited for a pause that never came).
@Suite(.serialized) struct WriteInterleavingTests {
  /// Two objects kept in step by observers (an observer of X writes Y, one of Y writes X), each
  /// written on its own thread at once: both writes end, and each object ends with the other's
  /// observer's value, as its store does. (The write of a property held a lock of its object
  /// while the store told its observers: each thread held one object's lock and waited for the
  /// other's, for ever.) A deadlock fails the wait for both threads; the two threads then stay
  /// blocked, and the suite goes on.
  @Test func observersWritingEachOthersObjectOnTwoThreadsDoNotDeadlock() throws {
    let (suiteX, suiteY) = (TemporarySuite(), TemporarySuite())
    // Each object is written from two threads: what the test is about.
    nonisolated(unsafe) let x = Settings(userDefaults: suiteX.store())
    nonisolated(unsafe) let y = Settings(userDefaults: suiteY.store())
    let (storeX, storeY) = (suiteX.store(), suiteY.store())
    // Both observers are inside their first call (made by their own thread's write, since the
    // other observer writes only after both are in) before either writes the other object.
    let entered = Mutex(0)
    let calledX = Mutex(false)
    let calledY = Mutex(false)
    let observations = [
      storeX.observe { _ in
        guard raisesFirst(calledX) else { return }
        meet(entered)
        y.name = "from-x"
      },
      storeY.observe { _ in
        guard raisesFirst(calledY) else { return }
        meet(entered)
        x.name = "from-y"
      },
    ]
    let finished = Mutex(0)
    for (index, value) in ["x", "y"].enumerated() {
      Thread {
        (index == 0 ? x : y).name = value
        finished.withLock { $0 += 1 }
      }.start()
    }
    try #require(pollBlocking { finished.withLock { $0 } == 2 }, "the two writes deadlocked")
    for observation in observations { observation.cancel() }
    try storeX.flush()
    try storeY.flush()
    #expect(entered.withLock { $0 } == 2)
    #expect([x.name, storeX.string(forKey: "name")] == ["from-y", "from-y"])
    #expect([y.name, storeY.string(forKey: "name")] == ["from-x", "from-x"])
    #expect(try suiteX.fileValues()["name"] as? String == "from-y")
    #expect(try suiteY.fileValues()["name"] as? String == "from-x")
  }

  /// A local write made while an outside change is between reading the store and assigning the
  /// object's cache is kept: the object ends with the local value, which the store holds. (The
  /// outside change assigned the value it had read, and the object kept a value the store no
  /// longer held, with no later change to correct it.)
  @Test func aLocalWriteDuringAnOutsideChangeIsKept() throws {
    let suite = TemporarySuite()
    // The object is written on this thread while another applies an outside change.
    let settings = Settings(userDefaults: suite.store())
    let outside = suite.store()
    #expect(settings.name == "Fatbobman")
    try whileAnOutsideChangeIsPaused(of: settings, writing: outside) {
      settings.name = "local"
    }
    try outside.flush()
    #expect(outside.string(forKey: "name") == "local")
    #expect(settings.name == "local")
    #expect(try suite.fileValues()["name"] as? String == "local")
  }

  /// One outside change delivered twice at once — the store's report on one thread, a change
  /// notification on another, as a cloud store's `didChangeExternallyNotification` comes beside
  /// its report — is told to observers once. (Both deliveries read the store before either
  /// assigned the cache, and both told them: `CloudSettingsTests` counted two changes of one
  /// write of another device, once in three runs beside other suites.)
  @Test func anOutsideChangeDeliveredTwiceAtOnceIsToldOnce() throws {
    let suite = TemporarySuite()
    // Changed by an outside write on another thread while this one posts a notification.
    let settings = SharedGroupSettings(userDefaults: suite.store())
    let outside = suite.store()
    let name = ChangeCounter(settings, \.name)
    try whileAnOutsideChangeIsPaused(of: settings, writing: outside) {
      // The second delivery, on this thread: any store's notification counts for this object.
      NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: nil)
    }
    #expect(settings.name == "outside")
    #expect(name.count == 1)
  }

  /// A write paused between its store write and its cache update while the object is given
  /// another store and starts on it: the object ends with the value the new store holds, and
  /// the write is in the store it started on. (The start did not count as a change, so the
  /// write put its own value in the cache, which the new store did not hold.)
  @Test func aWriteAcrossAStartOnAnotherStoreKeepsTheNewStoresValue() throws {
    let (first, second) = (TemporarySuite(), TemporarySuite())
    second.store().set("second", forKey: "name")
    // Written on another thread while this one gives it another store and reads it.
    nonisolated(unsafe) let settings = SettingsOnAStore(first.store())
    #expect(settings.name == "Fatbobman")
    let paused = Mutex(false)
    let resumed = Mutex(false)
    // Told on the writing thread during the object's store write (the object's own observation
    // is not told of its writes; this one is).
    let observation = first.store().observe { _ in
      guard raisesFirst(paused) else { return }
      pollBlocking { resumed.withLock { $0 } }
    }
    defer { observation.cancel() }
    let written = Mutex(false)
    Thread {
      settings.name = "local"
      written.withLock { $0 = true }
    }.start()
    try #require(pollBlocking { paused.withLock { $0 } })
    settings.use(second.store())
    #expect(settings.name == "second")
    resumed.withLock { $0 = true }
    try #require(pollBlocking { written.withLock { $0 } })
    #expect(settings.name == "second")
    #expect(first.store().string(forKey: "name") == "local")
    #expect(second.store().string(forKey: "name") == "second")
  }
}

/// A settings object whose store is given at start and may be replaced.
@ObservableDefaults(autoInit: false)
final class SettingsOnAStore {
  var name: String = "Fatbobman"

  init(_ store: UserDefaults) {
    _userDefaults = store
    observerStarter()
  }

  /// Uses `store` from now on: the next access starts the object on it.
  func use(_ store: UserDefaults) {
    _userDefaults = store
  }
}

/// Runs `body` while `outside`, on another thread, writes `"outside"` under `name` and the
/// object's application of that change is paused between reading the store and assigning its
/// cache (``OutsideChangeProbe``); returns once the write returned.
private func whileAnOutsideChangeIsPaused(
  of object: AnyObject, writing outside: PropertyListDefaults, _ body: () -> Void
) throws {
  // Compared by identity only, on the probe's thread.
  nonisolated(unsafe) let object = object
  nonisolated(unsafe) let outside = outside
  let paused = Mutex(false)
  let resumed = Mutex(false)
  OutsideChangeProbe.betweenReadAndAssign.withLock {
    $0 = { applied in
      guard applied === object, raisesFirst(paused) else { return }
      pollBlocking { resumed.withLock { $0 } }
    }
  }
  defer { OutsideChangeProbe.betweenReadAndAssign.withLock { $0 = nil } }
  let written = Mutex(false)
  Thread {
    // The store tells the object's observation on this thread, before `set` returns.
    outside.set("outside", forKey: "name")
    written.withLock { $0 = true }
  }.start()
  try #require(pollBlocking { paused.withLock { $0 } })
  body()
  resumed.withLock { $0 = true }
  try #require(pollBlocking { written.withLock { $0 } })
}

/// Sets `flag`; whether it was not set before (true the first time only).
private func raisesFirst(_ flag: borrowing Mutex<Bool>) -> Bool {
  flag.withLock { raised in
    defer { raised = true }
    return !raised
  }
}

/// Counts this thread in at `entered` and waits until two threads are in.
private func meet(_ entered: borrowing Mutex<Int>) {
  entered.withLock { $0 += 1 }
  pollBlocking { entered.withLock { $0 } == 2 }
}
