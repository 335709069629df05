/// The phone pages' Mustache templates and the one stylesheet, as Swift constants rather than package resources:
/// the `kiosk` binary then serves its pages wherever it is installed, with no resource bundle to find at run time
/// (on Linux `Bundle.module` looks beside the executable and stops the program when the bundle is missing), and a
/// template that does not parse fails the first test instead of a deployed server. Every `{{value}}` is
/// HTML-escaped by swift-mustache; no template uses `{{{…}}}`, and no page has inline script or style (the CSP
/// forbids both): route colours come from `/routes.css`, generated from the database. `%THEME%` is replaced once,
/// when the renderer is made, by the body classes of the configured `[display]` theme and layout.
enum PageTemplates {
    static let head = """
        <!doctype html>
        <html lang="{{page.language}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{page.title}}</title>
        <link rel="stylesheet" href="/style.css">
        <link rel="stylesheet" href="/routes.css?v={{page.feedTag}}">
        </head>
        <body class="%THEME%">
        <header class="bar">
        <a class="home" href="/?lang={{page.language}}">{{page.brand}}</a>
        <a class="lang" href="{{page.otherLanguageHref}}" lang="{{page.otherLanguage}}">{{page.otherLanguageName}}</a>
        </header>
        <main>

        """

    static let foot = """
        </main>
        </body>
        </html>

        """

    static let searchForm = """
        <form class="search" action="/" method="get" role="search">
        <label for="q">{{page.searchHint}}</label>
        <div class="row"><input id="q" name="q" type="search" value="{{page.query}}" maxlength="200">
        <input type="hidden" name="lang" value="{{page.language}}">
        <button type="submit">{{page.searchLabel}}</button></div>
        </form>

        """

    static let search = """
        {{>head}}
        <h1>{{heading}}</h1>
        {{>searchForm}}
        {{#searched}}
        <p class="count">{{resultCount}}</p>
        {{#results}}
        <ul class="stops">
        {{#stops}}<li><a href="{{href}}"><bdi class="name">{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</a>{{#detail}}<bdi class="detail">{{detail}}</bdi>{{/detail}}</li>
        {{/stops}}
        </ul>
        {{/results}}
        {{^results}}<p>{{noMatches}}</p>{{/results}}
        {{/searched}}
        {{>foot}}
        """

    static let stop = """
        {{>head}}
        <h1><bdi{{#fullName}} title="{{fullName}}"{{/fullName}}>{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</h1>
        {{#facts}}<p class="facts"><bdi>{{facts}}</bdi></p>{{/facts}}
        {{^serviceNotice}}<p class="listen"><span id="listen-l">{{listenLabel}}</span><br><audio controls preload="none" src="{{speechHref}}" aria-labelledby="listen-l"></audio></p>{{/serviceNotice}}
        {{#has_routes}}
        <section aria-labelledby="routes-h"><h2 id="routes-h">{{routesHeading}}</h2>
        <ul class="routes">
        {{#routes}}<li>{{#href}}<a class="route-link" href="{{href}}" aria-label="{{linkLabel}}">{{/href}}<bdi class="badge {{colourClass}}">{{label}}</bdi>{{#href}}</a>{{/href}} <span class="mode">{{mode}}</span> → <bdi>{{towards}}</bdi></li>
        {{/routes}}
        </ul>
        {{#has_diagrams}}<details class="diagrams"><summary>{{diagramsHeading}}</summary>
        {{#routes}}{{#diagrams}}<figure class="diagram"><img loading="lazy" src="{{href}}" alt="{{alt}}"></figure>
        {{/diagrams}}{{/routes}}</details>{{/has_diagrams}}
        </section>
        {{/has_routes}}
        <section aria-labelledby="dep-h"><h2 id="dep-h">{{departuresHeading}}</h2>
        {{>departureBoard}}
        </section>
        {{#map}}<figure class="map"><img src="{{href}}" alt="{{alt}}"></figure>{{/map}}
        <section aria-labelledby="plan-h"><h2 id="plan-h">{{whereTo}}</h2>
        <form class="plan" action="/plan" method="get">
        <input type="hidden" name="from" value="{{stopID}}">
        <input type="hidden" name="lang" value="{{page.language}}">
        <label for="to">{{toLabel}}</label>
        <div class="row"><input id="to" name="to" type="search" required maxlength="200">
        <button type="submit">{{planLabel}}</button></div>
        </form></section>
        {{#has_spans}}
        <section aria-labelledby="span-h"><h2 id="span-h">{{spansHeading}}</h2>
        <table class="spans"><tbody>
        {{#spans}}<tr><td>{{#href}}<a class="route-link" href="{{href}}" aria-label="{{linkLabel}}">{{/href}}<bdi class="badge {{colourClass}}">{{label}}</bdi>{{#href}}</a>{{/href}}</td><td><bdi>{{towards}}</bdi></td><td class="time">{{first}} – {{last}}</td></tr>
        {{/spans}}
        </tbody></table></section>
        {{/has_spans}}
        <section aria-labelledby="near-h"><h2 id="near-h">{{nearbyHeading}}</h2>
        {{#has_nearby}}
        <ul class="stops">
        {{#nearby}}<li><a href="{{href}}"><bdi class="name">{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</a><span class="detail">{{distance}} · <bdi>{{routes}}</bdi></span></li>
        {{/nearby}}
        </ul>
        {{/has_nearby}}
        {{^has_nearby}}<p>{{noNearby}}</p>{{/has_nearby}}
        </section>
        <p class="updated">{{updated}}</p>
        {{>foot}}
        """

