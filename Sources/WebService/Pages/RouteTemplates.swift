/// The browse pages' templates (`/routes`, `/r/{route}`, an unknown route), with the head, foot and stylesheet
/// of every page. As in `PageTemplates`: every `{{value}}` is HTML-escaped, no inline script or style; route badges
/// take their colours from `/routes.css`.
extension PageTemplates {
    /// Registered by `PageRenderer` beside the others.
    static let browse: [(String, String)] = [
        ("routes", routes), ("route", route), ("routeNotFound", routeNotFound), ("routeSearchForm", routeSearchForm),
    ]

    static let routeSearchForm = """
        <form class="search" action="/routes" method="get" role="search">
        <label for="rq">{{searchHint}}</label>
        <div class="row"><input id="rq" name="q" type="search" value="{{query}}" maxlength="200">
        <input type="hidden" name="lang" value="{{page.language}}">
        <button type="submit">{{searchLabel}}</button></div>
        </form>

        """

    static let routes = """
        {{>head}}
        <h1>{{heading}}</h1>
        {{>routeSearchForm}}
        {{#problem}}<p class="warning" role="alert">{{problem}}</p>{{/problem}}
        <p class="count">{{count}}{{#filtered}} · <a href="{{allRoutesHref}}">{{allRoutesLabel}}</a>{{/filtered}}</p>
        {{#agencies}}
        <section class="agency"><h2><a href="{{href}}"><bdi>{{name}}</bdi></a> <span class="detail count-inline">{{count}}</span></h2>
        {{#url}}<p class="contact"><a href="{{url}}" rel="noopener noreferrer">{{websiteLabel}}</a>{{#phone}} · <bdi>{{phone}}</bdi>{{/phone}}</p>{{/url}}
        {{^url}}{{#phone}}<p class="contact"><bdi>{{phone}}</bdi></p>{{/phone}}{{/url}}
        <ul class="routes browse">
        {{#routes}}<li><a href="{{href}}"><bdi class="badge {{colourClass}}">{{label}}</bdi>{{#longName}} <bdi class="name">{{longName}}</bdi>{{/longName}}</a> <span class="mode">{{mode}}</span></li>
        {{/routes}}
        </ul></section>
        {{/agencies}}
        {{>foot}}
        """

    static let route = """
        {{>head}}
        <h1><bdi class="badge {{colourClass}}">{{label}}</bdi>{{#longName}} <bdi>{{longName}}</bdi>{{/longName}}</h1>
        <p class="facts">{{mode}} · {{operatorHeading}}: <a href="{{agencyHref}}"><bdi>{{agencyName}}</bdi></a>{{#agencyURL}} · <a href="{{agencyURL}}" rel="noopener noreferrer">{{websiteLabel}}</a>{{/agencyURL}}{{#phone}} · <bdi>{{phone}}</bdi>{{/phone}}</p>
        {{#notice}}<div class="warning" role="note"><p><strong>{{notice}}</strong></p></div>{{/notice}}
        {{#viewer}}<p class="viewer"><strong><bdi>{{viewer}}</bdi></strong></p>{{/viewer}}
        {{#map}}<figure class="map"><img src="{{href}}" alt="{{alt}}" aria-describedby="stops-h"></figure>{{/map}}
        <section aria-labelledby="stops-h"><h2 id="stops-h">{{stopsHeading}}</h2>
        {{#directions}}<h3><bdi>{{heading}}</bdi></h3>
        <ol class="route-stops">
        {{#stops}}<li{{#here}} class="here"{{/here}}><a href="{{href}}"><bdi class="name">{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</a>{{#here}} <strong>◀ {{here}}</strong>{{/here}}</li>
        {{/stops}}
        </ol>
        {{#has_variants}}<p class="detail"><strong>{{variantsHeading}}</strong></p><ul class="variants">{{#variants}}<li><bdi>{{.}}</bdi></li>{{/variants}}</ul>{{/has_variants}}
        {{/directions}}
        </section>
        <section aria-labelledby="service-h"><h2 id="service-h">{{serviceHeading}}</h2>
        {{#services}}<h3><bdi>{{heading}}</bdi></h3><p>{{summary}}</p>
        {{#has_headways}}<table class="headways"><tbody>
        {{#headways}}<tr><th scope="row">{{period}}</th><td class="time">{{span}}</td><td>{{how}}</td></tr>
        {{/headways}}
        </tbody></table>{{/has_headways}}
        {{/services}}
        </section>
        <section aria-labelledby="week-h"><h2 id="week-h">{{weekHeading}}</h2>
        <table class="daytypes"><tbody>
        {{#dayTypes}}<tr><th scope="row">{{label}}<span class="detail">{{dates}}</span></th><td>{{#lines}}<bdi>{{.}}</bdi><br>{{/lines}}</td></tr>
        {{/dayTypes}}
        </tbody></table>
        </section>
        <p><a href="{{allRoutesHref}}">{{allRoutesLabel}}</a></p>
        {{>foot}}
        """

    static let routeNotFound = """
        {{>head}}
        <div class="notice" role="alert">
        <h1>{{heading}}</h1>
        <p>{{detail}}</p>
        </div>
        {{#has_candidates}}<h2>{{didYouMean}}</h2>
        <ul class="routes browse">
        {{#candidates}}<li><a href="{{href}}"><bdi class="badge {{colourClass}}">{{label}}</bdi>{{#longName}} <bdi class="name">{{longName}}</bdi>{{/longName}}</a></li>
        {{/candidates}}
        </ul>{{/has_candidates}}
        {{>routeSearchForm}}
        {{>foot}}
        """

    /// Added to the stylesheet: the browse pages' lists and tables, and the links around route badges.
    static let browseCSS = """
        a.route-link{text-decoration:none;display:inline-block;min-height:24px}
        a.route-link:hover .badge,a.route-link:focus-visible .badge{outline:2px solid currentColor;outline-offset:1px}
        ul.routes.browse li a{display:inline-flex;gap:.5rem;align-items:center;min-height:44px;font-weight:600}
        ol.route-stops{padding-left:2.25rem;margin:.25rem 0 1rem}
        ol.route-stops li{padding:.15rem 0}
        ol.route-stops li a{display:inline-block;min-height:32px;padding:.2rem 0}
        ol.route-stops li.here{font-weight:700}
        table.headways th,table.daytypes th{text-align:left;font-weight:600;padding:.45rem .25rem;border-bottom:1px solid #ccc;vertical-align:top}
        .contact,.viewer{margin:.25rem 0}
        h2 .count-inline{display:inline;font-size:.85rem;font-weight:400}

        """
}
