import ObservableDefaults
import ObservableDefaultsSchema

extension Invocation {
  /// The arguments the invocation carries, each with the role errors name it by (`key`, `value`,
  /// `suite name`, `file`…), in command-line order.
  var namedOperands: [(role: String, text: String)] {
    switch self {
    case .editor, .help, .version, .domains, .cloudStatus(nil), .listSchemas, .removeSchemas(nil):
      return []
    case .cloudStatus(let container?):
      return [("container", container)]
    case .editFiles(let paths, _):
      return paths.map { ("file", $0) }
    case .read(let domain, let key, _):
      return [domain.named] + (key.map { [("key", $0)] } ?? [])
    case .readType(let domain, let key):
      return [domain.named, ("key", key)]
    case .readSource(let suite, let key):
      return [("suite name", suite), ("key", key)]
    case .write(let domain, let key, let words):
      return [domain.named, ("key", key)] + words.map { ("value", $0) }
    case .rename(let domain, let key, let newKey):
      return [domain.named, ("key", key), ("new key", newKey)]
    case .delete(let domain, let key):
      return [domain.named] + (key.map { [("key", $0)] } ?? [])
    case .find(let word):
      return [("search word", word)]
    case .export(let domain, _, let output):
      return [domain.named] + (output.map { [("output file", $0)] } ?? [])
    case .import(let suite, let input, _):
      return [("suite name", suite), ("input file", input)]
    case .watch(let suite, let key), .log(let suite, let key):
      return [("suite name", suite)] + (key.map { [("key", $0)] } ?? [])
    case .migrate(let suite, _), .listKeySources(let suite):
      return [("suite name", suite)]
    case .listKeys(let store, _):
      return [store.named]
    case .describe(let store, let key), .range(let store, let key):
      return [store.named, ("key", key)]
    case .reset(let suite, let key):
      return [("suite name", suite)] + (key.map { [("key", $0)] } ?? [])
    case .removeSchemas(let program?):
      return [("program", program)]
    }
  }
}

extension Invocation.Domain {
  /// The domain with its role: `suite name` or `file`.
  fileprivate var named: (role: String, text: String) {
    switch self {
    case .suite(let name): ("suite name", name)
    case .file(let path): ("file", path)
    }
  }
}

extension SettingsSchema.Store {
  /// The store with its role: `suite name` or `container`.
  fileprivate var named: (role: String, text: String) {
    switch self {
    case .suite(let name): ("suite name", name)
    case .cloud(let container): ("container", container)
    }
  }
}
