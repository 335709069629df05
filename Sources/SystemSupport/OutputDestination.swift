#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one rule for where a file may be written, checked by `AtomicFileWriter` before its temporary file is made
/// and by commands before any work, so that every `--out`, `--map` and `--speak-to` refuses the same things:
///
/// - Only a regular file is ever replaced. A character or block device, a FIFO, a socket or a folder is refused,
///   naming what it is: a rename by root would otherwise swap /dev/null for a regular file.
/// - Nothing is written on a kernel file system (/proc, /sys, cgroup, debugfs…): it holds no files on disk, and
///   saying so beats the "no such file" the temporary file beside it would report.
/// - A symbolic link is followed: the file it names is checked and replaced (or made), and the link stays.
/// - With `.writableByMode` (files named on the command line), an existing file is replaced only when its mode
///   bits let this user write it: the owner's bits for its owner, the group's for its group, the others' for
///   anyone else. Root gets no exception, so a read-only file, or another user's file only they may write, is
///   left alone as it would be for anyone else; make it writable or remove it first.
public enum OutputDestination {
    /// What an existing destination may be.
    public enum Rule: Sendable {
        /// Any regular file this process can rename over: the program's own files (a timetable image, a state
        /// file), which root replaces on a service account's behalf.
        case regularFile
        /// A file named on the command line: a regular file whose mode bits let this user write it.
        case writableByMode
    }

    /// The spelling of standard output in `--out -`.
    public static let standardOutputName = "-"

