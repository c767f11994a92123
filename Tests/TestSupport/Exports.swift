// The one polling helper every test waits with is public API of ObservableDefaultsTesting.
@_exported import ObservableDefaultsTesting
