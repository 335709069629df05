import Foundation
import TransitModel
import TripPlanning

/// `arrive_by` and `wheelchair` of `/api/v1/plan` and the plan page (issue 23).
extension QueryParameters {
    /// The plan's options and the earliest departure it considers: `at` when given; for an arrive-by plan without
    /// it, `PlanOptions.arriveByWindow` before the deadline, or `now` if that is later.
    func planOptions(in timeZone: TimeZone, at: (date: Date, given: Bool), now: Date) throws -> (PlanOptions, Date) {
        var options = PlanOptions()
        if let text = self["arrive_by"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            switch LocalTime.interpret(text, in: timeZone) {
            case .instant(let date): options.arriveBy = date
            case .nonexistent:
                throw Problem.badRequest(
                    "arrive_by: '\(String(text.prefix(40)))' does not exist in \(timeZone.identifier): the clocks skip it when daylight saving time starts"
                )
            case .unreadable:
                throw Problem.badRequest(
                    "arrive_by: cannot read the time '\(String(text.prefix(40)))'; use a local date-time such as 2026-11-25T09:00"
                )
            }
        }
        switch self["wheelchair"]?.lowercased() {
        case nil, "", "false", "0", "no", "off": break
        case "true", "1", "yes", "on": options.stepFree = true
        case let other?:
            throw Problem.badRequest("wheelchair must be true or false (got '\(String(other.prefix(20)))')")
        }
        var earliest = at.date
        if let deadline = options.arriveBy, !at.given {
            earliest = max(deadline.addingTimeInterval(-PlanOptions.arriveByWindow), at.date)
        }
        return (options, earliest)
    }
}
