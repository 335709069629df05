import Foundation
import Hummingbird
import HummingbirdTesting
import KioskTesting
import Testing
import WebService

/// `/api/v1/plan?arrive_by=&wheelchair=` (issue 23): the same plans `kiosk plan --arrive-by` and `--wheelchair`
/// print, byte for byte; bad values are 400s naming the parameter.
@Suite struct PlanOptionsAPITests {
    @Test func arriveByAndWheelchairMatchTheCommandLine() async throws {
        let database = TestSupport.sampleDatabase
        let arriveBy = try Programs.runKiosk([
            "plan", "TB-EJIDO-N", "TB-LAY", "--at", "2026-11-25T08:00", "--arrive-by", "2026-11-25T08:30", "--json",
            "--db", database,
        ])
        #expect(arriveBy.status == 0, "\(arriveBy.stderr)")
        #expect(arriveBy.stdout.contains("\"arrive_by\" : \"2026-11-25T08:30:00-05:00\""))
        let stepFree = try Programs.runKiosk([
            "plan", "0704", "0702", "--at", "2026-11-25T08:00", "--wheelchair", "--json", "--db", database,
        ])
        #expect(stepFree.status == 0, "\(stepFree.stderr)")
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(
                uri: "/api/v1/plan?from=TB-EJIDO-N&to=TB-LAY&at=2026-11-25T08:00&arrive_by=2026-11-25T08:30",
                method: .get
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == arriveBy.stdout)
            }
            try await client.execute(
                uri: "/api/v1/plan?from=0704&to=0702&at=2026-11-25T08:00&wheelchair=true", method: .get
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == stepFree.stdout)
            }
            for (uri, message) in [
                ("/api/v1/plan?from=1091&to=1011&arrive_by=tomorrow", "arrive_by: cannot read the time"),
                ("/api/v1/plan?from=1091&to=1011&wheelchair=maybe", "wheelchair must be true or false"),
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains(message), "\(String(buffer: response.body))")
                }
            }
        }
    }

    /// The plan page's leave-at / arrive-by choice and step-free box.
    @Test func thePlanPageArrivesByAndPlansStepFree() async throws {
        try await TestSupport.withRouter(try TestSupport.service()) { client in
            try await client.execute(
                uri: "/plan?from=TB-EJIDO-N&to=TB-LAY&at=2026-11-25T08%3A30&when=arrive&lang=en", method: .get
            ) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("Arriving by 2026-11-25 08:30"), "\(page)")
                #expect(page.contains("08:11 → 08:29"), "\(page)")
                #expect(page.contains("value=\"arrive\" checked"), "\(page)")
            }
            try await client.execute(
                uri: "/plan?from=0704&to=0702&at=2026-11-25T08%3A00&wheelchair=true&lang=en", method: .get
            ) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("No step-free journey found."), "\(page)")
                #expect(page.contains("Walks are not known to be step-free."), "\(page)")
                #expect(page.contains("Journeys that are not known to be step-free:"), "\(page)")
                #expect(page.contains("name=\"wheelchair\" value=\"true\" checked"), "\(page)")
            }
        }
    }
}
