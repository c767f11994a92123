import SwiftSyntax
import SwiftSyntaxMacros

/// `@ObservableDefaults`: makes a class's stored properties observable and persisted in a
/// UserDefaults suite. Adds `@DefaultsBacked` (or, with `observeFirst`, `@ObservableOnly`) to
/// each stored property, the members below, and the `Observable` and `ObservableSettings` conformances.
public enum ObservableDefaultsMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
  /// The macro's arguments, read and checked.
  struct Options {
    var autoInit = true
    var ignoreExternalChanges = false
    var suiteName = ""
    var prefix = ""
    var observeFirst = false
    var defaultIsolationIsMainActor = false

    init(_ node: AttributeSyntax, context: (any MacroExpansionContext)?) {
      let arguments = MacroArguments(node, context: context)
      autoInit = arguments.bool("autoInit", default: true)
      ignoreExternalChanges = arguments.bool("ignoreExternalChanges", default: false)
      observeFirst = arguments.bool("observeFirst", default: false)
      _ = arguments.bool("limitToInstance", default: true)
      defaultIsolationIsMainActor = arguments.bool("defaultIsolationIsMainActor", default: false)
      suiteName = arguments.string("suiteName")?.trimmingWhitespace() ?? ""
      prefix = arguments.string("prefix")?.trimmingWhitespace() ?? ""
      if prefix.contains("."), case .argumentList(let list) = node.arguments,
        let argument = list.first(where: { $0.label?.text == "prefix" })
      {
        context?.diagnose(.prefixContainsDot(attribute: "ObservableDefaults"), at: argument.expression)
        prefix = ""
      }
    }
  }

  public static func expansion(
    of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
      context.diagnose(.notAClass(macro: "ObservableDefaults", kind: declarationKind(declaration)), at: node)
      return []
    }
    let options = Options(node, context: context)
    let members = ClassMembers(classDecl: classDecl, flavor: .defaults, observeFirst: options.observeFirst)
    let className = members.className
    let access = declaration.memberAccess
    let mainActor = options.defaultIsolationIsMainActor || declaration.isMainActor
    var decls: [DeclSyntax] = [
      """
      private let _$defaults = _ObservableDefaultsRuntime.Binding<\(raw: className)>(
        store: _ObservableDefaultsRuntime.Binding<\(raw: className)>.store(suiteName: \(raw: options.suiteName.quoted)),
        prefix: \(raw: options.prefix.quoted),
        ignoresExternalChanges: \(raw: options.ignoreExternalChanges),
        schema: \(raw: className).settingsSchema,
        deliversOnMainActor: \(raw: mainActor)
      )
      """,
      """
      private var _userDefaults: Foundation.UserDefaults {
        get { _$defaults.userDefaults }
        set { _$defaults.userDefaults = newValue }
      }
      """,
      """
      private var _prefix: String {
        get { _$defaults.prefix }
        set { _$defaults.prefix = newValue }
      }
      """,
      """
      private var _isExternalNotificationDisabled: Bool {
        get { _$defaults.ignoresExternalChanges }
        set { _$defaults.ignoresExternalChanges = newValue }
      }
      """,
    ]
    decls += members.observationMembers
    decls.append(
      """
      private func observerStarter(observableKeysBlacklist: [PartialKeyPath<\(raw: className)>] = []) {
        _$defaults.start(self, ignoring: observableKeysBlacklist)
      }
      """)
    decls.append(members.schema(access: access))
    decls.append("\(raw: access)var _settingsRoot: \(raw: className) { self }")
    decls.append(
      """
      \(raw: access)var settingsStore: _ObservableDefaultsRuntime.StoreInfo {
        _ObservableDefaultsRuntime.StoreInfo(kind: .userDefaults, store: _$defaults.store, prefix: _$defaults.prefix)
      }
      """)
    if options.autoInit {
      decls.append(
        """
        public init(
          userDefaults: Foundation.UserDefaults? = nil,
          ignoreExternalChanges: Bool? = nil,
          prefix: String? = nil,
          ignoredKeyPathsForExternalUpdates: [PartialKeyPath<\(raw: className)>] = []
        ) {
          if let userDefaults { _userDefaults = userDefaults }
          if let ignoreExternalChanges { _isExternalNotificationDisabled = ignoreExternalChanges }
          if let prefix { _prefix = prefix }
          observerStarter(observableKeysBlacklist: ignoredKeyPathsForExternalUpdates)
        }
        """)
    }
    return decls
  }

  public static func expansion(
    of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(ClassDeclSyntax.self) else { return [] }
    let options = Options(node, context: nil)
    return ClassMembers.attributes(for: member, flavor: .defaults, observeFirst: options.observeFirst)
  }

  public static func expansion(
    of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(ClassDeclSyntax.self) else { return [] }
    let options = Options(node, context: nil)
    let mainActor = options.defaultIsolationIsMainActor || declaration.isMainActor
    return [ClassMembers.conformances(of: type, mainActor: mainActor)]
  }
}

extension String {
  /// The string as the body of a string literal it came from (already escaped source text).
  var quoted: String { "\"" + self + "\"" }
}
