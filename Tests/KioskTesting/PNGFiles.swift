import Scanning

/// PNG test images: the same writer the benchmarks use.
public typealias PNGFiles = PNGWriter
