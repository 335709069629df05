"""What a passenger would see wrong on a page, measured in the browser: the page scrolling where it must not,
texts running into each other, texts cut by their box, button labels broken over two lines, text too small to read.

Shared by the browser checks of the board and the phone pages:

    from layout_checks import set_viewport, layout_problems, text_rects, axe_violations
    set_viewport(driver, 1280, 800)
    driver.get(url)
    for problem in layout_problems(driver, "kiosk-1280x800", min_font_px=16, fixed_display=True):
        check(False, problem)

Only what is visible counts: an element hidden by `display`, `visibility`, zero size or an ancestor's clipping, or
covered by another element at its centre (a takeover over the board), is not measured.
"""

# Collects every visible text run (one rectangle per line box of each text node) with the element that holds it,
# then reports the problems. Runs in the page; returns a list of strings.
LAYOUT_SCRIPT = r"""
var name = arguments[0], minFont = arguments[1], fixedDisplay = arguments[2], tolerance = 1;
var problems = [];
var doc = document.documentElement;
var width = window.innerWidth, height = window.innerHeight;

function short(text) { text = text.replace(/\s+/g, " ").trim(); return text.length > 40 ? text.slice(0, 40) + "…" : text; }
function describe(element) {
  var s = element.tagName.toLowerCase();
  if (element.id) { s += "#" + element.id; }
  if (element.classList.length) { s += "." + Array.prototype.join.call(element.classList, "."); }
  return s;
}
function visible(element) {
  if (element.closest("script, style, noscript, template, [hidden], [aria-hidden=true]")) { return false; }
  if (element.checkVisibility && !element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) {
    return false;
  }
  return true;
}
// The part of `rect` left after every clipping ancestor (overflow hidden or clip) cuts it. A box that scrolls
// (auto, scroll) does not cut: what lies past its edge is reached by scrolling it (a wide timetable).
function cuts(overflow) { return overflow === "hidden" || overflow === "clip"; }
function clippedRect(element, rect) {
  var r = { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
  for (var e = element; e && e !== document.body; e = e.parentElement) {
    var style = getComputedStyle(e);
    if (cuts(style.overflowX) || cuts(style.overflowY)) {
      var c = e.getBoundingClientRect();
      r.left = Math.max(r.left, c.left); r.top = Math.max(r.top, c.top);
      r.right = Math.min(r.right, c.right); r.bottom = Math.min(r.bottom, c.bottom);
    }
  }
  return r;
}
function onTop(element, rect) {
  var x = (rect.left + rect.right) / 2, y = (rect.top + rect.bottom) / 2;
  if (x < 0 || y < 0 || x >= width || y >= height) { return true; }  // off screen: the scroll checks speak for it
  var hit = document.elementFromPoint(x, y);
  return !hit || hit === element || element.contains(hit) || hit.contains(element);
}

// 1. Scrolling.
var scrollWidth = Math.max(doc.scrollWidth, document.body.scrollWidth);
var scrollHeight = Math.max(doc.scrollHeight, document.body.scrollHeight);
if (scrollWidth > width + tolerance) {
  problems.push(name + ": the page scrolls sideways (" + scrollWidth + " px wide in a " + width + " px viewport)");
}
if (fixedDisplay && scrollHeight > height + tolerance) {
  problems.push(name + ": the page scrolls (" + scrollHeight + " px tall in a " + height + " px viewport)");
}

// 2. The visible text runs.
var runs = [];
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (var node = walker.nextNode(); node; node = walker.nextNode()) {
  var element = node.parentElement;
  if (!node.textContent.trim() || !element || element.closest("svg, audio, video, option, select") || !visible(element)) {
    continue;
  }
  var range = document.createRange();
  range.selectNodeContents(node);
  var rects = Array.prototype.filter.call(range.getClientRects(), function (r) { return r.width > 0.5 && r.height > 0.5; });
  if (!rects.length) { continue; }
  var style = getComputedStyle(element);
  var fontSize = parseFloat(style.fontSize);
  var text = short(node.textContent);
  var shown = false;
  rects.forEach(function (r) {
    if (!onTop(element, r)) { return; }
    shown = true;
    runs.push({ element: element, node: node, text: text, left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    // 3. Cut by a clipping ancestor, or drawn outside the viewport of a fixed display.
    var c = clippedRect(element, r);
    if (c.right < r.right - tolerance || c.bottom < r.bottom - tolerance || c.left > r.left + tolerance ||
        c.top > r.top + tolerance) {
      problems.push(name + ": text \"" + text + "\" in " + describe(element) + " is cut by its box");
    } else if (fixedDisplay && (r.bottom > height + tolerance || r.right > width + tolerance)) {
      problems.push(name + ": text \"" + text + "\" in " + describe(element) + " is outside the screen");
    }
  });
  if (!shown) { continue; }
  if (style.textOverflow === "ellipsis" && (element.scrollWidth > element.clientWidth + tolerance)) {
    problems.push(name + ": text \"" + text + "\" in " + describe(element) + " is cut with an ellipsis");
  }
  // 4. Legible sizes.
  if (fontSize + 0.01 < minFont) {
    problems.push(name + ": text \"" + text + "\" in " + describe(element) + " is " + fontSize + " px (under " + minFont + ")");
  }
}

// 5. Texts running into each other (runs of different text nodes whose boxes overlap by more than a pixel).
for (var i = 0; i < runs.length; i++) {
  for (var j = i + 1; j < runs.length; j++) {
    var a = runs[i], b = runs[j];
    if (a.node === b.node) { continue; }
    var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > tolerance && h > tolerance) {
      problems.push(name + ": \"" + a.text + "\" (" + describe(a.element) + ") overlaps \"" + b.text + "\" (" +
        describe(b.element) + ")");
    }
  }
}

// 6. Button labels on one line.
var buttons = document.querySelectorAll("button, a[role=button], input[type=submit], input[type=button], .button");
Array.prototype.forEach.call(buttons, function (button) {
  if (!visible(button)) { return; }
  var range = document.createRange();
  range.selectNodeContents(button);
  var tops = {};
  Array.prototype.forEach.call(range.getClientRects(), function (r) {
    if (r.width > 0.5 && r.height > 0.5) { tops[Math.round(r.top / 4)] = true; }
  });
  var lines = Object.keys(tops).length;
  var label = short(button.innerText || button.value || "");
  if (button.tagName === "INPUT") { lines = button.scrollWidth > button.clientWidth + tolerance ? 2 : 1; }
  if (label && lines > 1) {
    problems.push(name + ": the label of button \"" + label + "\" (" + describe(button) + ") wraps over " + lines + " lines");
  }
});
return problems;
"""

