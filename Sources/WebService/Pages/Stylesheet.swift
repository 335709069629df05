import KioskConfiguration

/// The one stylesheet of the phone pages and `/kiosk`: readable from 320 px wide, large type and high contrast on
/// the kiosk, no colour that carries meaning alone (every badge has its route's name), motion only when the reader
/// has not asked for less. The `[display]` theme and layout of the config apply as body classes
/// (`theme-high-contrast`, `layout-large`); a reader whose system asks for more contrast (`prefers-contrast: more`)
/// gets the high-contrast theme whatever the config says.
enum Stylesheet {
    static func bodyClasses(_ display: DisplaySettings) -> String {
        [
            display.theme == .highContrast ? "theme-high-contrast" : nil,
            display.layout == .large ? "layout-large" : nil,
        ].compactMap { $0 }.joined(separator: " ")
    }

    static let css =
        base + kiosk + PageTemplates.browseCSS + PhoneStylesheet.rules
        + HighContrast.rules(scope: "body.theme-high-contrast")
        + PhoneStylesheet.highContrast(scope: "body.theme-high-contrast")
        + "\n" + "@media (prefers-contrast:more){\n" + HighContrast.rules(scope: "body")
        + PhoneStylesheet.highContrast(scope: "body") + "}\n" + largeLayout

    /// White and yellow on black, black on yellow: every text/background pair is at least 7:1 (WCAG AAA; the
    /// tests check `pairs`). Route badges lose the feed's colours and keep their names.
    enum HighContrast {
        static let black = "#000000", white = "#FFFFFF", yellow = "#FFFF00"
        /// (text, background) of every rule below.
        static let pairs = [(white, black), (yellow, black), (black, yellow)]

        static func rules(scope s: String) -> String {
            """
            \(s){background:\(black);color:\(white)}
            \(s) .bar,\(s) .kiosk-bar{background:\(black);color:\(white);border-bottom:3px solid \(white)}
            \(s) a,\(s) .bar a,\(s) .kiosk-bar a,\(s) summary{color:\(yellow)}
            \(s) .kiosk-bar a,\(s) .kiosk-bar button{border-color:\(yellow)}
            \(s) .facts,\(s) .updated,\(s) .count,\(s) .detail{color:\(white)}
            \(s) .badge{background:\(black);color:\(white);border-color:\(white)}
            \(s) h2{border-color:\(white)}
            \(s) td,\(s) ul.stops li,\(s) ul.routes li,\(s) .option{border-color:\(white)}
            \(s) input{background:\(black);color:\(white);border-color:\(white)}
            \(s) button{background:\(yellow);color:\(black)}
            \(s) .warning,\(s) .alerts,\(s).kiosk .alerts{background:\(black);border-color:\(yellow);color:\(white)}
            \(s) .warning h1{color:\(yellow)}
            \(s) a:focus-visible,\(s) button:focus-visible,\(s) input:focus-visible{outline-color:\(yellow)}
            \(s) figure.map,\(s) figure.diagram{border:3px solid \(white)}

            """
        }
    }

    /// Larger type; secondary columns (the mode, platform and accessibility notes, the direction of each first/last
    /// row) are dropped instead of wrapping. Live marks, cancellations and times stay.
    static let largeLayout = """
        body.layout-large{font-size:1.3rem}
        body.layout-large .mode,body.layout-large td.headsign .detail,body.layout-large table.spans td:nth-child(2){display:none}

        """

