import Foundation
import ObservableDefaultsCore

/// `storage-torture first-read FILE`: a process that opens the suite and at once prints what it
/// read (the lines of ``ObserverRole``'s dump, every key as a `v` line), then exits: the first
/// read of a process that starts while another program rewrites the file.
enum FirstReaderRole {
  static func run(file: String) -> Never {
    let defaults = PropertyListDefaults(fileURL: URL(fileURLWithPath: file))
    say(ObserverRole.dump(defaults, asked: nil))
    exit(0)
  }
}
