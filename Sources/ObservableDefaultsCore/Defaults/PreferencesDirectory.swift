public import Foundation

/// The folder holding suite files, found by the same rule as Foundation's `UserDefaults` on Linux.
///
/// Measured here: `UserDefaults(suiteName: "S")` writes `$XDG_CONFIG_HOME/S.plist` when
/// `XDG_CONFIG_HOME` is an absolute path, and `$HOME/.config/S.plist` otherwise (an empty or
/// relative value is ignored, as the XDG Base Directory specification asks); the standard
/// domain is the file named after the program (see ``standardSuiteName``).
public enum PreferencesDirectory {
  /// `$XDG_CONFIG_HOME` when it is set to an absolute path, else `$HOME/.config` (the password
  /// database's home folder when `HOME` is not an absolute path either).
  ///
  /// Read from the environment at each call.
  public static var url: URL {
    url(environment: ProcessEnvironment.values(of: ["XDG_CONFIG_HOME", "HOME"]))
  }

  /// The folder for the environment variables `environment`.
  static func url(environment: [String: String]) -> URL {
    HomeFolder.baseFolder("XDG_CONFIG_HOME", fallback: ".config", environment: environment)
  }

  /// The folders of system-wide preferences, most important first: each absolute folder of
  /// `$XDG_CONFIG_DIRS`, else `/etc/xdg` (the XDG Base Directory specification's rule: an empty
  /// or unset variable means `/etc/xdg`; relative entries are ignored). Programs only read them;
  /// see ``PropertyListDefaults`` for the files a suite reads there.
  ///
  /// Read from the environment at each call.
  public static var systemFolders: [URL] {
    systemFolders(environment: ProcessEnvironment.values(of: ["XDG_CONFIG_DIRS"]))
  }

  /// The system folders for the environment variables `environment`.
  package static func systemFolders(environment: [String: String]) -> [URL] {
    let folders = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").filter {
      $0.hasPrefix("/")
    }
    return (folders.isEmpty ? ["/etc/xdg"] : folders).map {
      URL(fileURLWithPath: String($0), isDirectory: true)
    }
  }

  /// The suite name of the standard domain: the main bundle's identifier, else the program's
  /// name — the file `UserDefaults.standard` uses here (`<program>.plist`, measured).
  public static var standardSuiteName: String {
    Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
  }

  /// The file of a suite: `<url>/<suiteName>.plist`.
  ///
  /// - Parameter suiteName: A suite name without `/`.
  /// - Returns: The file's URL (it need not exist).
  public static func fileURL(forSuite suiteName: String) -> URL {
    url.appendingPathComponent(suiteName + ".plist", isDirectory: false)
  }

  /// Whether `name` can name a suite (or a cloud container): one file name of the folder —
  /// not empty, no `/` or NUL, not `.` or `..` — and at most 255 bytes with `.plist`. For
  /// names that come from outside (a published schema), which must not lead out of the folder.
  package static func isSuiteName(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
      && name.utf8.count + ".plist".utf8.count <= 255
  }

  /// The suite names (file names minus `.plist`) of the `.plist` files in ``url``, sorted.
  ///
  /// Temporary files (`….tmp`) and lock files (`.<name>.plist.lock`) of a save in progress
  /// do not end in `.plist` and are skipped; so are folders, and `..plist`
  /// and `...plist` (`.` and `..` are no suite names). An unreadable or missing folder gives `[]`.
  public static func suiteNames() -> [String] { suiteNames(in: url) }

  /// Calls `onChange` whenever a file in the preferences folder is written, added, renamed or
  /// removed — so a suite may have appeared or gone (read ``suiteNames()`` again) — until the
  /// returned observation is cancelled or released. The folder is created when missing.
  ///
  /// - Parameter onChange: Called on an internal queue, once for each batch of changes.
  /// - Returns: The observation; the callbacks stop when it is cancelled or released.
  public static func watchSuites(onChange: @escaping @Sendable () -> Void) -> ObservationToken {
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let folder = url.resolvingSymlinksInPath()
    return DirectoryWatcher.shared.watch(
      fileAt: folder.appendingPathComponent(DirectoryWatcher.anyFile), onChange: onChange)
  }

  /// The suite names of the `.plist` files in `folder`, sorted.
  static func suiteNames(in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { name in
      var isFolder: ObjCBool = false
      return name.hasSuffix(".plist") && name != ".plist"
        && FileManager.default.fileExists(
          atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
        && !isFolder.boolValue
    }
    .map { String($0.dropLast(".plist".count)) }
    .filter { $0 != "." && $0 != ".." }
    .sorted()
  }
}
