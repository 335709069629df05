import Mustache

// swift-mustache looks up a name through `MustacheParent` when the model offers it, else through `Mirror`, which
// walks the type's field metadata on every lookup. A stop page makes a few thousand lookups, so the models it
// renders answer by name directly: the same values under the same names (`PageModelTests` compares every stored
// property with what `Mirror` sees, so a field added without its name here fails a test).

extension PageRenderer.Frame: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "language": language
        case "title": title
        case "brand": brand
        case "otherLanguage": otherLanguage
        case "otherLanguageName": otherLanguageName
        case "otherLanguageHref": otherLanguageHref
        case "feedTag": feedTag
        case "searchHint": searchHint
        case "searchLabel": searchLabel
        case "query": query
        default: nil
        }
    }
}

extension PageRoutes.StopPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "page": page
        case "name": self.name
        case "fullName": fullName
        case "code": code
        case "stopID": stopID
        case "facts": facts
        case "routesHeading": routesHeading
        case "routes": routes
        case "diagramsHeading": diagramsHeading
        case "map": map
        case "speechHref": speechHref
        case "listenLabel": listenLabel
        case "departuresHeading": departuresHeading
        case "departures": departures
        case "groups": groups
        case "timetableHref": timetableHref
        case "timetableLabel": timetableLabel
        case "weekTimetableHref": weekTimetableHref
        case "weekTimetableLabel": weekTimetableLabel
        case "has_groups": has_groups
        case "liveNotice": liveNotice
        case "serviceNotice": serviceNotice
        case "serviceNoticeDetail": serviceNoticeDetail
        case "alertsHeading": alertsHeading
        case "alerts": alerts
        case "moreAlerts": moreAlerts
        case "emptyNote": emptyNote
        case "nextNote": nextNote
        case "whereTo": whereTo
        case "toLabel": toLabel
        case "planLabel": planLabel
        case "spansHeading": spansHeading
        case "spans": spans
        case "nearbyHeading": nearbyHeading
        case "nearby": nearby
        case "noNearby": noNearby
        case "updated": updated
        case "has_routes": has_routes
        case "has_diagrams": has_diagrams
        case "has_departures": has_departures
        case "has_alerts": has_alerts
        case "has_spans": has_spans
        case "has_nearby": has_nearby
        default: nil
        }
    }
}

extension PageRoutes.StopPage.Route: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "colourClass": colourClass
        case "label": label
        case "href": href
        case "linkLabel": linkLabel
        case "mode": mode
        case "towards": towards
        case "diagrams": diagrams
        case "timetableHref": timetableHref
        case "timetableWord": timetableWord
        case "timetableLabel": timetableLabel
        default: nil
        }
    }
}

extension PageRoutes.StopPage.Picture: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "alt": alt
        default: nil
        }
    }
}

extension PageRoutes.StopPage.Departure: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "clock": clock
        case "colourClass": colourClass
        case "label": label
        case "href": href
        case "linkLabel": linkLabel
        case "headsign": headsign
        case "extra": extra
        case "due": due
        case "live": live
        case "canceled": canceled
        default: nil
        }
    }
}

extension PageRoutes.StopPage.Span: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "colourClass": colourClass
        case "label": label
        case "href": href
        case "linkLabel": linkLabel
        case "towards": towards
        case "first": first
        case "last": last
        default: nil
        }
    }
}

extension PageRoutes.StopPage.Near: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "name": self.name
        case "code": code
        case "distance": distance
        case "routes": routes
        default: nil
        }
    }
}

extension PageRoutes.StopPage.Alert: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "header": header
        case "description": description
        default: nil
        }
    }
}

extension PageRoutes.StopPage.Group: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "colourClass": colourClass
        case "label": label
        case "href": href
        case "linkLabel": linkLabel
        case "destination": destination
        case "extra": extra
        case "live": live
        case "times": times
        default: nil
        }
    }
}

extension PageRoutes.StopPage.Time: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "due": due
        case "clock": clock
        case "canceled": canceled
        default: nil
        }
    }
}
