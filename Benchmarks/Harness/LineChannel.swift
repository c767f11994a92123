import Foundation

/// Line-by-line conversation with a worker process over its standard input and output.
final class LineChannel {
  private let input: FileHandle
  private let output: FileHandle
  private var buffer = Data()

  /// Connects `process` (not started yet) to new pipes.
  init(_ process: Process) {
    let toWorker = Pipe()
    let fromWorker = Pipe()
    process.standardInput = toWorker
    process.standardOutput = fromWorker
    input = toWorker.fileHandleForWriting
    output = fromWorker.fileHandleForReading
  }

  /// Sends one line.
  func send(_ line: String) {
    input.write(Data((line + "\n").utf8))
  }

  /// The next line the worker printed, without its newline; nil at end of output.
  func receive() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex...newline)
        return line
      }
      let chunk = output.availableData
      if chunk.isEmpty { return nil }
      buffer.append(chunk)
    }
  }

  /// Closes the worker's standard input (its signal to finish).
  func close() {
    try? input.close()
  }
}
