import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import ObservableDefaults

/// Every ``ObservableKeyValueStore`` a settings object can be bound to, made fresh for one test.
enum KeyValueStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  /// ``PropertyListDefaults`` on a suite file.
  case propertyListDefaults
  /// Foundation's `UserDefaults` (not a ``PropertyListDefaults``), as objects bound to one see it.
  case foundationUserDefaults
  /// ``NSUbiquitousKeyValueStore`` on an embedded container (a folder).
  case cloudEmbedded
  /// ``NSUbiquitousKeyValueStore`` on an in-memory container.
  case cloudInMemory

  var testDescription: String { rawValue }

  /// Whether the store reports changes to its observers (Foundation's does not: objects on it
  /// read every value through).
  var reportsChanges: Bool { self != .foundationUserDefaults }

  /// Two store objects on one place (suite file, Foundation suite, container), made in `folder`.
  func makePair(in folder: TemporaryFolder) -> (
    any ObservableKeyValueStore, any ObservableKeyValueStore
  ) {
    switch self {
    case .propertyListDefaults:
      let file = folder.file("conformance.plist")
      return (PropertyListDefaults(fileURL: file), PropertyListDefaults(fileURL: file))
    case .foundationUserDefaults:
      // Foundation takes an absolute suite name as the file's path without `.plist`: the file
      // stays in the test's folder, not in the user's preferences.
      let suite = folder.file("conformance").path
      return (
        FoundationDefaultsStore(defaults: UserDefaults(suiteName: suite)!),
        FoundationDefaultsStore(defaults: UserDefaults(suiteName: suite)!)
      )
    case .cloudEmbedded:
      return (
        NSUbiquitousKeyValueStore(backend: EmbeddedCloudBackend(root: folder.url, container: "c")),
        NSUbiquitousKeyValueStore(backend: EmbeddedCloudBackend(root: folder.url, container: "c"))
      )
    case .cloudInMemory:
      let phone = InMemoryCloudBackend()
      return (
        NSUbiquitousKeyValueStore(backend: phone),
        NSUbiquitousKeyValueStore(backend: phone.anotherDevice())
      )
    }
  }
}

/// The contract of ``ObservableKeyValueStore`` (what the macros' runtime relies on), run against
/// every store: values read back as written, a write tells exactly its key to every observer but
/// the excluded one, a refused value changes nothing and names the key and its type,
/// `synchronize()` makes a write visible to another store object of the same place.
@Suite struct KeyValueStoreConformanceTests {
  /// One value of every property-list type, in the canonical form reads give back.
  nonisolated(unsafe) static let values: [String: Any] = [
    "string": "text ü 👨‍👩‍👧", "integer": -42, "large": UInt64.max, "real": 0.25, "flag": true,
    "date": Date(timeIntervalSinceReferenceDate: 730_943_999.123_456), "data": Data([0, 1, 0xff]),
    "array": ["a", 1, false] as [Any], "dictionary": ["nested": ["x": 1]] as [String: Any],
  ]

  /// Runs `body` with a fresh pair of stores of `kind` in a temporary folder.
  func withStores(
    _ kind: KeyValueStoreKind,
    _ body: (any ObservableKeyValueStore, any ObservableKeyValueStore) async throws -> Void
  ) async throws {
    try await withTemporaryFolder { folder in
      let (store, other) = kind.makePair(in: folder)
      try await body(store, other)
      _ = store.synchronize()
      _ = other.synchronize()
    }
  }

  @Test(arguments: KeyValueStoreKind.allCases)
  func everyPropertyListTypeReadsBackAsWrittenAndNilRemoves(kind: KeyValueStoreKind) async throws {
    try await withStores(kind) { store, _ in
      for (key, value) in Self.values {
        try store.write(value, forKey: key, excluding: nil)
        #expect(propertyListValuesEqual(store.object(forKey: key), value), "\(key)")
      }
      try store.write(nil, forKey: "string", excluding: nil)
      #expect(store.object(forKey: "string") == nil)
      #expect(store.object(forKey: "never written") == nil)
    }
  }

