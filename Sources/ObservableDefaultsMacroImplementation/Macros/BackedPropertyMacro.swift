import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// What `@DefaultsBacked` and `@CloudBacked` share: a persisted property reads its cached value
/// under the object's lock and writes through the object's store binding; its peers are the cache
/// (`_name`) and the declaration-time default (`_default_value_of_name`).
struct BackedProperty {
  let property: StoredProperty
  let flavor: StoreFlavor
  /// The class that holds the property's key path as a constant (`_keyPath_of_name`); nil in a
  /// generic class, which cannot have static stored properties (its accessors use literals).
  let keyPathOwner: String?

  /// The property, when it can be persisted; otherwise reports why and returns `nil`.
  init?(
    _ declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax, flavor: StoreFlavor,
    lexicalContext: [Syntax], context: (any MacroExpansionContext)?
  ) {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let property = StoredProperty(variable)
    else { return nil }
    guard property.isObservable, !property.hasAttribute("ObservableOnly") else {
      context?.diagnose(
        .notPersistable(attribute: flavor.backedMacro, property: property.name), at: attribute)
      return nil
    }
    guard property.initializer != nil || property.isOptional else {
      context?.diagnose(
        .missingInitialValue(macro: flavor.classMacro, property: property.name),
        at: property.binding)
      return nil
    }
    self.property = property
    self.flavor = flavor
    keyPathOwner = Self.constantOwner(in: lexicalContext)
  }

  /// The name of the class around the property when it and every declaration around it is a
  /// type that is not generic (a static stored property is allowed there); else nil.
  private static func constantOwner(in lexicalContext: [Syntax]) -> String? {
    guard let owner = lexicalContext.first?.as(ClassDeclSyntax.self) else { return nil }
    let allowed = lexicalContext.allSatisfy { context in
      if let type = context.asProtocol((any DeclGroupSyntax).self) {
        return !(type.is(ExtensionDeclSyntax.self) || type.is(ProtocolDeclSyntax.self))
          && type.as(ClassDeclSyntax.self)?.genericParameterClause == nil
          && type.as(StructDeclSyntax.self)?.genericParameterClause == nil
          && type.as(EnumDeclSyntax.self)?.genericParameterClause == nil
          && type.as(ActorDeclSyntax.self)?.genericParameterClause == nil
      }
      return false
    }
    return allowed ? owner.name.trimmedDescription : nil
  }

  /// The key path of the property for the registrar: the class's constant, else a literal.
  private var registrarKeyPath: String {
    let name = property.name
    return keyPathOwner.map { "\($0)._keyPath_of_\(name).keyPath" } ?? "\\.\(name)"
  }

  /// The property's codec for the setter: the class's constant, else made at each write (found
  /// in the runtime's cache of codecs).
  private var setterCodec: String {
    let name = property.name
    return keyPathOwner.map { "\($0)._codec_of_\(name)" } ?? ".\(flavor.codecFactory)()"
  }

  /// `get` and `set`, both through the object's `_$defaults` binding.
  func accessors(key: String) -> [AccessorDeclSyntax] {
    let name = property.name
    return [
      """
      get {
        access(keyPath: \(raw: registrarKeyPath))
        return _$defaults.read(self, key: \(raw: key.quoted)) { $0._\(raw: name) }
      }
      """,
      """
      set {
        _$defaults.set(
          newValue, object: self, property: \(raw: registrarKeyPath), storage: \\._\(raw: name),
          defaultValue: \\._default_value_of_\(raw: name), key: \(raw: key.quoted), codec: \(raw: setterCodec)
        )
      }
      """,
    ]
  }

  /// `private var _name` (the cache), `private let _default_value_of_name`, and in a class that
  /// is not generic `private static let _keyPath_of_name` (see ``registrarKeyPath``) and
  /// `private static let _codec_of_name` (see ``setterCodec``).
  var peers: [DeclSyntax] {
    let name = property.name
    let annotation = property.type.map { ": \($0)" } ?? ""
    let initializer = property.initializer.map { " = \($0)" } ?? " = nil"
    let constants = keyPathOwner.map { owner -> [DeclSyntax] in
      [
        "private static let _keyPath_of_\(raw: name) = _ObservableDefaultsRuntime.KeyPath(\\\(raw: owner).\(raw: name))",
        "private static let _codec_of_\(raw: name) = _ObservableDefaultsRuntime.codec(of: \\\(raw: owner).\(raw: name), .\(raw: flavor.codecFactory)())",
      ]
    }
    return [
      "private var _\(raw: name)\(raw: annotation)\(raw: initializer)",
      "private let _default_value_of_\(raw: name)\(raw: annotation)\(raw: initializer)",
    ] + (constants ?? [])
  }
}

/// `@DefaultsBacked` and `@CloudBacked`: persist a property of a settings class in its store.
protocol BackedPropertyMacro: AccessorMacro, PeerMacro {
  /// The store's names.
  static var flavor: StoreFlavor { get }
}

extension BackedPropertyMacro {
  public static func expansion(
    of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard
      let backed = BackedProperty(
        declaration, attribute: node, flavor: flavor, lexicalContext: context.lexicalContext,
        context: context)
    else { return [] }
    if let observer = backed.property.observers.first {
      context.diagnose(
        .observersIgnored(attribute: flavor.backedMacro, property: backed.property.name),
        at: observer)
    }
    let key = backed.property.storageKey(in: flavor, context: context)
    _ = backed.property.previousKeys(in: flavor, context: context)
    return backed.accessors(key: key)
  }

  public static func expansion(
    of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    BackedProperty(
      declaration, attribute: node, flavor: flavor, lexicalContext: context.lexicalContext,
      context: nil)?.peers ?? []
  }
}

/// `@DefaultsBacked`: persists a property of an `@ObservableDefaults` class.
public enum DefaultsBackedMacro: BackedPropertyMacro {
  static let flavor = StoreFlavor.defaults
}

/// `@CloudBacked`: persists a property of an `@ObservableCloud` class in the cloud store.
public enum CloudBackedMacro: BackedPropertyMacro {
  static let flavor = StoreFlavor.cloud
}
