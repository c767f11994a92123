import SwiftSyntax
import SwiftSyntaxMacros

/// The labelled arguments of an attribute such as `@ObservableDefaults(suiteName: "x")`, read as
/// literals; anything that is not the expected literal is diagnosed and reads as absent.
struct MacroArguments {
  let attribute: AttributeSyntax
  let attributeName: String
  /// Where diagnostics go; `nil` reads the arguments without reporting (another macro reports them).
  let context: (any MacroExpansionContext)?

  init(_ attribute: AttributeSyntax, context: (any MacroExpansionContext)?) {
    self.attribute = attribute
    self.attributeName = attribute.attributeName.trimmedDescription
    self.context = context
  }

  private func expression(_ label: String) -> ExprSyntax? {
    guard case .argumentList(let list) = attribute.arguments else { return nil }
    return list.first { $0.label?.text == label }?.expression
  }

  /// A boolean argument; `defaultValue` when absent or not a literal (then diagnosed).
  func bool(_ label: String, default defaultValue: Bool) -> Bool {
    guard let expression = expression(label) else { return defaultValue }
    guard let literal = expression.as(BooleanLiteralExprSyntax.self) else {
      context?.diagnose(.notBooleanLiteral(attribute: attributeName, argument: label), at: expression)
      return defaultValue
    }
    return literal.literal.tokenKind == .keyword(.true)
  }

  /// A string argument as its source text (escapes stay escaped, ready to splice into a literal);
  /// `nil` when absent, or not a plain string literal (then diagnosed).
  func string(_ label: String) -> String? {
    guard let expression = expression(label) else { return nil }
    guard let literal = expression.as(StringLiteralExprSyntax.self),
      literal.openingPounds == nil,
      literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) })
    else {
      context?.diagnose(.notStringLiteral(attribute: attributeName, argument: label), at: expression)
      return nil
    }
    return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
  }
}
