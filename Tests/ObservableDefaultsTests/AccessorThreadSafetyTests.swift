import Dispatch
import ObservableDefaults
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
}
