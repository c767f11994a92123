import Foundation
import TestSupport
import Testing

/// Issue 25: the copied generated initializer and a `nonisolated` class compile in Swift 5 mode
/// under main-actor default isolation too (`Tests/ParitySwift5`; Swift 6 mode:
/// `CopiedInitializerTests` and the `MainActorTests` target), and behave as in Swift 6.
@Suite struct ParityProgramTests {
  @Test func theSwift5ProgramPrintsWhatItStored() throws {
    let temporary = try TemporaryFolder(prefix: "od-parity")
    defer { temporary.remove() }
    let folder = temporary.url
    let run = try probeOutput(
      [], environment: ["XDG_CONFIG_HOME": folder.path], program: "parity-swift5")
    #expect(run.status == 0)
    #expect(
      run.output == "copied initializer: true\nnonisolated: Swift 5 NonisolatedSettings\n")
  }
}
