import SwiftSyntax
import SwiftSyntaxMacros

/// Which store a settings class uses: the names that differ between `@ObservableDefaults` and
/// `@ObservableCloud`.
struct StoreFlavor {
  /// The class macro's name.
  let classMacro: String
  /// The property macro that persists a property.
  let backedMacro: String
  /// The property macro that only names the key.
  let keyMacro: String
  /// The argument label of the custom key.
  let keyLabel: String

  static let defaults = StoreFlavor(
    classMacro: "ObservableDefaults", backedMacro: "DefaultsBacked", keyMacro: "DefaultsKey",
    keyLabel: "userDefaultsKey")
  static let cloud = StoreFlavor(
    classMacro: "ObservableCloud", backedMacro: "CloudBacked", keyMacro: "CloudKey",
    keyLabel: "keyValueStoreKey")
}

extension StoredProperty {
  /// Whether the class macro persists this property, given the class's `observeFirst` policy.
  func isPersisted(in flavor: StoreFlavor, observeFirst: Bool) -> Bool {
    guard isObservable, !hasAttribute("ObservableOnly") else { return false }
    return observeFirst ? hasAttribute(flavor.backedMacro) : true
  }

  /// The storage key without prefix: the backing attribute's key, else the key attribute's,
  /// else the property name. Bad keys are reported to `context` when it is given.
  func storageKey(in flavor: StoreFlavor, context: (any MacroExpansionContext)?) -> String {
    for attributeName in [flavor.backedMacro, flavor.keyMacro] {
      guard let attribute = attribute(attributeName) else { continue }
      if let key = MacroArguments(attribute, context: context).string(flavor.keyLabel) { return key }
    }
    return name
  }
}

extension DeclGroupSyntax {
  /// The `var` declarations directly in the body.
  var storedProperties: [StoredProperty] {
    memberBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self).flatMap(StoredProperty.init) }
  }

  /// `public` for a `public` or `open` type (its generated members must be visible as widely),
  /// otherwise nothing (internal).
  var memberAccess: String {
    let isPublic = modifiers.contains {
      $0.name.tokenKind == .keyword(.public) || $0.name.tokenKind == .keyword(.open)
    }
    return isPublic ? "public " : ""
  }

  /// Whether the type carries an explicit `@MainActor`.
  var isMainActor: Bool {
    attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
  }
}

/// The declaration kind for a diagnostic ("struct", "enum", …).
func declarationKind(_ declaration: some DeclGroupSyntax) -> String {
  if declaration.is(StructDeclSyntax.self) { return "struct" }
  if declaration.is(EnumDeclSyntax.self) { return "enum" }
  if declaration.is(ActorDeclSyntax.self) { return "actor" }
  if declaration.is(ProtocolDeclSyntax.self) { return "protocol" }
  if declaration.is(ExtensionDeclSyntax.self) { return "extension" }
  return "declaration"
}
