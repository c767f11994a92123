/// The text of `settings-editor --help`.
let usage = """
  settings-editor — view and edit settings: this program's demo settings objects, the suites in
  $XDG_CONFIG_HOME (else ~/.config), and property-list files.

  Usage:
    settings-editor [options]            open the editor on the demo objects and every suite
    settings-editor [options] <file.plist>...
                                         open property-list files (XML or binary) as trees
  \(Verb.allCases.map { "  \($0.usageLine)\n      \($0.summary)" }.joined(separator: "\n"))
    settings-editor --help               show this text
    settings-editor --version            show the version

  Options of the editor:
    --readonly                           show values, change none
    --color=auto|always|never            colour (auto: unless NO_COLOR is set)

  In the editor (? lists every key):
    ↑ ↓ j k PgUp PgDn Home End   move         Tab      switch between objects and rows
    Enter    edit the value (Esc restores); open an object; open or close a dictionary or array
    e C-g    edit the value in $VISUAL / $EDITOR (JSON for arrays, dictionaries, Codable)
    Space    toggle a Bool       ← →          previous / next case of an enum
    d        reset to default    D            reset the whole object     u   undo
    /        search names, descriptions and values (n N: next, previous)
    m        modified values only            i            the value in full  c   redraw counters
    q        quit
    In a field: ← → C-a C-e M-b M-f move, C-u C-k C-w M-d erase, Backspace Delete
    * marks a value that differs from its default (or is unsaved), ~ one another process
    just changed, ! a stored value that does not decode as the property's type

  \(Verb.exitStatus)
  """
