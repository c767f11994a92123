import Foundation
import ObservableDefaultsCore

// The JSON messages of etcd's v3 gateway (`/v3/kv/range`, `/v3/kv/txn`, `/v3/watch`,
// `/v3/auth/authenticate`): proto3 JSON with the protos' field names, 64-bit integers as strings,
// keys and values base64 (Foundation's default coding of `Data`), and fields at their default
// value (0, false, empty) left out of replies. Swift names are camel case; ``EtcdJSON`` maps them
// to and from the protos' snake case.

/// The JSON coding of the gateway's messages: Foundation's coders with the protos' snake-case
/// field names (`mod_revision` ↔ `modRevision`).
enum EtcdJSON {
  /// The JSON of `message`, field names in snake case.
  static func encode(_ message: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    return try encoder.encode(message)
  }

  /// The message of type `type` in `data`, field names in snake case.
  ///
  /// - Throws: `DecodingError` when `data` is not such a message.
  static func decode<Message: Decodable>(_ type: Message.Type, from data: Data) throws -> Message {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(type, from: data)
  }
}

/// A 64-bit integer that etcd writes as a JSON string (and accepts as one).
struct EtcdInt64: Codable, Sendable, Equatable {
  var value: Int64

  init(_ value: Int64) {
    self.value = value
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Int64.self) {
      value = number
      return
    }
    let text = try container.decode(String.self)
    guard let number = Int64(text) ?? UInt64(text).map({ Int64(bitPattern: $0) }) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not a 64-bit integer: \(text)")
    }
    value = number
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(String(value))
  }
}

/// The header of every reply.
struct EtcdResponseHeader: Decodable, Sendable {
  /// The cluster's identity (a `uint64`, kept as etcd writes it).
  var clusterId: String?
  /// The store's revision when the request was served.
  var revision: EtcdInt64?
}

/// One stored key.
struct EtcdKeyValue: Decodable, Sendable {
  var key: Data
  var value: Data?
  var modRevision: EtcdInt64?
}

struct EtcdRangeRequest: Encodable, Sendable {
  var key: Data
  var rangeEnd: Data? = nil
  var minModRevision: EtcdInt64? = nil
  var serializable: Bool? = nil
  var countOnly: Bool? = nil
  /// At most this many keys in the reply (etcd sets `more` when there were others).
  var limit: EtcdInt64? = nil
}

struct EtcdRangeResponse: Decodable, Sendable, EtcdBoundedReply {
  var header: EtcdResponseHeader?
  var kvs: [EtcdKeyValue]?
  /// Whether keys beyond the request's `limit` were left out.
  var more: Bool?

  var exceededBound: String? {
    more == true ? "the reply holds more than \(EtcdClient.maximumKeysPerReply) keys" : nil
  }
}

/// A reply whose size the client bounds beyond its bytes: one that exceeds its bound is taken
/// as a failure of the member that sent it, and another member is asked.
protocol EtcdBoundedReply {
  /// What bound the reply exceeds, for people, or nil.
  var exceededBound: String? { get }
}

struct EtcdPutRequest: Encodable, Sendable {
  var key: Data
  var value: Data
}

/// A condition of a transaction.
struct EtcdCompare: Encodable, Sendable {
  enum Target: String, Encodable, Sendable {
    case value = "VALUE"
    case mod = "MOD"
  }
  enum Result: String, Encodable, Sendable {
    case equal = "EQUAL"
    case less = "LESS"
  }
  var key: Data
  /// With a range end, the compare holds for every key from `key` up to it (etcd 3.3 and later).
  var rangeEnd: Data? = nil
  var target: Target
  var result: Result
  var value: Data? = nil
  var modRevision: EtcdInt64?
}

/// One operation of a transaction: a read or a put. (Never a nested transaction: etcd 3.4.23
/// does not check role permissions inside nested transactions, measured here.)
enum EtcdRequestOp: Encodable, Sendable {
  case range(EtcdRangeRequest)
  case put(EtcdPutRequest)

  private enum CodingKeys: String, CodingKey {
    case requestRange = "request_range"
    case requestPut = "request_put"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .range(let range): try container.encode(range, forKey: .requestRange)
    case .put(let put): try container.encode(put, forKey: .requestPut)
    }
  }
}

struct EtcdTxnRequest: Encodable, Sendable {
  var compare: [EtcdCompare] = []
  var success: [EtcdRequestOp] = []
  var failure: [EtcdRequestOp] = []
}

struct EtcdTxnResponse: Decodable, Sendable {
  struct ResponseOp: Decodable, Sendable {
    var responseRange: EtcdRangeResponse?
  }
  var header: EtcdResponseHeader?
  /// Absent (false) when a compare failed.
  var succeeded: Bool?
  var responses: [ResponseOp]?
}

struct EtcdAuthenticateRequest: Encodable, Sendable {
  var name: String
  var password: String
}

struct EtcdAuthenticateResponse: Decodable, Sendable {
  var token: String?
}

struct EtcdWatchCreateRequest: Encodable, Sendable {
  struct Create: Encodable, Sendable {
    var key: Data
    var rangeEnd: Data
    var startRevision: EtcdInt64
    var progressNotify: Bool
  }
  var createRequest: Create
}

/// One line of a `/v3/watch` stream: a result, or an error that ends the stream.
struct EtcdWatchLine: Decodable, Sendable {
  struct Event: Decodable, Sendable {
    /// Absent for a put (proto3 leaves the default out), `DELETE` for a deletion.
    var type: String?
    var kv: EtcdKeyValue?
  }

  struct Result: Decodable, Sendable {
    var header: EtcdResponseHeader?
    var created: Bool?
    var canceled: Bool?
    var compactRevision: EtcdInt64?
    var cancelReason: String?
    var events: [Event]?
  }

  struct StreamError: Decodable, Sendable {
    var grpcCode: Int?
    var httpCode: Int?
    var message: String?
  }

  var result: Result?
  var error: StreamError?
}

/// The body of a gateway error reply.
struct EtcdGatewayError: Decodable, Sendable {
  var error: String?
  var message: String?
  var code: Int?
}
