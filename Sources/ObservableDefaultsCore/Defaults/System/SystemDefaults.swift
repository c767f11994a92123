package import Foundation

/// The system-wide defaults and mandatory values of one suite, read from the folders of
/// `$XDG_CONFIG_DIRS` (``PreferencesDirectory/systemFolders``), which an administrator or a
/// distribution writes and programs only read:
///
/// - `<folder>/<suite>.plist`: system-wide defaults, below the user's suite file and above
///   registered defaults (the XDG Base Directory rule: a file of `$XDG_CONFIG_HOME` comes before
///   the file of the same name in `$XDG_CONFIG_DIRS`);
/// - `<folder>/ObservableDefaults/mandatory/<suite>.plist`: mandatory values, above the user's
///   file; the user cannot change them (as dconf keeps locks apart from values, and as Apple's
///   managed preferences are a domain of forced values).
///
/// Of several folders, the first that has a key wins, as the specification orders them ("the
/// first directory listed is the most important"). A file that does not parse, that cannot be
/// read, or that lies in a folder writable by others (``SharedFolderTrust``) is not used: it is
/// named in ``problems`` with the reason, and the user's own values are read as if it were not
/// there.
package struct SystemDefaults: @unchecked Sendable {
  // Sendable: immutable once read; its values are property-list values (`Any`).

  /// A value and the file it was read from.
  package struct Entry: @unchecked Sendable {
    // Sendable: `value` is an immutable property-list value (`Any`).
    /// The value, in canonical form.
    package let value: Any
    /// The file that holds it.
    package let file: URL
  }

  /// The system-wide defaults, by exact key.
  package private(set) var defaults: [PropertyListKey: Entry] = [:]
  /// The mandatory values, by exact key.
  package private(set) var mandatory: [PropertyListKey: Entry] = [:]
  /// The files not used, each a sentence naming the file and why.
  package private(set) var problems: [String] = []

  /// No values: the layers of a suite with no system files.
  package init() {}

  /// Reads the files of `suite` in `folders` now.
  ///
  /// A file that does not parse is read again after pauses, and so is one that `previous` took
  /// values from and that is now empty or gone, or (without `previous`: a new process) one that
  /// is empty and was written less than ``FileIdentity/settlingSeconds`` ago
  /// (``PropertyListFile/readingAfterWriters(waitingUntil:suspecting:_:)``), as the user's file
  /// is: an administrator who edits a file in place leaves it empty or cut short for a moment,
  /// which would read as every value of the file removed, and its mandatory keys writable.
  ///
  /// - Parameters:
  ///   - suite: A suite name (no `/`).
  ///   - folders: The system folders, most important first.
  ///   - previous: The values read before, when these files are read again after a change.
  package init(suite: String, folders: [URL], previous: SystemDefaults? = nil) {
    var (defaults, mandatory): ([PropertyListKey: Entry], [PropertyListKey: Entry]) = ([:], [:])
    for folder in folders {
      let defaultsFile = Self.defaultsFile(of: suite, in: folder)
      let mandatoryFile = Self.mandatoryFile(of: suite, in: folder)
      read(
        defaultsFile, under: folder, into: &defaults,
        hadValues: previous?.defaults.values.contains { $0.file == defaultsFile } ?? false)
      read(
        mandatoryFile, under: folder, into: &mandatory,
        hadValues: previous?.mandatory.values.contains { $0.file == mandatoryFile } ?? false)
    }
    (self.defaults, self.mandatory) = (defaults, mandatory)
  }

  /// `<folder>/<suite>.plist`.
  package static func defaultsFile(of suite: String, in folder: URL) -> URL {
    folder.appendingPathComponent(suite + ".plist", isDirectory: false)
  }

  /// `<folder>/ObservableDefaults/mandatory/<suite>.plist`.
  package static func mandatoryFile(of suite: String, in folder: URL) -> URL {
    folder.appendingPathComponent("ObservableDefaults/mandatory", isDirectory: true)
      .appendingPathComponent(suite + ".plist", isDirectory: false)
  }

  /// Adds the keys of `file` that `entries` does not have yet (an earlier folder's win), unless
  /// the file is not trusted or does not read; then its problem is noted. `hadValues`: whether
  /// the values read before came from this file, so that an empty or missing file is first
  /// taken for one being written.
  private mutating func read(
    _ file: URL, under folder: URL, into entries: inout [PropertyListKey: Entry], hadValues: Bool
  ) {
    if let distrust = SharedFolderTrust.problem(of: file.path, under: folder.path) {
      // Only a file that is there is worth a word: an untrusted folder without the suite's
      // files takes nothing from anyone.
      if FileManager.default.fileExists(atPath: file.path) {
        problems.append("\(file.path) is not used: \(distrust)")
      }
      return
    }
    do {
      let plist = PropertyListFile(url: file)
      let looksHalfWritten = { (snapshot: PropertyListSnapshot?) -> Bool in
        guard let snapshot else { return hadValues }
        guard snapshot.document.values.isEmpty else { return false }
        // A new process cannot know that the file held values: an empty file written in the
        // last seconds may be one being written in place (else a one-shot write of a
        // mandatory key went through while an administrator rewrote the mandatory file).
        guard !hadValues, let identity = snapshot.version?.identity else { return true }
        return identity.isEmpty && !identity.isSettled(at: FileIdentity.now())
      }
      guard
        let document = try plist.readingAfterWriters(
          suspecting: looksHalfWritten, { try plist.readSnapshot() })?.document
      else { return }
      for (key, value) in document.values where entries[key] == nil {
        entries[key] = Entry(value: value, file: file)
      }
    } catch {
      let failure = PropertyListError(wrapping: error, file: file, kind: .unreadable)
      let what =
        failure.kind == .malformed ? "it is not a valid property list" : "it cannot be read"
      problems.append("\(file.path) is not used: \(what) (\(failure.reason))")
    }
  }

  /// The value of `key` and its layer, of the layers an administrator and the user write:
  /// mandatory → the user's file → system-wide defaults.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - userFile: The user's file of the suite.
  ///   - userValue: The user's value of a key, nil when the file has none.
  package func entry(
    forKey key: PropertyListKey, userFile: URL, userValue: (PropertyListKey) -> Any?
  ) -> (value: Any, layer: DefaultsLayer)? {
    if let entry = mandatory[key] { return (entry.value, .mandatory(file: entry.file)) }
    if let value = userValue(key) { return (value, .user(file: userFile)) }
    return defaults[key].map { ($0.value, .system(file: $0.file)) }
  }

  /// The values a program reads from the files of the suite: `userValues` (the user's file)
  /// over the system-wide defaults, under the mandatory values.
  package func merged(over userValues: [PropertyListKey: Any]) -> [PropertyListKey: Any] {
    var values = userValues
    for (key, entry) in defaults where values[key] == nil { values[key] = entry.value }
    for (key, entry) in mandatory { values[key] = entry.value }
    return values
  }

  /// The keys whose default or mandatory value (or file) differs between `self` and `other`.
  package func changedKeys(comparedTo other: SystemDefaults) -> Set<PropertyListKey> {
    Self.changed(defaults, other.defaults).union(Self.changed(mandatory, other.mandatory))
  }

  private static func changed(_ a: [PropertyListKey: Entry], _ b: [PropertyListKey: Entry])
    -> Set<PropertyListKey>
  {
    Set(a.keys).union(b.keys).filter { key in
      guard let old = a[key], let new = b[key] else { return true }
      return old.file != new.file || !valuesEqual(old.value, new.value)
    }
  }
}
