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

  /// The argument labelled `label`, as written.
  func expression(_ label: String) -> ExprSyntax? {
    guard case .argumentList(let list) = attribute.arguments else { return nil }
    return list.first { $0.label?.text == label }?.expression
  }

  /// A boolean argument; `defaultValue` when absent or not a literal (then diagnosed).
  func bool(_ label: String, default defaultValue: Bool) -> Bool {
    guard let expression = expression(label) else { return defaultValue }
    guard let literal = expression.as(BooleanLiteralExprSyntax.self) else {
      context?.diagnose(
        .notBooleanLiteral(attribute: attributeName, argument: label), at: expression)
      return defaultValue
    }
    return literal.literal.tokenKind == .keyword(.true)
  }

  /// An array-of-strings argument, each element as its source text with the element's syntax;
  /// `nil` when absent, or not an array literal of plain string literals (then diagnosed).
  func strings(_ label: String) -> [(text: String, syntax: ExprSyntax)]? {
    guard let expression = expression(label) else { return nil }
    let elements = expression.as(ArrayExprSyntax.self)?.elements.map(\.expression)
    let texts = elements?.compactMap(Self.plainText)
    guard let elements, let texts, texts.count == elements.count else {
      context?.diagnose(
        .notStringArrayLiteral(attribute: attributeName, argument: label), at: expression)
      return nil
    }
    return Array(zip(texts, elements)).map { (text: $0, syntax: $1) }
  }

  /// The source text of a plain string literal (no interpolation, no `#`), else `nil`.
  private static func plainText(_ expression: ExprSyntax) -> String? {
    guard let literal = expression.as(StringLiteralExprSyntax.self), literal.openingPounds == nil,
      literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) })
    else { return nil }
    return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
  }

  /// A string argument as its source text (escapes stay escaped, ready to splice into a literal);
  /// `nil` when absent, or not a plain string literal (then diagnosed).
  func string(_ label: String) -> String? {
    guard let expression = expression(label) else { return nil }
    guard let text = Self.plainText(expression) else {
      context?.diagnose(
        .notStringLiteral(attribute: attributeName, argument: label), at: expression)
      return nil
    }
    return text
  }
}
