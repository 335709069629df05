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
///
/// The board is a fixed display: the rows that fit the screen are a page, the pages turn every 8 s with a page
/// indicator (`board.dataset.page`/`pages`), the alerts line shows one alert at a time (each cut at a word to two
/// lines), a long severe message gets smaller type down to 18 px rather than pushing the departures off, and the
/// clock ticks on from the server's time. "Plan a trip" opens the on-screen planner: letters typed on its own keys
/// ask `/kiosk/stops` for matching stops, a stop chosen asks `/kiosk/plan` for the journeys, shown one option at a
/// time; the idle time, a scan or Close ends it.
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
              arrange();
              planButton.hidden = !(current || home);
              board.dataset.loads = String((Number(board.dataset.loads) || 0) + 1);
              body.classList.remove("offline");
              online = true;
              takeoverShown();
            }).catch(function (error) { unavailable(String(error)); });
          }

          // The board is a fixed display: the rows that fit are one page, the pages and the alerts turn every
          // few seconds, a long severe message gets smaller type rather than pushing the departures off.
          var pageIndex = 0, pages = 1, alertIndex = 0;
          var clockBase = 0, clockOffset = 0, clockLoaded = 0;

          function arrange() {
            var clock = board.querySelector(".clock");
            if (clock) {
              clockBase = Number(clock.dataset.now) || Date.now();
              clockOffset = Number(clock.dataset.offset) || 0;
              clockLoaded = performance.now();
            }
            fitTakeover();
            fitAlerts();
            paginate();
          }

          function pad(n) { return (n < 10 ? "0" : "") + n; }
          function tick() {
            var clock = board.querySelector(".clock");
            if (!clock || !clockBase) { return; }
            var t = new Date(clockBase + (performance.now() - clockLoaded) + clockOffset * 1000);
            // The passenger locale's clock, as the server wrote it: "15:05", or "3:05 PM" where 12 hours are read.
            var hour = t.getUTCHours(), minutes = pad(t.getUTCMinutes());
            var text = clock.dataset.hours === "12"
              ? ((hour % 12) || 12) + ":" + minutes + " " + (hour < 12 ? clock.dataset.am : clock.dataset.pm)
              : pad(hour) + ":" + minutes;
            if (clock.textContent !== text) { clock.textContent = text; }
          }

          function fitTakeover() {
            var band = board.querySelector(".takeover");
            if (!band) { return; }
            band.style.fontSize = "";
            var size = parseFloat(getComputedStyle(band).fontSize);
            var limit = board.clientHeight * 0.5;
            while (band.offsetHeight > limit && size > 18) {
              size -= 1;
              band.style.fontSize = size + "px";
            }
          }

          // Each alert on at most two lines, cut at a word with "…" (the phone page and speech have it whole).
          function fitAlerts() {
            var alerts = board.querySelectorAll(".alert-line .alert");
            for (var i = 0; i < alerts.length; i++) {
              var alert = alerts[i], text = alert.querySelector(".alert-text");
              alert.hidden = false;
              if (!text) { continue; }
              if (text.dataset.full === undefined) { text.dataset.full = text.textContent; }
              var words = text.dataset.full.split(" ");
              text.textContent = text.dataset.full;
              var line = parseFloat(getComputedStyle(alert).lineHeight) || 30;
              while (alert.offsetHeight > line * 2 + 2 && words.length > 1) {
                words.pop();
                text.textContent = words.join(" ").replace(/[\s,.;:·–-]+$/, "") + " …";
              }
            }
            if (alertIndex >= alerts.length) { alertIndex = 0; }
            showAlert();
          }

          function showAlert() {
            var alerts = board.querySelectorAll(".alert-line .alert");
            for (var i = 0; i < alerts.length; i++) { alerts[i].hidden = i !== alertIndex; }
          }

          function paginate() {
            var box = board.querySelector(".rows");
            var rows = box ? box.querySelectorAll(".group") : [];
            for (var i = 0; i < rows.length; i++) { rows[i].hidden = false; }
            var height = box ? box.clientHeight : 0, page = 0, top = rows.length ? rows[0].offsetTop : 0;
            for (var j = 0; j < rows.length; j++) {
              var row = rows[j];
              if (row.offsetTop + row.offsetHeight - top > height + 1 && row.offsetTop > top) {
                page += 1;
                top = row.offsetTop;
              }
              row.dataset.page = String(page);
            }
            pages = page + 1;
            if (pageIndex >= pages) { pageIndex = 0; }
            showPage();
          }

          function showPage() {
            var rows = board.querySelectorAll(".rows .group");
            for (var i = 0; i < rows.length; i++) { rows[i].hidden = Number(rows[i].dataset.page) !== pageIndex; }
            var pager = board.querySelector(".pager");
            if (pager) {
              pager.hidden = pages < 2;
              pager.textContent = (pager.dataset.words || "{n}/{total}").replace("{n}", String(pageIndex + 1))
                .replace("{total}", String(pages));
            }
            board.dataset.pages = String(pages);
            board.dataset.page = String(pageIndex + 1);
          }

          function turn() {
            if (pages > 1) { pageIndex = (pageIndex + 1) % pages; showPage(); }
            var alerts = board.querySelectorAll(".alert-line .alert");
            if (alerts.length > 1) { alertIndex = (alertIndex + 1) % alerts.length; showAlert(); }
          }
          setInterval(turn, 8000);
          setInterval(tick, 1000);
          var resizing = null;
          window.addEventListener("resize", function () {
            if (resizing) { clearTimeout(resizing); }
            resizing = setTimeout(arrange, 100);
          });

          // The trip planner on the screen: a destination typed on its own keys, chosen from the stops that
          // match, then the journeys one option at a time; no keyboard needed.
          var planButton = document.getElementById("plan");
          var planner = document.getElementById("planner");
          var plannerQuery = document.getElementById("planner-q");
          var plannerMatches = document.getElementById("planner-matches");
          var plannerChoose = document.getElementById("planner-choose");
          var plannerResult = document.getElementById("planner-result");
          var plannerPlan = document.getElementById("planner-plan");
          var plannerBack = document.getElementById("planner-back");
          var optionIndex = 0;
          var typed = "", searching = null, searchSerial = 0;

          function planOrigin() { return board.dataset.stop || current || home; }

          function keepAwake() {
            // Using the planner counts as using the kiosk: the idle time starts again.
            if (idleTimer && current !== home) {
              clearTimeout(idleTimer);
              idleTimer = setTimeout(function () { closePlanner(); show(home); }, idleMs);
            }
          }

          function openPlanner() {
            if (!planOrigin()) { return; }
            typed = "";
            plannerQuery.value = "";
            plannerMatches.textContent = "";
            plannerChoose.hidden = false;
            plannerResult.hidden = true;
            plannerBack.hidden = true;
            var from = document.getElementById("planner-from");
            var name = board.querySelector(".board-title h1 bdi");
            from.textContent = name ? (from.dataset.words || "{stop}").replace("{stop}", name.textContent) : "";
            planner.hidden = false;
            body.dataset.planner = "choose";
            var first = planner.querySelector(".key");
            if (first) { first.focus(); }
          }

          function closePlanner() {
            if (planner.hidden) { return; }
            planner.hidden = true;
            body.dataset.planner = "";
            planButton.focus();
          }

          function search() {
            if (searching) { clearTimeout(searching); }
            searching = setTimeout(function () {
              var serial = ++searchSerial;
              var query = typed.trim();
              if (!query) { plannerMatches.textContent = ""; return; }
              fetch("/kiosk/stops?lang=" + encodeURIComponent(lang) + "&from=" + encodeURIComponent(planOrigin()) +
                "&q=" + encodeURIComponent(query), { cache: "no-store" }).then(function (response) {
                if (!response.ok) { throw new Error("HTTP " + response.status); }
                return response.text();
              }).then(function (html) {
                // data-query: what the list answers (a slow answer to an earlier letter may show first).
                if (serial === searchSerial) { plannerMatches.innerHTML = html; plannerMatches.dataset.query = query; }
              }).catch(function () { plannerMatches.textContent = body.dataset.unavailable || ""; });
            }, 150);
          }

          function showOption() {
            var options = plannerPlan.querySelectorAll(".option");
            for (var i = 0; i < options.length; i++) { options[i].hidden = i !== optionIndex; }
            document.getElementById("option-count").textContent =
              options.length > 1 ? (optionIndex + 1) + " / " + options.length : "";
            document.getElementById("option-previous").hidden = options.length < 2;
            document.getElementById("option-next").hidden = options.length < 2;
            document.getElementById("option-previous").disabled = optionIndex === 0;
            document.getElementById("option-next").disabled = optionIndex >= options.length - 1;
          }

          function choose(stop) {
            fetch("/kiosk/plan?lang=" + encodeURIComponent(lang) + "&from=" + encodeURIComponent(planOrigin()) +
              "&to=" + encodeURIComponent(stop), { cache: "no-store" }).then(function (response) {
              if (!response.ok) { throw new Error("HTTP " + response.status); }
              return response.text();
            }).then(function (html) {
              plannerPlan.innerHTML = html;
              optionIndex = 0;
              plannerChoose.hidden = true;
              plannerResult.hidden = false;
              plannerBack.hidden = false;
              body.dataset.planner = "plan";
              showOption();
            }).catch(function () { plannerMatches.textContent = body.dataset.unavailable || ""; });
          }

          planButton.addEventListener("click", openPlanner);
          document.getElementById("planner-close").addEventListener("click", closePlanner);
          plannerBack.addEventListener("click", function () {
            plannerResult.hidden = true;
            plannerChoose.hidden = false;
            plannerBack.hidden = true;
            body.dataset.planner = "choose";
          });
          planner.addEventListener("click", function (event) {
            keepAwake();
            var key = event.target.closest && event.target.closest(".key");
            if (key) {
              typed = key.dataset.key === "delete" ? typed.slice(0, -1) : (typed + key.dataset.key).slice(0, 60);
              plannerQuery.value = typed;
              search();
              return;
            }
            var match = event.target.closest && event.target.closest(".match");
            if (match) { choose(match.dataset.stop); }
          });
          document.getElementById("option-previous").addEventListener("click", function () {
            optionIndex = Math.max(0, optionIndex - 1);
            showOption();
          });
          document.getElementById("option-next").addEventListener("click", function () {
            optionIndex += 1;
            showOption();
          });
          document.addEventListener("keydown", function (event) {
            if (event.key === "Escape") { closePlanner(); }
          });

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
              idleTimer = setTimeout(function () { closePlanner(); show(home); }, idleMs);
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
              closePlanner();
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
          // Leaving the page gives the server its event stream back at once (it holds a few per address).
          window.addEventListener("pagehide", function () { events.close(); });
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
