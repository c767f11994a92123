import Foundation
import ObservableDefaultsCore
import Testing

@Suite struct PropertyListValueTests {
  @Test func scalarsCompareByCanonicalValue() {
    #expect(propertyListValuesEqual(Int8(3), 3))
    #expect(propertyListValuesEqual(UInt32(7), Int64(7)))
    #expect(propertyListValuesEqual(Float(0.5), 0.5))
    #expect(propertyListValuesEqual(NSNumber(value: 12), 12))
    #expect(propertyListValuesEqual(NSNumber(value: true), true))
    #expect(propertyListValuesEqual(Double.nan, Double.nan))
    #expect(propertyListValuesEqual(nil, nil))
  }

  @Test func boolIsNotANumberAndIntegerIsNotAReal() {
    #expect(!propertyListValuesEqual(true, 1))
    #expect(!propertyListValuesEqual(NSNumber(value: 1), true))
    #expect(!propertyListValuesEqual(1, 1.0))
    #expect(!propertyListValuesEqual("1", 1))
    #expect(!propertyListValuesEqual(nil, 0))
  }

  @Test func containersCompareDeeply() {
    let date = Date(timeIntervalSinceReferenceDate: 12.5)
    let lhs: [String: Any] = ["a": [1, "x", date], "b": ["c": Data([1, 2])]]
    let same: [String: Any] = ["a": [Int16(1), "x", date], "b": ["c": Data([1, 2])]]
    let other: [String: Any] = ["a": [1, "x", date], "b": ["c": Data([1, 3])]]
    #expect(propertyListValuesEqual(lhs, same))
    #expect(!propertyListValuesEqual(lhs, other))
    #expect(!propertyListValuesEqual([1, 2], [2, 1]))
    #expect(!propertyListValuesEqual(["a": 1], ["a": 1, "b": 2]))
  }

  @Test func nonPropertyListValuesEqualNothing() {
    let url = URL(fileURLWithPath: "/tmp")
    #expect(!propertyListValuesEqual(url, url))
    #expect(!propertyListValuesEqual([1: "a"], [1: "a"]))
  }
}
