import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Every message the macros report, with its exact text.
enum MacroDiagnostic: DiagnosticMessage {
  case notAClass(macro: String, kind: String)
  case notStringLiteral(attribute: String, argument: String)
  case notBooleanLiteral(attribute: String, argument: String)
  case prefixContainsDot(attribute: String)
  case missingInitialValue(macro: String, property: String)
  case observersIgnored(attribute: String, property: String)
  case notPersistable(attribute: String, property: String)
  case notStringArrayLiteral(attribute: String, argument: String)
  case previousKeyIsKey(attribute: String, key: String)
  case repeatedPreviousKey(attribute: String, key: String)

  var message: String {
    switch self {
    case .notAClass(let macro, let kind):
      "@\(macro) can only be applied to a class; '\(kind)' is not supported"
    case .notStringLiteral(let attribute, let argument):
      "@\(attribute) parameter '\(argument)' must be a string literal"
    case .notBooleanLiteral(let attribute, let argument):
      "@\(attribute) parameter '\(argument)' must be a boolean literal"
    case .prefixContainsDot(let attribute):
      "@\(attribute) parameter 'prefix' must not contain '.'"
    case .missingInitialValue(let macro, let property):
      "@\(macro) property '\(property)' must have an initial value, or be optional"
    case .observersIgnored(let attribute, let property):
      "@\(attribute) property '\(property)' does not support willSet/didSet; mark it @ObservableOnly to keep them"
    case .notPersistable(let attribute, let property):
      "@\(attribute) can only be applied to a stored 'var' property; '\(property)' is not one"
    case .notStringArrayLiteral(let attribute, let argument):
      "@\(attribute) parameter '\(argument)' must be an array of string literals"
    case .previousKeyIsKey(let attribute, let key):
      "@\(attribute) previous key '\(key)' is the property's key"
    case .repeatedPreviousKey(let attribute, let key):
      "@\(attribute) previous key '\(key)' is listed more than once"
    }
  }

  var severity: DiagnosticSeverity {
    if case .observersIgnored = self { return .warning }
    return .error
  }

  var diagnosticID: MessageID {
    let name: String =
      switch self {
      case .notAClass: "notAClass"
      case .notStringLiteral: "notStringLiteral"
      case .notBooleanLiteral: "notBooleanLiteral"
      case .prefixContainsDot: "prefixContainsDot"
      case .missingInitialValue: "missingInitialValue"
      case .observersIgnored: "observersIgnored"
      case .notPersistable: "notPersistable"
      case .notStringArrayLiteral: "notStringArrayLiteral"
      case .previousKeyIsKey: "previousKeyIsKey"
      case .repeatedPreviousKey: "repeatedPreviousKey"
      }
    return MessageID(domain: "ObservableDefaultsMacros", id: name)
  }
}

extension MacroExpansionContext {
  /// Reports `message` at `node`.
  func diagnose(_ message: MacroDiagnostic, at node: some SyntaxProtocol) {
    diagnose(Diagnostic(node: Syntax(node), message: message))
  }
}
