/// `GET /` on the HTTP port (GATEWAY.md §8): the live web board, one page with its style and script inline (no
/// build step, nothing fetched from elsewhere, so it works offline). It searches stops (`search` over HTTP),
/// shows a stop's live board over the WebSocket (`subscribe`), a trip's stops (`trip`), an SVG map of the
/// board's routes (`shape` by trip, `stops_in_bbox`) and live journeys between two stops (`subscribe`, topic
/// `plan`). scripts/web-board-test drives it in headless Chromium.
enum WebBoardPage {
    /// The page as served: made once, not per request.
    static let bytes: [UInt8] = Array(html.utf8)

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Transit board</title>
        <link rel="icon" href="data:,">
        <style>
        :root { color-scheme: light dark; --fg: #1b1b1f; --bg: #fafafa; --muted: #5c5c66; --line: #d6d6dc;
          --card: #fff; --green: #1a7f37; --gray: #5c5c66; --orange: #b35900; --red: #c62828; --yellow: #8a6d00;
          --focus: #0b5fff; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #ececf1; --bg: #15151a; --muted: #a5a5b0; --line: #34343d; --card: #1f1f26;
            --green: #4cc26a; --gray: #a5a5b0; --orange: #ff9f43; --red: #ff6b6b; --yellow: #f5d061; --focus: #7aa7ff; }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; font: 16px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        header, main { max-width: 52rem; margin: 0 auto; padding: 0.75rem 1rem; }
        header { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: baseline; justify-content: space-between; }
        h1 { font-size: 1.25rem; margin: 0; }
        h2 { font-size: 1.15rem; margin: 0.25rem 0; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        form { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: end; }
        label { font-weight: 600; }
        input[type=search], input[type=password] { flex: 1 1 12rem; min-width: 0; font: inherit; padding: 0.45rem 0.6rem;
          border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); }
        button { font: inherit; padding: 0.45rem 0.8rem; border-radius: 6px; border: 1px solid var(--line);
          background: var(--card); color: var(--fg); cursor: pointer; }
        ul.plain { list-style: none; padding: 0; margin: 0.5rem 0; }
        #results button { width: 100%; text-align: left; margin: 0.15rem 0; }
        .muted { color: var(--muted); }
        .pill { display: inline-block; padding: 0.1rem 0.5rem; border-radius: 999px; font-size: 0.85rem; font-weight: 600;
          border: 1px solid currentColor; }
        .state-live { color: var(--green); } .state-scheduled { color: var(--gray); } .state-stale { color: var(--orange); }
        .state-offline { color: var(--red); }
        .alert { border-left: 5px solid var(--gray); background: var(--card); padding: 0.5rem 0.75rem; margin: 0.5rem 0; }
        .alert.c-red { border-color: var(--red); } .alert.c-orange { border-color: var(--orange); }
        .alert.c-yellow { border-color: var(--yellow); } .alert.c-green { border-color: var(--green); }
        .alert p { margin: 0.2rem 0 0; }
        ol.rows { list-style: none; padding: 0; margin: 0.5rem 0; }
        ol.rows > li { border-bottom: 1px solid var(--line); }
        .row { display: grid; grid-template-columns: 3.5rem 3.75rem 1fr auto 4.75rem; gap: 0.5rem; align-items: center;
          width: 100%; text-align: left; border: 0; border-radius: 0; padding: 0.5rem 0.25rem; background: transparent; }
        .route { display: inline-block; min-width: 2.75rem; text-align: center; padding: 0.1rem 0.3rem; border-radius: 4px;
          font-weight: 700; background: #555; color: #fff; }
        .dest { min-width: 0; overflow-wrap: anywhere; }
        .dest small { display: block; color: var(--muted); }
        .countdown { text-align: right; font-weight: 700; font-variant-numeric: tabular-nums; }
        .time { font-variant-numeric: tabular-nums; }
        .badge { font-size: 0.85rem; font-weight: 600; white-space: nowrap; }
        .c-green { color: var(--green); } .c-gray { color: var(--gray); } .c-orange { color: var(--orange); }
        .c-red { color: var(--red); } .c-yellow { color: var(--yellow); }
        .status-cancelled .dest, .status-skipped .dest { text-decoration: line-through; }
        .scheduled-note { font-style: italic; }
        .changed { font-weight: 700; color: var(--orange); }
        #map svg { width: 100%; height: auto; max-height: 22rem; background: var(--card); border: 1px solid var(--line);
          border-radius: 6px; }
        .legend { display: flex; flex-wrap: wrap; gap: 0.5rem; font-size: 0.9rem; }
        dialog { width: min(40rem, 96vw); max-height: 90vh; border: 1px solid var(--line); border-radius: 8px;
          background: var(--bg); color: var(--fg); padding: 1rem; }
        dialog ol { padding-left: 0; list-style: none; }
        dialog li { display: grid; grid-template-columns: 3.5rem 1fr auto; gap: 0.5rem; padding: 0.3rem 0;
          border-bottom: 1px solid var(--line); }
        .error { color: var(--red); }
        #planner { border: 1px solid var(--line); border-radius: 8px; background: var(--card); padding: 0.5rem 0.75rem;
          margin: 0.5rem 0; }
        #planner > summary { font-weight: 700; cursor: pointer; }
        #plan-form { margin: 0.5rem 0; }
        #plan-form .field { display: flex; flex-direction: column; gap: 0.2rem; flex: 1 1 11rem; min-width: 0; }
        #plan-form input, #plan-form select { font: inherit; padding: 0.45rem 0.6rem; border: 1px solid var(--line);
          border-radius: 6px; background: var(--bg); color: var(--fg); min-width: 0; flex: none; }
        label.check { font-weight: normal; display: flex; gap: 0.4rem; align-items: center; flex: 1 1 100%; }
        fieldset.modes { border: 0; padding: 0; margin: 0; flex: 1 1 100%; display: flex; flex-wrap: wrap; gap: 0.2rem 0.9rem; }
        fieldset.modes legend { padding: 0; margin-bottom: 0.2rem; }
        fieldset.modes label.check { flex: 0 0 auto; }
        #plan-my-location { align-self: flex-start; font-size: 0.9rem; padding: 0.2rem 0.6rem; }
        #plan-choices button { width: 100%; text-align: left; margin: 0.15rem 0; }
        ol.journeys { list-style: none; padding: 0; margin: 0.5rem 0; }
        ol.journeys > li { border-bottom: 1px solid var(--line); }
        .journey > summary { display: flex; flex-wrap: wrap; gap: 0.25rem 0.6rem; align-items: center; padding: 0.5rem 0.25rem;
          cursor: pointer; }
        ol.legs { list-style: none; margin: 0 0 0.5rem 0.5rem; padding: 0 0 0 0.75rem; border-left: 3px solid var(--line); }
        ol.legs > li { padding: 0.3rem 0; overflow-wrap: anywhere; }
        ol.legs .stops { display: block; color: var(--muted); font-size: 0.9rem; }
        .journey-map svg { width: 100%; height: auto; max-height: 18rem; background: var(--bg); border: 1px solid var(--line);
          border-radius: 6px; margin-bottom: 0.5rem; }
        .plan-here { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.25rem 0; }
        @media (max-width: 34rem) {
          .row { grid-template-columns: 3.25rem 1fr 4.25rem; }
          .row .route-cell { grid-column: 1; grid-row: 2; }
          .row .dest { grid-column: 2 / 4; grid-row: 2; }
          .row .badge { grid-column: 2; grid-row: 1; }
          .row .countdown { grid-column: 3; grid-row: 1; }
        }
        </style>
        </head>
        <body>
        <header>
          <h1>Transit board</h1>
          <span id="connection" class="pill state-offline" role="status">Connecting…</span>
        </header>
        <main>
          <form id="search-form" role="search">
            <label for="q">Stop or station</label>
            <input id="q" name="q" type="search" autocomplete="off" placeholder="e.g. Central" required>
            <button type="submit">Search</button>
          </form>
          <form id="token-form" hidden>
            <label for="token">Access token</label>
            <input id="token" type="password" autocomplete="off">
            <button type="submit">Use token</button>
          </form>
          <p id="message" role="alert" class="error"></p>
          <section id="results-section" aria-labelledby="results-title" hidden>
            <h2 id="results-title">Stops found</h2>
            <ul id="results" class="plain"></ul>
          </section>
          <details id="planner" data-events="0" data-journeys="0">
            <summary>Plan a journey</summary>
            <form id="plan-form" aria-label="Plan a journey">
              <div class="field"><label for="plan-from">From</label>
                <input id="plan-from" type="search" autocomplete="off" placeholder="Stop or station" required>
                <button type="button" id="plan-my-location">Use my location</button></div>
              <div class="field"><label for="plan-to">To</label>
                <input id="plan-to" type="search" autocomplete="off" placeholder="Stop or station" required></div>
              <div class="field"><label for="plan-when">When</label>
                <select id="plan-when"><option value="now">Leave now</option><option value="at">Leave at</option>
                  <option value="arrive_by">Arrive by</option></select></div>
              <div class="field"><label for="plan-time">Time (the places' clock)</label>
                <input id="plan-time" type="time" disabled></div>
              <label class="check"><input id="plan-wheelchair" type="checkbox"> Wheelchair accessible trips and stops only</label>
              <fieldset id="plan-modes" class="modes"><legend>Travel by</legend>
                <label class="check"><input type="checkbox" value="train" checked> Train</label>
                <label class="check"><input type="checkbox" value="metro" checked> Metro</label>
                <label class="check"><input type="checkbox" value="tram" checked> Light rail</label>
                <label class="check"><input type="checkbox" value="ferry" checked> Ferry</label>
                <label class="check"><input type="checkbox" value="bus" checked> Bus</label>
                <label class="check"><input type="checkbox" value="coach" checked> Coach</label>
                <label class="check"><input type="checkbox" value="cable" checked> Cable</label>
                <label class="check"><input type="checkbox" value="other" checked> Other</label>
              </fieldset>
              <button type="submit">Plan</button>
            </form>
            <p id="plan-error" role="alert" class="error"></p>
            <section id="plan-choices" aria-labelledby="plan-choices-title" hidden>
              <h3 id="plan-choices-title"></h3>
              <ul class="plain"></ul>
            </section>
            <p id="plan-status" class="muted" role="status" aria-live="polite"></p>
            <div id="plan-alerts" role="region" aria-label="Alerts on these journeys"></div>
            <ol id="journeys" class="journeys" aria-label="Journeys"></ol>
            <ul id="plan-dropped" class="plain muted" aria-label="Journeys not offered"></ul>
            <button type="button" id="plan-more" hidden></button>
          </details>
          <section id="board" aria-labelledby="board-title" hidden data-events="0" data-rows="0">
            <h2 id="board-title" tabindex="-1"></h2>
            <p class="plan-here"><button type="button" id="plan-from-here">Plan from here</button>
              <button type="button" id="plan-to-here">Plan to here</button></p>
            <p><span id="board-state" class="pill" aria-live="polite"></span>
              <span id="board-updated" class="muted"></span></p>
            <div id="alerts" role="region" aria-label="Service alerts"></div>
            <ol id="rows" class="rows" aria-label="Departures"></ol>
            <p id="empty" class="muted" hidden>No departures in the coming hours.</p>
            <section id="map" aria-labelledby="map-title">
              <h2 id="map-title">Routes from this stop</h2>
              <div id="map-body"></div>
            </section>
          </section>
          <dialog id="trip" aria-labelledby="trip-title">
            <h2 id="trip-title">Trip</h2>
            <p id="trip-summary" class="muted"></p>
            <ol id="trip-stops" aria-label="Stops of this trip"></ol>
            <form method="dialog"><button>Close</button></form>
          </dialog>
        </main>
        <script>
        "use strict";
        // The gateway's web board (protocol/GATEWAY.md §8): one-shot ops over HTTP (/v1/<op>), the live board over
        // the WebSocket (/v1/ws, `subscribe`). No dependencies; the page's state is in the DOM's data attributes.
        const $ = (id) => document.getElementById(id);
        const el = (tag, attrs, ...children) => {
          const node = document.createElement(tag);
          for (const [k, v] of Object.entries(attrs || {})) {
            if (v === null || v === undefined || v === false) continue;
            if (k === "class") node.className = v; else if (k === "text") node.textContent = v;
            else if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v);
          }
          for (const c of children) if (c !== null && c !== undefined) node.append(c);
          return node;
        };
        let token = sessionStorage.getItem("transit-token") || "";
        let current = null;   // {stopId, name, sub, timezone, at, receivedMs}
        let socket = null, socketReady = false, nextId = 1, retryMs = 1000;
        const pending = new Map();

        function say(text) { $("message").textContent = text || ""; }
        function authHeaders() { return token ? { Authorization: "Bearer " + token } : {}; }

        async function ask(op, fields) {
          const query = new URLSearchParams();
          for (const [k, v] of Object.entries(fields)) if (v !== null && v !== undefined) query.set(k, String(v));
          const response = await fetch("/v1/" + op + "?" + query, { headers: authHeaders() });
          const answer = await response.json();
          if (!answer.ok) {
            if (answer.error.code === "UNAUTHENTICATED") $("token-form").hidden = false;
            throw new Error(answer.error.code + ": " + answer.error.message);
          }
          return answer;
        }

        // ---- the WebSocket: one connection, requests matched to answers by id, events by sub ----
        function connect() {
          if (socket) return;
          const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/v1/ws";
          socket = new WebSocket(url);
          socket.onopen = async () => {
            socketReady = true; retryMs = 1000;
            setConnection("Connected", "state-live");
            try {
              if (token) await send({ op: "auth", token });
            } catch (e) {  // a wrong token: forget it and ask again (the gateway closes this connection)
              token = ""; sessionStorage.removeItem("transit-token"); $("token-form").hidden = false; say(e.message);
              return;
            }
            try { if (current) await subscribe(current.stopId, current.name); } catch (e) { say(e.message); }
            try { if (plan) await subscribePlan(); } catch (e) { planFailed(e); }
          };
          socket.onmessage = (message) => {
            const line = JSON.parse(message.data);
            if (line.event === "departures") { if (current && line.sub === current.sub) renderBoard(line); return; }
            if (line.event === "plan") { if (plan && line.sub === plan.sub) renderPlan(line); return; }
            if (line.event === "closing") { setConnection("Server restarting…", "state-offline"); return; }
            const waiter = pending.get(line.id);
            if (waiter) { pending.delete(line.id); waiter(line); }
          };
          socket.onclose = () => {
            socketReady = false;
            for (const waiter of pending.values()) waiter({ ok: false, error: { code: "CLOSED", message: "connection lost" } });
            pending.clear();
            socket = null;
            if (!current && !plan) {  // closed for being idle (no subscription): connect again when one is made
              setConnection("Idle", "state-scheduled");
              return;
            }
            if (current) current.sub = null;
            if (plan) { plan.sub = null; $("plan-status").textContent = "Disconnected: the journeys below may be out of date."; }
            setConnection("Disconnected: reconnecting…", "state-offline");
            markBoardOffline();
            setTimeout(connect, retryMs);
            retryMs = Math.min(retryMs * 2, 10000);
          };
        }
        function send(request) {
          return new Promise((resolve, reject) => {
            if (!socketReady) { reject(new Error("not connected")); return; }
            const id = nextId++;
            pending.set(id, (answer) => {
              if (answer.ok) { resolve(answer); return; }
              if (answer.error.code === "UNAUTHENTICATED") $("token-form").hidden = false;
              reject(new Error(answer.error.code + ": " + answer.error.message));
            });
            socket.send(JSON.stringify(Object.assign({ id }, request)));
          });
        }
        function setConnection(text, cls) { const c = $("connection"); c.textContent = text; c.className = "pill " + cls; }

        // ---- search ----
        $("search-form").addEventListener("submit", async (e) => {
          e.preventDefault();
          const q = $("q").value.trim();
          if (!q) return;
          say("");
          try {
            const answer = await ask("search", { q, limit: 8 });
            const list = $("results");
            list.replaceChildren();
            for (const stop of answer.data.stops) {
              list.append(el("li", {}, stopChoice(stop, () => openStop(stop.stop_id, stop.name))));
            }
            if (!answer.data.stops.length) list.append(el("li", { class: "muted", text: "No stop matches “" + q + "”." }));
            $("results-section").hidden = false;
            const first = list.querySelector("button");
            if (first) first.focus();
          } catch (err) { say(err.message); }
        });
        // A stop found by `search`, as a button: its name, mode, code and id (the search's results, the planner's choices).
        function stopChoice(stop, onclick) {
          const detail = [stop.mode, stop.code ? "code " + stop.code : null, "id " + stop.stop_id].filter(Boolean);
          return el("button", { type: "button", "data-stop-id": stop.stop_id, onclick },
            el("strong", { text: stop.name }), " ", el("span", { class: "muted", text: detail.join(" · ") }));
        }
        $("token-form").addEventListener("submit", (e) => {
          e.preventDefault();
          token = $("token").value;
          sessionStorage.setItem("transit-token", token);
          $("token-form").hidden = true;
          if (socket) socket.close();
        });

        // ---- the live board ----
        async function openStop(stopId, name) {
          say("");
          location.hash = linkFor(stopId, plan && plan.request);
          $("board").hidden = false;
          $("board-title").textContent = name || stopId;
          $("rows").replaceChildren();
          $("alerts").replaceChildren();
          $("map-body").replaceChildren();
          const board = $("board");
          board.dataset.events = "0"; board.dataset.rows = "0"; board.dataset.stopId = stopId;
          current = { stopId, name, sub: null, mapDrawn: false };
          $("results-section").hidden = true;
          $("board-title").focus();
          if (socketReady) { try { await subscribe(stopId, name); } catch (err) { say(err.message); } }
          else if (!socket) connect();  // onopen subscribes
          ask("stop", { stop_id: stopId }).then((a) => {
            if (current && current.stopId === stopId) { current.stop = a.data.stop; $("board-title").textContent = a.data.stop.name; }
          }).catch(() => {});
        }
        async function subscribe(stopId, name) {
          const previous = current && current.sub;
          if (previous) { current.sub = null; send({ op: "unsubscribe", sub: previous }).catch(() => {}); }
          const answer = await send({ op: "subscribe", topic: "departures", stop_id: stopId, limit: 12 });
          if (current && current.stopId === stopId) current.sub = answer.data.sub;
          else send({ op: "unsubscribe", sub: answer.data.sub }).catch(() => {});
        }

        const OCCUPANCY = { EMPTY: "Many seats", MANY_SEATS_AVAILABLE: "Many seats", FEW_SEATS_AVAILABLE: "Few seats",
          STANDING_ROOM_ONLY: "Standing room only", CRUSHED_STANDING_ROOM_ONLY: "Full", FULL: "Full",
          NOT_ACCEPTING_PASSENGERS: "Not boarding", NOT_BOARDABLE: "Not boarding" };
        const STATUS_TEXT = { scheduled: "Scheduled", cancelled: "Cancelled", skipped: "Skipped", added: "Extra service",
          detoured: "Detoured" };

        function clockText(unix, timezone) {
          if (unix === null || unix === undefined) return "--:--";
          return new Intl.DateTimeFormat("en-GB", { timeZone: timezone || "UTC", hour: "2-digit", minute: "2-digit",
            hourCycle: "h23" }).format(new Date(unix * 1000));
        }
        // The services' clock: the last event's meta.at, run on by the browser's clock (it may be a replayed day).
        function serviceNow() { return current && current.at ? current.at + (Date.now() - current.receivedMs) / 1000 : Date.now() / 1000; }
        function countdownText(unix) {
          const minutes = Math.trunc((unix - serviceNow()) / 60);
          return minutes === 0 ? "Now" : minutes > 0 ? minutes + " min" : -minutes + " min ago";
        }
        function boardState(meta) {
          if (!socketReady) return ["Offline: last board shown", "state-offline"];
          if (meta.source === "rt_only") return ["Live (timetable unavailable)", "state-stale"];
          if (meta.source === "static_only")
            return meta.stale ? ["Realtime stale: scheduled times", "state-stale"] : ["Scheduled times only", "state-scheduled"];
          return meta.stale ? ["Live, some data stale", "state-stale"] : ["Live", "state-live"];
        }
        function renderBoard(event) {
          const data = event.data, meta = event.meta;
          current.at = meta.at; current.receivedMs = Date.now(); current.timezone = data.timezone; current.meta = meta;
          const [stateText, stateClass] = boardState(meta);
          const state = $("board-state");
          state.textContent = stateText; state.className = "pill " + stateClass;
          const age = meta.feed_age_s === null ? "" : ", realtime " + meta.feed_age_s + " s old";
          $("board-updated").textContent = "Updated " + clockText(meta.at, data.timezone) + age;
          renderAlerts($("alerts"), data.alerts);
          const rows = $("rows");
          rows.replaceChildren();
          for (const row of data.departures) rows.append(el("li", {}, departureRow(row, data.timezone)));
          $("empty").hidden = data.departures.length > 0;
          // An empty board for a date no feed covers says so (meta.note), not "no departures".
          $("empty").textContent = meta.note || "No departures in the coming hours.";
          const board = $("board");
          board.dataset.events = String(Number(board.dataset.events) + 1);
          board.dataset.rows = String(data.departures.length);
          board.dataset.source = meta.source; board.dataset.stale = String(meta.stale);
          if (!current.mapDrawn && data.departures.length) { current.mapDrawn = true; drawMap(data.departures); }
        }
        function departureRow(row, timezone) {
          const when = row.realtime_unix ?? row.scheduled_unix;
          const label = [row.route_short_name || row.route_long_name, "to", row.headsign || "?", "at",
            clockText(when, timezone), row.delay_badge ? row.delay_badge.accessibility_label : STATUS_TEXT[row.status] || "",
            row.platform ? "platform " + row.platform : ""].join(" ");
          const details = [];
          if (row.platform) details.push(el("span", { class: row.platform_changed ? "changed" : null,
            text: "Platform " + row.platform + (row.platform_changed ? " (changed from " + (row.scheduled_platform || "?") + ")" : "") }));
          if (OCCUPANCY[row.occupancy_status]) details.push((details.length ? " · " : ""), OCCUPANCY[row.occupancy_status]);
          if (row.alert_ids.length) details.push((details.length ? " · " : ""), "⚠ alert");
          const badge = row.delay_badge
            ? el("span", { class: "badge c-" + row.delay_badge.color, text: row.delay_badge.text })
            : el("span", { class: "badge muted scheduled-note", text: STATUS_TEXT[row.status] || row.status });
          return el("button", { type: "button", class: "row status-" + row.status, "aria-label": label,
              "data-trip-id": row.trip_id, onclick: (e) => openTrip(row, e.currentTarget) },
            el("span", { class: "time", text: clockText(when, timezone) }),
            el("span", { class: "route-cell" }, routeBadge(row)),
            el("span", { class: "dest" }, row.headsign || row.route_long_name || "", details.length ? el("small", {}, ...details) : null),
            badge,
            el("span", { class: "countdown", "data-unix": String(when), "aria-hidden": "true", text: countdownText(when) }));
        }
        function renderAlerts(box, alerts) {
          box.replaceChildren();
          for (const a of alerts) {
            box.append(el("div", { class: "alert c-" + a.banner.color, "aria-label": a.banner.accessibility_label },
              el("strong", { text: a.header || a.effect }), a.description ? el("p", { text: a.description }) : null,
              a.url && /^https?:/.test(a.url) ? el("p", {}, el("a", { href: a.url, rel: "noopener", text: "More" })) : null));
          }
        }
        function markBoardOffline() {
          if (!current || !current.meta) return;
          const [t, c] = boardState(current.meta);
          $("board-state").textContent = t; $("board-state").className = "pill " + c;
        }
        setInterval(() => {
          for (const span of document.querySelectorAll(".countdown[data-unix]")) span.textContent = countdownText(Number(span.dataset.unix));
        }, 1000);

        // Whether a stop's name already says its platform ("Central Station, Platform 27"): then it is not said twice.
        const platformNamed = (name, platform) => (name || "").includes("Platform " + platform);

        // ---- a trip ----
        async function openTrip(row, opener) {
          const dialog = $("trip");
          $("trip-title").textContent = (row.route_short_name || row.route_id) + " to " + (row.headsign || "?");
          $("trip-summary").textContent = "Loading…";
          $("trip-stops").replaceChildren();
          dialog.showModal();
          dialog.addEventListener("close", () => opener && opener.focus(), { once: true });
          try {
            const answer = await ask("trip", { trip_id: row.trip_id, date: row.service_date, start_time: row.start_time });
            const trip = answer.data, tz = trip.timezone;
            const v = trip.vehicle;
            const parts = [trip.route.long_name, STATUS_TEXT[trip.status] || trip.status.replace("_", " ")];
            if (v) parts.push("vehicle " + (v.label || v.vehicle_id || "") + (OCCUPANCY[v.occupancy_status] ? ", " + OCCUPANCY[v.occupancy_status] : ""));
            $("trip-summary").textContent = parts.filter(Boolean).join(" · ");
            const list = $("trip-stops");
            for (const s of trip.stops) {
              const when = s.realtime_departure_unix ?? s.realtime_arrival_unix ?? s.scheduled_departure_unix ?? s.scheduled_arrival_unix;
              const badge = s.delay_badge ? el("span", { class: "badge c-" + s.delay_badge.color, text: s.delay_badge.text })
                : el("span", { class: "badge muted", text: STATUS_TEXT[s.status] || s.status });
              const here = current && (s.stop_id === current.stopId || s.parent_station === current.stopId);
              list.append(el("li", { "aria-current": here ? "location" : null },
                el("span", { class: "time", text: clockText(when, tz) }),
                el("span", {}, here ? el("strong", { text: s.stop_name || s.stop_id }) : (s.stop_name || s.stop_id),
                  s.platform && !platformNamed(s.stop_name, s.platform)
                    ? el("small", { class: "muted", text: " platform " + s.platform }) : null),
                badge));
            }
          } catch (err) { $("trip-summary").textContent = err.message; }
        }

        // ---- the map: the board's routes (`shape` by trip) and the stops around (`stops_in_bbox`), plain SVG ----
        function decodePolyline(text) {
          const points = []; let index = 0, lat = 0, lon = 0;
          const next = () => { let result = 0, shift = 0, b;
            do { b = text.charCodeAt(index++) - 63; result |= (b & 0x1f) << shift; shift += 5; } while (b >= 0x20);
            return (result & 1) ? ~(result >> 1) : (result >> 1); };
          while (index < text.length) { lat += next(); lon += next(); points.push([lat / 1e5, lon / 1e5]); }
          return points;
        }
        // A route's shape ([lat, lon] points) as an SVG line in its colour, through the map's projection x, y.
        function routeLine(points, x, y, colour) {
          const path = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
          path.setAttribute("points", points.map(([la, lo]) => x(lo) + "," + y(la)).join(" "));
          path.setAttribute("fill", "none");
          path.setAttribute("stroke", colour || "#666");
          path.setAttribute("stroke-width", "4");
          path.setAttribute("stroke-linejoin", "round");
          return path;
        }
        async function drawMap(rows) {
          const stopId = current.stopId;
          let centre = current.stop;
          try { if (!centre) centre = (await ask("stop", { stop_id: stopId })).data.stop; } catch (e) { return; }
          const W = 480, H = 320, halfLat = 0.02, cos = Math.cos(centre.lat * Math.PI / 180);
          const halfLon = halfLat * (W / H) / cos;
          const box = { min_lat: centre.lat - halfLat, max_lat: centre.lat + halfLat, min_lon: centre.lon - halfLon,
            max_lon: centre.lon + halfLon };
          const x = (lon) => ((lon - box.min_lon) / (2 * halfLon) * W).toFixed(1);
          const y = (lat) => ((box.max_lat - lat) / (2 * halfLat) * H).toFixed(1);
          const NS = "http://www.w3.org/2000/svg";
          const svg = document.createElementNS(NS, "svg");
          svg.setAttribute("viewBox", "0 0 " + W + " " + H);
          svg.setAttribute("role", "img");
          const title = document.createElementNS(NS, "title");
          svg.append(title);
          const seen = new Map();
          for (const r of rows) {
            const key = r.route_id + "/" + r.direction_id;
            if (!seen.has(key) && seen.size < 6) seen.set(key, r);
          }
          const legend = el("ul", { class: "legend plain", "aria-label": "Routes drawn" });
          const names = [];
          const shapes = await Promise.all([...seen.values()].map((r) => ask("shape", { trip_id: r.trip_id }).then(
            (a) => ({ r, points: decodePolyline(a.data.polyline) }), () => null)));
          for (const s of shapes.filter(Boolean)) {
            const path = routeLine(s.points, x, y, s.r.route_color);
            path.setAttribute("opacity", "0.8");
            svg.append(path);
            const name = (s.r.route_short_name || s.r.route_id) + " to " + (s.r.headsign || "?");
            names.push(name);
            legend.append(el("li", {}, el("span", { class: "route", style: "background:" + (s.r.route_color || "#666") +
              ";color:" + (s.r.route_text_color || "#FFFFFF"), text: s.r.route_short_name || s.r.route_id }), " " + (s.r.headsign || "")));
          }
          let around = [];
          try { around = (await ask("stops_in_bbox", Object.assign({ limit: 60 }, box))).data.stops; } catch (e) {}
          for (const s of around) {
            if (s.stop_id === stopId) continue;
            const dot = document.createElementNS(NS, "circle");
            dot.setAttribute("cx", x(s.lon)); dot.setAttribute("cy", y(s.lat)); dot.setAttribute("r", "3");
            dot.setAttribute("fill", "var(--muted)");
            const t = document.createElementNS(NS, "title"); t.textContent = s.name; dot.append(t);
            svg.append(dot);
          }
          const here = document.createElementNS(NS, "circle");
          here.setAttribute("cx", x(centre.lon)); here.setAttribute("cy", y(centre.lat)); here.setAttribute("r", "7");
          here.setAttribute("fill", "var(--focus)"); here.setAttribute("stroke", "#fff"); here.setAttribute("stroke-width", "2");
          svg.append(here);
          title.textContent = "Map around " + centre.name + ": " + (names.join(", ") || "no route lines") + "; " +
            around.length + " stops nearby";
          if (current && current.stopId === stopId) $("map-body").replaceChildren(svg, legend);
        }

        // ---- plan a journey: `subscribe` with topic "plan" over the WebSocket, so the journeys stay live (a ride's
        // new times, a broken change and its replacement come as events; GATEWAY.md, subscribe) ----
        let plan = null;   // {request, sub, events}
        const places = { from: $("plan-from"), to: $("plan-to") };
        // A field's place, as the plan op takes it: {stop_id} or {lat, lon} (the rider's location), kept while the
        // field shows the name it was given.
        function setPlace(which, place, name) {
          const field = places[which];
          field.value = name; field.dataset.place = JSON.stringify(place); field.dataset.name = field.value;
        }
        // A place as the rider typed it: the place picked for this text, else the one stop whose name it is, else
        // the one stop found; several: the rider chooses (null; choosing plans again).
        async function resolvePlace(which) {
          const field = places[which], text = field.value.trim(), label = which === "from" ? "From" : "To";
          if (!text) throw new Error(label + ": type a stop or station.");
          if (field.dataset.place && field.dataset.name === field.value) return JSON.parse(field.dataset.place);
          const stops = (await ask("search", { q: text, limit: 8 })).data.stops;
          if (!stops.length) throw new Error(label + ": no stop matches “" + text + "”.");
          const exact = stops.filter((s) => s.name.toLowerCase() === text.toLowerCase());
          const pick = exact.length === 1 ? exact[0] : stops.length === 1 ? stops[0] : null;
          if (pick) { setPlace(which, { stop_id: pick.stop_id }, pick.name); return { stop_id: pick.stop_id }; }
          const box = $("plan-choices"), list = box.querySelector("ul");
          $("plan-choices-title").textContent = label + ": which “" + text + "”?";
          list.replaceChildren(...stops.map((stop) => el("li", {}, stopChoice(stop, () => {
            box.hidden = true; setPlace(which, { stop_id: stop.stop_id }, stop.name); $("plan-form").requestSubmit();
          }))));
          box.hidden = false;
          list.querySelector("button").focus();
          return null;
        }
        // The parts of a moment on a zone's wall clock, and the moment of a wall-clock time in a zone (two rounds
        // of the zone's offset: exact but for the hour a DST change skips).
        function zonedParts(unix, timezone) {
          const parts = {};
          for (const p of new Intl.DateTimeFormat("en-US", { timeZone: timezone, hourCycle: "h23", year: "numeric",
            month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" }).formatToParts(new Date(unix * 1000)))
            if (p.type !== "literal") parts[p.type] = Number(p.value);
          return parts;
        }
        function zonedUnix(year, month, day, hour, minute, timezone) {
          const wall = Date.UTC(year, month - 1, day, hour, minute) / 1000;
          let t = wall;
          for (let i = 0; i < 2; i++) {
            const p = zonedParts(t, timezone);
            t = wall - (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000 - t);
          }
          return t;
        }
        // "20:30" on the services' day (their clock may be a replayed one) in the places' zone: both from a one-row
        // board (`meta.at`, `timezone`) of the origin, or of the stop nearest to it when it is the rider's location.
        async function servicesInstant(place, hhmm) {
          let stopId = place.stop_id;
          if (!stopId) {
            const near = (await ask("nearby", { lat: place.lat, lon: place.lon, radius_m: 5000, limit: 1 })).data.stops;
            if (!near.length) throw new Error("No stop within 5 km of your location: its clock and time zone are unknown.");
            stopId = near[0].stop_id;
          }
          const answer = await ask("departures", { stop_id: stopId, limit: 1 });
          const day = zonedParts(answer.meta.at, answer.data.timezone);
          const [hour, minute] = hhmm.split(":").map(Number);
          return zonedUnix(day.year, day.month, day.day, hour, minute, answer.data.timezone);
        }
        function planFailed(err) { $("plan-status").textContent = ""; $("plan-error").textContent = err.message; }
        $("plan-when").addEventListener("change", () => {
          const now = $("plan-when").value === "now";
          $("plan-time").disabled = now;
          if (!now && !$("plan-time").value) $("plan-time").focus();
        });
        $("plan-form").addEventListener("submit", async (e) => {
          e.preventDefault();
          $("plan-error").textContent = "";
          $("plan-choices").hidden = true;
          try {
            const from = await resolvePlace("from");
            if (!from) return;
            const to = await resolvePlace("to");
            if (!to) return;
            const request = { op: "subscribe", topic: "plan", from, to };
            if ($("plan-wheelchair").checked) request.wheelchair = true;
            // Every mode ticked: none sent (the op's default, all).
            const modes = [...document.querySelectorAll("#plan-modes input")];
            const chosen = modes.filter((m) => m.checked).map((m) => m.value);
            if (!chosen.length) throw new Error("Tick at least one way to travel.");
            if (chosen.length < modes.length) request.modes = chosen;
            const when = $("plan-when").value;
            if (when !== "now") {
              if (!$("plan-time").value) throw new Error("Give a time, or choose “Leave now”.");
              request[when] = await servicesInstant(from, $("plan-time").value);
            }
            startPlan(request);
          } catch (err) { planFailed(err); }
        });
        async function startPlan(request) {
          if (plan && plan.sub) send({ op: "unsubscribe", sub: plan.sub }).catch(() => {});
          plan = { request, sub: null, events: 0 };
          history.replaceState(null, "", "#" + linkFor(current && current.stopId, request));
          const box = $("planner");
          box.dataset.events = "0"; box.dataset.journeys = "0";
          for (const id of ["journeys", "plan-alerts", "plan-dropped"]) $(id).replaceChildren();
          $("plan-more").hidden = true;
          $("plan-status").textContent = "Planning…";
          if (socketReady) { try { await subscribePlan(); } catch (err) { planFailed(err); } }
          else if (!socket) connect();  // onopen subscribes
        }
        async function subscribePlan() {
          const p = plan;
          let answer;
          try { answer = await send(p.request); } catch (err) {
            // Refused (an unknown stop, the same place twice, …): nothing to keep live. A lost connection: the next
            // one subscribes again.
            if (plan === p && !err.message.startsWith("CLOSED")) plan = null;
            throw err;
          }
          if (plan === p) p.sub = answer.data.sub; else send({ op: "unsubscribe", sub: answer.data.sub }).catch(() => {});
        }
        function planFrom(which) {
          if (!current) return;
          setPlace(which, { stop_id: current.stopId }, $("board-title").textContent);
          const box = $("planner");
          box.open = true;
          const other = places[which === "from" ? "to" : "from"];
          if (other.value.trim()) $("plan-form").requestSubmit(); else other.focus();
          box.scrollIntoView({ block: "nearest" });
        }
        $("plan-from-here").addEventListener("click", () => planFrom("from"));
        $("plan-to-here").addEventListener("click", () => planFrom("to"));
        $("plan-more").addEventListener("click", () => {
          if (!plan) return;
          const more = $("plan-more"), unix = Number(more.dataset.unix), when = plan.request.arrive_by !== undefined ? "arrive_by" : "at";
          const request = Object.assign({}, plan.request);
          delete request.at; delete request.arrive_by;
          request[when] = unix;
          startPlan(request);  // its first answer sets the form's time
        });
        // The rider's location as the origin: the plan walks from it to the stops within `access_radius_m`. Browsers
        // give it only to secure pages (https, or this machine), and only when the rider allows it.
        $("plan-my-location").addEventListener("click", () => {
          $("plan-error").textContent = "";
          if (!navigator.geolocation) { planFailed(new Error("This browser does not give its location.")); return; }
          $("plan-status").textContent = "Finding your location…";
          navigator.geolocation.getCurrentPosition((position) => {
            const c = position.coords, round = (v) => Math.round(v * 1e6) / 1e6;
            setPlace("from", { lat: round(c.latitude), lon: round(c.longitude) }, "My location (±" + Math.round(c.accuracy) + " m)");
            $("plan-status").textContent = "";
            if (places.to.value.trim()) $("plan-form").requestSubmit(); else places.to.focus();
          }, (err) => planFailed(new Error("Your location is not available: " + err.message +
            (window.isSecureContext ? "" : " (browsers give it only to pages over https or on this machine)"))),
          { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
        });

        // ---- the page's address says what it shows, to bookmark or share: the open stop's board and the plan
        // (#stop=ID&from=ID&to=ID&at=UNIX; a place may be the rider's location, geo:LAT,LON) ----
        const placeText = (place) => place.stop_id !== undefined ? place.stop_id : "geo:" + place.lat + "," + place.lon;
        function placeOf(text) {
          const geo = /^geo:(-?[0-9.]+),(-?[0-9.]+)$/.exec(text);
          return geo ? { lat: Number(geo[1]), lon: Number(geo[2]) } : { stop_id: text };
        }
        function linkFor(stopId, request) {
          const link = new URLSearchParams();
          if (stopId) link.set("stop", stopId);
          if (request) {
            link.set("from", placeText(request.from)); link.set("to", placeText(request.to));
            for (const k of ["at", "arrive_by"]) if (request[k] !== undefined) link.set(k, String(request[k]));
            if (request.wheelchair) link.set("wheelchair", "1");
            if (request.modes) link.set("modes", request.modes.join(","));
          }
          return link.toString();
        }
        async function openLink(hash) {
          const link = new URLSearchParams(hash.replace(/^#/, ""));
          if (link.get("stop")) openStop(link.get("stop"), null);
          if (!link.get("from") || !link.get("to")) return;
          const request = { op: "subscribe", topic: "plan", from: placeOf(link.get("from")), to: placeOf(link.get("to")) };
          for (const k of ["at", "arrive_by"]) {
            if (!link.has(k)) continue;
            if (!/^[0-9]+$/.test(link.get(k))) {
              $("planner").open = true;
              planFailed(new Error("This page's address has " + k + "=" + link.get(k) + ": not a time (unix seconds)."));
              return;
            }
            request[k] = Number(link.get(k));
          }
          if (link.get("wheelchair") === "1") request.wheelchair = true;
          $("plan-wheelchair").checked = !!request.wheelchair;
          if (link.get("modes")) request.modes = link.get("modes").split(",");
          for (const m of document.querySelectorAll("#plan-modes input")) {
            m.checked = !request.modes || request.modes.includes(m.value);
          }
          $("planner").open = true;
          // The fields show the places' names (a stop's from `stop`); a time is shown once the first answer gives
          // the zone (renderPlan).
          for (const which of ["from", "to"]) {
            const place = request[which];
            let name = place.stop_id === undefined ? "Location " + place.lat + ", " + place.lon : place.stop_id;
            if (place.stop_id !== undefined) {
              try { name = (await ask("stop", { stop_id: place.stop_id })).data.stop.name; } catch (e) {}
            }
            setPlace(which, place, name);
          }
          startPlan(request);
        }
        function durationText(seconds) {
          const minutes = Math.round(seconds / 60);
          return minutes < 60 ? minutes + " min" : Math.floor(minutes / 60) + " h " + String(minutes % 60).padStart(2, "0");
        }
        // A route's short name in its colours (a board row, or a plan's boarding row; none for an added trip).
        function routeBadge(row) {
          if (!row) return el("span", { class: "route", text: "+", title: "Extra service" });
          const style = row.route_color ? "background:" + row.route_color + ";color:" + (row.route_text_color || "#FFFFFF") : null;
          return el("span", { class: "route", style, text: row.route_short_name || row.route_id });
        }
        // A ride's new times as a shift ("leaves 40 s later (20:05)"): predictions move by seconds, which the
        // clock times alone would not show.
        function shiftText(verb, now, before, tz) {
          const d = now - before, size = Math.abs(d) < 60 ? Math.abs(d) + " s" : Math.round(Math.abs(d) / 60) + " min";
          return verb + " " + (d === 0 ? "as before" : size + (d > 0 ? " later" : " earlier")) + " (" + clockText(now, tz) + ")";
        }
        // `journey` and `leg` index this event's journeys and their legs (walks included): the ride is named by its
        // route, as the journey's summary shows it.
        function changeText(change, journeys, tz) {
          const leg = change.type === "times" && journeys[change.journey] && journeys[change.journey].legs[change.leg];
          const ride = leg && leg.board ? leg.board.route_short_name || leg.board.route_id : "the extra service";
          if (change.type === "times") return "Journey " + (change.journey + 1) + ", " + ride + " " +
            shiftText("leaves", change.departure_unix, change.previous_departure_unix, tz) + ", " +
            shiftText("arrives", change.arrival_unix, change.previous_arrival_unix, tz);
          if (change.type === "broken") return "A journey shown before is no longer possible: " + change.reason;
          if (change.type === "replaced") return "A journey shown before is no longer among the best";
          if (change.type === "new") return "New: journey " + (change.journey + 1);
          return change.type;
        }
        function renderPlan(event) {
          const data = event.data, meta = event.meta, tz = data.timezone;
          plan.events += 1;
          // The form says the time planned (a plan opened from a link, "Later journeys"), once: later events must not
          // undo what the rider is typing.
          const when = plan.request.arrive_by !== undefined ? "arrive_by" : plan.request.at !== undefined ? "at" : "now";
          if (plan.events === 1) { $("plan-when").value = when; $("plan-time").disabled = when === "now"; }
          if (plan.events === 1 && when !== "now") $("plan-time").value = clockText(plan.request[when], tz);
          const box = $("planner");
          box.dataset.events = String(plan.events); box.dataset.journeys = String(data.journeys.length);
          const notes = [];
          if (!data.journeys.length) notes.push(data.reason || "No journey found.");
          else notes.push(data.journeys.length === 1 ? "1 journey" : data.journeys.length + " journeys");
          if (data.realtime_stale) notes.push("live data stale: scheduled times");
          else if (meta.source === "static_only") notes.push("scheduled times only");
          if (data.cut) notes.push("the search ran out of time: these are the journeys it found");
          // (Not meta.at: a plan subscription's answers all hold for the time it was made.)
          if (event.changes.length) notes.push("live update: " +
            event.changes.map((c) => changeText(c, data.journeys, tz)).join("; "));
          $("plan-status").textContent = notes.join(" · ");
          renderAlerts($("plan-alerts"), data.alerts);
          // A live update draws the journeys again: those the rider had opened stay open.
          const opened = new Set([...document.querySelectorAll("#journeys .journey[open]")].map((d) => d.dataset.key));
          $("journeys").replaceChildren(...data.journeys.map((j) => el("li", {}, journeyItem(j, tz, opened))));
          $("plan-dropped").replaceChildren(...data.live_dropped.map((why) => el("li", { text: "Not offered: " + why })));
          // The next journeys: leaving a minute after the earliest of these leaves (for "arrive by": arriving a
          // minute before the earliest of these arrives).
          const more = $("plan-more"), byArrival = plan.request.arrive_by !== undefined;
          more.hidden = !data.journeys.length;
          more.textContent = byArrival ? "Earlier journeys" : "Later journeys";
          more.dataset.unix = String(byArrival ? Math.min(...data.journeys.map((j) => j.arrival_unix)) - 60
            : Math.min(...data.journeys.map((j) => j.departure_unix)) + 60);
        }
        // A journey is the same journey when it rides the same trips from the same stops (GATEWAY.md, subscribe).
        function journeyKey(j) {
          return j.legs.filter((l) => l.type === "transit").map((l) => [l.board ? l.board.trip_id + "@" +
            l.board.service_date : l.added_trip_id, l.board ? l.board.stop_id : "", (l.alight || {}).stop_id].join("/")).join(" ");
        }
        function journeyItem(j, tz, opened) {
          const rides = j.legs.filter((l) => l.type === "transit");
          const live = rides.some((l) => l.live);
          const summary = el("summary", {},
            el("strong", { class: "time", text: clockText(j.departure_unix, tz) + " → " + clockText(j.arrival_unix, tz) }),
            // The minutes between the two clock times shown (a duration rounded on its own could disagree with them).
            el("span", { text: durationText(60 * (Math.floor(j.arrival_unix / 60) - Math.floor(j.departure_unix / 60))) }),
            el("span", { class: "muted", text: j.transfers === 0 ? "direct" : j.transfers + (j.transfers === 1 ? " change" : " changes") }),
            j.walk_s ? el("span", { class: "muted", text: "walk " + durationText(j.walk_s) }) : null,
            el("span", {}, ...rides.flatMap((l, i) => i ? [" ", routeBadge(l.board)] : [routeBadge(l.board)])),
            el("span", { class: "badge " + (live ? "c-green" : "muted"), text: live ? "live" : "scheduled" }));
          const key = journeyKey(j);
          const details = el("details", { class: "journey", "data-key": key, "data-departure-unix": String(j.departure_unix),
            "data-arrival-unix": String(j.arrival_unix) }, summary,
            el("ol", { class: "legs", "aria-label": "Legs of this journey" }, ...j.legs.map((l) => legItem(l, tz))));
          const drawMap = () => {
            if (details.open && !details.querySelector("svg")) { const map = journeyMap(rides); if (map) details.append(map); }
          };
          details.addEventListener("toggle", drawMap);
          if (opened.has(key)) { details.open = true; drawMap(); }
          return details;
        }
        // The rides' shapes (each leg's polyline, in its route's colour) on a plain SVG fitted to them.
        function journeyMap(rides) {
          const lines = rides.filter((l) => l.polyline).map((l) => ({ leg: l, points: decodePolyline(l.polyline) }));
          const all = lines.flatMap((line) => line.points);
          if (!all.length) return null;
          const lats = all.map((p) => p[0]), lons = all.map((p) => p[1]);
          const cos = Math.cos((Math.min(...lats) + Math.max(...lats)) / 2 * Math.PI / 180);
          const minLon = Math.min(...lons), maxLat = Math.max(...lats);
          const w = Math.max((Math.max(...lons) - minLon) * cos, 1e-4), h = Math.max(maxLat - Math.min(...lats), 1e-4);
          const W = 480, H = Math.round(Math.min(360, Math.max(160, W * h / w))), pad = 12;
          const scale = Math.min((W - 2 * pad) / w, (H - 2 * pad) / h);
          const left = (W - w * scale) / 2, top = (H - h * scale) / 2;  // centred
          const x = (lon) => (left + (lon - minLon) * cos * scale).toFixed(1), y = (lat) => (top + (maxLat - lat) * scale).toFixed(1);
          const NS = "http://www.w3.org/2000/svg", svg = document.createElementNS(NS, "svg");
          svg.setAttribute("viewBox", "0 0 " + W + " " + H);
          svg.setAttribute("role", "img");
          const title = document.createElementNS(NS, "title");
          title.textContent = "Map of this journey: " + lines.map((line) => (line.leg.board &&
            (line.leg.board.route_short_name || line.leg.board.route_id)) || "extra service").join(", then ");
          svg.append(title);
          for (const line of lines) {
            svg.append(routeLine(line.points, x, y, line.leg.board && line.leg.board.route_color));
          }
          // Where each ride is boarded and left.
          for (const [la, lo] of lines.flatMap((line) => [line.points[0], line.points[line.points.length - 1]])) {
            const dot = document.createElementNS(NS, "circle");
            dot.setAttribute("cx", x(lo)); dot.setAttribute("cy", y(la));
            dot.setAttribute("r", "5"); dot.setAttribute("fill", "var(--card)");
            dot.setAttribute("stroke", "var(--fg)"); dot.setAttribute("stroke-width", "2");
            svg.append(dot);
          }
          return el("div", { class: "journey-map" }, svg);
        }
        function legItem(leg, tz) {
          if (leg.type === "walk") {
            return el("li", { class: "walk" }, "Walk " + Math.round(leg.distance_m) + " m, " + durationText(leg.duration_s) +
              " to " + (leg.to_stop_name || leg.to_stop_id || "your destination"));
          }
          const b = leg.board, a = leg.alight || {};
          const badge = b && b.delay_badge ? el("span", { class: "badge c-" + b.delay_badge.color, text: b.delay_badge.text })
            : el("span", { class: "badge muted", text: leg.live ? "live" : b ? STATUS_TEXT[b.status] || b.status : "Extra service" });
          // A platform the stop's name already says is not said twice, unless it changed.
          const boardName = leg.board_stop_name || (b && b.stop_id) || "?", alightName = a.stop_name || a.stop_id || "?";
          const platform = b && b.platform && (b.platform_changed || !platformNamed(boardName, b.platform))
            ? el("span", { class: b.platform_changed ? "changed" : null, text: ", platform " + b.platform +
              (b.platform_changed ? " (changed from " + (b.scheduled_platform || "?") + ")" : "") }) : null;
          const between = leg.intermediate_stops.length;
          return el("li", { class: "ride" },
            el("span", { class: "time", text: clockText(leg.departure_unix, tz) }), " ", routeBadge(b), " ",
            b && b.headsign ? "to " + b.headsign + " " : "", badge,
            el("span", { class: "stops" }, "from " + boardName, platform,
              (OCCUPANCY[b && b.occupancy_status] ? " · " + OCCUPANCY[b.occupancy_status] : ""),
              " · " + (between === 0 ? "no stop between" : between === 1 ? "1 stop between" : between + " stops between")),
            el("span", { class: "stops" }, el("span", { class: "time", text: clockText(leg.arrival_unix, tz) }),
              " arrive " + alightName + (a.platform && !platformNamed(alightName, a.platform) ? ", platform " + a.platform : "")));
        }

        connect();
        openLink(location.hash);
        </script>
        </body>
        </html>
        """#
}
