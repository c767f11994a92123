import Foundation
import ObservableDefaults
import ObservableDefaultsCore
import Testing

@testable import SettingsEditor

/// A backend whose container holds a record it refused (the batch names it), over an
/// in-memory container.
final class RefusingBackend: CloudBackend, @unchecked Sendable {
  static let reason =
    "the record's value was refused: binary property list: object 1 at byte 10 is a set, "
    + "which preferences cannot hold"
  private let container = InMemoryCloudBackend()

  var syncStatus: CloudSyncStatus { container.syncStatus }
  func load() -> CloudRecordBatch {
    let batch = container.load()
    return CloudRecordBatch(
      records: batch.records, cursor: batch.cursor, refused: ["name": Self.reason])
  }
  func save(_ records: [PropertyListKey: CloudRecord]) throws { try container.save(records) }
  func switchAccount(to account: String) { container.switchAccount(to: account) }
  func subscribe(
    from cursor: CloudCursor?, _ handler: @escaping @Sendable (CloudBackendEvent) -> Void
  )
    -> ObservationToken
  {
    container.subscribe(from: cursor, handler)
  }
}

/// A key whose cloud record was refused shows as undecodable: the row keeps the device's value,
/// is marked, and says why.
@MainActor
@Suite struct RefusedCloudRecordTests {
  @Test func aRefusedRecordIsShownAsUndecodableWithItsReason() {
    let store = NSUbiquitousKeyValueStore(backend: RefusingBackend())
    #expect(store.refusal(forKey: "name") == RefusingBackend.reason)
    let settings = StatusCloudSettings(store: store)
    let rows = SettingsObjectRows(AnySettings(settings))
    let row = rows.row(at: 0)
    #expect(row.value == "Fatbobman")
    #expect(row.problem == "undecodable in the cloud: " + RefusingBackend.reason)
    let (canvas, _, _) = TestScreen.show(rows, rows: 10)
    #expect(canvas.line(2).hasSuffix("│! name  String  Fatbobman"), "\(canvas.line(2))")
  }
}
