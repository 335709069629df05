import Foundation
import KioskConfiguration
import Logging
import ScanService
import Scanning
import StopCodes
import StopPresentation
import TransitModel
import TransitStore
import TripPlanning

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the kiosk's frames come from.
public enum KioskFrameInput: Sendable {
    /// No camera: typing only.
    case none
    /// A webcam, reopened on its own when unplugged.
    case camera(CameraConfiguration)
    /// A recorded session (`kiosk demo`).
    case demo(DemoSession, videoPath: String, loop: Bool)
    /// Any other frame source (a Y4M or an image folder), e.g. `kiosk run --replay`.
    case replay(FrameSourceSpec)
}

/// How `KioskApp` runs.
public struct KioskRunOptions: Sendable {
    public var config: KioskConfig
    public var databasePath: String
    public var input: KioskFrameInput
    public var context: ScreenContext
    /// Added to the system clock: the demo's clock can start at a fixed time of day.
    public var clockOffset: TimeInterval = 0
    /// With a replay: end once it has been played through and the kiosk is idle again.
    public var once = false
    /// Draw plain text frames on standard output instead of driving a terminal (output is not a TTY).
    public var plainText = false
    public var plainSize = (width: 80, height: 24)
    /// Poll the database file for a new import this often.
    public var databaseCheckInterval: TimeInterval = 2
    /// Replay the demo session as fast as the kiosk takes it instead of at the camera's rate (soak benchmark).
    public var unpacedDemo = false
    /// End the frame input after this many frames, as if the replay had ended (soak benchmark).
    public var frameLimit: Int?

    public init(
        config: KioskConfig, databasePath: String, input: KioskFrameInput, context: ScreenContext = ScreenContext()
    ) {
        self.config = config
        self.databasePath = databasePath
        self.input = input
        self.context = context
        self.context.display = config.display
    }
}
