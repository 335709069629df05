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
        base + PageTemplates.browseCSS + HighContrast.rules(scope: "body.theme-high-contrast") + "\n"
        + "@media (prefers-contrast:more){\n" + HighContrast.rules(scope: "body") + "}\n" + largeLayout

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
        body.kiosk.layout-large{font-size:2.6rem}
        body.kiosk.layout-large h1{font-size:3.6rem}

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
        .takeover{background:#8b0000;color:#fff;border:4px solid #fff;outline:3px solid #8b0000;padding:.75rem 1rem;margin:.5rem 0;font-size:1.35em}
        .takeover h2{margin:0 0 .25rem;border:0;color:#fff}
        .takeover p{margin:.25rem 0}
        .alerts ul{margin:.25rem 0 0;padding-left:0;list-style:none}
        body.kiosk .alerts{background:#000;border-color:#ffbf47;color:#fff}
        ol.legs{padding-left:1.25rem}
        ol.legs li{margin:.35rem 0}
        .option{border-bottom:1px solid #ccc;padding-bottom:.5rem}
        body.kiosk{font-size:2rem;background:#000;color:#fff;min-height:100vh;display:flex;flex-direction:column}
        body.kiosk main{max-width:none;width:100%;flex:1;padding:1rem 2rem}
        body.kiosk h1{font-size:3rem}
        body.kiosk h2{border-color:#fff}
        body.kiosk td{border-color:#555;padding:.6rem .4rem}
        body.kiosk .badge{border-color:#fff}
        body.kiosk .detail,body.kiosk .facts,body.kiosk .updated{color:#ddd}
        body.kiosk .status{font-size:2.5rem}
        body.kiosk .unavailable{border:4px solid #ffbf47;padding:1rem;color:#fff}
        body.kiosk .unavailable h1::before{content:"⚠ "}
        .kiosk-bar{display:flex;gap:1rem;justify-content:space-between;align-items:center;padding:1rem 2rem;background:#1a1a1a;border-top:3px solid #fff}
        .kiosk-bar a{color:#fff;font-weight:700;min-height:64px;min-width:64px;display:inline-flex;align-items:center;padding:.5rem 1rem;border:3px solid #fff;border-radius:.5rem;text-decoration:none}
        .listen audio{width:100%;max-width:24rem;margin-top:.25rem}
        figure{margin:1rem 0}
        figure.map img,figure.diagram img{display:block;width:100%;height:auto;max-width:36rem}
        details.diagrams summary{cursor:pointer;font-weight:600;padding:.65rem 0}
        body.kiosk figure.map{float:right;width:32%;max-width:28rem;margin:1rem 0 1rem 2rem}
        body.kiosk table.departures{width:auto;min-width:55%}
        body.kiosk .alerts{overflow:hidden}
        .kiosk-bar .speech{display:inline-flex;gap:.5rem}
        .kiosk-bar a,.kiosk-bar button{white-space:nowrap}
        .kiosk-bar button{font-size:inherit;min-height:64px;min-width:64px;border:3px solid #fff;background:#1a1a1a;color:#fff}
        @media (prefers-reduced-motion:no-preference){body.kiosk main{transition:opacity .2s}}
        @media (min-width:40rem){body{font-size:1.05rem}}

        """
}
