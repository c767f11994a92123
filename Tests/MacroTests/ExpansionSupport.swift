import Foundation
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import TestSupport
import Testing

@testable import ObservableDefaultsMacroImplementation

/// Every macro of the plugin, under the names the library declares them with.
let macroSpecs: [String: MacroSpec] = [
  "ObservableDefaults": MacroSpec(
    type: ObservableDefaultsMacro.self, conformances: ["Observable", "ObservableSettings"]),
  "DefaultsBacked": MacroSpec(type: DefaultsBackedMacro.self),
  "ObservableCloud": MacroSpec(
    type: ObservableCloudMacro.self, conformances: ["Observable", "ObservableSettings"]),
  "CloudBacked": MacroSpec(type: CloudBackedMacro.self),
  "CloudKey": MacroSpec(type: MarkerMacro.self),
  "DefaultsKey": MacroSpec(type: MarkerMacro.self),
  "ObservableOnly": MacroSpec(type: ObservableOnlyMacro.self),
  "Ignore": MacroSpec(type: MarkerMacro.self),
]

/// The result of expanding the macros in a piece of source.
struct Expansion {
  /// The expanded source.
  let source: String
  /// Each diagnostic as `severity: message @ text of the node it points at`.
  let diagnostics: [String]
}

/// Expands every macro in `source` the way the compiler would, with two-space indentation.
func expand(_ source: String) -> Expansion {
  let file = Parser.parse(source: source)
  let context = BasicMacroExpansionContext(
    sourceFiles: [file: .init(moduleName: "Tests", fullFilePath: "Tests.swift")])
  let expanded = file.expand(
    macroSpecs: macroSpecs,
    contextGenerator: {
      BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts())
    },
    indentationWidth: .spaces(2))
  let diagnostics = context.diagnostics.map { diagnostic in
    "\(diagnostic.diagMessage.severity): \(diagnostic.message) @ \(diagnostic.node.trimmedDescription)"
  }
  let source = expanded.description.trimmingCharacters(in: .whitespacesAndNewlines)
  return Expansion(source: source, diagnostics: diagnostics)
}

/// Checks that `source` expands, with no diagnostics, to exactly the text of the golden file
/// `Expansions/<name>.txt` beside the tests (`RECORD_SNAPSHOTS=1` records it again; see
/// ``expectGoldenFile(_:at:sourceLocation:)``).
func expectExpansion(
  _ source: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let expansion = expand(source)
  #expect(expansion.diagnostics == [], sourceLocation: sourceLocation)
  let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Expansions/\(name).txt")
  expectGoldenFile(expansion.source, at: file, sourceLocation: sourceLocation)
}

/// Checks that expanding `source` reports exactly `diagnostics` (`severity: message @ node text`).
func expectDiagnostics(
  _ source: String, _ diagnostics: [String],
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(expand(source).diagnostics == diagnostics, sourceLocation: sourceLocation)
}
