import CExtendedAttributes

#if canImport(Glibc)
  import Glibc
#endif

/// User extended attributes of files (`setxattr(2)`, `getxattr(2)`): the writer's mark of a
/// suite file (``WriterMark``).
extension FileDescriptor {
  /// Sets the extended attribute `name` of the file open here to the bytes of `value`
  /// (`fsetxattr(2)`).
  ///
  /// - Throws: The call's error; `ENOTSUP` when the file system keeps no user attributes.
  func setExtendedAttribute(_ name: String, to value: String) throws(Errno) {
    let result = value.utf8CString.withUnsafeBufferPointer { text in
      observable_defaults_set_attribute(rawValue, name, text.baseAddress, text.count - 1)
    }
    if result == -1 { throw Errno.current }
  }
}

extension FileSystem {
  /// The bytes of the extended attribute `name` of the file at `path` (`getxattr(2)`), at most
  /// `maximumLength` of them.
  ///
  /// - Throws: The call's error: ``Errno/noData`` when the file has no such attribute,
  ///   `ENOTSUP` when its file system keeps none, `ERANGE` when the value is longer.
  static func extendedAttribute(_ name: String, ofFileAt path: String, maximumLength: Int)
    throws(Errno) -> [UInt8]
  {
    var bytes = [UInt8](repeating: 0, count: maximumLength)
    let length = observable_defaults_get_attribute(path, name, &bytes, bytes.count)
    guard length >= 0 else { throw Errno.current }
    return Array(bytes[..<length])
  }
}
