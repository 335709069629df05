import Foundation
import ZIPFoundation

/// Where a GTFS feed's files come from: a `.zip` (as agencies publish them) or an unpacked directory.
/// Files are streamed in chunks so that a feed of any size is read in bounded memory.
protocol FeedSource {
    /// A human-readable name for errors ("carta.zip").
    var displayName: String { get }
    /// The GTFS `.txt` files present.
    var fileNames: [String] { get }
    func contains(_ file: String) -> Bool
    /// Streams the file's bytes, in order, in chunks of at most a few hundred kilobytes.
    func stream(_ file: String, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Every byte of the feed as published (the zip file, or each file's name and contents), for the feed hash.
    func forEachByteChunk(_ consumer: (UnsafeRawBufferPointer) throws -> Void) throws
}

let feedChunkSize = 256 * 1024

func openFeedSource(path: String) throws -> FeedSource {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ImportError.unreadableFeed(path: path, reason: "no such file or directory")
    }
    if isDirectory.boolValue { return try DirectoryFeedSource(path: path) }
    return try ZipFeedSource(path: path)
}

struct DirectoryFeedSource: FeedSource {
    let root: URL
    let files: [String: URL]
    var displayName: String { root.lastPathComponent }

    init(path: String) throws {
        root = URL(fileURLWithPath: path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        var files: [String: URL] = [:]
        for name in names where name.hasSuffix(".txt") { files[name] = root.appendingPathComponent(name) }
        guard !files.isEmpty else {
            throw ImportError.unreadableFeed(path: path, reason: "the directory holds no GTFS .txt files")
        }
        self.files = files
    }

    var fileNames: [String] { Array(files.keys) }
    func contains(_ file: String) -> Bool { files[file] != nil }

    func stream(_ file: String, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let url = files[file] else { throw ImportError.missingFile(file: file, feed: displayName) }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw ImportError.unreadableFeed(path: url.path, reason: "cannot be opened for reading")
        }
        defer { try? handle.close() }
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: feedChunkSize) ?? Data() } catch {
                throw ImportError.unreadableFeed(path: url.path, reason: "\(error.localizedDescription)")
            }
            if chunk.isEmpty { return }
            try chunk.withUnsafeBytes(consumer)
        }
    }

    func forEachByteChunk(_ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        for name in files.keys.sorted() {
            try Array(name.utf8).withUnsafeBytes(consumer)
            try stream(name, consumer)
        }
    }
}

struct ZipFeedSource: FeedSource {
    let path: String
    let archive: Archive
    /// GTFS file name → entry; zips made by hand often put the files in a folder, so we match on the base name.
    let entries: [String: Entry]
    var displayName: String { URL(fileURLWithPath: path).lastPathComponent }

    init(path: String) throws {
        self.path = path
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw ImportError.unreadableFeed(path: path, reason: "not a readable zip archive (\(error))")
        }
        var entries: [String: Entry] = [:]
        for entry in archive where entry.type == .file {
            let base = (entry.path as NSString).lastPathComponent
            if base.hasSuffix(".txt"), !base.hasPrefix("."), entries[base] == nil { entries[base] = entry }
        }
        guard !entries.isEmpty else {
            throw ImportError.unreadableFeed(path: path, reason: "the archive holds no GTFS .txt files")
        }
        self.entries = entries
    }

    var fileNames: [String] { Array(entries.keys) }
    func contains(_ file: String) -> Bool { entries[file] != nil }

    func stream(_ file: String, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let entry = entries[file] else { throw ImportError.missingFile(file: file, feed: displayName) }
        do {
            _ = try archive.extract(entry, bufferSize: feedChunkSize, skipCRC32: false) { data in
                try data.withUnsafeBytes(consumer)
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError.unreadableFeed(path: "\(path) (\(file))", reason: "the zip entry is damaged: \(error)")
        }
    }

    func forEachByteChunk(_ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError.unreadableFeed(path: path, reason: "cannot be opened for reading")
        }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: feedChunkSize), !chunk.isEmpty {
            try chunk.withUnsafeBytes(consumer)
        }
    }
}
