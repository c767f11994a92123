import Foundation

/// The temporary file the user's editor works on: `settings-editor-<random>/value.<extension>` in
/// the temporary folder, the folder made by `mkdtemp` (mode 0700: "The directory is then created
/// with permissions 0700", mkdtemp(3)) and the file created new with mode 0600, so no other user
/// can read a value being edited or swap the file for another.
struct EditingFile {
  /// The file.
  let url: URL
  private let folder: URL

  /// Creates the folder and writes `text` to the file; nil when either cannot be made.
  init?(_ text: String, fileExtension: String) {
    var template = Array(
      FileManager.default.temporaryDirectory.appendingPathComponent("settings-editor-XXXXXX").path
        .utf8CString)
    guard let made = mkdtemp(&template) else { return nil }
    folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    url = folder.appendingPathComponent("value." + fileExtension)
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    let handle =
      descriptor >= 0 ? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true) : nil
    guard let handle, (try? handle.write(contentsOf: Data(text.utf8))) != nil else {
      try? FileManager.default.removeItem(at: folder)
      return nil
    }
  }

  /// The file's text now (invalid UTF-8 replaced), or nil when it cannot be read.
  func text() -> String? {
    (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Removes the file and its folder (with whatever the editor left there, such as a backup).
  func remove() {
    try? FileManager.default.removeItem(at: folder)
  }
}
