// capture-probe: opens one frame source, reads frames and prints one JSON line per frame or event.
//
// A thin test and diagnostic driver over the Scanning library's frame sources (the capture logic lives there;
// `kiosk scan` and `kiosk doctor` will do the same through the same API). The capture tests run it as a child
// process with LD_PRELOAD=libfakev4l2.so, because a preload cannot be added to a process that already runs.
//
//   capture-probe --device /dev/video0 [--width 640 --height 480 --fps 30] [--reconnect] [--convert] [--frames 10] [--timeout 2]
//   capture-probe --video clip.y4m [--loop] [--pace 30|native] [--frames N]
//   capture-probe --images folder/ [--loop] [--frames N]
//
// Lines: {"event":"open",...}, {"event":"frame","sequence":..,"width":..,"height":..,"meanLuma":..,...},
// {"event":"state","state":"reconnecting","error":"...",...}, {"event":"error","kind":"deviceBusy","error":"..."},
// and last {"event":"end","frames":..,"seconds":..,"fps":..,"cpuMicrosPerFrame":..}.
// Exit status: 0 when the frames were read (or the replay ended), 1 on a capture error, 2 on bad usage.
import Scanning

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let usage = """
    usage: capture-probe (--device PATH | --index N | --video FILE.y4m | --images FOLDER) [options]
           capture-probe --list | --describe PATH     (what V4L2 nodes there are, without streaming)
      --width W --height H --fps F   size and rate to ask a camera for (default 640x480 at 30)
      --buffers N                    camera buffers (default 4)
      --reconnect                    reopen a lost or missing camera with backoff instead of failing
      --convert                      always let libv4l2 convert to YUV420 (default: read GREY/NV12/YUYV... as is)
      --loop                         replay a video or image folder in a loop
      --pace FPS|native              replay at a frame rate (default: as fast as possible)
      --frames N                     frames to read (default 10; 0 = until the replay ends)
      --timeout S                    seconds to wait for each frame (default 2)
      --max-errors N                 with --reconnect: stop after N errors (default 100)
      --quiet                        no line per frame, only events and the summary
    """

