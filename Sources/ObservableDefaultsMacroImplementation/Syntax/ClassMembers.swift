import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The members that both class macros generate for a settings class: the Observation plumbing,
/// the property table of its observable properties (`_$settingsProperties`), and the attributes
/// added to its properties.
struct ClassMembers {
  let classDecl: ClassDeclSyntax
  let flavor: StoreFlavor
  let observeFirst: Bool

  var className: String { classDecl.name.trimmedDescription }

  /// `access(keyPath:)` and `withMutation(keyPath:_:)`, as `@Observable` generates them.
  var observationMembers: [DeclSyntax] {
    [
      """
      internal nonisolated func access<Member>(keyPath: KeyPath<\(raw: className), Member>) {
        _$defaults.access(self, keyPath: keyPath)
      }
      """,
      """
      internal nonisolated func withMutation<Member, MutationResult>(
        keyPath: KeyPath<\(raw: className), Member>,
        _ mutation: () throws -> MutationResult
      ) rethrows -> MutationResult {
        try _$defaults.registrar.withMutation(of: self, keyPath: keyPath, mutation)
      }
      """,
    ]
  }

  /// `_$settingsProperties`: one entry per observable property, in declaration order.
  func propertyTable(access: String) -> DeclSyntax {
    let entries = classDecl.storedProperties.filter(\.isObservable).map { property in
      let summary = property.documentation.map { ", summary: \($0.literal)" } ?? ""
      guard property.isPersisted(in: flavor, observeFirst: observeFirst) else {
        return ".observableOnly(\(property.name.literal)\(summary), property: \\.\(property.name))"
      }
      let key = property.storageKey(in: flavor, context: nil).quoted
      let previousKeys = property.previousKeys(in: flavor, context: nil).map(\.quoted)
      let conversion =
        property.conversion(in: flavor).map {
          ",\n    conversion: .init(from: .\(flavor.codecFactory)(), \($0.trimmedDescription))"
        } ?? ""
      let previous =
        previousKeys.isEmpty ? "" : ", previousKeys: [\(previousKeys.joined(separator: ", "))]"
      return """
        .persisted(
            \(property.name.literal), key: \(key)\(previous)\(summary),
            property: \\.\(property.name), storage: \\._\(property.name),
            defaultValue: \\._default_value_of_\(property.name), codec: .\(flavor.codecFactory)()\(conversion)
          )
        """
    }
    let list = entries.isEmpty ? "[]" : "[\n  " + entries.joined(separator: ",\n  ") + ",\n]"
    let isGeneric = classDecl.genericParameterClause != nil
    let declaration =
      isGeneric
      ? "\(access)static var _$settingsProperties: [_ObservableDefaultsRuntime.Property<\(className)>] { \(list) }"
      : "\(access)static let _$settingsProperties: [_ObservableDefaultsRuntime.Property<\(className)>] = \(list)"
    return DeclSyntax(stringLiteral: declaration)
  }

  /// The attribute the class macro adds to one member: `@<Backed>` on a persisted property
  /// without it, `@ObservableOnly` on an observable one in `observeFirst` mode.
  static func attributes(
    for member: some DeclSyntaxProtocol, flavor: StoreFlavor, observeFirst: Bool
  ) -> [AttributeSyntax] {
    guard let variable = member.as(VariableDeclSyntax.self),
      let property = StoredProperty(variable),
      property.isObservable, !property.hasAttribute("ObservableOnly"),
      !property.hasAttribute(flavor.backedMacro)
    else { return [] }
    let name = observeFirst ? "ObservableOnly" : flavor.backedMacro
    return [AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier(name)))]
  }

  /// `extension C: ObservableDefaults.Observable, ObservableSettings {}`; for a main-actor class the
  /// settings conformance is isolated to the main actor, as its properties are; for a
  /// `nonisolated` class the extension is `nonisolated` too, so that in a module whose default
  /// isolation is the main actor its conformances are not isolated (as Apple's `@Observable`
  /// expands).
  static func conformances(
    of type: some TypeSyntaxProtocol, mainActor: Bool, nonisolated: Bool
  ) -> ExtensionDeclSyntax {
    let isolation = mainActor && !nonisolated ? "@MainActor " : ""
    let modifier = nonisolated ? "nonisolated " : ""
    let declaration: DeclSyntax =
      "\(raw: modifier)extension \(type.trimmed): ObservableDefaults.Observable, \(raw: isolation)_ObservableDefaultsRuntime.Settings {}"
    return declaration.cast(ExtensionDeclSyntax.self)
  }
}
