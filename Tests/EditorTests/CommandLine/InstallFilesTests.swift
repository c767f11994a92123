import Foundation
import TestSupport
import Testing

/// The files `scripts/install` puts in place: the scripts and completions parse (bash, zsh, fish),
/// the bash and fish completions offer verbs and suite names, the man page renders and names
/// every verb.
@Suite struct InstallFilesTests {
  private static let scripts = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("scripts")

  /// Runs `command` with `arguments`, with a home of its own (shells such as fish make their
  /// folders there); nil when it is not installed.
  private func run(_ command: String, _ arguments: [String]) throws -> (Int32, String)? {
    guard
      let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map({ "\($0)/\(command)" }).first(where: FileManager.default.isExecutableFile(atPath:))
    else { return nil }
    let home = try TemporaryFolder(prefix: "install-files-home")
    defer { home.remove() }
    let result = try ChildProcess.run(
      URL(fileURLWithPath: path), arguments,
      environment: ["MANWIDTH": "80"].merging(Self.privateHome(home)) { $1 })
    return (result.status, result.output + result.error)
  }

  /// `HOME` and the XDG folders in `home`, so that nothing is written into the user's.
  private static func privateHome(_ home: TemporaryFolder) -> [String: String?] {
    [
      "HOME": home.url.path, "XDG_DATA_HOME": home.file("data").path,
      "XDG_CACHE_HOME": home.file("cache").path, "XDG_STATE_HOME": home.file("state").path,
    ]
  }

