import Foundation

extension TemporaryFolder {
  /// The `TMPDIR` of the programs a test starts for this folder: `tmp` inside it (made here), so
  /// that what they leave in their temporary folder goes with this one. SwiftPM leaves a lock file
  /// there for each folder it locks (named after its path: `_tmp_manifest-…_.build.lock`), and
  /// the compiler its `TemporaryDirectory.*` folders.
  ///
  /// - Throws: The error of `FileManager.createDirectory` when the folder cannot be made.
  public func programsTemporaryFolder() throws -> String {
    let folder = file("tmp")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.path
  }
}
