/// Stop QR labels for staff: layout, QR matrix, PDF/SVG/PNG output, decode-back verification.
public enum Labels {}
