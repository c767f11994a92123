import Foundation
import ObservableDefaultsCore
import TestSupport

@testable import SettingsEditor

/// A headless editor for one source: a memory canvas, a session and a screen, drawn once.
@MainActor
enum TestScreen {
  static func show(_ source: any RowSource, rows: Int, columns: Int = 80)
    -> (MemoryCanvas, EditorSession, EditorScreen)
  {
    let canvas = MemoryCanvas(rows: rows, columns: columns)
    let session = EditorSession(sources: [source])
    let screen = EditorScreen(canvas: canvas, session: session, glyphs: .unicode, wake: {})
    screen.draw(Damage(layout: true))
    return (canvas, session, screen)
  }
}

extension TestPreferences {
  /// A new XML property-list file holding `values` in ``folder``.
  static func propertyListFile(_ values: [String: Any]) throws -> URL {
    let url = folder.appendingPathComponent("\(UUID().uuidString).plist")
    try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
      .write(to: url)
    return url
  }
}

extension TestPreferences {
  /// A new suite holding `values`, and a store writing its file as another process would.
  static func suite(_ values: [String: Any], label: String = #function) throws
    -> (name: String, writer: PropertyListDefaults)
  {
    let name = uniqueSuite(label)
    let writer = writer(ofSuite: name)
    for (key, value) in values { try writer.write(value, forKey: key) }
    return (name, writer)
  }
}
