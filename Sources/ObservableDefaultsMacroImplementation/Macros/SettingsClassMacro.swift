import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// What `@ObservableDefaults` and `@ObservableCloud` share: the checks, the attributes added to
/// properties, the conformances, and the members both generate around their store-specific ones.
protocol SettingsClassMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
  /// The store's names.
  static var flavor: StoreFlavor { get }
  /// The expression that creates the object's store.
  static func storeExpression(_ options: ClassOptions, className: String) -> String
  /// Members only this store has (configuration, initializer).
  static func storeMembers(_ options: ClassOptions, className: String, access: String)
    -> [DeclSyntax]
  /// The `SettingsStoreInfo.Kind` case of the store.
  static var storeKind: String { get }
  /// Arguments of the binding only this store has, each followed by `,` and a line break.
  static func bindingArguments(_ options: ClassOptions) -> String
}

extension SettingsClassMacro {
  public static func expansion(
    of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
      context.diagnose(
        .notAClass(macro: flavor.classMacro, kind: declarationKind(declaration)), at: node)
      return []
    }
    let options = ClassOptions(node, flavor: flavor, context: context)
    let members = ClassMembers(
      classDecl: classDecl, flavor: flavor, observeFirst: options.flag("observeFirst"))
    let className = members.className
    let access = declaration.memberAccess
    let mainActor = options.flag("defaultIsolationIsMainActor") || declaration.isMainActor
    var decls: [DeclSyntax] = [
      """
      private let _$defaults = _ObservableDefaultsRuntime.Binding<\(raw: className)>(
        store: \(raw: storeExpression(options, className: className)),
        prefix: \(raw: options.prefix.quoted),
        ignoresExternalChanges: \(raw: options.flag("ignoreExternalChanges")),
        \(raw: bindingArguments(options))properties: \(raw: className)._$settingsProperties,
        deliversOnMainActor: \(raw: mainActor)
      )
      """,
      """
      private var _prefix: String {
        get { _$defaults.prefix }
        set { _$defaults.prefix = newValue }
      }
      """,
    ]
    decls += members.observationMembers
    decls += storeMembers(options, className: className, access: access)
    decls.append(members.propertyTable(access: access))
    decls.append("\(raw: access)var _$settingsRoot: \(raw: className) { self }")
    decls.append(
      """
      \(raw: access)var _$settingsStore: _ObservableDefaultsRuntime.StoreInfo {
        _ObservableDefaultsRuntime.StoreInfo(kind: .\(raw: storeKind), store: _$defaults.store, prefix: _$defaults.prefix)
      }
      """)
    return decls
  }

  public static func expansion(
    of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(ClassDeclSyntax.self) else { return [] }
    let options = ClassOptions(node, flavor: flavor, context: nil)
    return ClassMembers.attributes(
      for: member, flavor: flavor, observeFirst: options.flag("observeFirst"))
  }

  public static func expansion(
    of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(ClassDeclSyntax.self) else { return [] }
    let options = ClassOptions(node, flavor: flavor, context: nil)
    let mainActor = options.flag("defaultIsolationIsMainActor") || declaration.isMainActor
    return [
      ClassMembers.conformances(
        of: type, mainActor: mainActor, nonisolated: declaration.isNonisolated)
    ]
  }
}

extension String {
  /// The string as the body of a string literal it came from (already escaped source text).
  var quoted: String { "\"" + self + "\"" }
}
