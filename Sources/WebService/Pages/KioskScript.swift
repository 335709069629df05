/// `/kiosk.js`, the browser kiosk's only script (served as a file: the CSP forbids inline script).
///
/// Shows the home stop's board, refreshed every 30 s; on a scan pushed over `/kiosk/events` shows that stop and
/// returns home after the idle time; a non-stop scan shows its message for a few seconds. When the board cannot be
/// fetched or the event stream drops, it shows "information unavailable" at once (never a blank or frozen page)
/// and keeps retrying; `EventSource` reconnects by itself. Every text comes from the server, inserted either as
/// server-escaped HTML fragments or through `textContent`.
enum KioskScript {
    static let javascript = #"""
        "use strict";
        (function () {
          var body = document.body;
          var board = document.getElementById("board");
          var home = body.dataset.home || "";
          var idleMs = Math.max(5, Number(body.dataset.idle) || 60) * 1000;
          var lang = body.dataset.language || "es";
          var current = home;
          var idleTimer = null;
          var online = true;

          function unavailable(reason) {
            online = false;
            body.classList.add("offline");
            board.textContent = "";
            var box = document.createElement("div");
            box.className = "unavailable";
            box.setAttribute("role", "alert");
            var h = document.createElement("h1");
            h.textContent = body.dataset.unavailable || "Information unavailable";
            var p = document.createElement("p");
            p.textContent = body.dataset.reconnecting || "Reconnecting…";
            box.appendChild(h);
            box.appendChild(p);
            board.appendChild(box);
            board.dataset.state = "unavailable";
            board.dataset.reason = reason || "";
          }

          function load() {
            var url = "/kiosk/board?lang=" + encodeURIComponent(lang) +
              (current ? "&stop=" + encodeURIComponent(current) : "");
            return fetch(url, { cache: "no-store" }).then(function (response) {
              if (!response.ok) { throw new Error("HTTP " + response.status); }
              return response.text();
            }).then(function (html) {
              board.innerHTML = html;
              board.dataset.stop = current;
              board.dataset.state = current === home ? "home" : "stop";
              body.classList.remove("offline");
              online = true;
            }).catch(function (error) { unavailable(String(error)); });
          }

          function show(stop) {
            current = stop;
            if (idleTimer) { clearTimeout(idleTimer); idleTimer = null; }
            if (stop !== home) {
              idleTimer = setTimeout(function () { show(home); }, idleMs);
            }
            return load();
          }

          function notice(text) {
            var p = document.createElement("p");
            p.className = "status";
            p.setAttribute("role", "status");
            p.textContent = text;
            board.insertBefore(p, board.firstChild);
            setTimeout(function () { if (p.parentNode) { p.parentNode.removeChild(p); } }, 5000);
          }

          var events = new EventSource("/kiosk/events");
          events.addEventListener("scan", function (message) {
            var scan;
            try { scan = JSON.parse(message.data); } catch (e) { return; }
            if (scan.status === "stop" && scan.stop_id) {
              var received = performance.now();
              show(scan.stop_id).then(function () {
                board.dataset.shownAfterMs = String(Math.round(performance.now() - received));
              });
            }
            else if (scan.message) { notice(scan.message[lang] || scan.message.es || ""); }
          });
          events.addEventListener("camera", function (message) {
            var state;
            try { state = JSON.parse(message.data); } catch (e) { return; }
            if (state.message) { notice(state.message[lang] || ""); }
          });
          events.onopen = function () { if (!online) { load(); } };
          events.onerror = function () { unavailable("event stream"); };

          document.getElementById("lang").addEventListener("click", function (event) {
            event.preventDefault();
            var url = new URL(window.location.href);
            url.searchParams.set("lang", lang === "es" ? "en" : "es");
            window.location.replace(url.toString());
          });

          setInterval(load, 30000);
          load();
        })();
        """#
}
