import ObservableDefaultsCore
import Testing

@testable import SettingsEditor

/// The lines of a tree, kept as sorted keys and the lines below open keys, against the lines
/// written out one by one.
@Suite struct PropertyListTreeLinesTests {
  private static var root: [PropertyListKey: Any] {
    [
      "d": 4, "b": ["y": [1, 2] as [Any], "x": "x"] as [String: Any], "a": 1,
      "c": [true, ["z": 0] as [String: Any]] as [Any], "e": [String: Any](),
    ]
  }

  private func lines(_ expanded: Set<PropertyListPath>) -> [String] {
    PropertyListTreeLines(root: Self.root, expanded: expanded).map {
      $0.path.map(\.description).joined(separator: "/")
    }
  }

  @Test func everyKeyInOrderWhenNothingIsOpen() {
    #expect(lines([]) == ["a", "b", "c", "d", "e"])
  }

  @Test func openContainersShowTheirChildrenBelowThem() {
    let expanded: Set<PropertyListPath> = [
      [.key("b")], [.key("b"), .key("y")], [.key("c")], [.key("e")],
      [.key("c"), .index(1)], [.key("absent")],
    ]
    #expect(
      lines(expanded) == [
        "a", "b", "b/x", "b/y", "b/y/[0]", "b/y/[1]", "c", "c/[0]", "c/[1]", "c/[1]/z", "d", "e",
      ])
  }

  @Test func aNestedPathOpensNothingWhileItsKeyIsClosed() {
    #expect(lines([[.key("b"), .key("y")]]) == ["a", "b", "c", "d", "e"])
  }
}

/// The listed rows: all of them as a count, or the filtered ones, with their screen positions.
@Suite struct ListedRowsTests {
  @Test func allRowsAreTheirOwnPositions() {
    let listed = ListedRows.all(5)
    #expect(Array(listed) == [0, 1, 2, 3, 4])
    #expect(listed.position(of: 3) == 3)
    #expect(listed.position(of: 5) == nil)
    #expect(Array(listed.limited(to: 2)) == [0, 1])
  }

  @Test func filteredRowsAreFoundByPosition() {
    let listed = ListedRows.filtered(10) { $0 % 3 == 0 }
    #expect(Array(listed) == [0, 3, 6, 9])
    #expect(listed.position(of: 6) == 2)
    #expect(listed.position(of: 4) == nil)
    #expect(listed.position(of: 10) == nil)
    #expect(Array(listed.limited(to: 7)) == [0, 3, 6])
  }
}