  @Test(arguments: [
    ("bash", "editor"), ("bash", "install"), ("bash", "share/settings-editor.bash"),
    ("zsh", "share/_settings-editor"), ("fish", "share/settings-editor.fish"),
  ])
  func scriptsParse(shell: String, name: String) throws {
    let result = try #require(
      try run(shell, ["-n", Self.scripts.appendingPathComponent(name).path]))
    #expect(result.0 == 0, "\(result.1)")
  }

  /// Completes `words` (the last one partly typed) with the bash, zsh or fish completion of the
  /// built program, in a preferences folder holding the suite `com.example.completion`.
  /// The schemas `schema-probe` publishes are there too. zsh's completion runs with stand-ins
  /// for its completion system's functions (`compadd` prints its words; zsh itself would then
  /// keep those that start with the typed word, which this does).
  private func complete(_ words: [String], shell: String) throws -> [String] {
    let editor = try EditorProcess()
    defer { withExtendedLifetime(editor) {} }  // its folder lives until the shell has run
    #expect(try editor.run("write", "com.example.completion", "k", "v").status == 0)
    #expect(try editor.runSchemaProbe("print").status == 0)
    let script = Self.scripts.appendingPathComponent(
      ["bash": "share/settings-editor.bash", "zsh": "share/_settings-editor"][shell]
        ?? "share/settings-editor.fish"
    ).path
    let line = words.joined(separator: " ")
    let typed = words.last ?? ""
    let command =
      switch shell {
      case "bash":
        "source '\(script)'; COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); "
          + "_settings_editor; printf '%s\\n' \"${COMPREPLY[@]}\""
      case "zsh":
        "compadd() { local w; for w in \"$@\"; do [[ $w == -- ]] || print -r -- $w; done; }; "
          + "_describe() { :; }; _files() { :; }; _arguments() { :; }; source '\(script)'; "
          + "words=(\(line)); CURRENT=\(words.count); PREFIX='\(typed)'; _settings-editor"
      default: "source '\(script)'; complete -C '\(line)'"
      }
    let path = EditorProcess.binary.deletingLastPathComponent().path
    // An empty working folder: both complete property-list files there too.
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let result = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"), [shell, "-c", command],
      environment: Self.privateHome(folder).merging([
        "XDG_CONFIG_HOME": editor.preferences.path,
        "XDG_DATA_HOME": editor.preferences.path + "/data",
        "XDG_DATA_DIRS": editor.preferences.path + "/installed",
        "PATH": path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
      ]) { $1 }, in: folder.url)
    #expect(result.status == 0, "\(result.error)")
    let offered = result.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
    return shell == "zsh" ? offered.filter { $0.hasPrefix(typed) } : offered
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func everyVerbOfAKeyCompletesTheSuitesKeys(shell: String) throws {
    let probe = "com.example.schema-probe"
    for verb in ["read", "read-type", "write", "rename", "delete", "watch", "log"] {
      // The schema's keys, and the keys a suite with no schema stores.
      #expect(
        try complete(["settings-editor", verb, probe, "d"], shell: shell).sorted()
          == ["density", "displayName"], "\(verb)")
      #expect(
        try complete(["settings-editor", verb, "com.example.completion", ""], shell: shell)
          == ["k"], "\(verb)")
    }
    for verb in ["describe", "range", "reset"] {
      #expect(
        try complete(["settings-editor", verb, probe, "t"], shell: shell).sorted()
          == ["tabWidth", "theme"], "\(verb)")
    }
    #expect(
      try complete(["settings-editor", "write", probe, "origin", "-js"], shell: shell) == ["-json"])
  }

  @Test(arguments: ["bash", "fish"])
  func theSchemaVerbsCompleteStoresKeysAndPrograms(shell: String) throws {
    #expect(
      try complete(["settings-editor", "list-keys", "cloud:"], shell: shell)
        == ["cloud:schema-probe"])
    #expect(
      try complete(["settings-editor", "describe", "com.example.schema-probe", "s"], shell: shell)
        == ["scrollback", "showsToolbar"])
    #expect(
      try complete(["settings-editor", "schema", "remove", "sch"], shell: shell)
        == ["schema-probe"])
  }

  @Test(arguments: ["bash", "fish"])
  func cloudCompletesItsOneWord(shell: String) throws {
    #expect(try complete(["settings-editor", "cloud", "st"], shell: shell) == ["status"])
  }

  @Test(arguments: ["bash", "fish"])
  func theCompletionsOfferVerbsAndSuiteNames(shell: String) throws {
    #expect(try complete(["settings-editor", "rea"], shell: shell) == ["read", "read-type"])
    let suites = try complete(["settings-editor", "read", "com.example.comp"], shell: shell)
    #expect(suites == ["com.example.completion"])
  }

  /// Every verb of the built program, from its usage (`settings-editor <verb> …` lines).
  private func programVerbs() throws -> [String] {
    let usage = try EditorProcess().run("--help").output
    return usage.split(separator: "\n").compactMap { line -> String? in
      let words = line.split(separator: " ")
      guard words.count >= 2, words[0] == "settings-editor", words[1].first?.isLetter == true
      else {
        return nil
      }
      return String(words[1])
    }
  }

  @Test func theManPageRendersAndNamesEveryVerb() throws {
    let page = Self.scripts.appendingPathComponent("share/settings-editor.1").path
    let (status, text) = try #require(try run("man", ["-l", "-P", "cat", page]))
    #expect(status == 0)
    let verbs = try programVerbs()
    #expect(verbs.count == 21, "\(verbs)")
    for verb in verbs {
      #expect(text.contains(verb), "\(verb)")
    }
    #expect(text.contains("cloud status"))
    #expect(text.contains("C-u C-k"), "the field keys")
  }

  @Test func theCompletionsOfferEveryVerb() throws {
    let verbs = try programVerbs().joined(separator: " ")
    #expect(
      verbs
        == "read read-type write rename delete domains find export import watch log migrate "
        + "list-schemas list-keys describe range reset reset-recursively schema cloud help")
    for name in ["settings-editor.bash", "settings-editor.fish"] {
      let text = try String(
        contentsOf: Self.scripts.appendingPathComponent("share/" + name), encoding: .utf8)
      #expect(text.contains(verbs), "\(name)")
    }
    let zsh = try String(
      contentsOf: Self.scripts.appendingPathComponent("share/_settings-editor"), encoding: .utf8)
    for verb in verbs.split(separator: " ") { #expect(zsh.contains("'\(verb):"), "\(verb)") }
  }

  /// Runs `scripts/install` with `arguments` in `home` (see ``privateHome(_:)``), from `folder`.
  private static func install(
    _ arguments: [String], home: TemporaryFolder, from folder: URL? = nil
  ) throws -> ChildProcess.Result {
    try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["bash", scripts.appendingPathComponent("install").path] + arguments,
      environment: privateHome(home).merging(["XDG_CONFIG_HOME": home.file("config").path]) {
        $1
      }, in: folder)
  }

  /// A relative `--prefix` is the caller's: found from the folder install ran in, not from the
  /// repository's (it installed into the clone before). Someone who never ran fish gets no fish
  /// line, and no fish folders in their home (running fish to ask made them).
  @Test func aRelativePrefixIsTheCallersFolder() throws {
    let home = try TemporaryFolder(prefix: "install-home")
    defer { home.remove() }
    let installed = try Self.install(
      ["--prefix", "relative", "--binary", EditorProcess.binary.path], home: home, from: home.url)
    #expect(installed.status == 0, "\(installed.error)")
    for file in Self.installedFiles(under: home.file("relative").path) {
      #expect(FileManager.default.fileExists(atPath: file), "\(file)")
    }
    #expect(installed.output.contains("PATH: add \(home.file("relative").path)/bin"))
    #expect(!installed.output.contains("fish:"))
    #expect(!FileManager.default.fileExists(atPath: home.file("config/fish").path))
    #expect(!FileManager.default.fileExists(atPath: home.file("data/fish").path))
    let removed = try Self.install(
      ["--prefix", "relative", "--uninstall"], home: home, from: home.url)
    #expect(removed.status == 0)
    #expect(!FileManager.default.fileExists(atPath: home.file("relative").path))
  }

  /// The files `scripts/install` puts under `prefix`.
  private static func installedFiles(under prefix: String) -> [String] {
    [
      "bin/settings-editor", "share/man/man1/settings-editor.1",
      "share/bash-completion/completions/settings-editor",
      "share/zsh/site-functions/_settings-editor",
      "share/fish/vendor_completions.d/settings-editor.fish",
    ].map { prefix + "/" + $0 }
  }

  /// Issue 25: `scripts/install` says what each shell still needs to find the completions, each
  /// shell finds them once told so, and `--uninstall` removes every installed file, and every
  /// folder it created (issue 22).
  @Test func installSaysWhatEachShellNeedsAndUninstallRemovesEveryFile() throws {
    let home = try TemporaryFolder(prefix: "install-home")
    defer { home.remove() }
    let prefix = home.file("prefix").path
    func install(_ arguments: String...) throws -> ChildProcess.Result {
      try Self.install(arguments, home: home)
    }
    // A fish user: fish's configuration folder exists (the fish line is for them only).
    try FileManager.default.createDirectory(
      atPath: home.file("config/fish").path, withIntermediateDirectories: true)
    let installed = try install("--prefix", prefix, "--binary", EditorProcess.binary.path)
    #expect(installed.status == 0, "\(installed.error)")
    let lines = installed.output.split(separator: "\n").map(String.init)
    let files = Self.installedFiles(under: prefix)
    for file in files { #expect(FileManager.default.fileExists(atPath: file), "\(file)") }
    #expect(lines.contains { $0.hasPrefix("PATH: add \(prefix)/bin") })
    #expect(lines.contains { $0.hasPrefix("bash: ") && $0.hasSuffix("source '\(files[2])'") })

    let zshFolder = prefix + "/share/zsh/site-functions"
    if let (status, output) = try run(
      "zsh",
      [
        "-c",
        "fpath=('\(zshFolder)' $fpath); autoload -U compinit; compinit -u; print $_comps[settings-editor]",
      ])
    {
      #expect(
        lines.contains("zsh: add to ~/.zshrc, before compinit: fpath=('\(zshFolder)' $fpath)"))
      #expect(status == 0)
      #expect(output.hasSuffix("_settings-editor\n"), "\(output)")
    }
    let fishFolder = prefix + "/share/fish/vendor_completions.d"
    if let (status, output) = try run(
      "fish",
      [
        "-c",
        "set -p PATH '\(prefix)/bin'; set -p fish_complete_path '\(fishFolder)'; complete -C 'settings-editor clo'",
      ])
    {
      #expect(
        lines.contains(
          "fish: add to ~/.config/fish/config.fish: set -p fish_complete_path '\(fishFolder)'"))
      #expect(status == 0)
      #expect(output.hasPrefix("cloud"), "\(output)")
    }

    let removed = try install("--prefix", prefix, "--uninstall")
    #expect(removed.status == 0)
    // Every folder was made by install: each goes, deepest first.
    let folders = [
      "", "/bin", "/share", "/share/man", "/share/man/man1", "/share/bash-completion",
      "/share/bash-completion/completions", "/share/zsh", "/share/zsh/site-functions",
      "/share/fish", "/share/fish/vendor_completions.d", "/share/settings-editor",
    ].map { prefix + $0 }
    #expect(
      removed.output
        == (files.map { "Removed \($0)\n" } + folders.reversed().map { "Removed folder \($0)\n" })
        .joined())
    #expect(!FileManager.default.fileExists(atPath: prefix))
  }

  /// Issue 22: `--uninstall` removes only the folders install created, and only when they are
  /// empty (rmdir): a folder that was there before, or that holds another file, is kept.
  @Test func uninstallRemovesOnlyTheEmptyFoldersInstallCreated() throws {
    let home = try TemporaryFolder(prefix: "install-home")
    defer { home.remove() }
    let prefix = home.file("prefix").path
    let before = URL(fileURLWithPath: prefix + "/share/man/man1/other.1")
    try FileManager.default.createDirectory(
      at: before.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data().write(to: before)
    let installed = try Self.install(
      ["--prefix", prefix, "--binary", EditorProcess.binary.path], home: home)
    #expect(installed.status == 0, "\(installed.error)")
    let added = URL(fileURLWithPath: prefix + "/share/zsh/site-functions/_other")
    try Data().write(to: added)
    // A second install creates nothing: the record of the first stays whole.
    #expect(
      try Self.install(["--prefix", prefix, "--binary", EditorProcess.binary.path], home: home)
        .status == 0)

    let removed = try Self.install(["--prefix", prefix, "--uninstall"], home: home)
    #expect(removed.status == 0)
    let folders = [
      "Removed folder /share/settings-editor", "Removed folder /share/fish/vendor_completions.d",
      "Removed folder /share/fish", "Kept folder /share/zsh/site-functions: not empty",
      "Kept folder /share/zsh: not empty", "Removed folder /share/bash-completion/completions",
      "Removed folder /share/bash-completion", "Removed folder /bin",
    ].map { $0.replacingOccurrences(of: "folder /", with: "folder \(prefix)/") }
    #expect(
      removed.output
        == (Self.installedFiles(under: prefix).map { "Removed \($0)" } + folders)
        .map { $0 + "\n" }.joined())
    for kept in [before, added] {
      #expect(FileManager.default.fileExists(atPath: kept.path), "\(kept.path)")
    }
  }

  /// Issue 39: the release archive's `install.sh` (this script, as `scripts/package` puts it
  /// there) installs the archive's program and files, and needs no checkout beside it.
  @Test func theArchivesInstallScriptInstallsTheArchivesFiles() throws {
    let home = try TemporaryFolder(prefix: "install-home")
    defer { home.remove() }
    let archive = home.file("settings-editor-archive")
    let manager = FileManager.default
    let files = [
      "share/man/man1/settings-editor.1", "share/bash-completion/completions/settings-editor",
      "share/zsh/site-functions/_settings-editor",
      "share/fish/vendor_completions.d/settings-editor.fish",
    ]
    for path in files + ["bin/settings-editor"] {
      try manager.createDirectory(
        at: archive.appendingPathComponent(path).deletingLastPathComponent(),
        withIntermediateDirectories: true)
    }
    try manager.copyItem(
      at: EditorProcess.binary, to: archive.appendingPathComponent("bin/settings-editor"))
    // Each file of the archive says where it came from, so the installed copy shows its source.
    for path in files {
      try Data("archive's \(path)\n".utf8).write(to: archive.appendingPathComponent(path))
    }
    try Data("libc6 libncursesw6\n".utf8).write(
      to: archive.appendingPathComponent("runtime-packages"))
    let script = archive.appendingPathComponent("install.sh")
    try manager.copyItem(at: Self.scripts.appendingPathComponent("install"), to: script)

    let prefix = home.file("prefix").path
    let installed = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["bash", script.path, "--prefix", prefix],
      environment: Self.privateHome(home))
    #expect(installed.status == 0, "\(installed.error)")
    #expect(!installed.output.contains("Missing libraries"), "\(installed.output)")
    for path in files {
      let copy = try String(contentsOfFile: prefix + "/" + path, encoding: .utf8)
      #expect(copy == "archive's \(path)\n")
    }
    let version = try ChildProcess.run(
      URL(fileURLWithPath: prefix + "/bin/settings-editor"), ["--version"])
    #expect(version.output.hasPrefix("settings-editor "))
  }
}
