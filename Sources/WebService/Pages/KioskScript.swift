/// `/kiosk.js`, the browser kiosk's only script (served as a file: the CSP forbids inline script).
///
/// Shows the home stop's board, refreshed every 30 s; on a scan pushed over `/kiosk/events` shows that stop and
/// returns home after the idle time; a non-stop scan shows its message for a few seconds. When the board cannot be
/// fetched or the event stream drops, it shows "information unavailable" at once (never a blank or frozen page)
/// and keeps retrying; `EventSource` reconnects by itself. Every text comes from the server, inserted either as
/// server-escaped HTML fragments or through `textContent`.
///
/// Speech (the `[speech]` settings, as on the terminal kiosk): the speak button or key says the board
/// (`/api/v1/stops/{id}/speech`), pressed again it starts over (repeat), any other key or a touch elsewhere
/// interrupts; the "more" key says the full form; two keys and two buttons set the volume; with `auto_speak` a scan
/// is said as soon as its board shows, except in quiet hours, when the volume is also capped. The body's
/// `data-speaking` names the stop being said ("takeover" for a severe message), `data-speech-end` how the last
/// speech ended ("finished" or "interrupted"; tests read both).
///
/// A severe message for the kiosk's own stop or every kiosk (the board's takeover band, each such message marked
/// `data-say` with its digest) is said once with `auto_speak`, as `kiosk run` says it: when the home board shows
/// and nothing else is being said, outside quiet hours, in the page's language (`/kiosk/takeover/speech`, which
/// refuses a message no longer in force). The digests said are kept in `sessionStorage`, so neither the 30 s
/// refresh, a reload nor the language switch says a message again; a new or changed message is said. A takeover
/// being said stops when its messages leave the board. The board is also reloaded when the page becomes visible
/// again (a screen woken from sleep). `board.dataset.loads` counts the boards shown (tests wait on it).
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
              board.dataset.loads = String((Number(board.dataset.loads) || 0) + 1);
              body.classList.remove("offline");
              online = true;
              takeoverShown();
            }).catch(function (error) { unavailable(String(error)); });
          }

          var speechOn = body.dataset.speech === "true";
          var audio = null;
          var volume = 1;
          var volumeStep = Math.max(1, Number(body.dataset.volumeStep) || 20) / 100;

          function quietNow() {
            var hours = (body.dataset.quiet || "").split("-");
            if (hours.length !== 2) { return false; }
            var start = Number(hours[0]), end = Number(hours[1]);
            var now = new Date();
            var minute = now.getHours() * 60 + now.getMinutes();
            return start <= end ? minute >= start && minute < end : minute >= start || minute < end;
          }

          function audibleVolume() {
            var cap = quietNow() ? Math.min(1, (Number(body.dataset.quietVolume) || 100) / 100) : 1;
            return Math.min(volume, cap);
          }

          function stopSpeaking() {
            if (audio) { audio.pause(); audio = null; body.dataset.speechEnd = "interrupted"; }
            body.dataset.speaking = "";
          }

          function speak(detail) {
            var stop = current || home;
            if (!speechOn || !stop) { return; }
            play("/api/v1/stops/" + encodeURIComponent(stop) + "/speech?lang=" + encodeURIComponent(lang) +
              (detail ? "&detail=" + detail : ""), stop);
          }

          function play(url, what) {
            stopSpeaking();
            var playing = new Audio(url);
            audio = playing;
            playing.volume = audibleVolume();
            body.dataset.speaking = what;
            body.dataset.speechEnd = "";
            function done() { if (audio === playing) { audio = null; body.dataset.speaking = ""; } }
            playing.addEventListener("ended", function () {
              if (audio === playing) { body.dataset.speechEnd = "finished"; }
              done();
            });
            playing.addEventListener("error", done);
            playing.play().catch(function (error) {
              // An interruption (pause before playback began) is not a failure.
              if (audio === playing) { body.dataset.speechError = String(error); done(); }
            });
          }

          // Severe messages said once (their digests), kept across reloads and the language switch.
          var said = [];
          var saying = [];
          try { said = JSON.parse(sessionStorage.getItem("kiosk-takeover-said") || "[]"); } catch (e) { said = []; }
          if (!Array.isArray(said)) { said = []; }

          function takeoverShown() {
            var shown = [];
            var marks = board.querySelectorAll(".takeover [data-say]");
            for (var i = 0; i < marks.length; i++) { shown.push(marks[i].dataset.say); }
            // A message that left the board (ended, removed) is not said on.
            if (body.dataset.speaking === "takeover" &&
              !saying.some(function (digest) { return shown.indexOf(digest) >= 0; })) { stopSpeaking(); }
            if (!speechOn || body.dataset.autoSpeak !== "true" || quietNow() || audio ||
              board.dataset.state !== "home") { return; }
            var due = shown.filter(function (digest, index) {
              return said.indexOf(digest) < 0 && shown.indexOf(digest) === index;
            });
            if (!due.length) { return; }
            said = said.concat(due).slice(-200);
            // Without storage (a private window) each page says a message once.
            try { sessionStorage.setItem("kiosk-takeover-said", JSON.stringify(said)); } catch (e) { /* kept above */ }
            saying = due;
            play("/kiosk/takeover/speech?lang=" + encodeURIComponent(lang) + "&say=" + due.join(","), "takeover");
          }

          function changeVolume(step) {
            volume = Math.min(1, Math.max(0, volume + step));
            body.dataset.volume = String(Math.round(volume * 100));
            if (audio) { audio.volume = audibleVolume(); }
          }

          function show(stop) {
            if (stop !== current) { stopSpeaking(); }
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
                if (body.dataset.autoSpeak === "true" && !quietNow() && board.dataset.state === "stop") { speak(); }
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

          if (speechOn) {
            var keys = {};
            keys[body.dataset.speakKey] = function () { speak(); };
            keys[body.dataset.moreKey] = function () { speak("full"); };
            keys[body.dataset.volumeDownKey] = function () { changeVolume(-volumeStep); };
            keys[body.dataset.volumeUpKey] = function () { changeVolume(volumeStep); };
            document.addEventListener("keydown", function (event) {
              var action = keys[event.key];
              if (action) { event.preventDefault(); action(); }
              else if (audio) { stopSpeaking(); }
            });
            document.getElementById("speak").addEventListener("click", function () { speak(); });
            document.getElementById("volume-down").addEventListener("click", function () { changeVolume(-volumeStep); });
            document.getElementById("volume-up").addEventListener("click", function () { changeVolume(volumeStep); });
            document.addEventListener("pointerdown", function (event) {
              if (audio && !(event.target.closest && event.target.closest(".speech"))) { stopSpeaking(); }
            });
          }

          document.addEventListener("visibilitychange", function () {
            if (document.visibilityState === "visible") { load(); }
          });
          setInterval(load, 30000);
          load();
        })();
        """#
}
