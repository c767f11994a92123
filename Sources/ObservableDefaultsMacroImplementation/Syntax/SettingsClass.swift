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
  /// The class macro's boolean arguments and their defaults.
  let booleanArguments: [(label: String, default: Bool)]
  /// The class macro's string arguments.
  let stringArguments: [String]
  /// The `DefaultsCodec` factory that picks a property's codec by this store's rules.
  let codecFactory: String

  static let defaults = StoreFlavor(
    classMacro: "ObservableDefaults", backedMacro: "DefaultsBacked", keyMacro: "DefaultsKey",
    keyLabel: "userDefaultsKey",
    booleanArguments: [
      ("autoInit", true), ("ignoreExternalChanges", false), ("observeFirst", false),
      ("limitToInstance", true), ("defaultIsolationIsMainActor", false),
    ],
    stringArguments: ["suiteName", "prefix"], codecFactory: "automatic")
  static let cloud = StoreFlavor(
    classMacro: "ObservableCloud", backedMacro: "CloudBacked", keyMacro: "CloudKey",
    keyLabel: "keyValueStoreKey",
    booleanArguments: [
      ("autoInit", true), ("observeFirst", false), ("syncImmediately", false),
      ("developmentMode", false), ("defaultIsolationIsMainActor", false),
    ],
    stringArguments: ["prefix"], codecFactory: "automaticForCloud")
}

/// The arguments of a class macro, read and checked once.
struct ClassOptions {
  private var booleans: [String: Bool] = [:]
  private var strings: [String: String] = [:]

  /// Reads the arguments of `node`; reports misuse to `context` when it is given.
  init(_ node: AttributeSyntax, flavor: StoreFlavor, context: (any MacroExpansionContext)?) {
    let arguments = MacroArguments(node, context: context)
    for (label, defaultValue) in flavor.booleanArguments {
      booleans[label] = arguments.bool(label, default: defaultValue)
    }
    for label in flavor.stringArguments {
      strings[label] = arguments.string(label)?.trimmingWhitespace() ?? ""
    }
    if prefix.contains("."), case .argumentList(let list) = node.arguments,
      let argument = list.first(where: { $0.label?.text == "prefix" })
    {
      context?.diagnose(.prefixContainsDot(attribute: flavor.classMacro), at: argument.expression)
      strings["prefix"] = ""
    }
  }

  /// A boolean argument's value (its default when absent or invalid).
  func flag(_ label: String) -> Bool { booleans[label] ?? false }

  /// The key prefix (source text of the literal, trimmed).
  var prefix: String { strings["prefix"] ?? "" }

  /// The suite name (source text of the literal, trimmed); empty for the standard domain.
  var suiteName: String { strings["suiteName"] ?? "" }
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
      if let key = MacroArguments(attribute, context: context).string(flavor.keyLabel) {
        return key
      }
    }
    return name
  }

  /// The `convertingFrom:` argument of the backing attribute, else of the key attribute, as
  /// written (the compiler checks it where the property table uses it).
  func conversion(in flavor: StoreFlavor) -> ExprSyntax? {
    for attributeName in [flavor.backedMacro, flavor.keyMacro] {
      guard let attribute = attribute(attributeName),
        let expression = MacroArguments(attribute, context: nil).expression("convertingFrom")
      else { continue }
      return expression
    }
    return nil
  }

  /// The keys of earlier versions (`previousKeys:` of the backing attribute, else of the key
  /// attribute), in source order. Misuse is reported to `context` when it is given: a value that
  /// is not an array of string literals (no keys then), a previous key equal to the key or
  /// listed twice (left out).
  func previousKeys(in flavor: StoreFlavor, context: (any MacroExpansionContext)?) -> [String] {
    let key = storageKey(in: flavor, context: nil)
    for attributeName in [flavor.backedMacro, flavor.keyMacro] {
      guard let attribute = attribute(attributeName) else { continue }
      let arguments = MacroArguments(attribute, context: context)
      guard let elements = arguments.strings("previousKeys") else { continue }
      var keys: [String] = []
      for (text, syntax) in elements {
        if text == key {
          context?.diagnose(.previousKeyIsKey(attribute: attributeName, key: text), at: syntax)
        } else if keys.contains(text) {
          context?.diagnose(.repeatedPreviousKey(attribute: attributeName, key: text), at: syntax)
        } else {
          keys.append(text)
        }
      }
      return keys
    }
    return []
  }
}

extension DeclGroupSyntax {
  /// The `var` declarations directly in the body.
  var storedProperties: [StoredProperty] {
    memberBlock.members.compactMap {
      $0.decl.as(VariableDeclSyntax.self).flatMap(StoredProperty.init)
    }
  }

  /// `public` for a `public` or `open` type (its generated members must be visible as widely),
  /// otherwise nothing (internal).
  var memberAccess: String {
    let isPublic = modifiers.contains {
      $0.name.tokenKind == .keyword(.public) || $0.name.tokenKind == .keyword(.open)
    }
    return isPublic ? "public " : ""
  }

  /// Whether the type is declared `nonisolated` (SE-0449: out of the module's default
  /// main-actor isolation).
  var isNonisolated: Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
  }

  /// Whether the type carries an explicit `@MainActor`.
  var isMainActor: Bool {
    attributes.contains {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor"
    }
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
