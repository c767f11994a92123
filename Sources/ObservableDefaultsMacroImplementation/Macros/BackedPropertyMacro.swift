import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// What `@DefaultsBacked` and `@CloudBacked` share: a persisted property reads its cached value
/// under the object's lock and writes through the object's store binding; its peers are the cache
/// (`_name`) and the declaration-time default (`_default_value_of_name`).
struct BackedProperty {
  let property: StoredProperty
  let flavor: StoreFlavor

  /// The property, when it can be persisted; otherwise reports why and returns `nil`.
  init?(
    _ declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax, flavor: StoreFlavor,
    context: (any MacroExpansionContext)?
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
  }

  /// `get` and `set`, both through the object's `_$defaults` binding.
  func accessors(key: String) -> [AccessorDeclSyntax] {
    let name = property.name
    return [
      """
      get {
        access(keyPath: \\.\(raw: name))
        return _$defaults.read(self, key: \(raw: key.quoted)) { $0._\(raw: name) }
      }
      """,
      """
      set {
        _$defaults.set(
          newValue, object: self, property: \\.\(raw: name), storage: \\._\(raw: name),
          defaultValue: \\._default_value_of_\(raw: name), key: \(raw: key.quoted), codec: .\(raw: flavor.codecFactory)()
        )
      }
      """,
    ]
  }

  /// `private var _name` (the cache) and `private let _default_value_of_name`.
  var peers: [DeclSyntax] {
    let name = property.name
    let annotation = property.type.map { ": \($0)" } ?? ""
    let initializer = property.initializer.map { " = \($0)" } ?? " = nil"
    return [
      "private var _\(raw: name)\(raw: annotation)\(raw: initializer)",
      "private let _default_value_of_\(raw: name)\(raw: annotation)\(raw: initializer)",
    ]
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
      let backed = BackedProperty(declaration, attribute: node, flavor: flavor, context: context)
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
    BackedProperty(declaration, attribute: node, flavor: flavor, context: nil)?.peers ?? []
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
