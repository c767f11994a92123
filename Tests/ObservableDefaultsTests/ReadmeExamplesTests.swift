import Foundation
import ObservableDefaults
import TestSupport
import Testing

/// The Apple-platform README's examples, ported line by line in `Examples/OriginalReadme`, print
/// what the original library documents.
@Suite struct ReadmeExamplesTests {
  @Test func everyExampleBehavesAsTheOriginalREADMESays() throws {
    let temporary = try TemporaryFolder(prefix: "od-readme")
    defer { temporary.remove() }
    let folder = temporary.url
    let run = try probeOutput(
      [],
      environment: [
        "XDG_CONFIG_HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
      ],
      program: "readme-examples")
    #expect(run.status == 0)
    let expected = [
      "quick start: Fatbobman 20 nil",
      "quick start, new objects: Ann Annie green",
      "attributes, stored: Bob nil nil",
      "attributes, cloud: CloudBob nil",
      "parameters: 1970-01-12 13:46:40 +0000 dark 43 true nil",
      "custom initializers: Changed elsewhere Fatbobman",
      "observe first: nil 200 blue nil",
      #"optionals: 25 custom ["a": "b"] ["a": "b"]"#,
      #"codable: {"age":30,"name":"Ann"} 18"#,
      "raw representable: dark Direct 5",
      "integration: User 7 CloudUser 7",
      "previews: true true",
      "registered-user",
      "18",
      "main actor: Fatbobman light",
      "app groups: changed other 1",
    ]
    #expect(run.output.split(separator: "\n").map(String.init) == expected)
    let standard =
      try PropertyListFile(url: folder.appendingPathComponent("readme-examples.plist")).read()?
      .values ?? [:]
    #expect(standard["nickname"] as? String == "Annie")
    #expect(standard["myApp_firstName"] as? String == "Bob")
    #expect(standard["username"] == nil)
  }
}
