import Foundation
import ObservableDefaultsCore

/// Read mode's check of the one-key read (``PropertyListFile/document(from:key:)``, which
/// decodes only `key`'s value of a binary file or plain XML text) against the whole read of the
/// same bytes (``PropertyListFile/document(from:)``): the same error, or the same format and
/// value of `key`, and no other value.
enum OneKeyReadEquality {
  /// What differs, or nil.
  static func difference(in data: Data, key: PropertyListKey) -> String? {
    let file = PropertyListFile(url: URL(fileURLWithPath: "/fuzz/one-key.plist"))
    let whole = outcome(key) { try file.document(from: data) }
    let oneKey = outcome(key) { try file.document(from: data, key: key) }
    guard oneKey.text == whole.text, propertyListValuesEqual(oneKey.held, whole.held),
      oneKey.count <= 1
    else {
      return "one-key read: \(oneKey.text.prefix(300)) (\(oneKey.count) values); "
        + "whole read: \(whole.text.prefix(300))"
    }
    return nil
  }

  /// The format of `read`'s document, its value of `key` alone and its count of values; or its
  /// error.
  private static func outcome(_ key: PropertyListKey, _ read: () throws -> PropertyListDocument)
    -> (text: String, held: [PropertyListKey: Any]?, count: Int)
  {
    do {
      let document = try read()
      return (
        "\(document.format)", document.values[key].map { [key: $0] } ?? [:],
        document.values.count
      )
    } catch {
      return ("\(error)", nil, 0)
    }
  }
}
