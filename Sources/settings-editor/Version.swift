/// The version of this package — the library and the editor — in semantic versioning
/// (https://semver.org): the one source of truth for `settings-editor --version`, the Debian
/// package and the archive `scripts/package` makes, and the release's tag. CHANGELOG.md's newest
/// release has this number (a test checks it); "Versions and releases" in README.md says how a
/// release is made.
let packageVersion = "0.1.0"
