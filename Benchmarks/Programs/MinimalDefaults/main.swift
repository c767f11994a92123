// minimal-defaults: a user's smallest `@ObservableDefaults` program — one class, one property
// read and printed, then exit. Its start to exit is a row of Benchmarks/README.md (against
// foundation-hello), and the tests count what it loads, looks up and waits for at start and exit.
import ObservableDefaults

@ObservableDefaults
final class Settings {
  var name: String = "Fatbobman"
}

print(Settings().name)