# The boxes of the elements matching a selector that are visible: [{text, left, top, right, bottom, fontSize}].
TEXT_RECTS_SCRIPT = r"""
var out = [];
document.querySelectorAll(arguments[0]).forEach(function (element) {
  if (element.checkVisibility && !element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) { return; }
  var r = element.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) { return; }
  out.push({ text: element.innerText, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
             fontSize: parseFloat(getComputedStyle(element).fontSize) });
});
return out;
"""


def set_viewport(driver, width, height):
    """Makes the page's viewport exactly width × height CSS pixels (the window size alone is not the viewport)."""
    driver.set_window_size(width, height)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})


def layout_problems(driver, name, min_font_px=12, fixed_display=False):
    """Everything wrong with the page as shown now, one readable sentence each (empty when all is well).
    fixed_display: a screen nobody can scroll (the kiosk board): the page must fit the viewport both ways."""
    return driver.execute_script(LAYOUT_SCRIPT, name, min_font_px, fixed_display)


def text_rects(driver, selector):
    """The visible boxes of the elements matching `selector`, with their text and font size."""
    return driver.execute_script(TEXT_RECTS_SCRIPT, selector)


def axe_violations(driver):
    """Every axe-core violation on the page (any impact), as (id, impact, help, count of nodes)."""
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    return [(v["id"], v.get("impact"), v["help"], len(v.get("nodes", []))) for v in results["violations"]]