func fail(_ message: String) -> Never {
    var standardError = StandardError()
    print("capture-probe: \(message)\n\(usage)", to: &standardError)
    exit(2)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

// MARK: - Arguments

var spec: FrameSourceSpec?
var device: String?
var width = 640, height = 480, buffers = 4
var fps = 30.0
var reconnect = false, loop = false, quiet = false, convert = false
var pacing = ReplayPacing.unpaced
var frameLimit = 10
var timeout = 2.0
var maxErrors = 100
var videoPath: String?, imagesPath: String?
var describe: [String] = []
var listDevices = false

struct Arguments {
    var rest: ArraySlice<String>
    mutating func next() -> String? { rest.popFirst() }
    mutating func value(_ option: String) -> String {
        guard let v = rest.popFirst() else { fail("\(option) needs a value") }
        return v
    }
    mutating func number<T: LosslessStringConvertible>(_ option: String, _ type: T.Type) -> T {
        let text = value(option)
        guard let n = T(text) else { fail("\(option): not a number: \(text)") }
        return n
    }
}
var arguments = Arguments(rest: CommandLine.arguments.dropFirst())
while let argument = arguments.next() {
    switch argument {
    case "--device": device = arguments.value(argument)
    case "--index": device = CameraConfiguration.devicePath(index: arguments.number(argument, Int.self))
    case "--width": width = arguments.number(argument, Int.self)
    case "--height": height = arguments.number(argument, Int.self)
    case "--fps": fps = arguments.number(argument, Double.self)
    case "--buffers": buffers = arguments.number(argument, Int.self)
    case "--reconnect": reconnect = true
    case "--convert": convert = true
    case "--video": videoPath = arguments.value(argument)
    case "--images": imagesPath = arguments.value(argument)
    case "--loop": loop = true
    case "--pace":
        let text = arguments.value(argument)
        if text == "native" {
            pacing = .native
        } else if let rate = Double(text), rate > 0 {
            pacing = .framesPerSecond(rate)
        } else {
            fail("--pace: expected a frame rate or 'native', got \(text)")
        }
    case "--frames": frameLimit = arguments.number(argument, Int.self)
    case "--timeout": timeout = arguments.number(argument, Double.self)
    case "--max-errors": maxErrors = arguments.number(argument, Int.self)
    case "--quiet": quiet = true
    case "--describe": describe.append(arguments.value(argument))
    case "--list": listDevices = true
    case "--help", "-h": print(usage); exit(0)
    default: fail("unknown argument \(argument)")
    }
}
func emitDevice(_ info: CameraDeviceInfo) {
    emit([
        "event": .string("device"), "path": .string(info.path), "card": .string(info.card),
        "driver": .string(info.driver),
        "busInfo": .string(info.busInfo), "capture": .bool(info.isCapture), "formats": .strings(info.pixelFormats),
        "stableNames": .strings(info.stableNames),
    ])
}
if listDevices || !describe.isEmpty {
    var status: Int32 = 0
    for path in describe {
        switch V4L2Devices.describe(path) {
        case .success(let info): emitDevice(info)
        case .failure(let error): emitError(error); status = 1
        }
    }
    if listDevices { V4L2Devices.list().forEach(emitDevice) }
    exit(status)
}

let chosen = [device, videoPath, imagesPath].compactMap { $0 }
if chosen.count != 1 { fail("give exactly one of --device/--index, --video, --images") }
if timeout <= 0 { fail("--timeout must be positive") }
if let device {
    spec = .camera(
        CameraConfiguration(
            device: device, width: width, height: height, framesPerSecond: fps, bufferCount: buffers,
            preferNativeFormats: !convert), reconnect: reconnect)
} else if let videoPath {
    spec = .video(path: videoPath, loop: loop, pacing: pacing)
} else if let imagesPath {
    var isFolder = stat()
    if stat(imagesPath, &isFolder) == 0 && (isFolder.st_mode & S_IFMT) == S_IFDIR {
        spec = .imageFolder(path: imagesPath, loop: loop, pacing: pacing)
    } else {
        spec = .imageFiles([imagesPath], loop: loop, pacing: pacing)
    }
}

// MARK: - JSON lines

enum JSONValue {
    case string(String), int(Int), double(Double), bool(Bool), strings([String]), null
}

func emit(_ fields: KeyValuePairs<String, JSONValue>) {
    var parts: [String] = []
    for (key, value) in fields {
        let rendered: String
        switch value {
        case .string(let s): rendered = quote(s)
        case .int(let n): rendered = String(n)
        case .double(let d): rendered = d.isFinite ? String((d * 1000).rounded() / 1000) : "null"
        case .bool(let b): rendered = b ? "true" : "false"
        case .strings(let list): rendered = "[" + list.map(quote).joined(separator: ",") + "]"
        case .null: rendered = "null"
        }
        parts.append("\(quote(key)):\(rendered)")
    }
    print("{" + parts.joined(separator: ",") + "}")
    fflush(nil)  // one line at a time, also when stdout is a pipe
}

func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

func emitError(_ error: CaptureError) {
    emit([
        "event": .string("error"), "kind": .string(error.kind), "source": .string(error.subject),
        "error": .string(error.description),
    ])
}

func emitState(_ state: CameraState) {
    switch state {
    case .idle:
        emit(["event": .string("state"), "state": .string("idle")])
    case .streaming(let format):
        emit([
            "event": .string("state"), "state": .string("streaming"),
            "width": format.map { .int($0.width) } ?? .null, "height": format.map { .int($0.height) } ?? .null,
            "pixelFormat": format.map { .string($0.pixelFormat) } ?? .null,
        ])
    case .reconnecting(let error, let attempt, let retryIn):
        emit([
            "event": .string("state"), "state": .string("reconnecting"), "kind": .string(error.kind),
            "error": .string(error.description), "attempt": .int(attempt), "retryInSeconds": .double(seconds(retryIn)),
        ])
    case .closed:
        emit(["event": .string("state"), "state": .string("closed")])
    }
}

func seconds(_ duration: Duration) -> Double {
    let (s, atto) = duration.components
    return Double(s) + Double(atto) / 1e18
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// FNV-1a 64 of the pixels, so tests can compare a frame with the one they wrote.
func fingerprint(_ pixels: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in pixels {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

// MARK: - Run

let source: any FrameSource
do {
    source = try spec!.open()
} catch {
    emitError(error)
    exit(1)
}
if let camera = source as? ReconnectingCameraSource {
    camera.onStateChange = emitState
} else if let camera = source as? V4L2CameraSource {
    let f = camera.format
    emit([
        "event": .string("open"), "source": .string(camera.name), "width": .int(f.width), "height": .int(f.height),
        "pixelFormat": .string(f.pixelFormat), "bytesPerLine": .int(f.bytesPerLine),
        "fps": f.framesPerSecond.map { .double($0) } ?? .null, "cameraFormats": .strings(f.cameraPixelFormats),
        "driver": .string(f.driver), "card": .string(f.card),
    ])
} else if let video = source as? Y4MFileSource {
    let h = video.header
    emit([
        "event": .string("open"), "source": .string(video.name), "width": .int(h.width), "height": .int(h.height),
        "colourspace": .string(h.colourspace.rawValue), "fps": h.framesPerSecond.map { .double($0) } ?? .null,
    ])
} else if let images = source as? ImageFolderSource {
    emit(["event": .string("open"), "source": .string(images.name), "images": .int(images.files.count)])
}

let startWall = monotonicSeconds()
let startCPU = cpuSeconds()
var frames = 0
var errors = 0
var status: Int32 = 0
let frameTimeout = Duration.nanoseconds(Int64(timeout * 1e9))

while frameLimit == 0 || frames < frameLimit {
    do {
        guard let frame = try source.nextFrame(timeout: frameTimeout) else { break }
        frames += 1
        if !quiet {
            var sum = 0
            for p in frame.pixels { sum += Int(p) }
            let mean = Double(sum) / Double(frame.pixels.count)
            emit([
                "event": .string("frame"), "sequence": .int(frame.sequence), "width": .int(frame.width),
                "height": .int(frame.height), "meanLuma": .double(mean),
                "first": .int(Int(frame.pixels[0])), "last": .int(Int(frame.pixels[frame.pixels.count - 1])),
                "fnv": .string(fingerprint(frame.pixels)),
            ])
        }
    } catch {
        emitError(error)
        errors += 1
        if !(source is ReconnectingCameraSource) || errors >= maxErrors {
            status = 1
            break
        }
    }
}

let wall = monotonicSeconds() - startWall
let cpu = cpuSeconds() - startCPU
var dropped: JSONValue = .null
if let camera = source as? V4L2CameraSource { dropped = .int(camera.droppedFrames) }
if let camera = source as? ReconnectingCameraSource { dropped = .int(camera.reconnections) }
source.close()
emit([
    "event": .string("end"), "frames": .int(frames), "errors": .int(errors), "seconds": .double(wall),
    "fps": .double(wall > 0 ? Double(frames) / wall : 0), "cpuSeconds": .double(cpu),
    "cpuMicrosPerFrame": .double(frames > 0 ? cpu / Double(frames) * 1e6 : 0),
    (source is ReconnectingCameraSource ? "reconnections" : "dropped"): dropped,
])
exit(status)
