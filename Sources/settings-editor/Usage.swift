/// The text of `settings-editor --help`.
let usage = """
  settings-editor — view and edit settings: this program's demo settings objects, the suites in
  $XDG_CONFIG_HOME (else ~/.config), and property-list files.

  Usage:
    settings-editor                      open the editor on the demo objects and every suite
    settings-editor <file.plist>...      open property-list files (XML or binary) as trees
  \(Verb.allCases.map { "  \($0.usageLine)\n      \($0.summary)" }.joined(separator: "\n"))
    settings-editor --help               show this text

  In the editor:
    ↑ ↓ (j k)   move            Tab ← →   switch between objects and rows
    Enter       edit a value (Esc cancels); open an object; open or close a dictionary or array
    Space       toggle a Bool   c         show how often each row was redrawn
    q           quit            * marks a value that differs from its default (or is unsaved)

  \(Verb.exitStatus)
  """
