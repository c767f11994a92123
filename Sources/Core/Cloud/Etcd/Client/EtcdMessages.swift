import Foundation

// The JSON messages of etcd's v3 gateway (`/v3/kv/range`, `/v3/kv/txn`, `/v3/watch`,
// `/v3/auth/authenticate`): proto3 JSON with the protos' field names, 64-bit integers as strings,
// keys and values base64 (Foundation's default coding of `Data`), and fields at their default
// value (0, false, empty) left out of replies.

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
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a 64-bit integer: \(text)")
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
  var cluster_id: String?
  /// The store's revision when the request was served.
  var revision: EtcdInt64?
}

/// One stored key.
struct EtcdKeyValue: Decodable, Sendable {
  var key: Data
  var value: Data?
  var mod_revision: EtcdInt64?
}

struct EtcdRangeRequest: Encodable, Sendable {
  var key: Data
  var range_end: Data? = nil
  var min_mod_revision: EtcdInt64? = nil
  var serializable: Bool? = nil
  var count_only: Bool? = nil
}

struct EtcdRangeResponse: Decodable, Sendable {
  var header: EtcdResponseHeader?
  var kvs: [EtcdKeyValue]?
}

struct EtcdPutRequest: Encodable, Sendable {
  var key: Data
  var value: Data
}

/// A condition of a transaction.
struct EtcdCompare: Encodable, Sendable {
  enum Target: String, Encodable, Sendable { case VALUE, MOD }
  enum Result: String, Encodable, Sendable { case EQUAL, LESS }
  var key: Data
  var target: Target
  var result: Result
  var value: Data?
  var mod_revision: EtcdInt64?
}

/// One operation of a transaction: a read or a put. (Never a nested transaction: etcd 3.4.23
/// does not check role permissions inside nested transactions, measured here.)
enum EtcdRequestOp: Encodable, Sendable {
  case range(EtcdRangeRequest)
  case put(EtcdPutRequest)

  private enum CodingKeys: String, CodingKey { case request_range, request_put }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .range(let range): try container.encode(range, forKey: .request_range)
    case .put(let put): try container.encode(put, forKey: .request_put)
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
    var response_range: EtcdRangeResponse?
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
    var range_end: Data
    var start_revision: EtcdInt64
    var progress_notify: Bool
  }
  var create_request: Create
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
    var compact_revision: EtcdInt64?
    var cancel_reason: String?
    var events: [Event]?
  }

  struct StreamError: Decodable, Sendable {
    var grpc_code: Int?
    var http_code: Int?
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
