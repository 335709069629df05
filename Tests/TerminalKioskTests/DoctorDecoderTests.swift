import KioskConfiguration
import TerminalKiosk
import Testing

/// `kiosk doctor` says which decoders the machine has and which the config asks for.
@Suite struct DoctorDecoderTests {
    @Test func doctorListsTheDecoders() throws {
        let checks = KioskDoctor.checkDecoders(KioskConfig())
        #expect(checks.count == 1 && checks[0].status == .ok)
        #expect(checks[0].detail.contains("zbar 0.") && checks[0].detail.contains("zxing 1."), "\(checks[0].detail)")
        var only = KioskConfig()
        only.decoders = ["zbar"]
        #expect(KioskDoctor.checkDecoders(only).first?.status == .warning)
    }
}
