import SwiftSyntax

/// A `var` declared in a settings class, as the macros see it: syntax only, no types.
struct StoredProperty {
  let declaration: VariableDeclSyntax
  let binding: PatternBindingSyntax
  /// The property's name.
  let name: String

  /// Reads the first binding of a variable declaration; `nil` when it is not a simple identifier.
  init?(_ declaration: VariableDeclSyntax) {
    guard let binding = declaration.bindings.first,
      let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
    else { return nil }
    self.declaration = declaration
    self.binding = binding
    self.name = identifier.identifier.trimmedDescription
  }

  /// Whether it is declared with `var`.
  var isVar: Bool { declaration.bindingSpecifier.tokenKind == .keyword(.var) }

  /// Whether it is `static` (or `class`).
  var isStatic: Bool {
    declaration.modifiers.contains {
      $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
    }
  }

  /// Whether it has a getter (a computed property); `willSet`/`didSet` alone keep it stored.
  var isComputed: Bool {
    guard let accessors = binding.accessorBlock?.accessors else { return false }
    switch accessors {
    case .getter: return true
    case .accessors(let list):
      return list.contains {
        ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
      }
    @unknown default: return true
    }
  }

  /// Its `willSet`/`didSet` observers, if any.
  var observers: [AccessorDeclSyntax] {
    guard case .accessors(let list) = binding.accessorBlock?.accessors else { return [] }
    return list.filter {
      [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
    }
  }

  /// The attribute named `name` (`DefaultsBacked`, `Ignore`, …), compared by its last identifier.
  func attribute(_ name: String) -> AttributeSyntax? {
    for element in declaration.attributes {
      guard let attribute = element.as(AttributeSyntax.self) else { continue }
      let typeName = attribute.attributeName.trimmedDescription
      if typeName == name || typeName.hasSuffix("." + name) { return attribute }
    }
    return nil
  }

  func hasAttribute(_ name: String) -> Bool { attribute(name) != nil }

  /// A stored, non-static `var` that is not `@Ignore`: the macros make it observable.
  var isObservable: Bool { isVar && !isStatic && !isComputed && !hasAttribute("Ignore") }

  /// The type annotation, when there is one.
  var type: TypeSyntax? { binding.typeAnnotation?.type.trimmed }

  /// The initial value, when there is one.
  var initializer: ExprSyntax? { binding.initializer?.value.trimmed }

  /// Whether the annotated type is an optional (`T?`, `T!` or `Optional<T>`).
  var isOptional: Bool {
    guard let type else { return false }
    if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return true
    }
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return identifier.name.text == "Optional"
    }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text == "Optional" }
    return false
  }

  /// The text of its `///` or `/** */` documentation comment, or `nil`: the lines of each
  /// paragraph joined with spaces, the paragraphs with a blank line (`\n\n`).
  var documentation: String? {
    var lines: [String] = []
    for piece in declaration.leadingTrivia {
      switch piece {
      case .docLineComment(let text):
        lines.append(String(text.dropFirst(3)).trimmingWhitespace())
      case .docBlockComment(let text):
        let body = text.dropFirst(3).dropLast(2)
        lines += body.split(separator: "\n").map {
          String($0).trimmingWhitespace().trimmingPrefix("*").trimmingWhitespace()
        }
      default: continue
      }
    }
    let paragraphs = lines.split(separator: "", omittingEmptySubsequences: true)
    let text = paragraphs.map { $0.joined(separator: " ") }.joined(separator: "\n\n")
    return text.isEmpty ? nil : text
  }
}

extension String {
  func trimmingWhitespace() -> String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }

  func trimmingPrefix(_ prefix: String) -> String {
    hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
  }

  /// The string as a Swift string literal, quotes and backslashes escaped.
  var literal: String {
    var escaped = "\""
    for character in self {
      switch character {
      case "\\", "\"": escaped += "\\\(character)"
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped + "\""
  }
}
