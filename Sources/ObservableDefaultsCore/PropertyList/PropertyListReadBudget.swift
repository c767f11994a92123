/// The nesting and value count one text property list (XML or OpenStep) may use while it is
/// read (``PropertyListLimits``): its readers check them as they go, in their single pass.
struct PropertyListReadBudget {
  private var depth = 0
  /// The elements counted so far.
  private(set) var count = 0
  private let maximumDepth: Int
  private let maximumCount: Int

  /// The budget for a text of `size` bytes.
  init(limits: PropertyListLimits, size: Int) {
    maximumDepth = limits.maximumDepth
    maximumCount = limits.maximumElements(inXMLFileOf: size)
  }

  /// Enters an array or dictionary; returns why it may not, or nil.
  mutating func enter() -> String? {
    depth += 1
    return depth <= maximumDepth
      ? nil : "arrays and dictionaries are nested deeper than \(maximumDepth) levels"
  }

  /// Leaves the array or dictionary entered last.
  mutating func leave() {
    depth -= 1
  }

  /// Counts one more element (`what`, for the reason); returns why it may not, or nil.
  mutating func count(_ what: String) -> String? {
    count += 1
    return count <= maximumCount ? nil : "it holds more than \(maximumCount) \(what)"
  }

  /// Counts `elements` more when all of them fit; returns whether they did (when not, nothing is
  /// counted, and counting them one by one with ``count(_:)`` finds the one refused).
  mutating func reserve(_ elements: Int) -> Bool {
    guard count + elements <= maximumCount else { return false }
    count += elements
    return true
  }
}
