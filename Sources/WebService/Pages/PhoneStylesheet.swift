/// The phone pages' own rules (issue 37), added to `Stylesheet.css` after the base rules: the stop page's grouped
/// departures, the plan form's radio buttons and check box drawn as such, buttons whose labels never wrap, the plan
/// options' timelines and the list of stops to choose from.
enum PhoneStylesheet {
    static let rules = """
        .sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
        button{white-space:nowrap;overflow-wrap:normal;flex:none}
        div.choices{margin:.25rem 0 0;display:flex;flex-wrap:wrap;gap:0 1.5rem}
        label.choice{display:flex;align-items:center;gap:.6rem;font-weight:400;min-height:44px;margin:0;cursor:pointer}
        label.choice input{width:1.35rem;height:1.35rem;min-height:0;min-width:1.35rem;flex:none;margin:0;padding:0;accent-color:#003b6f}
        form.plan button{display:block}
        table.groups td{vertical-align:middle}
        table.groups td.route{width:1%;white-space:nowrap}
        table.groups .destination{font-weight:600}
        table.groups td.times{white-space:nowrap;text-align:right;padding-right:0}
        table.groups .t{display:inline-flex;flex-direction:column;align-items:flex-end;min-width:3.6rem;margin-left:.3rem;line-height:1.25}
        table.groups .t strong{font-size:1rem}
        table.groups .t .clock{font-size:.85rem;color:#444;font-variant-numeric:tabular-nums}
        table.groups .t.canceled{text-decoration:line-through}
        @media (max-width:26rem){table.groups .t:nth-child(3){display:none}}
        p.links a,ul.routes li a.tt-link{display:inline-block;padding:.6rem 0;min-height:44px}
        section.alerts h2{border:0;margin:0 0 .25rem;font-size:1.05rem}
        section.alerts li{margin:.35rem 0}
        p.span{font-weight:700;font-size:1.1rem;margin:.25rem 0 .5rem}
        ol.timeline{list-style:none;padding:0;margin:.5rem 0 1rem}
        ol.timeline li{display:grid;grid-template-columns:3.4rem 2.25rem 1fr;column-gap:.4rem;align-items:stretch;margin:0}
        .tl-time{display:flex;flex-direction:column;text-align:right;font-weight:600;font-variant-numeric:tabular-nums;padding:.15rem 0}
        .tl-mark{display:flex;flex-direction:column;align-items:center;gap:.15rem;padding:.1rem 0}
        .tl-stop .tl-text{font-weight:600;padding:.15rem 0}
        .tl-ride .tl-text,.tl-walk .tl-text{padding:.4rem 0 .6rem}
        .tl-ride .detail{display:block}
        .tl-mark .num{display:inline-flex;align-items:center;justify-content:center;min-width:1.7rem;min-height:1.7rem;border-radius:.85rem;padding:0 .3rem;background:#003b6f;color:#fff;font-size:.85rem;font-weight:700;white-space:nowrap;line-height:1}
        .tl-mark .dot{display:block;width:1.1rem;height:1.1rem;margin-top:.25rem;border-radius:50%;border:3px solid #003b6f;background:#fff}
        .rail{display:block;flex:1 1 auto;width:.5rem;min-height:2.75rem;background:#003b6f;border:0;border-radius:.25rem;box-shadow:0 0 0 1px #555}
        .rail.walk{width:0;background:none;box-shadow:none;border-radius:0;border-left:.3rem dotted #555}
        section.place-choice{border:3px solid #003b6f;padding:.25rem .75rem .5rem;margin:1rem 0}
        section.place-choice h2{border:0}
        section.place-choice .badges{display:flex;flex-wrap:wrap;gap:.25rem;margin-top:.15rem}

        """

    /// The same parts in the high-contrast theme (7:1 or more, as `Stylesheet.HighContrast`).
    static func highContrast(scope s: String) -> String {
        typealias C = Stylesheet.HighContrast
        return """
            \(s) table.groups .t .clock{color:\(C.white)}
            \(s) .tl-mark .num{background:\(C.yellow);color:\(C.black)}
            \(s) .tl-mark .dot{background:\(C.black);border-color:\(C.yellow)}
            \(s) .rail{box-shadow:0 0 0 2px \(C.white)}
            \(s) .rail.walk{border-color:\(C.white);box-shadow:none}
            \(s) section.place-choice{border-color:\(C.white)}
            \(s) label.choice input{accent-color:\(C.yellow)}

            """
    }
}
