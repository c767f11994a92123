/// The command-line verbs, with the usage line and help text each prints.
enum Verb: String, CaseIterable, Sendable {
  case read
  case readType = "read-type"
  case write, rename, delete, domains, find, export, `import`
  case watch, log, migrate
  case listSchemas = "list-schemas"
  case listKeys = "list-keys"
  case describe, range, reset
  case resetRecursively = "reset-recursively"
  case schema, cloud, help

  /// The verb named `rawValue`, found by comparing names: the synthesized initializer builds a
  /// dictionary of them on first use, whose `[String: Int]` type is made at run time with a
  /// look-up of `String: Hashable` that walks every protocol conformance record of the program
  /// (0.35 M instructions, 4 % of a one-key `read`; callgrind).
  init?(rawValue: String) {
    guard let verb = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = verb
  }

  /// The arguments after the verb, e.g. `<suite | file.plist> [key]`.
  var synopsis: String {
    switch self {
    case .read: "<suite | file.plist> [key] [--raw] | <suite> <key> --source"
    case .readType: "<suite | file.plist> <key>"
    case .write: "<suite | file.plist> <key> [-type] <value>"
    case .rename: "<suite | file.plist> <old key> <new key>"
    case .delete: "<suite | file.plist> [key]"
    case .domains: ""
    case .find: "<word>"
    case .export: "<suite | file.plist> [--json] [<output> | -]"
    case .import: "<suite> <input | -> [--json]"
    case .watch, .log: "<suite> [key]"
    case .migrate: "<suite> [--dry-run]"
    case .listSchemas: ""
    case .listKeys: "<suite | cloud:container> [--all] | <suite> --source"
    case .describe, .range: "<suite | cloud:container> <key>"
    case .reset: "<suite> <key>"
    case .resetRecursively: "<suite>"
    case .schema: "remove <program> | remove --gone"
    case .cloud: "status [container]"
    case .help: "[verb]"
    }
  }

  /// `settings-editor <verb> <synopsis>`.
  var usageLine: String {
    (["settings-editor", rawValue] + (synopsis.isEmpty ? [] : [synopsis])).joined(separator: " ")
  }

  /// One line for the overview.
  var summary: String {
    switch self {
    case .read: "print a whole domain, or one value"
    case .readType: "print the type of a value"
    case .write: "store a typed value, or add to an array or a dictionary"
    case .rename: "give a value another key"
    case .delete: "remove a key, or every key of a suite"
    case .domains: "list the suites of the preferences folder"
    case .find: "print the keys and values of every suite that contain a word"
    case .export: "print or save a domain as an XML property list or JSON"
    case .import: "replace a suite's values with those of a property list or JSON"
    case .watch: "print each change to a suite as it happens, until interrupted"
    case .log: "print the history of a suite's changes, or of one key, oldest first"
    case .migrate:
      "bring a suite to the schema version of this program's settings, or show the changes"
    case .listSchemas: "list the settings schemas programs published"
    case .listKeys: "list the keys the schemas of a suite or cloud container describe"
    case .describe: "print a key's type, default, description, choices or range, and value"
    case .range: "print the values a key admits"
    case .reset: "reset a key a schema describes to its default (removes it)"
    case .resetRecursively: "reset every key the schemas of a suite describe"
    case .schema: "remove the published schemas of a program, or of every program gone"
    case .cloud: "print the cloud store's backend, endpoint, connection, pending writes, last sync"
    case .help: "explain a verb"
    }
  }

  /// What `settings-editor help <verb>` prints.
  var help: String {
    "Usage: \(usageLine)\n\n\(summary.prefix(1).uppercased() + summary.dropFirst()).\n\n"
      + details + "\n\n" + Verb.exitStatus
  }

