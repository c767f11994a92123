import Dispatch
import Foundation
import ObservableDefaults
import Observation
import Synchronization
import TestSupport
import Testing

/// Getters and setters of one object on several threads at once, while another instance of the
/// suite changes a property from outside: what ThreadSanitizer checks the object's lock with
/// (`swift build --build-tests --sanitize=thread`, see Benchmarks/README.md).
@Suite struct AccessorThreadSafetyTests {
  @Test func concurrentReadsWritesAndOutsideChangesSeeOnlyWrittenValues() {
    let suite = TemporarySuite()
    // The object and the store are used from several threads: what the test is about.
    nonisolated(unsafe) let settings = Settings(userDefaults: suite.store())
    nonisolated(unsafe) let outside = suite.store()
    let rounds = 300
    let names = Set((0..<rounds).map { "name-\($0)" } + ["Fatbobman"])
    let ages = Set(0..<rounds).union([20])
    let nicknames = Set((0..<rounds).map { "nick-\($0)" })
    let unexpected = SeenValues()
    DispatchQueue.concurrentPerform(iterations: 4) { role in
      for round in 0..<rounds {
        switch role {
        case 0: settings.name = "name-\(round)"
        case 1: settings.nickname = "nick-\(round)"
        case 2: outside.set(round, forKey: "age")
        default:
          let (name, age, nickname) = (settings.name, settings.age, settings.nickname)
          if !names.contains(name) || !ages.contains(age)
            || !(nickname.map(nicknames.contains) ?? true)
          {
            unexpected.record(name, age)
          }
        }
      }
    }
    #expect(unexpected.values == [])
    // Each property had one writer: the object ends with each one's last value, as the store does.
    #expect(settings.name == "name-\(rounds - 1)")
    #expect(settings.nickname == "nick-\(rounds - 1)")
    #expect(settings.age == rounds - 1)
    #expect(outside.string(forKey: "name") == "name-\(rounds - 1)")
  }

  /// Threads writing one property at once leave the object, the store and the file with the same
  /// value, in every round. (The object's cache was set after the store's write, under another
  /// lock: a writer that wrote the store first could set the cache last, and the object kept a
  /// value the store no longer held.)
  @Test func threadsWritingOnePropertyLeaveObjectStoreAndFileEqual() throws {
    let suite = TemporarySuite()
    // The object is written from several threads: what the test is about.
    nonisolated(unsafe) let settings = Settings(userDefaults: suite.store())
    let store = suite.store()
    let (rounds, writers, writes) = (10, 4, 500)
    var mismatches: [String] = []
    for round in 0..<rounds {
      DispatchQueue.concurrentPerform(iterations: writers) { writer in
        for index in 0..<writes { settings.name = "\(round)-\(writer)-\(index)" }
      }
      try store.flush()
      let (object, stored) = (settings.name, store.string(forKey: "name"))
      let file = try suite.fileValues()["name"] as? String
      if object != stored || file != stored {
        mismatches.append(
          "round \(round): object \(object), store \(stored ?? "nil"), file \(file ?? "nil")")
      }
    }
    #expect(mismatches == [])
  }

  /// Local writes of one property on two threads, outside changes of it on a third and writes
  /// of the other properties on a fourth, in every interleaving the scheduler makes: after each
  /// round the object holds what the store holds. A write takes its own value into the cache only
  /// when no other write or outside change came between its store write and its cache update,
  /// and reads the store otherwise; this compares that shortcut with the store over many rounds.
  @Test func localWritesAndOutsideChangesOfOnePropertyLeaveObjectAndStoreEqual() {
    let suite = TemporarySuite()
    // The object and the store are used from several threads: what the test is about.
    nonisolated(unsafe) let settings = Settings(userDefaults: suite.store())
    nonisolated(unsafe) let outside = suite.store()
    let (rounds, writes) = (20, 200)
    var mismatches: [String] = []
    for round in 0..<rounds {
      DispatchQueue.concurrentPerform(iterations: 4) { role in
        for index in 0..<writes {
          switch role {
          case 0, 1: settings.name = "\(round)-\(role)-\(index)"
          case 2: outside.set("\(round)-outside-\(index)", forKey: "name")
          default:
            settings.age = index
            outside.set(writes - index, forKey: "age")
          }
        }
      }
      let (name, age) = (settings.name, settings.age)
      let (storedName, storedAge) = (outside.string(forKey: "name"), outside.integer(forKey: "age"))
      if name != storedName || age != storedAge {
        mismatches.append(
          "round \(round): object \(name) \(age), store \(storedName ?? "nil") \(storedAge)")
      }
    }
    #expect(mismatches == [])
  }

  /// A write of another thread made while a write of the same property is between the store
  /// and the object's cache (the store tells its observers there) comes after it: both end with
  /// the later value. An observer of the store starts the second write at the first and waits up
  /// to a second for it; without the object's write lock the second write ended inside the
  /// first, whose cache update then put back the value the store no longer held.
  @Test func aWriteDuringAnotherWriteOfThePropertyComesAfterIt() throws {
    let suite = TemporarySuite()
    // The object is written from a second thread: what the test is about.
    nonisolated(unsafe) let settings = Settings(userDefaults: suite.store())
    let store = suite.store()
    let secondStarted = Mutex(false)
    let secondWritten = Mutex(false)
    let observation = store.observe { _ in
      guard !secondStarted.withLock({ $0 }) else { return }
      secondStarted.withLock { $0 = true }
      Thread {
        settings.name = "second"
        secondWritten.withLock { $0 = true }
      }.start()
      pollBlocking(within: .seconds(1)) { secondWritten.withLock { $0 } }
    }
    settings.name = "first"
    #expect(pollBlocking { secondWritten.withLock { $0 } })
    observation.cancel()
    try store.flush()
    #expect(settings.name == "second")
    #expect(store.string(forKey: "name") == "second")
    #expect(try suite.fileValues()["name"] as? String == "second")
  }

  /// A write made on the writing thread while a write is told to the store's observers (an
  /// observer that writes the property back) comes after it: the object ends with the observer's
  /// value, as the store does.
  @Test func aWriteByAnObserverDuringAWriteComesAfterIt() throws {
    let suite = TemporarySuite()
    let settings = Settings(userDefaults: suite.store())
    let store = suite.store()
    nonisolated(unsafe) let written = settings
    let observation = store.observe { _ in
      if written.name != "nested" { written.name = "nested" }
    }
    settings.name = "first"
    observation.cancel()
    try store.flush()
    #expect(settings.name == "nested")
    #expect(store.string(forKey: "name") == "nested")
    #expect(try suite.fileValues()["name"] as? String == "nested")
  }
}
