import Foundation
import TestSupport
import Testing

@testable import ObservableDefaultsCore

/// Issue 23: a file's bytes are read once into a buffer of their size, and a version is
/// confirmed by hashing the file in pieces; both give what a whole read gives.
@Suite struct FileContentsTests {
  /// Sizes around the hash's 32-byte blocks, the 1 MiB pieces of the streaming hash and the
  /// pieces a read or a write hashes as it goes (``ByteHash/pieceSize``).
  @Test(arguments: [
    0, 1, 31, 32, 33, 4_095, 4_096, 4_097, (256 << 10) - 1, 256 << 10, (256 << 10) + 33,
    1 << 20, (1 << 20) + 17, 3 << 20,
  ])
  func aFileHashedInPiecesHashesAsItsBytes(size: Int) async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("f")
      let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
      try bytes.write(to: url)
      let read = try #require(try FileContents.read(url))
      #expect(read.data == bytes)
      #expect(read.hash == ByteHash.of(bytes))
      let rewritten = try AtomicFileWriter(target: url, reportingAs: url).writeHashed([bytes])
      #expect(rewritten.hash == ByteHash.of(bytes))
      let hashed = try #require(try FileContents.contentHash(of: url))
      #expect(hashed.hash == ByteHash.of(bytes))
      #expect(hashed.identity == rewritten.identity)
    }
  }

  /// A file written in pieces of any sizes (a binary file's large value is a piece of its own)
  /// holds their bytes one after the other, and the hash taken as they are written is theirs.
  @Test func aFileWrittenInPiecesHoldsThemAndHashesAsTheirBytes() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("f")
      var generator = SeededGenerator(seed: 3)
      for sizes in [
        [0], [5, 0, 27], [31, 1, 32, 33], [7, (256 << 10) + 5, 13], [1, 3 << 20, 40],
      ] {
        let pieces = sizes.map { size in
          Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        let whole = pieces.reduce(Data(), +)
        let written = try AtomicFileWriter(target: url, reportingAs: url).writeHashed(pieces)
        #expect(written.hash == ByteHash.of(whole))
        let read = try #require(try FileContents.read(url))
        #expect(read.data == whole)
        #expect(read.hash == written.hash)
        #expect(read.identity == written.identity)
      }
    }
  }

  @Test func noFileHasNoHashAndALargerFileIsRefused() async throws {
    try await withTemporaryFolder { folder in
      #expect(try FileContents.contentHash(of: folder.file("none")) == nil)
      let url = folder.file("big")
      try Data(count: 2_000).write(to: url)
      #expect(throws: PropertyListError.self) { try FileContents.read(url, maximumSize: 1_000) }
    }
  }

  /// Issue 24: a file opened without following links is read from its descriptor: the file
  /// opened, whatever was put at its path since, refused as a path is.
  @Test func anOpenFileIsReadFromItsDescriptor() async throws {
    try await withTemporaryFolder { folder in
      let url = folder.file("f")
      try Data("opened".utf8).write(to: url)
      let descriptor = try FileDescriptor.open(Array(url.path.utf8), [.readOnly, .noFollow])
      defer { descriptor.close() }
      try FileSystem.rename(url.path, to: folder.file("moved").path)
      try Data("put in its place".utf8).write(to: url)
      let read = try FileContents.read(descriptor: descriptor, shownAs: url)
      #expect(read == Data("opened".utf8))
      #expect(throws: PropertyListError.self) {
        try FileContents.read(descriptor: descriptor, shownAs: url, maximumSize: 3)
      }
      let opened = try FileDescriptor.open(Array(folder.url.path.utf8), [.readOnly, .directory])
      defer { opened.close() }
      #expect(throws: PropertyListError.self) {
        try FileContents.read(descriptor: opened, shownAs: folder.url)
      }
      #expect(
        opened.namesInFolder().map(Set.init) == [
          Array(".".utf8), Array("..".utf8), Array("f".utf8), Array("moved".utf8),
        ])
    }
  }
}
