import Foundation
import ObservableDefaultsTesting
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Files whose 8-byte offset table holds an offset of 2⁶³ or more, which no writer makes: the
/// reader refuses the object it names when a reference reaches it, and reads the file when none
/// does, as for any other offset outside the object area. Before, converting such an offset to
/// `Int` trapped (the process died with SIGILL, in `settings-editor read` too).
@Suite struct BinaryPropertyListHugeOffsetTests {
  /// `{"k": "x"}`, object 2 (`"x"`) at `offset`, and an object 3 no reference reaches at
  /// `unreached`.
  private func file(valueAt offset: UInt64? = nil, unreachedAt unreached: UInt64) -> Data {
    var offsets: [Int: UInt64] = [3: unreached]
    if let offset { offsets[2] = offset }
    return BinaryPropertyListBytes.file(
      [[0xD1, 1, 2], [0x51, UInt8(ascii: "k")], [0x51, UInt8(ascii: "x")], [0x51, 0x41]],
      offsets: offsets)
  }

  @Test(arguments: [UInt64(1) << 63, UInt64.max])
  func anObjectAtAnOffsetPastIntMaxIsRefused(offset: UInt64) throws {
    let reader = PropertyListFile(url: URL(fileURLWithPath: "/huge/offset.plist"))
    let error = #expect(throws: PropertyListError.self) {
      try reader.document(from: file(valueAt: offset, unreachedAt: 12))
    }
    #expect(error?.kind == .malformed)
    #expect(
      error?.reason
        == "binary property list: object 2 has an offset outside the object area",
      "\(String(describing: error))")
  }

  @Test(arguments: [UInt64(1) << 63, UInt64.max])
  func anUnreachedObjectAtAnOffsetPastIntMaxIsReadAndWritten(offset: UInt64) async throws {
    try await withTemporaryFolder { folder in
      let url = folder.url.appendingPathComponent("huge.plist")
      try file(unreachedAt: offset).write(to: url)
      let read = try #require(try PropertyListFile(url: url).read()).values
      #expect(read.count == 1 && read["k"] as? String == "x")
      #expect(try PropertyListFile(url: url).write(["k": .set("y"), "n": .set(2)]))
      let back = try #require(try PropertyListFile(url: url).read()).values
      #expect(back.count == 2 && back["k"] as? String == "y" && back["n"] as? Int == 2)
    }
  }
}
