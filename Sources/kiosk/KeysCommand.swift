import ArgumentParser
import Foundation
import StopCodes
import SystemSupport
import TransitModel

/// `kiosk keys`: the Ed25519 key pair that signs stop labels. The private key stays on the machine that
/// prints labels; kiosks get only the public key line (`labels.public_keys` in the kiosk config).
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make and show the key pair that signs stop labels.",
        subcommands: [Generate.self, Show.self]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Write a new label-signing key pair into a directory and print its key ID.",
            discussion: """
                Writes NAME.key (the private key, mode 0600: keep it where labels are printed, back it up, never copy it \
                to a kiosk) and NAME.pub (the public key, mode 0644) into DIR, creating DIR (mode 0700) if needed. \
                Existing files are never overwritten. Prints the key ID and the public key line to put in each kiosk's \
                config (labels.public_keys). Sign labels with: kiosk labels … --sign-key DIR/NAME.key
                """
        )

        @Option(help: ArgumentHelp("Directory to write the key files into.", valueName: "dir"))
        var out: String

        @Option(help: ArgumentHelp("File name stem of the two files.", valueName: "name"))
        var name = "label-signing"

        func validate() throws {
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
                !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else {
                throw ValidationError("--name must be a plain file name (no '/', not starting with '.')")
            }
        }

        func run() throws {
            let signals = ProcessSignals.removeTemporaryFilesOnTermination(command: "keys generate")
            defer { signals.cancel() }
            do {
                try OutputDestination.checkFolder(out, parentMustExist: false)
            } catch {
                fail("--out \(error.description)")
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { fail("\(out) exists and is not a directory") }
            } else {
                do {
                    try FileManager.default.createDirectory(
                        atPath: out, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    fail("cannot create the directory \(out): \((error as NSError).localizedDescription)")
                }
            }
            let privatePath = (out as NSString).appendingPathComponent("\(name).key")
            let publicPath = (out as NSString).appendingPathComponent("\(name).pub")
            for path in [privatePath, publicPath] where FileManager.default.fileExists(atPath: path) {
                fail("\(path) already exists; it was not overwritten (choose another --out or --name)")
            }
            let key = KeyPair.generate()
            do {
                try KeyFile.savePrivateKey(key, to: privatePath)
                try KeyFile.savePublicKey(key.publicKey, to: publicPath)
            } catch {
                // Never leave half a pair: a private key without its public file is easy to lose track of.
                if case .alreadyExists = error {} else { unlink(privatePath) }
                fail(error.description)
            }
            print(
                """
                Key ID: \(key.keyID)
                Private key: \(privatePath) (mode 0600; keep it secret, where labels are printed)
                Public key:  \(publicPath)
                For kiosk configs (labels.public_keys): \(key.publicKey.encoded)
                """)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the public key line of a key file (private or public) for kiosk configs.",
            discussion: """
                Prints one line, stopkiosk-ed25519-public-v1:…, on standard output (for labels.public_keys in a kiosk \
                config), and the key ID on standard error. A private key file readable by others is reported as a warning.
                """
        )

        @Argument(help: ArgumentHelp("A key file written by 'kiosk keys generate' (.key or .pub).", valueName: "file"))
        var file: String

        func run() throws {
            let key: PublicKey
            do {
                let loaded = try KeyFile.loadPrivateKey(from: file)
                if let warning = loaded.permissionWarning {
                    printError("warning: \(TerminalText.sanitize(warning, maxLength: 300))")
                }
                key = loaded.keyPair.publicKey
            } catch KeyFileError.invalid(_, _, .wrongKind) {
                do {
                    key = try KeyFile.loadPublicKey(from: file)
                } catch {
                    fail(error.description)
                }
            } catch {
                fail(error.description)
            }
            print(key.encoded)
            printError("key ID \(key.keyID)")
        }
    }
}

/// Reports bad input to `kiosk keys` and exits with status 2.
private func fail(_ message: String) -> Never {
    printError("error: \(TerminalText.sanitize(message, maxLength: 400))")
    Foundation.exit(ExitStatus.badInput)
}
