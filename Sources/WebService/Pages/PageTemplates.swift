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

    /// The phone page of a stop: the departures first (one row per route and destination with its next times),
    /// then alerts, listening, the map, the routes, the way somewhere else and the stops nearby.
    static let stop = """
        {{>head}}
        <h1><bdi{{#fullName}} title="{{fullName}}"{{/fullName}}>{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</h1>
        {{#facts}}<p class="facts"><bdi>{{facts}}</bdi></p>{{/facts}}
        <section aria-labelledby="dep-h"><h2 id="dep-h">{{departuresHeading}}</h2>
        {{#liveNotice}}<p class="notice">{{liveNotice}}</p>{{/liveNotice}}
        {{#serviceNotice}}<div class="warning" role="note"><p><strong>{{serviceNotice}}</strong></p>{{#serviceNoticeDetail}}<p>{{serviceNoticeDetail}}</p>{{/serviceNoticeDetail}}</div>{{/serviceNotice}}
        {{#has_groups}}
        <table class="departures groups"><tbody>
        {{#groups}}<tr><td class="route">{{#href}}<a class="route-link" href="{{href}}" aria-label="{{linkLabel}}">{{/href}}<bdi class="badge {{colourClass}}">{{label}}</bdi>{{#href}}</a>{{/href}}</td><td class="headsign"><bdi class="destination">{{destination}}</bdi>{{#extra}}<span class="detail">{{extra}}</span>{{/extra}}{{#live}}<span class="live">{{live}}</span>{{/live}}</td><td class="times">{{#times}}<span class="t{{#canceled}} canceled{{/canceled}}"><strong>{{due}}</strong> <span class="clock">{{clock}}</span></span>{{/times}}</td></tr>
        {{/groups}}
        </tbody></table>
        {{/has_groups}}
        {{#emptyNote}}<p>{{emptyNote}}</p>{{/emptyNote}}
        {{#nextNote}}<p><bdi>{{nextNote}}</bdi></p>{{/nextNote}}
        <p class="links"><a href="{{timetableHref}}">{{timetableLabel}}</a> · <a href="{{weekTimetableHref}}">{{weekTimetableLabel}}</a></p>
        </section>
        {{#has_alerts}}<section class="alerts" aria-labelledby="alerts-h"><h2 id="alerts-h">{{alertsHeading}}</h2><ul>{{#alerts}}<li>⚠ <bdi>{{header}}</bdi>{{#description}}<bdi class="detail">{{description}}</bdi>{{/description}}</li>{{/alerts}}{{#moreAlerts}}<li>… {{moreAlerts}}</li>{{/moreAlerts}}</ul></section>{{/has_alerts}}
        {{^serviceNotice}}<p class="listen"><span id="listen-l">{{listenLabel}}</span><br><audio controls preload="none" src="{{speechHref}}" aria-labelledby="listen-l"></audio></p>{{/serviceNotice}}
        {{#map}}<figure class="map"><img src="{{href}}" alt="{{alt}}"></figure>{{/map}}
        {{#has_routes}}
        <section aria-labelledby="routes-h"><h2 id="routes-h">{{routesHeading}}</h2>
        <ul class="routes">
        {{#routes}}<li>{{#href}}<a class="route-link" href="{{href}}" aria-label="{{linkLabel}}">{{/href}}<bdi class="badge {{colourClass}}">{{label}}</bdi>{{#href}}</a>{{/href}} <span class="mode">{{mode}}</span>{{#towards}} → <bdi>{{towards}}</bdi>{{/towards}}{{#timetableHref}} · <a class="tt-link" href="{{timetableHref}}" aria-label="{{timetableLabel}}">{{timetableWord}}</a>{{/timetableHref}}</li>
        {{/routes}}
        </ul>
        {{#has_diagrams}}<details class="diagrams"><summary>{{diagramsHeading}}</summary>
        {{#routes}}{{#diagrams}}<figure class="diagram"><img loading="lazy" src="{{href}}" alt="{{alt}}"></figure>
        {{/diagrams}}{{/routes}}</details>{{/has_diagrams}}
        </section>
        {{/has_routes}}
        {{#has_spans}}
        <section aria-labelledby="span-h"><h2 id="span-h">{{spansHeading}}</h2>
        <table class="spans"><tbody>
        {{#spans}}<tr><td>{{#href}}<a class="route-link" href="{{href}}" aria-label="{{linkLabel}}">{{/href}}<bdi class="badge {{colourClass}}">{{label}}</bdi>{{#href}}</a>{{/href}}</td><td><bdi>{{towards}}</bdi></td><td class="time">{{first}} – {{last}}</td></tr>
        {{/spans}}
        </tbody></table></section>
        {{/has_spans}}
        <section aria-labelledby="plan-h"><h2 id="plan-h">{{whereTo}}</h2>
        <form class="plan" action="/plan" method="get">
        <input type="hidden" name="from" value="{{stopID}}">
        <input type="hidden" name="lang" value="{{page.language}}">
        <label for="to">{{toLabel}}</label>
        <div class="row"><input id="to" name="to" type="search" required maxlength="200">
        <button type="submit">{{planLabel}}</button></div>
        </form></section>
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

    /// The plan page: the form, a list to choose from for a name that matches several stops, and each option as a
    /// timeline whose stops carry the numbers of the journey map under it.
    static let plan = """
        {{>head}}
        <h1>{{heading}}</h1>
        <form class="plan" action="/plan" method="get">
        <input type="hidden" name="lang" value="{{page.language}}">
        <label for="from">{{fromLabel}}</label><input id="from" name="from" type="search" value="{{from}}" required maxlength="200">
        <label for="to">{{toLabel}}</label><input id="to" name="to" type="search" value="{{to}}" required maxlength="200">
        <label for="at" id="when-l">{{whenLabel}}</label><input id="at" name="at" type="datetime-local" value="{{at}}">
        <div class="choices" role="radiogroup" aria-labelledby="when-l">
        <label class="choice"><input type="radio" name="when" value="leave"{{^arriving}} checked{{/arriving}}><span>{{leaveLabel}}</span></label>
        <label class="choice"><input type="radio" name="when" value="arrive"{{#arriving}} checked{{/arriving}}><span>{{arriveLabel}}</span></label>
        </div>
        <label class="choice"><input type="checkbox" name="wheelchair" value="true"{{#wheelchair}} checked{{/wheelchair}}><span>{{wheelchairLabel}}</span></label>
        <button type="submit">{{planLabel}}</button>
        </form>
        {{#problem}}<p class="warning" role="alert">{{problem}}</p>{{/problem}}
        {{#choices}}
        <section class="place-choice"><h2>{{heading}}</h2><p>{{detail}}</p>
        <ul class="stops">
        {{#candidates}}<li><a href="{{href}}"><bdi class="name">{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</a>{{#station}}<bdi class="detail">{{station}}</bdi>{{/station}}<span class="badges">{{#routes}}<bdi class="badge {{colourClass}}">{{label}}</bdi> {{/routes}}</span></li>
        {{/candidates}}
        </ul></section>
        {{/choices}}
        {{#result}}
        <h2><bdi>{{title}}</bdi></h2>
        <p class="facts">{{leaving}}</p>
        {{#notes}}<p class="notice">{{.}}</p>{{/notes}}
        {{#options}}\(planOption){{/options}}
        {{#none}}<p>{{none}}</p>{{/none}}
        {{#ordinaryHeading}}<h2>{{ordinaryHeading}}</h2>{{/ordinaryHeading}}
        {{#ordinary}}\(planOption){{/ordinary}}
        {{/result}}
        {{>foot}}
        """

    /// One option of a plan: its summary, the timeline, the map.
    static let planOption = """
        <section class="option"><h3>{{summary}}</h3>
        <p class="span">{{span}}</p>
        <ol class="timeline">
        {{#rows}}{{#stop}}<li class="tl-stop"><span class="tl-time">{{#times}}<span>{{.}}</span>{{/times}}</span><span class="tl-mark">{{#numbers}}<span class="num">{{.}}</span>{{/numbers}}{{^numbers}}<span class="dot"></span>{{/numbers}}</span><span class="tl-text"><bdi class="name">{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</span></li>
        {{/stop}}{{#ride}}<li class="tl-ride"><span class="tl-time"></span><span class="tl-mark"><span class="rail {{colourClass}}"></span></span><span class="tl-text">{{#href}}<a class="route-link" href="{{href}}" aria-label="{{linkLabel}}">{{/href}}<bdi class="badge {{colourClass}}">{{label}}</bdi>{{#href}}</a>{{/href}} → <bdi class="destination">{{destination}}</bdi><span class="detail">{{detail}}</span>{{#live}}<span class="live">{{live}}</span>{{/live}}</span></li>
        {{/ride}}{{#walk}}<li class="tl-walk"><span class="tl-time"></span><span class="tl-mark"><span class="rail walk"></span></span><span class="tl-text">{{text}}</span></li>
        {{/walk}}{{/rows}}
        </ol>
        {{#map}}<figure class="map"><img loading="lazy" src="{{href}}" alt="{{alt}}"></figure>{{/map}}
        </section>

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

    /// The `/kiosk` board for one stop (`KioskBoard`): a fragment the page puts in place. One row per route and
    /// destination with its next times; the page's script pages the rows and the alert line.
    static let board = """
        <header class="board-head">
        <div class="board-title"><h1><bdi{{#fullName}} title="{{fullName}}"{{/fullName}}>{{name}}</bdi>{{#code}} <bdi class="code">{{code}}</bdi>{{/code}}</h1>
        <p class="board-source"><span class="source{{#sourceLive}} is-live{{/sourceLive}}">{{source}}</span>{{#facts}} · <bdi>{{facts}}</bdi>{{/facts}}</p></div>
        <p class="pager" aria-live="off" data-words="{{pageWords}}"></p>
        {{#clock}}<p class="clock" aria-live="off" data-now="{{nowMillis}}" data-offset="{{offsetSeconds}}" data-hours="{{hours}}" data-am="{{am}}" data-pm="{{pm}}">{{text}}</p>{{/clock}}
        </header>
        {{#liveNotice}}<p class="board-notice">{{liveNotice}}</p>{{/liveNotice}}
        {{#has_alerts}}<div class="alert-line" role="note" aria-label="{{alertsHeading}}" aria-live="off">{{#alerts}}<p class="alert">⚠ {{#count}}<span class="alert-count">{{count}}</span> {{/count}}<bdi class="alert-text">{{header}}</bdi></p>{{/alerts}}</div>{{/has_alerts}}
        {{#serviceNotice}}<div class="warning board-notice" role="note"><p><strong>{{serviceNotice}}</strong></p>{{#serviceNoticeDetail}}<p>{{serviceNoticeDetail}}</p>{{/serviceNoticeDetail}}</div>{{/serviceNotice}}
        {{#has_rows}}<div class="rows"><ul class="groups" aria-label="{{departuresHeading}}">
        {{#rows}}<li class="group"><span class="route"><bdi class="badge {{colourClass}}">{{label}}</bdi></span><span class="dest"><bdi>{{destination}}</bdi>{{#extra}} <span class="extra">{{extra}}</span>{{/extra}}</span><span class="times">{{#times}}{{#separator}}<span class="sep">{{separator}}</span>{{/separator}}<span class="t{{#live}} t-live{{/live}}{{#canceled}} t-canceled{{/canceled}}" title="{{title}}">{{#mark}}<span class="mark">{{mark}}</span>{{/mark}}{{text}}{{#unit}} <span class="unit">{{unit}}</span>{{/unit}}</span>{{/times}}</span></li>
        {{/rows}}
        </ul></div>{{/has_rows}}
        {{#emptyNote}}<div class="board-empty"><p>{{emptyNote}}</p>{{#nextNote}}<p><bdi>{{nextNote}}</bdi></p>{{/nextNote}}</div>{{/emptyNote}}

        """

    /// Severe messages for the stop on screen, the kiosk's own stop or every kiosk, at the top of the `/kiosk`
    /// board (see `KioskRoutes.takeover`); shown there once, not again among the board's alerts.
    static let takeover = """
        <section class="takeover" role="alert" data-messages="{{count}}"><h2>{{heading}}</h2>{{#messages}}<p{{#say}} data-say="{{say}}"{{/say}}><strong><bdi>{{header}}</bdi></strong>{{#description}}<br><bdi>{{description}}</bdi>{{/description}}{{#until}}<br><span class="until">{{until}}</span>{{/until}}</p>{{/messages}}</section>

        """

    /// The kiosk's home screen without a stop: the clock and the scan prompt.
    static let prompt = """
        <header class="board-head">
        <div class="board-title"><h1>StopKiosk</h1></div>
        {{#clock}}<p class="clock" aria-live="off" data-now="{{nowMillis}}" data-offset="{{offsetSeconds}}" data-hours="{{hours}}" data-am="{{am}}" data-pm="{{pm}}">{{text}}</p>{{/clock}}
        </header>
        <div class="prompt"><h2>{{heading}}</h2>
        <p class="facts">{{detail}}</p></div>

        """

    /// Stops matching what was typed on the kiosk's on-screen keyboard: buttons the planner's script chooses from.
    static let kioskStops = """
        {{#has_stops}}<ul class="matches">{{#stops}}<li><button type="button" class="match" dir="auto" data-stop="{{id}}">{{label}}</button></li>{{/stops}}</ul>{{/has_stops}}
        {{^has_stops}}{{#typed}}<p class="no-match">{{noMatches}}</p>{{/typed}}{{/has_stops}}

        """

    /// A plan on the kiosk: the options without maps, one shown at a time by the planner's script.
    static let kioskPlan = """
        <div class="plan-result"><h3><bdi>{{title}}</bdi></h3>
        <p class="leaving">{{leaving}}{{#notes}} · {{.}}{{/notes}}</p>
        {{#options}}<section class="option"><h4>{{summary}}</h4><ol class="legs">{{#legs}}<li>{{#colourClass}}<bdi class="badge {{colourClass}}">{{label}}</bdi> {{/colourClass}}<bdi>{{text}}</bdi></li>{{/legs}}</ol></section>
        {{/options}}
        {{#none}}<p class="none">{{none}}</p>{{/none}}
        {{#problem}}<p class="warning">{{problem}}</p>{{/problem}}
        </div>

        """

    static let kioskExtras = [("kioskStops", kioskStops), ("kioskPlan", kioskPlan)]

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
        <p id="hint" class="hint">{{hint}}</p>
        <div class="actions">
        {{#speech.enabled}}<span class="speech"><button id="speak" type="button" aria-keyshortcuts="{{speech.speakKey}}">{{speech.speakLabel}}</button>
        <button id="volume-down" type="button" aria-label="{{speech.volumeDownLabel}}" aria-keyshortcuts="{{speech.volumeDownKey}}">−</button>
        <button id="volume-up" type="button" aria-label="{{speech.volumeUpLabel}}" aria-keyshortcuts="{{speech.volumeUpKey}}">+</button></span>{{/speech.enabled}}
        <a class="lang button" id="lang" href="{{page.otherLanguageHref}}" lang="{{page.otherLanguage}}">{{page.otherLanguageName}}</a>
        <button id="plan" class="plan-link" type="button" aria-haspopup="dialog">{{planLabel}}</button>
        </div>
        </footer>
        <div id="planner" class="planner" role="dialog" aria-modal="true" aria-labelledby="planner-h" hidden>
        <div class="planner-head"><h2 id="planner-h">{{planLabel}}</h2><p id="planner-from" class="planner-from" data-words="{{planner.fromWords}}"></p>
        <button id="planner-back" type="button" hidden>{{planner.back}}</button>
        <button id="planner-close" type="button">{{planner.close}}</button></div>
        <div id="planner-choose" class="planner-choose">
        <label class="planner-entry" for="planner-q"><span>{{planner.whereTo}}</span> <input id="planner-q" type="text" readonly inputmode="none" autocomplete="off" placeholder="{{planner.typeStopName}}"></label>
        <div id="planner-matches" class="planner-matches" aria-live="polite" aria-label="{{planner.chooseStop}}"></div>
        <div class="keys" role="group" aria-label="{{planner.typeStopName}}">{{#planner.keys}}<button type="button" class="key" data-key="{{.}}">{{.}}</button>{{/planner.keys}}<button type="button" class="key wide" data-key=" ">{{planner.space}}</button><button type="button" class="key wide" data-key="delete">{{planner.delete}}</button></div>
        </div>
        <div id="planner-result" class="planner-result" hidden>
        <div id="planner-plan" aria-live="polite"></div>
        <div class="option-nav"><button id="option-previous" type="button" aria-label="{{planner.previousOption}}">◀</button><span id="option-count" aria-live="off"></span><button id="option-next" type="button" aria-label="{{planner.nextOption}}">▶</button></div>
        </div>
        </div>
        </body>
        </html>

        """
}