    /// `/kiosk`, a fixed display (every rule under `body.kiosk`): the page never scrolls; the type scales with the
    /// screen (times 1.2× the base, which is 2.4 % of the width or 3.9 % of the height, whichever is less), so a
    /// 1280×800 panel shows its times at about 37 px and ten rows; rows that do not fit page on their own
    /// (`KioskScript`). Touch targets are at least 48 px.
    static let kiosk = """
        html:has(body.kiosk){height:100%;overflow:hidden}
        body.kiosk{height:100vh;height:100dvh;overflow:hidden;display:flex;flex-direction:column;background:#000;color:#fff;font-size:clamp(16px,min(2.4vw,3.9vh),44px);line-height:1.25;overflow-wrap:break-word}
        body.kiosk [hidden]{display:none!important}
        body.kiosk main{max-width:none;width:100%;flex:1 1 auto;min-height:0;margin:0;padding:.35em .8em .3em;display:flex;flex-direction:column;gap:.3em;overflow:hidden}
        body.kiosk h2{border-color:#fff}
        body.kiosk .badge{border-color:#fff}
        body.kiosk .facts{color:#ddd}
        body.kiosk .board-head{order:-1;flex:none;display:flex;align-items:center;gap:.6em;border-bottom:3px solid #fff;padding-bottom:.2em}
        body.kiosk .board-title{flex:1 1 auto;min-width:0}
        body.kiosk .board-head h1{font-size:1.4em;line-height:1.15;margin:0}
        body.kiosk .board-source{margin:.05em 0 0;font-size:max(.7em,16px);color:#ddd}
        body.kiosk .source.is-live{color:#8cf5a5;font-weight:700}
        body.kiosk .pager{flex:none;margin:0;font-size:max(.7em,16px);color:#ddd;white-space:nowrap}
        body.kiosk .clock{flex:none;margin:0;font-size:1.7em;font-weight:700;font-variant-numeric:tabular-nums;line-height:1.1}
        body.kiosk .board-notice{flex:none;margin:0;font-size:max(.72em,16px)}
        body.kiosk .board-notice p{margin:0}
        body.kiosk .warning.board-notice{background:#000;border-color:#ffbf47;color:#fff;padding:.3em .5em}
        body.kiosk .alert-line{flex:none;border:3px solid #ffbf47;border-radius:.3em;padding:.1em .5em;font-size:max(.72em,16px);line-height:1.3;overflow:hidden}
        body.kiosk .alert{margin:0}
        body.kiosk .alert-count{font-weight:700}
        body.kiosk .takeover{flex:none;margin:0;background:#8b0000;color:#fff;border:4px solid #fff;outline:3px solid #8b0000;padding:.3em .6em;font-size:1em}
        body.kiosk .takeover h2{margin:0 0 .1em;border:0;color:#fff;font-size:1.1em}
        body.kiosk .takeover p{margin:.1em 0}
        body.kiosk .rows{flex:1 1 auto;min-height:0;overflow:hidden;position:relative}
        body.kiosk .groups{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:auto minmax(0,1fr) auto;column-gap:.5em}
        body.kiosk .group{grid-column:1/-1;display:grid;grid-template-columns:subgrid;align-items:center;padding:.2em 0;border-bottom:1px solid #666}
        body.kiosk .route .badge{font-size:max(.95em,19px);min-width:2.6em;padding:.05em .3em}
        body.kiosk .dest{min-width:0}
        body.kiosk .extra{font-size:max(.65em,16px);color:#ddd;display:inline-block}
        body.kiosk .times{white-space:nowrap;text-align:right;font-size:1.2em;font-weight:700;font-variant-numeric:tabular-nums}
        body.kiosk .sep{font-weight:400;color:#bbb;white-space:pre}
        body.kiosk .mark{display:inline-block;font-size:max(.55em,16px);vertical-align:.3em;margin-right:.1em;color:#8cf5a5}
        body.kiosk .t.t-canceled{text-decoration:line-through;color:#ccc}
        body.kiosk .t-canceled .mark{color:#ff9e9e}
        body.kiosk .unit{font-size:max(.6em,16px);font-weight:600}
        body.kiosk .board-empty p{margin:.3em 0}
        body.kiosk .prompt{flex:1 1 auto;min-height:0;display:flex;flex-direction:column;justify-content:center;align-items:center;text-align:center}
        body.kiosk .prompt h2{font-size:1.8em;border:0;margin:0 0 .3em}
        body.kiosk .prompt .facts{font-size:1em;max-width:36em}
        body.kiosk .status{font-size:1.2em}
        body.kiosk .unavailable{border:4px solid #ffbf47;padding:.6em;color:#fff}
        body.kiosk .unavailable h1{margin:0}
        body.kiosk .unavailable h1::before{content:"⚠ "}
        body.kiosk .kiosk-bar{flex:none;display:flex;flex-wrap:wrap;gap:.25em .8em;justify-content:space-between;align-items:center;padding:.3em .8em;background:#1a1a1a;border-top:3px solid #fff;font-size:max(.8em,16px)}
        body.kiosk .hint{margin:0;flex:1 1 10em;font-weight:700;font-size:1.1em}
        body.kiosk .actions,body.kiosk .kiosk-bar .speech{display:flex;flex:none;gap:.4em;align-items:center}
        body.kiosk .kiosk-bar a,body.kiosk .kiosk-bar button,body.kiosk .planner button{font:inherit;font-weight:700;white-space:nowrap;min-height:max(48px,2.3em);min-width:max(48px,2.3em);display:inline-flex;align-items:center;justify-content:center;padding:.15em .7em;border:3px solid #fff;border-radius:.4em;background:#1a1a1a;color:#fff;text-decoration:none;cursor:pointer}
        body.kiosk .kiosk-bar .plan-link{background:#ffd54a;color:#000;border-color:#ffd54a}
        body.kiosk .planner{position:fixed;inset:0;z-index:10;background:#000;color:#fff;display:flex;flex-direction:column;gap:.3em;padding:.35em .8em;font-size:max(.8em,16px);overflow:hidden}
        body.kiosk .planner-head{flex:none;display:flex;align-items:center;gap:.5em;border-bottom:3px solid #fff;padding-bottom:.2em}
        body.kiosk .planner-head h2{margin:0;border:0;font-size:1.3em;flex:none}
        body.kiosk .planner-from{flex:1 1 auto;margin:0;min-width:0;color:#ddd}
        body.kiosk .planner button{min-height:max(48px,2em);padding:.1em .5em}
        body.kiosk .planner-choose,body.kiosk .planner-result{flex:1 1 auto;min-height:0;display:flex;flex-direction:column;gap:.3em}
        body.kiosk .planner-entry{flex:none;display:flex;align-items:center;gap:.5em;margin:0;font-weight:700;white-space:nowrap}
        body.kiosk .planner-entry input{flex:1 1 auto;font:inherit;min-height:48px;background:#fff;color:#000;border:3px solid #fff}
        body.kiosk .planner-matches{flex:1 1 auto;min-height:0;overflow:hidden}
        body.kiosk .matches{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(15em,1fr));gap:.3em}
        body.kiosk .planner .match{width:100%;justify-content:flex-start;text-align:left}
        body.kiosk .no-match{margin:.2em 0}
        body.kiosk .keys{flex:none;display:grid;grid-template-columns:repeat(14,minmax(0,1fr));gap:.25em}
        body.kiosk .planner .key{min-width:0;padding:0}
        body.kiosk .planner .key.wide{grid-column:span 2}
        body.kiosk #planner-plan{flex:1 1 auto;min-height:0;overflow:hidden}
        body.kiosk .plan-result h3{margin:0;font-size:1.1em}
        body.kiosk .leaving{margin:.1em 0;color:#ddd}
        body.kiosk .plan-result .option{border:0}
        body.kiosk .plan-result h4{margin:.3em 0 .1em;font-size:1.05em}
        body.kiosk .plan-result ol.legs{margin:0;padding-left:1.3em}
        body.kiosk .plan-result ol.legs li{margin:.15em 0}
        body.kiosk .option-nav{flex:none;display:flex;justify-content:center;align-items:center;gap:1em}
        body.kiosk.layout-large{font-size:clamp(18px,min(2.9vw,4.6vh),52px)}
        @media (orientation:portrait){body.kiosk{font-size:clamp(16px,min(3.3vw,2.6vh),44px)}body.kiosk.layout-large{font-size:clamp(18px,min(3.9vw,3vh),52px)}}
        @media (prefers-reduced-motion:no-preference){body.kiosk main{transition:opacity .2s}}

        """