    static let plan = """
        {{>head}}
        <h1>{{heading}}</h1>
        <form class="plan" action="/plan" method="get">
        <input type="hidden" name="lang" value="{{page.language}}">
        <label for="from">{{fromLabel}}</label><input id="from" name="from" type="search" value="{{from}}" required maxlength="200">
        <label for="to">{{toLabel}}</label><input id="to" name="to" type="search" value="{{to}}" required maxlength="200">
        <label for="at">{{whenLabel}}</label><input id="at" name="at" type="datetime-local" value="{{at}}">
        <fieldset class="when"><legend>{{whenLabel}}</legend>
        <label><input type="radio" name="when" value="leave"{{^arriving}} checked{{/arriving}}> {{leaveLabel}}</label>
        <label><input type="radio" name="when" value="arrive"{{#arriving}} checked{{/arriving}}> {{arriveLabel}}</label>
        </fieldset>
        <label class="check"><input type="checkbox" name="wheelchair" value="true"{{#wheelchair}} checked{{/wheelchair}}> {{wheelchairLabel}}</label>
        <button type="submit">{{planLabel}}</button>
        </form>
        {{#problem}}<p class="warning" role="alert">{{problem}}</p>{{/problem}}
        {{#result}}
        <h2><bdi>{{title}}</bdi></h2>
        <p class="facts">{{leaving}}</p>
        {{#notes}}<p class="notice">{{.}}</p>{{/notes}}
        {{#options}}
        <section class="option"><h3>{{summary}}</h3>
        <ol class="legs">{{#legs}}<li>{{#colourClass}}{{#href}}<a class="route-link" href="{{href}}" aria-label="{{linkLabel}}">{{/href}}<bdi class="badge {{colourClass}}">{{label}}</bdi>{{#href}}</a>{{/href}} {{/colourClass}}<bdi>{{text}}</bdi></li>{{/legs}}</ol>
        <figure class="map">{{#map}}<img loading="lazy" src="{{href}}" alt="{{alt}}">{{/map}}
        {{#has_points}}<figcaption><ol class="points">{{#points}}<li><bdi>{{.}}</bdi></li>{{/points}}</ol></figcaption>{{/has_points}}</figure>
        </section>
        {{/options}}
        {{#none}}<p>{{none}}</p>{{/none}}
        {{#ordinaryHeading}}<h3>{{ordinaryHeading}}</h3>{{/ordinaryHeading}}
        {{#ordinary}}
        <section class="option"><h3>{{summary}}</h3>
        <ol class="legs">{{#legs}}<li>{{#colourClass}}<bdi class="badge {{colourClass}}">{{label}}</bdi> {{/colourClass}}<bdi>{{text}}</bdi></li>{{/legs}}</ol>
        </section>
        {{/ordinary}}
        {{/result}}
        {{>foot}}
        """

    static let message = """
        {{>head}}
        <div class="{{kind}}" role="alert">
        <h1>{{heading}}</h1>
        {{#detail}}<p>{{detail}}</p>{{/detail}}
        </div>
        {{#showSearch}}{{>searchForm}}{{/showSearch}}
        <p><a href="/?lang={{page.language}}">{{backHome}}</a></p>
        {{>foot}}
        """

