import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Bug 18: library code wrote to standard error (over a full-screen editor). It reports through
/// `Diagnostics.handler` now.
@Suite(.serialized) struct DiagnosticsTests {
  @Test func aSetterThatCannotWriteReportsThroughTheHandler() async throws {
    try await withTemporaryFolder { folder in
      let file = folder.file("broken.plist")
      try Data("not a property list".utf8).write(to: file)
      let recorder = DiagnosticsRecorder()
      defer { recorder.stop() }

      PropertyListDefaults(fileURL: file).set(1, forKey: "k")

      let diagnostics = recorder.diagnostics.filter { $0.message.contains("broken.plist") }
      #expect(diagnostics.count == 1)
      #expect(diagnostics.first?.subsystem == "PropertyListDefaults")
      #expect(diagnostics.first?.message.contains("is not a valid property list") == true)
      #expect(diagnostics.first?.description.hasPrefix("PropertyListDefaults: ") == true)
      #expect(try Data(contentsOf: file) == Data("not a property list".utf8), "left alone")
    }
  }
}
