import Foundation
import ObservableDefaults
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// A stored value that does not decode as its property's type is never destroyed: the property
/// reads its default, the failure is reported once, and the bytes stay until the property is set.
@Suite(.serialized) struct UndecodableValueTests {
  /// Runs `body` with every diagnostic about `RenamedSettings.age` collected.
  private func collectingReports(_ body: () throws -> Void) rethrows -> [Diagnostic] {
    let recorder = DiagnosticsRecorder()
    defer { recorder.stop() }
    try body()
    return recorder.diagnostics.filter { $0.message.hasPrefix("RenamedSettings.age:") }
  }

  private func suiteWithAgeAsText() throws -> TemporarySuite {
    let suite = TemporarySuite()
    _ = try PropertyListFile(url: suite.fileURL).apply(["age": .set("twenty")])
    return suite
  }

  @Test func readsTheDefaultAndReportsOnce() throws {
    let suite = try suiteWithAgeAsText()
    let reports = try collectingReports {
      let store = suite.store()
      let first = RenamedSettings(userDefaults: store)
      #expect(first.age == 20)
      #expect(RenamedSettings(userDefaults: suite.store()).age == 20)
      first.displayName = "Bo"  // another key's change: age is not re-read
      suite.store().set("Cy", forKey: "displayName")
      try store.flush()
    }
    #expect(
      reports.map(\.description) == [
        "ObservableDefaults: RenamedSettings.age: the String stored under 'age' in com.example.tests.plist "
          + "does not decode as Int; the property reads its default and the stored value is kept until the property is set"
      ])
  }

  @Test func theStoredBytesStayWhenOtherPropertiesAreWritten() throws {
    let suite = try suiteWithAgeAsText()
    let store = suite.store()
    let settings = RenamedSettings(userDefaults: store)
    settings.displayName = "Bo"
    settings.age = 20  // the default it reads: not a change, nothing is written
    try store.flush()
    #expect(try suite.fileValues()["age"] as? String == "twenty")
    #expect(try suite.fileValues()["displayName"] as? String == "Bo")
  }

  @Test func settingThePropertyReplacesTheStoredValue() throws {
    let suite = try suiteWithAgeAsText()
    let store = suite.store()
    let settings = RenamedSettings(userDefaults: store)
    settings.age = 21
    try store.flush()
    #expect(try suite.fileValues()["age"] as? Int == 21)
    #expect(settings.age == 21)
  }

  @Test func aNewUndecodableValueIsReportedAgain() throws {
    let suite = try suiteWithAgeAsText()
    let reports = try collectingReports {
      let store = suite.store()
      let settings = RenamedSettings(userDefaults: store)
      store.set(Data([1, 2]), forKey: "age")
      #expect(settings.age == 20)
      store.set(33, forKey: "age")
      #expect(settings.age == 33)
      try store.flush()
    }
    #expect(reports.count == 2)
    #expect(reports.last?.message.contains("the Data stored under 'age'") == true)
  }
}