    /// Alerts, the live notice and the departures: the same on the phone page and the `/kiosk` board.
    static let departureBoard = """
        {{#has_alerts}}<div class="alerts" role="note"><p><strong>{{alertsHeading}}</strong></p><ul>{{#alerts}}<li>⚠ <bdi>{{header}}</bdi>{{#description}}<br><bdi class="detail">{{description}}</bdi>{{/description}}</li>{{/alerts}}{{#moreAlerts}}<li>… {{moreAlerts}}</li>{{/moreAlerts}}</ul></div>{{/has_alerts}}
        {{#liveNotice}}<p class="notice">{{liveNotice}}</p>{{/liveNotice}}
        {{#serviceNotice}}<div class="warning" role="note"><p><strong>{{serviceNotice}}</strong></p>{{#serviceNoticeDetail}}<p>{{serviceNoticeDetail}}</p>{{/serviceNoticeDetail}}</div>{{/serviceNotice}}
        {{#has_departures}}
        <table class="departures"><tbody>
        {{#departures}}<tr{{#canceled}} class="canceled"{{/canceled}}><td class="time">{{clock}}</td><td>{{#href}}<a class="route-link" href="{{href}}" aria-label="{{linkLabel}}">{{/href}}<bdi class="badge {{colourClass}}">{{label}}</bdi>{{#href}}</a>{{/href}}</td><td class="headsign"><bdi>{{headsign}}</bdi>{{#extra}} <span class="detail">{{extra}}</span>{{/extra}}{{#live}} <span class="live">{{live}}</span>{{/live}}</td><td class="due">{{due}}</td></tr>
        {{/departures}}
        </tbody></table>
        {{/has_departures}}
        {{#emptyNote}}<p>{{emptyNote}}</p>{{/emptyNote}}
        {{#nextNote}}<p><bdi>{{nextNote}}</bdi></p>{{/nextNote}}
        """

    /// The `/kiosk` board for one stop: a fragment the page puts in place (the phone page's model).
    static let board = """
        <h1><bdi{{#fullName}} title="{{fullName}}"{{/fullName}}>{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</h1>
        {{#facts}}<p class="facts"><bdi>{{facts}}</bdi></p>{{/facts}}
        {{#map}}<figure class="map"><img src="{{href}}" alt="{{alt}}"></figure>{{/map}}
        <h2>{{departuresHeading}}</h2>
        {{>departureBoard}}
        <p class="updated">{{updated}}</p>

        """

    /// Severe messages for the stop on screen, the kiosk's own stop or every kiosk, at the top of the `/kiosk`
    /// board (see `KioskRoutes.takeover`).
    static let takeover = """
        <section class="takeover" role="alert" data-messages="{{count}}"><h2>{{heading}}</h2>{{#messages}}<p{{#say}} data-say="{{say}}"{{/say}}><strong><bdi>{{header}}</bdi></strong>{{#description}}<br><bdi>{{description}}</bdi>{{/description}}{{#until}}<br><span class="until">{{until}}</span>{{/until}}</p>{{/messages}}</section>

        """

    static let prompt = """
        <h1>{{heading}}</h1>
        <p class="facts">{{detail}}</p>

        """

    static let kiosk = """
        <!doctype html>
        <html lang="{{page.language}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{page.title}}</title>
        <link rel="stylesheet" href="/style.css">
        <link rel="stylesheet" href="/routes.css?v={{page.feedTag}}">
        <script src="/kiosk.js" defer></script>
        </head>
        <body class="kiosk %THEME%" data-home="{{home}}" data-idle="{{idleSeconds}}" data-language="{{page.language}}" data-unavailable="{{unavailable}}" data-reconnecting="{{reconnecting}}" data-speech="{{speech.enabled}}" data-auto-speak="{{speech.autoSpeak}}" data-quiet="{{speech.quietHours}}" data-quiet-volume="{{speech.quietVolumePercent}}" data-speak-key="{{speech.speakKey}}" data-more-key="{{speech.moreKey}}" data-volume-down-key="{{speech.volumeDownKey}}" data-volume-up-key="{{speech.volumeUpKey}}" data-volume-step="{{speech.volumeStep}}">
        <main id="board" aria-live="polite">
        <p class="status">{{loading}}</p>
        </main>
        <footer class="kiosk-bar">
        <span id="hint">{{hint}}</span>
        {{#speech.enabled}}<span class="speech"><button id="speak" type="button" aria-keyshortcuts="{{speech.speakKey}}">{{speech.speakLabel}}</button>
        <button id="volume-down" type="button" aria-label="{{speech.volumeDownLabel}}" aria-keyshortcuts="{{speech.volumeDownKey}}">−</button>
        <button id="volume-up" type="button" aria-label="{{speech.volumeUpLabel}}" aria-keyshortcuts="{{speech.volumeUpKey}}">+</button></span>{{/speech.enabled}}
        <a class="lang" id="lang" href="{{page.otherLanguageHref}}" lang="{{page.otherLanguage}}">{{page.otherLanguageName}}</a>
        <a class="plan-link" href="/plan?from={{homeQuery}}&amp;lang={{page.language}}">{{planLabel}}</a>
        </footer>
        </body>
        </html>

        """
}
