import Foundation
import Testing

/// The README's folder table ("What it is made of") names every folder of the package's source
/// tree, and every folder it names exists.
@Suite struct FolderTableTests {
  static let packageFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The first cell of each row of the table: one or more `` `folder/` `` names.
  func tableFolders() throws -> Set<String> {
    let readme = try String(
      contentsOf: Self.packageFolder.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(
      readme.components(separatedBy: "## What it is made of").dropFirst().first)
    let rows = section.split(separator: "\n").prefix { !$0.hasPrefix("#") }.filter {
      $0.hasPrefix("| `")
    }
    let cells = rows.map { $0.split(separator: "|", omittingEmptySubsequences: true)[0] }
    return Set(
      cells.flatMap { cell in
        cell.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map {
          String($0.element)
        }
      })
  }

  /// The folders a reader must find in the table (a top-level folder also through a folder inside
  /// it): the top level, and one level below `Sources/` and `Tests/` (the test targets
  /// `Tests/*Tests/` stand as `Tests/<Module>Tests/`).
  func treeFolders() throws -> Set<String> {
    let manager = FileManager.default
    func folders(in relative: String) throws -> [String] {
      try manager.contentsOfDirectory(
        atPath: Self.packageFolder.appendingPathComponent(relative).path
      )
      .filter { !$0.hasPrefix(".") }
      .filter { name in
        var isFolder: ObjCBool = false
        let path = Self.packageFolder.appendingPathComponent(relative + name).path
        return manager.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
      }
      .map { relative + $0 + "/" }
    }
    let top = try folders(in: "").filter { !["Sources/", "Tests/"].contains($0) }
    let below = try folders(in: "Sources/") + folders(in: "Tests/")
    return Set(
      (top + below).map {
        $0.hasSuffix("Tests/") && $0.hasPrefix("Tests/") ? "Tests/<Module>Tests/" : $0
      })
  }

  @Test func theTableNamesEveryFolderAndOnlyFoldersThatExist() throws {
    let table = try tableFolders()
    let tree = try treeFolders()
    let unnamed = tree.filter { folder in !table.contains { $0.hasPrefix(folder) } }
    #expect(unnamed.sorted() == [], "folders missing from the README's table")
    let missing = table.filter { name in
      name != "Tests/<Module>Tests/" && name != ".ci/run"
        && !FileManager.default.fileExists(
          atPath: Self.packageFolder.appendingPathComponent(name).path)
    }
    #expect(missing.sorted() == [], "the README's table names folders that do not exist")
  }
}
