import Foundation
import ObservableDefaults
import Testing

/// The values an `Observations` sequence produced, in order.
final class ObservedValues {
  private(set) var values: [String] = []
  func append(_ value: String) { values.append(value) }
}

/// `for await name in Observations({ settings.name })` (Swift 6.2's Observation) on a main-actor
/// object, as code without a UI follows its settings: one element per change, whoever made it.
///
/// Outside changes reach a main-actor object through `MainActorDelivery.schedule`, so this runs in
/// the serialized suite whose other test replaces that scheduler.
extension MainActorDeliveryTests {
  @Test func observationsGivesOneElementPerChangeFromThisObjectAnotherProcessAndAFileEdit() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("od-main-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("main.plist")
    let store = PropertyListDefaults(fileURL: file)
    let settings = MainActorSettings(userDefaults: store)
    let observed = ObservedValues()
    let following = Task {
      for await name in Observations({ settings.name }) { observed.append(name) }
    }
    defer { following.cancel() }
    /// Waits (up to 5 s, without blocking the main actor) until `count` elements arrived.
    func waitForElements(_ count: Int) async throws {
      for _ in 0..<500 where observed.values.count < count {
        try await Task.sleep(for: .milliseconds(10))
      }
    }
    try await waitForElements(1)

    settings.name = "Own write"
    settings.isEditing = true
    try await waitForElements(2)
    try store.flush()

    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      .deletingLastPathComponent().appendingPathComponent("defaults-probe")
    probe.arguments = ["set", file.path, "name", "Other process"]
    try probe.run()
    probe.waitUntilExit()
    #expect(probe.terminationStatus == 0)
    try await waitForElements(3)

    var values = store.persistentValues
    values["name"] = "Hand edit"
    let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
    try data.write(to: file, options: .atomic)
    try await waitForElements(4)

    // A last change of our own: any repeated element would come before it.
    settings.name = "Last"
    try await waitForElements(5)
    #expect(observed.values == ["Fatbobman", "Own write", "Other process", "Hand edit", "Last"])
  }
}
