import Foundation

/// Lines of `watch` and `log` (`2026-12-05 21:03:04  suite  key: old → new  (origin)`) with the
/// parts that differ from run to run made fixed: the time (checked to be one) becomes `TIME`,
/// each process id `N`.
func normalizedChangeLines(_ text: String) -> String {
  text.replacingOccurrences(
    of: #"(?m)^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}  "#, with: "TIME  ",
    options: .regularExpression
  ).replacingOccurrences(of: #"\(pid [0-9]+\)"#, with: "(pid N)", options: .regularExpression)
}
