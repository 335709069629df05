import Foundation

/// The words of printed and web timetables, in Spanish and English: day types, footnotes, frequency lines,
/// validity. One place, so the poster and the HTML page say the same thing.
public enum TimetableText {
    /// `HH:MM` of a service-day time; hours past 24 are the next calendar day's (25:10 → 01:10).
    public static func clock(_ seconds: Int) -> String {
        let minutes = seconds / 60
        return String(format: "%02d:%02d", (minutes / 60) % 24, minutes % 60)
    }

    /// The hour row's label: 5 → "05", 25 → "01".
    public static func hour(_ hour: Int) -> String { String(format: "%02d", hour % 24) }

    /// A printed time on `clock`: "15:05", or "3:05p", "12:10a" as US printed timetables write the 12-hour clock
    /// (compact enough for a timetable's columns; the poster's note says what a and p mean).
    public static func clock(_ seconds: Int, _ clock: PassengerLocale.Clock) -> String {
        guard clock == .twelveHour else { return self.clock(seconds) }
        let minutes = seconds / 60, hour = (minutes / 60) % 24
        return "\(hour % 12 == 0 ? 12 : hour % 12):" + String(format: "%02d", minutes % 60) + (hour < 12 ? "a" : "p")
    }

    /// The hour row's label on `clock`: "15", or "3p", "12a" on a 12-hour clock.
    public static func hour(_ hour: Int, _ clock: PassengerLocale.Clock) -> String {
        guard clock == .twelveHour else { return self.hour(hour) }
        let hour = hour % 24
        return "\(hour % 12 == 0 ? 12 : hour % 12)" + (hour < 12 ? "a" : "p")
    }

    /// The widest printed time on `clock`, to size a column of times.
    public static func widestClock(_ clock: PassengerLocale.Clock) -> String {
        clock == .twelveHour ? "12:00p" : "00:00"
    }

    /// What a and p mean, for a poster on a 12-hour clock.
    public static func twelveHourNote(_ language: Language) -> String {
        language == .en ? "a: a.m., p: p.m." : "a: a. m., p: p. m."
    }

    /// A minute entry with its marks: "07", "42a".
    public static func minute(_ entry: TimetableEntry) -> String {
        String(format: "%02d", entry.minute) + entry.marks.joined()
    }