  private var details: String {
    switch self {
    case .read:
      """
      A suite is a name in the preferences folder ($XDG_CONFIG_HOME, else ~/.config); a path \
      (with a /, or an existing .plist file) is read as it is, XML or binary. Values print in \
      the old-style form of macOS defaults; a top-level string prints without quotes. Data \
      that holds JSON (a Codable value) prints as that JSON; --raw prints its bytes in hex. A \
      key a published schema describes that no file of the suite sets prints its default, and \
      standard error says so (as gsettings get does).
      A suite shows what its programs read from files: a mandatory value an administrator set \
      (ObservableDefaults/mandatory/<suite>.plist in a folder of $XDG_CONFIG_DIRS, else \
      /etc/xdg) over the user's file over a system-wide default (<suite>.plist there). \
      --source prints where the key's value comes from: 'mandatory: <file>', 'user: <file>', \
      'system: <file>', or 'default' when no file has it (the program's registered default or \
      its declaration's default applies; a program's command line and registered defaults are \
      its own). A system file that does not parse, or lies in a folder writable by others, is \
      named on standard error and not used.
      """
    case .readType:
      "Prints 'Type is <type>': string, integer, float, boolean, date, data, array or dictionary."
    case .rename:
      """
      Stores the value of the old key under the new one and removes the old key. Refused \
      when the old key does not exist or the new one does.
      """
    case .find:
      """
      Searches the keys and values (strings, numbers, dates, nested ones too) of every suite, \
      ignoring case, and prints each suite's matching keys with their values.
      """
    case .write:
      """
      Types (a string when none is given):
        -string <text>           -int | -integer <whole number, up to 18446744073709551615>
        -float | -real <number>  -bool | -boolean <true | false | yes | no | 1 | 0>
        -date <2023-01-08T19:59:26.426036Z | 2023-01-08 19:59:26 +0000 | 2023-01-08>
        -data <hex bytes, e.g. 0a1b2c>
        -array <value>...        elements are strings unless preceded by a type
        -dict <key> <value>...   values are strings unless preceded by a type
        -array-add <value>...    appends to the array stored under the key (or a new one)
        -dict-add <key> <value>...  adds to (or replaces in) the dictionary under the key
        -json <text>             a Codable value: JSON, stored as JSON data (as an array or a
                                 dictionary when the key's schema stores it so)
      -array-add and -dict-add on a key not stored start from its schema's default.
      An integer beyond -9223372036854775808 … 18446744073709551615 is refused as out of range.
      A date outside the years 0 … 999999 (only a binary suite holds one) is printed and given \
      as its seconds: -1e+13 s from 2001-01-01T00:00:00Z.
      A string value may not start with - unless it is a number (use -string).
      A suite or file stored as a binary property list stays binary; other keys are kept.
      When a published schema describes the key (see list-schemas), a value that does not fit \
      its type, range or choices is refused with 65, naming the key and both types. A key that \
      no schema of a suite with schemas lists is written all the same (a suite is also a raw \
      domain), with a warning on standard error naming the key and the schemas; so is a value \
      whose schema cannot tell its values apart (an enumeration that is not CaseIterable: only \
      the raw value's type is checked).
      A key an administrator made mandatory is refused with 77, naming the file that sets it \
      (delete, rename, reset and import too, before anything is written).
      XML property lists store dates to the second (the format has no fractions); binary
      ones keep every digit.
      """
    case .delete:
      """
      Removes the key; the file keeps its format and every other key. Without a key, removes \
      every key of a suite (the suite's file is deleted; a property-list file named by path is \
      left alone).
      """
    case .domains:
      "Prints one suite name per line, sorted."
    case .export:
      """
      Writes to standard output unless a path is given: a new file, or a regular file \
      replaced atomically (a device, named pipe, symbolic link or folder there is refused). \
      --json writes JSON with keys sorted by their Unicode scalars: a date is \
      {"$date": "2023-01-08T19:59:26.426036Z"} and data is {"$data": "<Base64>"}, which \
      import --json reads back as a date and data (a dictionary whose one key is $date or \
      $data is written with one $ more, and read back as it was); a real keeps its fraction \
      (1.0), so it reads back as a real.
      """
    case .import:
      """
      The input (a file, or - for standard input) is a property list (XML or binary) or, with \
      --json, a JSON object; its top level must be a dictionary. Keys of the suite missing \
      from it are removed. In JSON, {"$date": "<ISO 8601>"} is a date, {"$data": "<Base64>"} \
      is data, null is refused (a property list has no null), and so is an integer beyond \
      -9223372036854775808 to 18446744073709551615 (write it as a real). Errors name the \
      file, the line and the column.
      """
    case .watch:
      """
      Prints one line per change of a value the suite's programs read (mandatory, the \
      user's, system-wide), 'time  suite  key: old → new  (origin)' ('(none)' for a \
      missing value), for every key or only the one given, until SIGINT or SIGTERM, then exits \
      with 0. The time is local (TZ); the origin says who made the change: another program \
      that uses ObservableDefaults, by name and process id ('myapp (pid 4711)', from the mark \
      its writers leave on the file, the extended attribute user.observabledefaults.writer), \
      'hand edit or other program' (the file changed without that mark), 'administrator' (a \
      system-wide or mandatory file), 'migration', or 'unknown' (a file system without \
      extended attributes, a file replaced again before it was read).
      """
    case .log:
      """
      Prints the changes made to the suite: those every program that uses the library wrote \
      (this command's write verbs included), and those the full-screen editor saw that no \
      such program recorded (hand edits, other devices), one line each as watch prints them, \
      oldest first; with a \
      key, only that key's. The history is kept in \
      $XDG_STATE_HOME/ObservableDefaults/history/<suite>.log (else ~/.local/state/…), mode \
      0600, at most 256 KiB per suite (about 3,000 changes: past it the oldest half is \
      dropped). OBSERVABLE_DEFAULTS_HISTORY=0 turns it off: nothing is written, and log \
      prints nothing.
      """
    case .migrate:
      """
      Runs, under the suite file's lock and in one atomic write, the schema steps this \
      program's settings class for the suite declares above the version recorded in the suite \
      (ObservableDefaults.schemaVersion), and records the new version. Prints the steps and \
      every changed key as 'key: old → new'. With --dry-run nothing is written.
      """
    case .cloud:
      """
      Connects a device to a program's cloud container (the container given, by default this \
      program's: settings-editor) on the backend its configuration names (etcd when \
      OBSERVABLE_DEFAULTS_ETCD_ENDPOINTS or $XDG_CONFIG_HOME/ObservableDefaults/cloud.conf names \
      endpoints, NATS when OBSERVABLE_DEFAULTS_NATS_SERVERS or the file names servers, else the \
      embedded container), waiting at most the backend's request timeout (3 s), and prints one \
      'name: value' line each: backend, endpoint, account, state (synced: nothing pending and \
      the last exchange reached the servers' quorum; connected: the last exchange succeeded; \
      connecting, offline, refused), pending (writes not yet acknowledged: those of the journal \
      a running program holds, else this device's), last sync (ISO 8601, or never), journal \
      (the device journal of the program, and whether a running program holds it) and error \
      when the last exchange failed. Exit status: 0 synced or connected; 69 offline or still \
      connecting; 77 the servers refused the credentials, a permission or a write; 78 the \
      configuration cannot be used (say, a credentials file readable by others), so a program \
      would fall back to its embedded container.
      """
    case .listSchemas:
      """
      Programs built with ObservableDefaults publish a schema of each settings class they use \
      in $XDG_DATA_HOME/ObservableDefaults/schemas (else ~/.local/share/…); packages install \
      them in ObservableDefaults/schemas of each folder of $XDG_DATA_DIRS (/usr/local/share, \
      /usr/share). Prints one line per schema, tab-separated: the store (a suite, or \
      cloud:<container>), the class (Module.Class), the program, and '(program gone)' when the \
      program that published it no longer exists. A file that cannot be used, or a program \
      folder that is not read, is named on standard error with the reason. When two files \
      describe a key of one store otherwise, the first in the search order is used (the \
      user's folder, then each folder of $XDG_DATA_DIRS in its order; in a folder, by program \
      then file name) and a 'conflict:' line on standard error names the file hidden.
      """
    case .listKeys:
      """
      Prints the stored keys (prefix included), one per line, in the order the classes declare \
      them. With --all (a suite only), then every other key the suite stores, sorted: the keys \
      the shell completions offer. With --source, each key is followed by a tab and where its \
      value comes from, as read --source prints it.
      """
    case .describe:
      """
      Prints 'name: value' lines: key, schema (the class and its program), conflict (a file \
      whose other description of the key is hidden, one line each), type, stored as \
      (the property-list form), default, choices (an enumeration's cases and raw values), \
      range (an integer type's), previous keys, summary and discussion (the documentation \
      comment), and for a suite the value programs read now ('not set' when the default \
      applies; 'does not fit' when it is not of the schema's type) and its source, as read \
      --source prints it.
      """
    case .range:
      """
      Prints, as gsettings range does, 'enum' and the raw values one per line, 'range <type> \
      <minimum> <maximum>' for an integer, or 'type <type>'.
      """
    case .reset:
      "Removes the key from the suite, so the program reads its default; the key must be in a schema."
    case .resetRecursively:
      "Removes every key the suite's schemas describe; keys no schema lists are kept."
    case .schema:
      """
      remove <program> deletes the schemas the program published in the user's folder; \
      remove --gone deletes those of every program whose executable no longer exists. Schemas \
      installed with a package are left to the package. A program folder that is not read (a \
      symbolic link, or one that cannot be opened) is skipped, with a line on standard error. \
      Prints each file removed.
      """
    case .help:
      "Prints the help of a verb; 'settings-editor <verb> --help' does the same."
    }
  }

  /// The exit statuses every verb uses.
  static let exitStatus = """
    Exit status: 0 success; 1 the suite, file or key does not exist, or a file could not be \
    read or written (also when another writer changed it first); 64 usage error (the verb's \
    usage goes to standard error); 65 invalid value or input that is not a property list; 77 \
    the key is mandatory (an administrator set it).
    """
}