    /// Checks `path` and returns the path to replace: `path` itself, or the file a symbolic link names. A path
    /// that does not exist yet is fine when its folder exists; whether the folder takes a new file is found when
    /// the temporary file is made.
    public static func check(_ path: String, rule: Rule = .writableByMode) throws(FileError) -> String {
        guard !path.isEmpty else { throw FileError(path: path, operation: .writing, problem: .notFound) }
        if path.hasSuffix("/") { throw FileError(path: path, operation: .writing, problem: .isDirectory) }
        var status = stat()
        guard stat(path, &status) == 0 else {
            var link = stat()
            if lstat(path, &link) == 0 {
                // A link to a file not made yet: the file it names is made, as cp would; a loop is refused.
                guard let target = linkTarget(path) else {
                    throw FileError(
                        path: path, operation: .writing,
                        problem: .notARegularFile(kind: "symbolic link that leads to no file"))
                }
                do {
                    return try check(target, rule: rule)
                } catch {
                    throw FileError(path: path, operation: .writing, problem: error.problem)
                }
            }
            if let name = kernelFileSystem(at: path) {
                throw FileError(path: path, operation: .writing, problem: .kernelFileSystem(name))
            }
            // A new file: its folder must be there (the temporary file's ENOENT would not say which folder).
            let folder = TemporaryFiles.split(path).folder
            var folderStatus = stat()
            guard stat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
                throw FileError(path: path, operation: .writing, problem: .missingFolder(folder))
            }
            return path
        }
        // The kind first: /dev/stdout leads through /proc to a pipe or a terminal, and that is what to name.
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FileError(path: path, operation: .writing, problem: .isDirectory)
        default: throw FileError(path: path, operation: .writing, problem: .notARegularFile(kind: kind(of: status)))
        }
        if let name = kernelFileSystem(at: path) {
            throw FileError(path: path, operation: .writing, problem: .kernelFileSystem(name))
        }
        var target = path
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        if rule == .writableByMode, !writableByMode(status) {
            throw FileError(
                path: path, operation: .writing,
                problem: .readOnly(owner: ownerName(status.st_uid), mode: UInt32(status.st_mode & 0o7777)))
        }
        return target
    }

    /// Checks a folder files are to be written into (`--all-stops --out DIR`, `keys generate --out DIR`): an
    /// existing folder, or a new one (whose parent exists, with `parentMustExist`), not on a kernel file system.
    public static func checkFolder(_ path: String, parentMustExist: Bool = true) throws(FileError) {
        if let name = kernelFileSystem(at: path) {
            throw FileError(path: path, operation: .writing, problem: .kernelFileSystem(name))
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard parentMustExist else { return }
            let parent = TemporaryFiles.split(path.hasSuffix("/") ? String(path.dropLast()) : path).folder
            var parentStatus = stat()
            guard stat(parent, &parentStatus) == 0, parentStatus.st_mode & S_IFMT == S_IFDIR else {
                throw FileError(path: path, operation: .writing, problem: .missingFolder(parent))
            }
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return
        case S_IFREG: throw FileError(path: path, operation: .writing, problem: .notAFolder(kind: "regular file"))
        default: throw FileError(path: path, operation: .writing, problem: .notAFolder(kind: kind(of: status)))
        }
    }

    /// Checks that `path`'s extension names `format` ("a PDF", "an SVG"): one of `extensions` (lower case, without
    /// the dot), compared ignoring case. A name without an extension is accepted (the format then comes from
    /// elsewhere); `-` is standard output and has none.
    public static func checkExtension(_ path: String, format: String, extensions: [String]) throws(FileError) {
        guard path != standardOutputName, let found = fileExtension(path) else { return }
        if !extensions.contains(found.lowercased()) {
            throw FileError(
                path: path, operation: .writing,
                problem: .wrongExtension(found: found, format: format, expected: extensions))
        }
    }

    /// The extension of the file name `path` ends in, without the dot; nil when the name has none (a leading dot
    /// starts a hidden name, not an extension).
    public static func fileExtension(_ path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex
        else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// Refuses binary output (a PDF, a PNG, a WAV) to a terminal, where it would only garble the screen. `format`
    /// names what is written with its article ("a PDF"), as in `checkExtension`.
    public static func checkStandardOutput(binary: Bool, format: String) throws(FileError) {
        if binary, isatty(STDOUT_FILENO) == 1 {
            throw FileError(
                path: FileError.standardOutput, operation: .writing,
                problem: .other("is a terminal, and \(format) is binary: redirect it to a file or pipe it"))
        }
    }

    /// Writes `bytes` to standard output whole, retrying short writes; a closed pipe or a full disk is an error.
    public static func writeStandardOutput(_ bytes: [UInt8]) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileError.current(FileError.standardOutput, .writing)
            }
            offset += written
        }
    }

    /// The path a chain of symbolic links at `path` ends in (a name that is not a link, existing or not); nil for
    /// a loop or a chain longer than the kernel follows (40).
    static func linkTarget(_ path: String) -> String? {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return nil }
            let text = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = text.hasPrefix("/") ? text : TemporaryFiles.split(current).folder + "/" + text
        }
        return nil
    }

    /// Whether a non-root user with this process's user and groups could open the file for writing.
    static func writableByMode(_ status: stat) -> Bool {
        if status.st_uid == geteuid() { return status.st_mode & S_IWUSR != 0 }
        if inGroup(status.st_gid) { return status.st_mode & S_IWGRP != 0 }
        return status.st_mode & S_IWOTH != 0
    }

    static func inGroup(_ group: gid_t) -> Bool {
        if group == getegid() { return true }
        let count = getgroups(0, nil)
        guard count > 0 else { return false }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let filled = getgroups(count, &groups)
        return filled > 0 && groups.prefix(Int(filled)).contains(group)
    }

    static func kind(of status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFIFO: return "FIFO (named pipe)"
        case S_IFSOCK: return "socket"
        default: return "special file"
        }
    }

    static func ownerName(_ uid: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, let found = result,
            let name = found.pointee.pw_name
        else { return "uid \(uid)" }
        return String(cString: name)
    }

    /// The kernel file system `path` (or, when it does not exist, its folder) is on, by its usual mount point or
    /// its type; nil for a file system that holds files. Found by the file's device in /proc/self/mountinfo, and
    /// only for devices without a disk (major 0), where kernel file systems live.
    static func kernelFileSystem(at path: String) -> String? {
        var status = stat()
        if stat(path, &status) != 0 {
            guard stat(TemporaryFiles.split(path).folder, &status) == 0 else { return nil }
        }
        let device = UInt64(status.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        guard major == 0, let type = mountType(device: "\(major):\(minor)") else { return nil }
        switch type {
        case "proc": return "/proc"
        case "sysfs": return "/sys"
        case "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "configfs", "efivarfs", "bpf", "pstore",
            "devpts", "fusectl", "binfmt_misc":
            return type
        default: return nil
        }
    }

    /// The file system type mounted from `device` ("0:22"), from /proc/self/mountinfo (its third field, and the
    /// first after the " - " separator).
    static func mountType(device: String) -> String? {
        let descriptor = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while bytes.count < 1 << 22 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count > 4, fields[2].elementsEqual(device.utf8),
                let separator = fields.firstIndex(where: { $0.elementsEqual("-".utf8) }),
                separator + 1 < fields.count
            else { continue }
            return String(decoding: fields[separator + 1], as: UTF8.self)
        }
        return nil
    }
}

/// A private folder for a document that goes to standard output (`--out -`) only once it is whole and checked:
/// the document is written to `path(named:)` as to any file, then copied out by `emit`. The folder and what is in
/// it go with this value.
public final class StandardOutputStaging {
    public let folder: String

    public init() throws(FileError) {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/kiosk-stdout-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FileError.current(base, .writing)
        }
        folder = String(cString: made)
    }

    deinit {
        guard let directory = opendir(folder) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { unlink("\(folder)/\(name)") }
        }
        closedir(directory)
        rmdir(folder)
    }

    public func path(named name: String) -> String { "\(folder)/\(name)" }

    /// Copies the finished file at `path` to standard output.
    public func emit(_ path: String) throws(FileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError.current(path, .reading) }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError.current(path, .reading)
            }
            if count == 0 { return }
            try OutputDestination.writeStandardOutput(Array(chunk[..<count]))
        }
    }
}
