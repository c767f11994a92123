import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

/// The embedded container's rows of the sync fault matrix (see ``SyncFaultMatrix``): two
/// devices of one container (two backends of this process, or a program run as another
/// process), a fault made on the container file, what the writing device says during it and
/// once it healed, `settings-editor cloud status`'s exit status, and whether every
/// acknowledged write reached the other device and a new one without the program writing again.
@Suite struct EmbeddedFaultMatrixTests {
  /// A container under `$XDG_DATA_HOME` of a temporary folder, as `settings-editor` finds it.
  struct Bench {
    let folder: TemporaryFolder
    let container = "faults"
    var root: URL { folder.file("data/ObservableDefaults/CloudContainers") }
    var file: URL { root.appendingPathComponent("\(container)/default/store.plist") }

    init() throws { folder = try TemporaryFolder(prefix: "embedded-faults") }

    func device() -> NSUbiquitousKeyValueStore {
      NSUbiquitousKeyValueStore(backend: EmbeddedCloudBackend(root: root, container: container))
    }

    /// `settings-editor cloud status faults`'s exit status.
    func cloudStatusExit() throws -> Int32 {
      try ChildProcess.run(
        ChildProcess.builtProgram("settings-editor"), ["cloud", "status", container],
        environment: [
          "XDG_DATA_HOME": folder.file("data").path, "XDG_CONFIG_HOME": folder.file("config").path,
          "OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS": nil, "OBSERVABLE_DEFAULTS_NATS_SERVERS": nil,
        ]
      ).status
    }

    /// Puts a folder where the container file is (no save can replace it), keeping the file.
    func blockFile() throws {
      try FileManager.default.moveItem(at: file, to: folder.file("kept.plist"))
      try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
    }

    /// Removes the folder and puts the container file back.
    func unblockFile() throws {
      try FileManager.default.removeItem(at: file)
      try FileManager.default.moveItem(at: folder.file("kept.plist"), to: file)
    }

    /// Whether `reader` (within `seconds`) and a device created then read every value of
    /// `expected`.
    func arrive(
      _ expected: [String: String], at reader: NSUbiquitousKeyValueStore, within seconds: Int
    ) async -> Bool {
      let readerHasThem = await poll(within: .seconds(seconds)) {
        expected.allSatisfy { reader.string(forKey: $0.key) == $0.value }
      }
      let fresh = device()
      return readerHasThem && expected.allSatisfy { fresh.string(forKey: $0.key) == $0.value }
    }

    /// A writer and a reader, with `before` written and saved.
    func devices() -> (writer: NSUbiquitousKeyValueStore, reader: NSUbiquitousKeyValueStore) {
      let (writer, reader) = (device(), device())
      writer.set("v0", forKey: "before")
      #expect(writer.synchronize())
      return (writer, reader)
    }

    func row(_ fault: String, during: String, exit: Int32?, after: String, arrive: Bool)
      -> SyncFaultRow
    {
      SyncFaultRow(
        engine: "embedded", fault: fault, toldDuring: during, statusExit: exit, toldAfter: after,
        writesArrive: arrive)
    }
  }

  /// The summary of `store` once it stopped changing for 2 s (within 40 s).
  func settledSummary(_ store: NSUbiquitousKeyValueStore) async -> String {
    await SyncFaultMatrix.settled({ store.syncStatus.summary }, stable: .seconds(2))
  }

  @Test func theContainerFileUnwritableThenWritableAgain() async throws {
    let bench = try Bench()
    let (writer, reader) = bench.devices()
    try bench.blockFile()
    writer.set("v1", forKey: "k1")
    let during = await settledSummary(writer)
    let exit = try bench.cloudStatusExit()
    try bench.unblockFile()
    let arrive = await bench.arrive(["before": "v0", "k1": "v1"], at: reader, within: 30)
    SyncFaultMatrix.expectDocumented(
      bench.row(
        "the container file unwritable (a folder in its place), then put back", during: during,
        exit: exit, after: await settledSummary(writer), arrive: arrive))
  }

  @Test func theContainerFileRemoved() async throws {
    let bench = try Bench()
    let (writer, reader) = bench.devices()
    try FileManager.default.removeItem(at: bench.file)
    writer.set("v1", forKey: "k1")
    let during = await settledSummary(writer)
    let exit = try bench.cloudStatusExit()
    let arrive = await bench.arrive(["before": "v0", "k1": "v1"], at: reader, within: 10)
    SyncFaultMatrix.expectDocumented(
      bench.row(
        "the container file removed", during: during, exit: exit,
        after: await settledSummary(writer), arrive: arrive))
  }

  /// A program (`core-probe`) writes while the container file cannot be written and exits: it
  /// says on standard error that the write is kept beside the container for the next launch,
  /// and the next launch, once the file is back, saves it without writing again.
  @Test func aProgramExitingWithWritesUnsent() async throws {
    let bench = try Bench()
    let (writer, _) = bench.devices()
    try bench.blockFile()
    let probe = try ChildProcess.builtProgram("core-probe")
    let exiting = try ChildProcess.run(
      probe, ["cloud-set", bench.root.path, bench.container, "k1", "v1"])
    let pending = bench.file.deletingLastPathComponent().appendingPathComponent("pending.plist")
    #expect(
      exiting.error.hasSuffix(
        "NSUbiquitousKeyValueStore: exiting with 1 cloud write not sent to embedded (offline): "
          + "kept in \(pending.path) for the next launch\n"), "\(exiting.error)")
    let during = try ChildProcess.run(
      probe, ["cloud-get-status", bench.root.path, bench.container, "k1"])
    let exit = try bench.cloudStatusExit()
    try bench.unblockFile()
    let next = try ChildProcess.run(
      probe, ["cloud-get-status", bench.root.path, bench.container, "k1"])
    let arrive = await bench.arrive(["before": "v0", "k1": "v1"], at: writer, within: 10)
    let summary = { (result: ChildProcess.Result) in
      String(result.output.split(separator: "\n").first ?? "")
    }
    SyncFaultMatrix.expectDocumented(
      bench.row(
        "the program exiting with writes unsent", during: summary(during), exit: exit,
        after: summary(next), arrive: arrive))
  }
}
