// schema-probe: a program with settings of its own for the tests of published schemas. It is
// another process, as the apps whose settings the editor shows are.
//
//   schema-probe print            reads its settings (which publishes their schemas), waits
//                                 until the schemas are written, prints `key=value` per line
//   schema-probe watch-cloud      prints `cloud theme=<value>` at start and whenever another
//                                 device changes the cloud value, until it is terminated
//   schema-probe editor <fifo>    shows its settings in the editor; each line written to the
//                                 named pipe <fifo> is a number it stores in `scrollback`
//                                 itself (from another thread), as a program changes its own
//                                 settings while the editor shows them
//   schema-probe write-schemas <folder>
//                                 writes the schemas into <folder> for installation, prints the
//                                 files written
import ObservableDefaults
import SettingsEditor

/// How the window looks.
enum Theme: String, CaseIterable, Codable {
  case light, dark, sepia
}

/// How much room a row takes: a raw-value enumeration that is not `CaseIterable`, so its schema
/// cannot list its values.
enum Density: String, Codable {
  case compact, roomy
}

/// A place on the screen.
struct Point: Codable, Equatable {
  var x: Int
  var y: Int
}

@ObservableDefaults(suiteName: "com.example.schema-probe")
final class ProbeAppSettings {
  /// The name shown in the title bar.
  ///
  /// Shown after the document's name, as `Document — Name`.
  @DefaultsKey(userDefaultsKey: "displayName", previousKeys: ["name"])
  var displayName = "Probe"
  /// Colours of the window.
  var theme: Theme = .light
  /// Lines kept in the scroll-back buffer.
  var scrollback: Int16 = 1000
  /// The font size in points.
  var fontSize = 12.5
  /// Whether the toolbar is shown.
  var showsToolbar = true
  /// Where the window opens.
  var origin = Point(x: 10, y: 20)
  /// The last folder opened, if any.
  var lastFolder: String?
  /// The project's web site.
  var homePage = URL(string: "https://example.com")!
  /// Files opened lately, oldest first.
  var recentFiles = ["notes.txt"]
  /// How much room a row takes.
  var density: Density = .compact
  ///
  var tabWidth = 4
}

@ObservableCloud
final class ProbeCloudPreferences {
  /// The theme every device of the user shares.
  var theme: Theme = .dark
}

/// Writes `line` to standard output at once (a test reads it through a pipe).
func emit(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "print":
  let settings = ProbeAppSettings()
  let cloud = ProbeCloudPreferences()
  let lines = [
    "displayName=\(settings.displayName)", "theme=\(settings.theme.rawValue)",
    "scrollback=\(settings.scrollback)", "fontSize=\(settings.fontSize)",
    "showsToolbar=\(settings.showsToolbar)", "origin=\(settings.origin.x),\(settings.origin.y)",
    "lastFolder=\(settings.lastFolder ?? "nil")", "homePage=\(settings.homePage.absoluteString)",
    "cloud theme=\(cloud.theme.rawValue)",
  ]
  // No wait for the schemas: a program that exits at once publishes them at its exit.
  print(lines.joined(separator: "\n"))
case "watch-cloud":
  let cloud = ProbeCloudPreferences()
  emit("cloud theme=\(cloud.theme.rawValue)")
  let observation = Task { @MainActor in
    for await theme in Observations({ cloud.theme }).dropFirst() {
      emit("cloud theme=\(theme.rawValue)")
    }
  }
  _ = observation
  dispatchMain()
case "editor" where arguments.count == 2:
  nonisolated(unsafe) let settings = ProbeAppSettings()
  let pipe = arguments[1]
  Thread.detachNewThread {
    guard let lines = FileHandle(forReadingAtPath: pipe) else { exit(3) }
    var buffer = Data()
    while case let chunk = lines.availableData, !chunk.isEmpty {
      buffer.append(chunk)
      while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        if let value = Int16(String(decoding: buffer[..<end], as: UTF8.self)) {
          settings.scrollback = value
        }
        buffer.removeSubrange(...end)
      }
    }
  }
  try SettingsEditor(objects: [AnySettings(settings)]).run()
case "write-schemas" where arguments.count == 2:
  let folder = URL(fileURLWithPath: arguments[1])
  let objects = [AnySettings(ProbeAppSettings()), AnySettings(ProbeCloudPreferences())]
  for url in try SettingsSchemaPublisher.write(objects, to: folder) { print(url.path) }
default:
  FileHandle.standardError.write(
    Data("usage: schema-probe print | watch-cloud | editor <fifo> | write-schemas <folder>\n".utf8))
  exit(2)
}
