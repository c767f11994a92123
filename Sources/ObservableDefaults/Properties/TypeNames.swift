/// A type's name as `String(describing:)` writes it (`Int`, `Optional<String>`, `Inner`), or
/// with `qualified` as `String(reflecting:)` does (`Swift.Int`, `App.Outer.Inner`): the same
/// text without their dynamic casts. Those first ask whether the metatype conforms to each of the
/// printing protocols, and each first ask of a type scans every conformance record in the
/// program: a fifth of a minimal settings program's start (callgrind of `minimal-defaults`).
func nameOfType(_ type: Any.Type, qualified: Bool = false) -> String {
  _typeName(type, qualified: qualified)
}
