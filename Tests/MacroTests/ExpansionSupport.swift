import Foundation
@testable import ObservableDefaultsMacros
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

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
    contextGenerator: { BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts()) },
    indentationWidth: .spaces(2))
  let diagnostics = context.diagnostics.map { diagnostic in
    "\(diagnostic.diagMessage.severity): \(diagnostic.message) @ \(diagnostic.node.trimmedDescription)"
  }
  let source = expanded.description.trimmingCharacters(in: .whitespacesAndNewlines)
  return Expansion(source: source, diagnostics: diagnostics)
}

/// Checks that `source` expands to exactly `expected`, line by line, with no diagnostics.
func expectExpansion(
  _ source: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let expansion = expand(source)
  #expect(expansion.diagnostics == [], sourceLocation: sourceLocation)
  let actualLines = expansion.source.split(separator: "\n", omittingEmptySubsequences: false)
  let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
  for (index, (actual, wanted)) in zip(actualLines, expectedLines).enumerated() where actual != wanted {
    Issue.record("line \(index + 1):\n  expected: \(wanted)\n  actual:   \(actual)", sourceLocation: sourceLocation)
    return
  }
  #expect(actualLines.count == expectedLines.count, "\(expansion.source)", sourceLocation: sourceLocation)
}

/// Checks that expanding `source` reports exactly `diagnostics` (`severity: message @ node text`).
func expectDiagnostics(
  _ source: String, _ diagnostics: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(expand(source).diagnostics == diagnostics, sourceLocation: sourceLocation)
}
