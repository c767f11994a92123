import Foundation
import ObservableDefaults

enum Mood: String, CaseIterable, Codable { case calm, busy, away }
enum Interval: Int, CaseIterable {
  case never = 0
  case daily = 1
  case weekly = 7
}

/// A `Codable` struct stored as JSON.
struct Frame: Codable, Equatable {
  var width = 800
  var height = 600
}

/// One property of every kind the editor edits, for the typed-editor and key tests.
@ObservableDefaults
final class EditorTypeSettings {
  /// How the user feels.
  var mood: Mood = .calm
  var interval: Interval = .weekly
  var volume: Int8 = 5
  var ratio: Double = 0.5
  /// A greeting in any script.
  var greeting = "hi"
  var started = Date(timeIntervalSince1970: 0)
  var homepage = URL(string: "https://example.com")!
  var tags: [String] = ["a"]
  var limits: [String: Int] = ["x": 1]
  var frame = Frame()
  var token = Data([0xCA, 0xFE])
  var isOn = false
  var status: Mood? = nil
  var proxy: URL? = nil
}

/// A cloud object, in development mode (values in memory only).
@ObservableCloud(prefix: "sync_", developmentMode: true)
final class SyncSettings {
  /// The name other devices show.
  var displayName = "Fatbobman"
  var syncsHistory = true
}

/// A renamed property (`name` → `displayName`), for the editor's pending-migration line.
@ObservableDefaults
final class RenamedEditorSettings {
  @DefaultsKey(userDefaultsKey: "displayName", previousKeys: ["name"]) var displayName = "Anonymous"
}
