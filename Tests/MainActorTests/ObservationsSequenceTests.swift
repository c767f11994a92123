import Foundation
import ObservableDefaults
import TestSupport
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
  @Test func observationsGivesOneElementPerChangeFromThisObjectAnotherProcessAndAFileEdit()
    async throws
  {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = folder.file("main.plist")
    let store = PropertyListDefaults(fileURL: file)
    let settings = MainActorSettings(userDefaults: store)
    let observed = ObservedValues()
    let following = Task {
      for await name in Observations({ settings.name }) { observed.append(name) }
    }
    defer { following.cancel() }
    /// Waits (without blocking the main actor) until `count` elements arrived.
    func waitForElements(_ count: Int) async throws {
      #expect(await poll { observed.values.count >= count })
    }
    try await waitForElements(1)

    settings.name = "Own write"
    settings.isEditing = true
    try await waitForElements(2)
    try store.flush()

    let probe = try ChildProcess.run(
      ChildProcess.builtProgram("defaults-probe"), ["set", file.path, "name", "Other process"])
    #expect(probe.status == 0)
    try await waitForElements(3)

    var values = store.persistentValues
    values["name"] = "Hand edit"
    let data = try PropertyListSerialization.data(
      fromPropertyList: values, format: .xml, options: 0)
    try data.write(to: file, options: .atomic)
    try await waitForElements(4)

    // A last change of our own: any repeated element would come before it.
    settings.name = "Last"
    try await waitForElements(5)
    #expect(observed.values == ["Fatbobman", "Own write", "Other process", "Hand edit", "Last"])
  }
}
