import Foundation
import ObservableDefaultsCore

/// Where a container's records live in etcd: `/<root>/<container>/<account>/<key>`, each
/// component percent-encoded (every byte but `A–Z a–z 0–9 - . _ ~`), so `a/b` and `a_b` never
/// collide and one account's keys form one prefix — the unit of etcd's role permissions.
struct EtcdKeyLayout: Sendable, Equatable {
  /// `/<root>/<container>/<account>/`, encoded.
  let prefix: String

  init(root: String, container: String, account: String) {
    prefix = "/" + [root, container, account].map(Self.encode).joined(separator: "/") + "/"
  }

  /// The prefix as key bytes.
  var prefixKey: Data { Data(prefix.utf8) }

  /// The end of the prefix range: the prefix with its last byte (`/`) raised by one.
  var rangeEnd: Data {
    var end = prefixKey
    end[end.count - 1] += 1
    return end
  }

  /// The etcd key of a store key.
  func key(_ key: String) -> Data {
    Data((prefix + Self.encode(key)).utf8)
  }

  /// The store key of an etcd key under ``prefix``, or nil for any other key.
  func storeKey(_ key: Data) -> String? {
    guard let text = String(data: key, encoding: .utf8), text.hasPrefix(prefix) else { return nil }
    return String(text.dropFirst(prefix.count)).removingPercentEncoding
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// `component` with every byte outside the unreserved set percent-encoded.
  static func encode(_ component: String) -> String {
    component.addingPercentEncoding(withAllowedCharacters: unreserved) ?? component
  }
}