    static let weekdayNames: [Language: [String]] = [
        .en: ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"],
        .es: ["lunes", "martes", "miércoles", "jueves", "viernes", "sábados", "domingos"],
    ]
    static let weekdayShort: [Language: [String]] = [
        .en: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
        .es: ["lun", "mar", "mié", "jue", "vie", "sáb", "dom"],
    ]
    static let singleWeekday: [Language: [String]] = [
        .en: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
        .es: ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
    ]
    static let months: [Language: [String]] = [
        .en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"],
        .es: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
              "noviembre", "diciembre"],
    ]

    static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// "Wednesday 25 November 2026" / "miércoles 25 de noviembre de 2026".
    public static func longDate(_ text: String, _ language: Language) -> String {
        guard let date = ServiceDate(parsing: text) else { return text }
        let weekday = singleWeekday[language]![date.isoWeekday - 1]
        let month = months[language]![date.month - 1]
        switch language {
        case .en: return "\(weekday) \(date.day) \(month) \(date.year)"
        case .es: return "\(weekday) \(date.day) de \(month) de \(date.year)"
        }
    }

    /// "25.11.2026".
    public static func shortDate(_ text: String) -> String {
        guard let date = ServiceDate(parsing: text) else { return text }
        return String(format: "%d.%d.%d", date.day, date.month, date.year)
    }

    /// "25 Dec" / "25 dic".
    static func dayMonth(_ text: String, _ language: Language) -> String {
        guard let date = ServiceDate(parsing: text) else { return text }
        let month = months[language]![date.month - 1]
        return "\(date.day) \(month.prefix(3))"
    }

    /// The column heading: "Mondays to Fridays", "Saturdays", "Sundays and holidays", "Daily", a single date …
    public static func dayType(_ type: DayType, _ language: Language) -> String {
        if let date = type.date { return capitalized(longDate(date, language)) }
        let days = type.weekdays
        let en = language == .en
        let holidays = type.holidays
        switch days {
        case [1, 2, 3, 4, 5, 6, 7]: return en ? "Daily" : "Todos los días"
        case [1, 2, 3, 4, 5]: return en ? "Mondays to Fridays" : "Lunes a viernes"
        case [1, 2, 3, 4, 5, 6]: return en ? "Mondays to Saturdays" : "Lunes a sábado"
        case [6, 7]:
            return holidays
                ? (en ? "Saturdays, Sundays and holidays" : "Sábados, domingos y festivos")
                : (en ? "Saturdays and Sundays" : "Sábados y domingos")
        case [7]: return holidays ? (en ? "Sundays and holidays" : "Domingos y festivos") : (en ? "Sundays" : "Domingos")
        case _ where days.count == 1: return capitalized(weekdayNames[language]![days[0] - 1])
        default: break
        }
        // Runs of consecutive days: "Mon–Thu", "Tue, Thu, Sat".
        var parts: [String] = []
        var index = 0
        let short = weekdayShort[language]!
        while index < days.count {
            var end = index
            while end + 1 < days.count && days[end + 1] == days[end] + 1 { end += 1 }
            parts.append(
                end - index >= 2
                    ? "\(short[days[index] - 1])–\(short[days[end] - 1])"
                    : (index...end).map { short[days[$0] - 1] }.joined(separator: ", "))
            index = end + 1
        }
        var text = capitalized(parts.joined(separator: ", "))
        if holidays { text += en ? " and holidays" : " y festivos" }
        return text
    }

    static func day(_ reference: DayReference, _ language: Language) -> String {
        switch reference {
        case .weekday(let day): return weekdayNames[language]![day - 1]
        case .date(let date): return dayMonth(date, language)
        }
    }

    static func list(_ items: [String], _ language: Language) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + (language == .en ? " and " : " y ") + items.last!
    }

    /// A footnote's text, without its mark.
    public static func footnote(_ kind: TimetableFootnote.Kind, _ language: Language) -> String {
        let en = language == .en
        switch kind {
        case .destination(let stop): return en ? "runs to \(stop) only" : "solo hasta \(stop)"
        case .onlyOn(let days):
            let names = list(days.map { day($0, language) }, language)
            return en ? "only on \(names)" : (days.allSatisfy(isWeekday) ? "solo los \(names)" : "solo el \(names)")
        case .notOn(let days):
            let names = list(days.map { day($0, language) }, language)
            return en ? "not on \(names)" : (days.allSatisfy(isWeekday) ? "excepto los \(names)" : "excepto el \(names)")
        }
    }

    static func isWeekday(_ reference: DayReference) -> Bool {
        if case .weekday = reference { return true }
        return false
    }

    /// "every 10 min from 06:00 to 08:50" / "cada 10 min de 06:00 a 08:50".
    public static func frequency(
        _ band: FrequencyBand, _ language: Language, clock hours: PassengerLocale.Clock = .twentyFourHour
    ) -> String {
        let every = headway(band.headwaySeconds)
        let from = clock(band.first, hours), to = clock(band.last, hours)
        return language == .en ? "every \(every) min from \(from) to \(to)" : "cada \(every) min de \(from) a \(to)"
    }

    /// Whole minutes, else minutes with one decimal ("7.5").
    public static func headway(_ seconds: Int) -> String {
        seconds % 60 == 0 ? String(seconds / 60) : String(format: "%.1f", Double(seconds) / 60)
    }

    /// "every 10 min" / "cada 10 min".
    public static func every(_ seconds: Int, _ language: Language) -> String {
        language == .en ? "every \(headway(seconds)) min" : "cada \(headway(seconds)) min"
    }

    /// "Valid from 25.11.2026 to 31.12.2026", its dates in `dates` (the passenger locale's style: 8/19/2026 on a
    /// US feed) where given.
    public static func validity(
        from: String, until: String, single: Bool, _ language: Language, dates: PassengerLocale.DateStyle? = nil
    ) -> String {
        if single || from == until {
            return language == .en ? "Valid on \(longDate(from, language))" : "Válido el \(longDate(from, language))"
        }
        let short = { (text: String) in
            dates.flatMap { style in ServiceDate(parsing: text).map(style.format) } ?? shortDate(text)
        }
        return language == .en
            ? "Valid from \(short(from)) to \(short(until))"
            : "Válido del \(short(from)) al \(short(until))"
    }

    public static func holidays(_ dates: [String], _ language: Language) -> String {
        let shown = dates.prefix(10).map { dayMonth($0, language) } + (dates.count > 10 ? ["…"] : [])
        return (language == .en ? "Holidays: " : "Festivos: ") + shown.joined(separator: ", ")
    }

    public static func stopCode(_ code: String, _ language: Language) -> String {
        language == .en ? "Stop \(code)" : "Parada \(code)"
    }

    public static func operators(_ names: [String], _ language: Language) -> String {
        (language == .en ? (names.count == 1 ? "Operator: " : "Operators: ") : (names.count == 1 ? "Operador: " : "Operadores: "))
            + names.joined(separator: ", ")
    }

    public static func live(_ url: String, _ language: Language) -> String {
        language == .en ? "Live departures: scan or open \(url)" : "Salidas en tiempo real: escanee o abra \(url)"
    }

    public static func liveHeading(_ language: Language) -> String {
        language == .en ? "Live departures: scan or open" : "Salidas en tiempo real: escanee o abra"
    }

    public static func towards(_ headsign: String, _ language: Language) -> String {
        language == .en ? "to \(headsign)" : "hacia \(headsign)"
    }

    public static func noService(_ language: Language) -> String { language == .en ? "no service" : "sin servicio" }

    public static func page(_ number: Int, of total: Int, _ language: Language) -> String {
        language == .en ? "page \(number) of \(total)" : "página \(number) de \(total)"
    }

    public static func stopHeading(_ language: Language) -> String { language == .en ? "Stop" : "Parada" }

    public static func continued(_ language: Language) -> String { language == .en ? "(continued)" : "(continúa)" }

    public static func stopTimetableTitle(_ language: Language) -> String {
        language == .en ? "Departures from this stop" : "Salidas desde esta parada"
    }

    public static func routeTimetableTitle(_ language: Language) -> String {
        language == .en ? "Route timetable" : "Horario de la línea"
    }

    public static func timepointsNote(_ language: Language) -> String {
        language == .en
            ? "Times at timing points only; other stops are served in between."
            : "Horas solo en los puntos de control; las demás paradas se sirven entre ellos."
    }

    public static func afterMidnightNote(_ language: Language) -> String {
        language == .en
            ? "Times after midnight are listed with the service day they belong to."
            : "Las horas después de medianoche figuran con el día de servicio al que pertenecen."
    }
}
