import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableOnly`: an observable property that is never stored. Its storage `_name` keeps the
/// property's `willSet`/`didSet`, which run for real changes only.
public enum ObservableOnlyMacro: AccessorMacro, PeerMacro {
  public static func expansion(
    of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let property = observableProperty(declaration) else { return [] }
    let name = property.name
    return [
      """
      @storageRestrictions(initializes: _\(raw: name))
      init(initialValue) {
        _\(raw: name) = initialValue
      }
      """,
      """
      get {
        access(keyPath: \\.\(raw: name))
        return _\(raw: name)
      }
      """,
      """
      set {
        guard _ObservableDefaultsRuntime.hasChanged(newValue, _\(raw: name)) else { return }
        withMutation(keyPath: \\.\(raw: name)) {
          _\(raw: name) = newValue
        }
      }
      """,
      """
      _modify {
        access(keyPath: \\.\(raw: name))
        _$defaults.registrar.willSet(self, keyPath: \\.\(raw: name))
        defer { _$defaults.registrar.didSet(self, keyPath: \\.\(raw: name)) }
        yield &_\(raw: name)
      }
      """,
    ]
  }

  public static func expansion(
    of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let property = observableProperty(declaration) else { return [] }
    let storage = property.declaration
      .with(\.attributes, [])
      .with(\.modifiers, [DeclModifierSyntax(name: .keyword(.private))])
      .with(\.leadingTrivia, [])
      .with(
        \.bindings,
        PatternBindingListSyntax([
          property.binding.with(
            \.pattern,
            PatternSyntax(IdentifierPatternSyntax(identifier: .identifier("_" + property.name))))
        ]))
    return [DeclSyntax(storage.trimmed)]
  }
}

/// The property `@ObservableOnly` is attached to, when it is a stored, non-static `var`.
private func observableProperty(_ declaration: some DeclSyntaxProtocol) -> StoredProperty? {
  guard let variable = declaration.as(VariableDeclSyntax.self),
    let property = StoredProperty(variable),
    property.isObservable
  else { return nil }
  return property
}

/// `@DefaultsKey`, `@CloudKey` and `@Ignore`: markers read by the other macros; they expand to nothing.
public enum MarkerMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] { [] }
}
