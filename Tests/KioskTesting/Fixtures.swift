import Foundation

/// Why a shared fixture could not be made (a test that needs it fails with this, once per use).
public struct FixtureFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The Quito sample network (assets/sample-network), imported once per test process with the built `kiosk`.
public enum SampleNetwork {
    /// The GTFS text of the sample network.
    public static var feed: URL { Repository.sampleNetwork }

    private static let imported: Result<String, FixtureFailure> = {
        let path = TemporaryFolder.make("sample").appendingPathComponent("routes.sqlite").path
        do {
            let result = try Programs.runKiosk(["import", feed.path, "--db", path])
            guard result.status == 0 else {
                return .failure(FixtureFailure("kiosk import of the sample network failed:\n\(result)"))
            }
            return .success(path)
        } catch {
            return .failure(FixtureFailure("cannot run \(Programs.kiosk.path): \(error)"))
        }
    }()

    /// The path of a route database holding the sample network (shared: open it, do not change it).
    public static func databasePath() throws -> String { try imported.get() }
}

/// The fake V4L2 camera: an LD_PRELOAD library compiled from Tests/Fixtures/fakev4l2/fakev4l2.c at test time. A
/// preload only takes effect when a process starts, so camera tests run a program with `preload: library()` and
/// `FAKEV4L2_*` variables that say what the camera does.
public enum FakeCamera {
    /// The device node the shim answers for (it does not exist on disk).
    public static let device = "/dev/video42"

    /// Whether the library can be built (a C compiler is on the PATH).
    public static var isAvailable: Bool { Programs.compiler != nil }

    public static var source: URL { Repository.fixtures.appendingPathComponent("fakev4l2/fakev4l2.c") }

    /// Built once per test process, beside the products when the build folder is writable.
    private static let built: Result<String, FixtureFailure> = {
        guard let compiler = Programs.compiler else {
            return .failure(FixtureFailure("no C compiler (cc, gcc, clang) on PATH"))
        }
        let products = Programs.productsDirectory.path
        let directory =
            FileManager.default.isWritableFile(atPath: products) ? products : TemporaryFolder.make("fakev4l2").path
        let library = directory + "/libfakev4l2.so"
        let temporary = library + ".\(getpid()).tmp"
        let result: ProcessResult
        do {
            result = try Programs.run(
                compiler, ["-shared", "-fPIC", "-O2", "-Wall", "-o", temporary, source.path, "-ldl", "-lpthread"],
                limit: 120)
        } catch {
            return .failure(FixtureFailure("cannot run \(compiler.path): \(error)"))
        }
        guard result.status == 0, rename(temporary, library) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            return .failure(FixtureFailure("compiling \(source.path) with \(compiler.path) failed:\n\(result)"))
        }
        return .success(library)
    }()

    /// The path of libfakev4l2.so, for `preload:`.
    public static func library() throws -> String { try built.get() }
}
