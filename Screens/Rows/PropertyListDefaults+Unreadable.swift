import ObservableDefaultsCore

extension PropertyListDefaults {
  /// Why the suite's file cannot be read now (it stopped parsing, or reading it failed), nil
  /// while it reads; the suite keeps the last values it read and refuses writes meanwhile.
  var unreadableReason: String? {
    guard let error = lastError else { return nil }
    switch error.kind {
    case .malformed: return "not a valid property list, left unchanged: \(error.reason)"
    case .unreadable: return "could not be read: \(error.reason)"
    case .unwritable, .invalidValue, .mandatory: return nil
    }
  }
}
