import Foundation
import ObservableDefaultsCore
import SettingsEditor
import TestSupport
import Testing

/// An edit deep inside a real preference file, saved the way the editor saves it: the top-level
/// key is replaced by the edited copy, and everything beside the edited value stays equal.
@Suite struct PropertyListTreeSaveTests {
  @Test func aNestedEditReplacesItsTopLevelKeyWithTheEditedCopy() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("iterm2-xml.plist")
      try FileManager.default.copyItem(
        at: TestPreferences.fixtures.appendingPathComponent("iterm2-xml.plist"), to: url)
      let file = PropertyListFile(url: url)
      let loaded = try #require(try file.read())
      let path: PropertyListPath = ["New Bookmarks", 0, "Columns"]
      #expect(PropertyListTree.value(at: path, in: loaded.values) as? Int == 80)
      let edited = try PropertyListTree.setting(132, at: path, in: loaded.values)
      _ = try file.save(["New Bookmarks": .set(edited["New Bookmarks"]!)], over: loaded)
      let reloaded = try #require(try file.read())
      #expect(PropertyListTree.value(at: path, in: reloaded.values) as? Int == 132)
      let rows: PropertyListPath = ["New Bookmarks", 0, "Rows"]
      #expect(
        propertyListValuesEqual(
          PropertyListTree.value(at: rows, in: reloaded.values),
          PropertyListTree.value(at: rows, in: loaded.values)))
      #expect(
        propertyListValuesEqual(
          PropertyListTree.value(at: ["New Bookmarks", 0, "Keyboard Map"], in: reloaded.values),
          PropertyListTree.value(at: ["New Bookmarks", 0, "Keyboard Map"], in: loaded.values)))
    }
  }

}
