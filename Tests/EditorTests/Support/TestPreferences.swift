import Foundation
import TestSupport

@testable import ObservableDefaultsCore

/// A private preferences folder for this test process, passed explicitly (tests never change
/// the process's environment: other suites run in the same process).
enum TestPreferences {
  /// The folder (created once per process, removed when it exits).
  static let folder = ProcessExit.temporaryFolder(prefix: "editor-tests")

  /// A suite name no other test uses.
  static func uniqueSuite(_ label: String = #function) -> String {
    "editor.tests.\(label.prefix(while: { $0 != "(" })).\(UUID().uuidString.prefix(8))"
  }

  /// The file of `suite` in ``folder``.
  static func file(ofSuite suite: String) -> URL {
    folder.appendingPathComponent(suite + ".plist")
  }

  /// A store writing the file of `suite` in ``folder``, as another part of a program would.
  static func writer(ofSuite suite: String) -> PropertyListDefaults {
    PropertyListDefaults(fileURL: file(ofSuite: suite))
  }

  /// Writes `values` as the binary file of `suite`, as another program would, without opening
  /// the suite in this process.
  static func write(_ values: [String: Any], toSuite suite: String) throws {
    try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
      .write(to: file(ofSuite: suite))
  }

  /// How many times this process parsed the file of each of `suites`.
  static func parses(of suites: [String]) -> [Int] {
    suites.map { PropertyListCounters.counts(for: file(ofSuite: $0)).parses }
  }

  /// The real preference files of `Tests/Fixtures/plists` (see the SOURCES.md there).
  static let fixtures: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/plists")
}
