import Foundation
import ObservableDefaultsCore
import TestSupport
import Testing

@testable import SettingsEditor

/// The editor's rows keep keys that differ only in Unicode normalization (`é` as U+00E9 and as
/// `e` U+0301) apart, as the file and python's `plistlib` do: two rows, each edited alone.
@MainActor
@Suite struct ExactKeyRowsTests {
  private static let (composed, decomposed) = (PythonPlistlib.composed, PythonPlistlib.decomposed)

  /// A suite file holding both forms, written by `plistlib`.
  private func suiteWithBothForms(binary: Bool) throws -> (suite: String, file: URL) {
    let suite = TestPreferences.uniqueSuite("exact-\(binary)")
    let file = TestPreferences.file(ofSuite: suite)
    try PythonPlistlib.write(
      [(Self.composed, "composed"), (Self.decomposed, "decomposed")], to: file, binary: binary)
    return (suite, file)
  }

  /// The rows' keys as Unicode scalars, and their values.
  private func rows(_ source: some RowSource) -> [[Unicode.Scalar]: String] {
    Dictionary(
      uniqueKeysWithValues: (0..<source.rowCount).map { index in
        let row = source.row(at: index)
        return (Array((row.key ?? "").unicodeScalars), row.value)
      })
  }

  private static let expectedRows: [[Unicode.Scalar]: String] = [
    Array(composed.unicodeScalars): "composed", Array(decomposed.unicodeScalars): "decomposed",
  ]

  @Test(arguments: [true, false])
  func aSuiteShowsBothFormsAsTwoRowsAndEditsEachAlone(binary: Bool) throws {
    let (suite, file) = try suiteWithBothForms(binary: binary)
    let domain = SuiteRows(suite: suite, folder: TestPreferences.folder)
    try #require(domain.rowCount == 2)
    #expect(rows(domain) == Self.expectedRows)
    // Rows are in the order of the keys' scalars: `e` (U+0065) before U+00E9.
    #expect(domain.path(at: 0) == [.key(Self.decomposed)])
    #expect(domain.path(at: 0) != [.key(Self.composed)])
    try domain.setValue("d2", at: 0)
    try TestPreferences.writer(ofSuite: suite).flush()
    #expect(try PythonPlistlib.read(file) == #"[('e\u0301', 'd2'), ('\xe9', 'composed')]"#)
  }

  @Test(arguments: [true, false])
  func aFileShowsBothFormsAsTwoRowsAndSavesEachAlone(binary: Bool) throws {
    let (_, file) = try suiteWithBothForms(binary: binary)
    let rowsOfFile = try PropertyListFileRows(file: file)
    try #require(rowsOfFile.rowCount == 2)
    #expect(rows(rowsOfFile) == Self.expectedRows)
    try rowsOfFile.setValue("c2", at: 1)
    #expect(try PythonPlistlib.read(file) == #"[('e\u0301', 'decomposed'), ('\xe9', 'c2')]"#)
  }

  @Test func renamingAKeyToItsOtherFormMovesItWithoutMergingOrTrapping() throws {
    let suite = TestPreferences.uniqueSuite()
    let file = TestPreferences.file(ofSuite: suite)
    try PythonPlistlib.write([(Self.composed, "composed")], to: file, binary: false)
    let rowsOfFile = try PropertyListFileRows(file: file)
    try rowsOfFile.renameKey(at: 0, to: Self.decomposed)
    #expect(try PythonPlistlib.read(file) == #"[('e\u0301', 'composed')]"#)
  }
}
