import Mustache

// The browse pages' models answer Mustache by name, as the stop page's do (`PageModels+Mustache.swift`);
// `RoutePageTests` compares every stored property with what `Mirror` sees.

extension RoutePages.RoutesPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "page": page
        case "heading": heading
        case "searchHint": searchHint
        case "searchLabel": searchLabel
        case "query": query
        case "agency": agency
        case "filtered": filtered
        case "allRoutesLabel": allRoutesLabel
        case "allRoutesHref": allRoutesHref
        case "count": count
        case "agencies": agencies
        case "problem": problem
        default: nil
        }
    }
}

extension RoutePages.RoutesPage.Route: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "colourClass": colourClass
        case "label": label
        case "longName": longName
        case "mode": mode
        default: nil
        }
    }
}

extension RoutePages.RoutesPage.Agency: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "href": href
        case "url": url
        case "websiteLabel": websiteLabel
        case "phone": phone
        case "count": count
        case "routes": routes
        default: nil
        }
    }
}

extension RoutePages.RoutePage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "page": page
        case "label": label
        case "longName": longName
        case "colourClass": colourClass
        case "mode": mode
        case "operatorHeading": operatorHeading
        case "agencyName": agencyName
        case "agencyHref": agencyHref
        case "agencyURL": agencyURL
        case "websiteLabel": websiteLabel
        case "phone": phone
        case "notice": notice
        case "viewer": viewer
        case "map": map
        case "stopsHeading": stopsHeading
        case "directions": directions
        case "serviceHeading": serviceHeading
        case "services": services
        case "weekHeading": weekHeading
        case "dayTypes": dayTypes
        case "allRoutesLabel": allRoutesLabel
        case "allRoutesHref": allRoutesHref
        default: nil
        }
    }
}

extension RoutePages.RoutePage.Stop: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "name": self.name
        case "code": code
        case "here": here
        default: nil
        }
    }
}

extension RoutePages.RoutePage.Direction: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "heading": heading
        case "stops": stops
        case "variantsHeading": variantsHeading
        case "variants": variants
        case "has_variants": has_variants
        default: nil
        }
    }
}

extension RoutePages.RoutePage.Headway: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "period": period
        case "span": span
        case "how": how
        default: nil
        }
    }
}

extension RoutePages.RoutePage.Service: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "heading": heading
        case "summary": summary
        case "headways": headways
        case "has_headways": has_headways
        default: nil
        }
    }
}

extension RoutePages.RoutePage.DayType: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "dates": dates
        case "lines": lines
        default: nil
        }
    }
}

extension RoutePages.RouteNotFoundPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "page": page
        case "heading": heading
        case "detail": detail
        case "didYouMean": didYouMean
        case "candidates": candidates
        case "has_candidates": has_candidates
        case "searchHint": searchHint
        case "searchLabel": searchLabel
        case "query": query
        default: nil
        }
    }
}

extension RoutePages.RouteNotFoundPage.Candidate: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "colourClass": colourClass
        case "label": label
        case "longName": longName
        default: nil
        }
    }
}