    static let base = """
        *,*::before,*::after{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;font-size:1rem;line-height:1.45;color:#111;background:#fff;overflow-wrap:anywhere}
        main{max-width:44rem;margin:0 auto;padding:0 .75rem 2rem}
        .bar{display:flex;justify-content:space-between;align-items:center;gap:.5rem;padding:.5rem .75rem;background:#003b6f;color:#fff}
        .bar a{color:#fff;font-weight:600;text-decoration:none;padding:.5rem;min-height:44px;display:inline-flex;align-items:center}
        .bar a:focus-visible,a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
        h1{font-size:1.5rem;margin:1rem 0 .25rem}
        h2{font-size:1.15rem;margin:1.25rem 0 .5rem;border-bottom:2px solid #003b6f}
        h3{font-size:1rem;margin:.75rem 0 .25rem}
        a{color:#0645ad}
        .code{display:inline-block;font-size:.85em;font-weight:700;border:2px solid currentColor;border-radius:.3rem;padding:0 .3rem}
        .facts,.updated,.count,.detail{color:#444}
        .detail{display:block;font-size:.9rem}
        .updated{font-size:.85rem;margin-top:2rem}
        .badge{display:inline-block;white-space:nowrap;overflow-wrap:normal;min-width:2.5rem;text-align:center;font-weight:700;padding:.1rem .4rem;border-radius:.3rem;border:2px solid #111;background:#fff;color:#111}
        table{width:100%;border-collapse:collapse}
        td{padding:.45rem .25rem;border-bottom:1px solid #ccc;vertical-align:top}
        td.time{font-variant-numeric:tabular-nums;white-space:nowrap;font-weight:600}
        td.due{text-align:right;white-space:nowrap;font-weight:700}
        td.headsign{width:100%}
        ul.stops,ul.routes{list-style:none;padding:0;margin:0}
        ul.stops li,ul.routes li{padding:.5rem 0;border-bottom:1px solid #ccc}
        ul.stops a{display:inline-block;min-height:44px;padding:.35rem 0;font-weight:600}
        form{margin:.75rem 0}
        label{display:block;font-weight:600;margin:.5rem 0 .25rem}
        .row{display:flex;gap:.5rem}
        input{font:inherit;width:100%;min-width:0;min-height:44px;padding:.4rem .5rem;border:2px solid #555;border-radius:.3rem}
        button{font:inherit;font-weight:700;min-height:44px;padding:.4rem 1rem;border:0;border-radius:.3rem;background:#003b6f;color:#fff;cursor:pointer}
        form.plan button{margin-top:.75rem}
        .warning{border:3px solid #b00020;background:#fdecee;padding:.75rem;margin-top:1rem}
        .warning h1{color:#8a0019}
        .warning h1::before{content:"⚠ "}
        .notice{padding:.25rem 0}
        .live{display:block;font-size:.9rem;font-weight:600}
        tr.canceled td.time,tr.canceled td.headsign,tr.canceled td.due{text-decoration:line-through}
        tr.canceled .live{text-decoration:none}
        .alerts{border:3px solid #8a5a00;background:#fff8e1;padding:.5rem .75rem;margin:.5rem 0}
        .alerts p{margin:0}
        .alerts ul{margin:.25rem 0 0;padding-left:0;list-style:none}
        ol.legs{padding-left:1.25rem}
        ol.legs li{margin:.35rem 0}
        .option{border-bottom:1px solid #ccc;padding-bottom:.5rem}
        .listen audio{width:100%;max-width:24rem;margin-top:.25rem}
        figure{margin:1rem 0}
        figure.map img,figure.diagram img{display:block;width:100%;height:auto;max-width:36rem}
        details.diagrams summary{cursor:pointer;font-weight:600;padding:.65rem 0}
        @media (min-width:40rem){body{font-size:1.05rem}}

        """
}