  @Test(arguments: KeyValueStoreKind.allCases)
  func aWriteTellsItsKeyToEveryObserverButTheExcludedOne(kind: KeyValueStoreKind) async throws {
    try await withStores(kind) { store, _ in
      let told = ChangeRecorder()
      let excluded = ChangeRecorder()
      let observation = store.observe(told.record)
      let excludedObservation = store.observe(excluded.record)
      try store.write("v", forKey: "k", excluding: excludedObservation)
      #expect(
        told.changes
          == (kind.reportsChanges ? [DefaultsChange(keys: ["k"], origin: .thisProcess)] : []))
      #expect(excluded.changes == [])
      observation.cancel()
      try store.write("w", forKey: "k", excluding: nil)
      #expect(
        told.changes.count == (kind.reportsChanges ? 1 : 0), "a cancelled observation is not told")
      withExtendedLifetime(excludedObservation) {}
    }
  }

  @Test(arguments: KeyValueStoreKind.allCases)
  func writingTheStoredValueAgainTellsNobody(kind: KeyValueStoreKind) async throws {
    try await withStores(kind) { store, _ in
      try store.write(["a": 1], forKey: "k", excluding: nil)
      let told = ChangeRecorder()
      let observation = store.observe(told.record)
      try store.write(["a": 1], forKey: "k", excluding: nil)
      #expect(told.changes == [])
      withExtendedLifetime(observation) {}
    }
  }

  @Test(arguments: KeyValueStoreKind.allCases)
  func aValueThatIsNoPropertyListValueIsRefusedNamingTheKeyAndTypeAndChangesNothing(
    kind: KeyValueStoreKind
  ) async throws {
    try await withStores(kind) { store, _ in
      try store.write("kept", forKey: "k", excluding: nil)
      let told = ChangeRecorder()
      let observation = store.observe(told.record)
      let error = #expect(throws: (any Error).self) {
        try store.write(NSObject(), forKey: "k", excluding: nil)
      }
      let message = "\(error.map { $0 } as Any)"
      #expect(message.contains("k"), "\(message)")
      #expect(message.contains("NSObject"), "\(message)")
      #expect(store.object(forKey: "k") as? String == "kept")
      #expect(told.changes == [])
      withExtendedLifetime(observation) {}
    }
  }

  @Test(arguments: KeyValueStoreKind.allCases)
  func severalValuesWrittenTogetherReachAnotherStoreTogether(kind: KeyValueStoreKind) async throws {
    try await withStores(kind) { store, other in
      try store.write("v", forKey: "old", excluding: nil)
      #expect(store.synchronize())
      let told = ChangeRecorder()
      let observation = store.observe(told.record)
      try store.write(["new": "v", "old": nil], excluding: nil)
      #expect(store.storedObject(forKey: "new") as? String == "v")
      #expect(store.storedObject(forKey: "old") == nil)
      #expect(
        told.changes
          == (kind.reportsChanges
            ? [DefaultsChange(keys: ["new", "old"], origin: .thisProcess)] : []))
      #expect(store.synchronize())
      #expect(
        await poll {
          _ = other.synchronize()
          return other.object(forKey: "new") as? String == "v" && other.object(forKey: "old") == nil
        })
      withExtendedLifetime(observation) {}
    }
  }

  @Test(arguments: KeyValueStoreKind.allCases.filter(\.reportsChanges))
  func aRefusedValueAmongSeveralChangesNoneOfThem(kind: KeyValueStoreKind) async throws {
    try await withStores(kind) { store, _ in
      try store.write("kept", forKey: "old", excluding: nil)
      #expect(throws: (any Error).self) {
        try store.write(["new": "v", "old": nil, "bad": NSObject()], excluding: nil)
      }
      #expect(store.object(forKey: "old") as? String == "kept")
      #expect(store.object(forKey: "new") == nil)
    }
  }

  @Test(arguments: KeyValueStoreKind.allCases)
  func synchronizeMakesAWriteVisibleToAnotherStoreOfTheSamePlace(kind: KeyValueStoreKind)
    async throws
  {
    try await withStores(kind) { store, other in
      try store.write("shared", forKey: "k", excluding: nil)
      #expect(store.synchronize())
      #expect(
        await poll {
          _ = other.synchronize()
          return other.object(forKey: "k") as? String == "shared"
        })
    }
  }
}

/// The changes an observation was told, in order.
final class ChangeRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [DefaultsChange] = []

  /// The handler to observe a store with.
  var record: @Sendable (DefaultsChange) -> Void {
    { [self] change in lock.withLock { recorded.append(change) } }
  }

  /// Every change told so far.
  var changes: [DefaultsChange] { lock.withLock { recorded } }
}
