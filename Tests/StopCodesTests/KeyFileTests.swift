import Foundation
import KioskTesting
import Testing

@testable import StopCodes

@Suite struct KeyFileTests {
    /// A fresh private directory per test (mode 0700, as mkdtemp makes them).
    func temporaryDirectory() throws -> String {
        let path = TemporaryFolder.make("keys").path
        try #require(chmod(path, 0o700) == 0)
        return path
    }

    func mode(_ path: String) -> UInt32 {
        var status = stat()
        stat(path, &status)
        return UInt32(status.st_mode) & 0o777
    }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    @Test func privateKeyRoundTripsWithMode0600() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/label.key"
        let key = KeyPair.generate()
        try KeyFile.savePrivateKey(key, to: path)
        #expect(mode(path) == 0o600)
        let loaded = try KeyFile.loadPrivateKey(from: path)
        #expect(loaded.keyPair.keyID == key.keyID)
        #expect(loaded.keyPair.publicKey == key.publicKey)
        #expect(loaded.permissionWarning == nil)
        #expect(!loaded.isAccessibleToOthers)
        // The loaded key signs what the original's public key verifies.
        let signature = try #require(loaded.keyPair.sign(feedID: "f", kind: .stopCode, value: "1"))
        #expect(
            key.publicKey.isValidSignature(
                signature.signature,
                for: LabelSignature.message(feedID: "f", kind: .stopCode, value: "1")!))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("key id \(key.keyID)"))
        #expect(text.contains(key.publicKey.encoded))
    }

    @Test func warnsWhenPrivateKeyIsReadableByOthers() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/label.key"
        try KeyFile.savePrivateKey(KeyPair.generate(), to: path)
        chmod(path, 0o644)
        let loaded = try KeyFile.loadPrivateKey(from: path)
        #expect(loaded.isAccessibleToOthers)
        let warning = try #require(loaded.permissionWarning)
        #expect(warning.contains(path) && warning.contains("644") && warning.contains("chmod 600"))
    }

    @Test func refusesToOverwriteUnlessAsked() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/label.key"
        let first = KeyPair.generate(), second = KeyPair.generate()
        try KeyFile.savePrivateKey(first, to: path)
        #expect(throws: KeyFileError.alreadyExists(path: path)) { try KeyFile.savePrivateKey(second, to: path) }
        #expect(try KeyFile.loadPrivateKey(from: path).keyPair.keyID == first.keyID)
        try KeyFile.savePrivateKey(second, to: path, overwrite: true)
        #expect(try KeyFile.loadPrivateKey(from: path).keyPair.keyID == second.keyID)
        #expect(mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["label.key"])
    }

    @Test func publicKeyFileAndOneLineFormRoundTrip() throws {
        let directory = try temporaryDirectory()
        let key = KeyPair.generate()
        let path = directory + "/label.pub"
        try KeyFile.savePublicKey(key.publicKey, to: path)
        #expect(try KeyFile.loadPublicKey(from: path) == key.publicKey)
        let line = key.publicKey.encoded
        #expect(line.hasPrefix("stopkiosk-ed25519-public-v1:") && line.count == 28 + 43)
        #expect(try PublicKey(encoded: "  \(line)\n") == key.publicKey)
        #expect(try KeyPair(encoded: key.encodedPrivateKey).keyID == key.keyID)
    }

    @Test func missingFile() throws {
        let path = try temporaryDirectory() + "/nope.key"
        #expect(throws: KeyFileError.notFound(path: path)) { try KeyFile.loadPrivateKey(from: path) }
        #expect(throws: KeyFileError.notFound(path: path)) { try KeyFile.loadPublicKey(from: path) }
    }

    @Test func malformedWrongLengthAndWrongKind() throws {
        let directory = try temporaryDirectory()
        let key = KeyPair.generate()
        let cases: [(String, KeyFormatError, Int?)] = [
            ("# only a comment\n", .malformed("no key line (only comments or empty)"), nil),
            ("hello\n", .malformed("expected stopkiosk-ed25519-private-v1:<base64url key>"), 1),
            ("# c\nstopkiosk-ed25519-private-v1:!!!\n", .malformed("the key is not valid unpadded base64url"), 2),
            (
                "stopkiosk-ed25519-private-v1:" + Base64URL.encode([UInt8](repeating: 1, count: 31)),
                .wrongLength(expected: 32, actual: 31), 1
            ),
            (
                "stopkiosk-ed25519-private-v1:" + Base64URL.encode([UInt8](repeating: 1, count: 64)),
                .wrongLength(expected: 32, actual: 64), 1
            ),
            (key.publicKey.encoded + "\n", .wrongKind(found: "public key", expected: "private key"), 1),
            (key.encodedPrivateKey + "\n" + key.encodedPrivateKey + "\n", .malformed("more than one key line"), 2),
        ]
        for (index, (content, reason, line)) in cases.enumerated() {
            let path = directory + "/case\(index).key"
            try write(content, to: path)
            chmod(path, 0o600)
            #expect(throws: KeyFileError.invalid(path: path, line: line, reason: reason)) {
                try KeyFile.loadPrivateKey(from: path)
            }
        }
        let privatePath = directory + "/private-as-public.pub"
        try write(key.encodedPrivateKey, to: privatePath)
        #expect(
            throws: KeyFileError.invalid(
                path: privatePath, line: 1, reason: .wrongKind(found: "private key", expected: "public key"))
        ) {
            try KeyFile.loadPublicKey(from: privatePath)
        }
        let binaryPath = directory + "/binary.key"
        try Data([0xFF, 0x00, 0xFE]).write(to: URL(fileURLWithPath: binaryPath))
        #expect(
            throws: KeyFileError.invalid(
                path: binaryPath, line: nil, reason: .malformed("the file is not text (UTF-8)"))
        ) {
            try KeyFile.loadPrivateKey(from: binaryPath)
        }
    }

    /// `--sign-key /dev/zero`, a directory, a FIFO, a 1 GB file: refused at once, never read to the end,
    /// never blocking.
    @Test func devicesDirectoriesFIFOsAndHugeFilesAreRefusedAtOnce() throws {
        let directory = try temporaryDirectory()
        #expect(throws: KeyFileError.unreadable(path: "/dev/zero", reason: "is a character device, not a key file")) {
            try KeyFile.loadPrivateKey(from: "/dev/zero")
        }
        #expect(throws: KeyFileError.unreadable(path: directory, reason: "is a directory, not a key file")) {
            try KeyFile.loadPrivateKey(from: directory)
        }
        let fifo = directory + "/key.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        // No writer ever opens the FIFO: reading it would wait for ever.
        #expect(throws: KeyFileError.unreadable(path: fifo, reason: "is a FIFO (named pipe), not a key file")) {
            try KeyFile.loadPrivateKey(from: fifo)
        }
        let huge = directory + "/huge.key"
        try #require(FileManager.default.createFile(atPath: huge, contents: nil))
        try #require(truncate(huge, 1 << 30) == 0)  // sparse: no disk used
        #expect(
            throws: KeyFileError.unreadable(
                path: huge, reason: "1073741824 bytes or more is too large for a key file (at most 64 KB)")
        ) {
            try KeyFile.loadPublicKey(from: huge)
        }
    }

    /// A private key file pieced together from two keys (or with a damaged secret) does not derive the key id
    /// and public key it states: refused as corrupted, naming the line.
    @Test func secretThatDoesNotMatchItsOwnPublicKeyIsCorrupted() throws {
        let directory = try temporaryDirectory()
        let original = KeyPair.generate(), other = KeyPair.generate()
        let path = directory + "/mixed.key"
        try KeyFile.savePrivateKey(original, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try write(text.replacingOccurrences(of: original.encodedPrivateKey, with: other.encodedPrivateKey), to: path)
        #expect(
            throws: KeyFileError.corrupted(
                path: path, line: 1,
                detail: "the file says key id \(original.keyID), the secret's key id is \(other.keyID)")
        ) {
            try KeyFile.loadPrivateKey(from: path)
        }
        #expect(
            KeyFileError.corrupted(path: path, line: 1, detail: "d").description.contains(
                "corrupted key: the secret does not match the key's own public key"))
        // Only the public-key comment left: still checked.
        let publicOnly = directory + "/public-comment.key"
        try write(
            "# Public key for kiosk configs: \(original.publicKey.encoded)\n\(other.encodedPrivateKey)\n",
            to: publicOnly)
        #expect(
            throws: KeyFileError.corrupted(
                path: publicOnly, line: 1, detail: "the public key in the file is not the one the secret derives")
        ) {
            try KeyFile.loadPrivateKey(from: publicOnly)
        }
        // A bare key line with no comments has nothing to contradict it.
        let bare = directory + "/bare.key"
        try write(original.encodedPrivateKey + "\n", to: bare)
        #expect(try KeyFile.loadPrivateKey(from: bare).keyPair.keyID == original.keyID)
    }

    @Test func errorMessagesNameTheFile() {
        let error = KeyFileError.invalid(
            path: "/etc/kiosk/label.key", line: 3, reason: .wrongLength(expected: 32, actual: 31))
        #expect(error.description == "/etc/kiosk/label.key:3: wrong key length: 31 bytes, expected 32")
    }
}
