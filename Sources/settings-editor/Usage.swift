/// The text of `settings-editor --help`.
let usage = """
  settings-editor — view and edit settings: this program's demo settings objects, the suites in
  $XDG_CONFIG_HOME (else ~/.config), and property-list files.

  Usage:
    settings-editor                      open the editor on the demo objects and every suite
    settings-editor <file.plist>...      open property-list files (XML or binary), read-only
    settings-editor read <suite | file.plist> [key]
                                         print a whole domain, or one value
    settings-editor write <suite> <key> [-string | -int | -float | -bool] <value>
                                         store a value (a string when no type is given)
    settings-editor delete <suite> <key> remove a key
    settings-editor --help               show this text

  In the editor:
    ↑ ↓ (j k)   move            Tab ← →   switch between objects and rows
    Enter       edit a String, integer or Double value (Esc cancels); open an object
    Space       toggle a Bool   c         show how often each row was redrawn
    q           quit            * marks a value that differs from its default

  The verbs exit with status 0 on success; otherwise they print the reason on standard error
  and exit with 1 (64 for a usage error).
  """
