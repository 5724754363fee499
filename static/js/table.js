// Companion phone page. While the page's websocket is open, a tap on [data-action] (a move) and the forms marked
// data-post (undo my move) or data-command (a correction answer) are sent as messages on it (games/socket/socket_taps.py):
// the seat is the socket's own, a refusal comes back as a banner in #tap-refusal, and a done tap is answered by the
// push every phone gets. Taps made while the socket is down wait on the phone (sessionStorage, in order, each with its
// key and the version it was made at) and are sent once when it is back. A page whose socket never opened posts its
// taps over HTTP (4xx answers are swapped in with the rule that refused the move).
(function () {
  "use strict";
  // The idempotency key of a tap: a random part made on this page, the table version and a 64-bit hash of the tap (two
  // 32-bit FNV-1a), so a double tap sends the same key (the server answers the second with the first answer and
  // writes nothing) while no other phone can guess it.
  function fnv(text, seed) {
    var h = seed >>> 0;
    for (var i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
    return ("0000000" + h.toString(16)).slice(-8);
  }
  function randomHex(bytes) {
    var a = new Uint8Array(bytes);
    (window.crypto || window.msCrypto).getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  var NONCE = randomHex(8);
  function tapKey(version, what) {
    return "t-" + NONCE + "-" + version + "-" + fnv(what, 2166136261) + fnv(what, 84696351);
  }
  var HEARTBEAT_MS = 2000;   // a heartbeat (and its pong) every 2 s while the page is in sight
  var DEAD_MS = 4500;        // nothing heard for this long: the socket is dead, whatever the browser thinks
  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) {
      htmx.config.responseHandling = [
        { code: "204", swap: false },
        { code: "[23]..", swap: true },
        { code: "4..", swap: true, error: false },
        { code: "...", swap: false, error: true },
      ];
      // Reconnect soon after the network returns: at most about 3 s between two attempts.
      htmx.config.wsReconnectDelay = function (n) { return Math.min(3000, 300 * Math.pow(2, n)) * (0.5 + Math.random() / 2); };
    }
    // Lobby: show one name/colour row per player chosen.
    function showSeatRows() {
      var players = document.querySelector("select[name=players]");
      if (!players) return;
      document.querySelectorAll(".seat-row").forEach(function (row, i) { row.hidden = i >= Number(players.value); });
    }
    document.body.addEventListener("change", function (event) {
      if (event.target.matches("select[name=players]")) showSeatRows();
    });
    document.body.addEventListener("htmx:afterSwap", showSeatRows);
    showSeatRows();
    var live = document.getElementById("live");
    if (!live) return;
    // Pick, then place: tapping a piece with data-open="ID" opens the list ID of its moves and
    // shows the board targets marked data-for="<piece>" (class "dest"). The pick is marked "selected" on the
    // piece, or on the hit area it names in data-hit (a small target over a larger one).
    document.body.addEventListener("click", function (event) {
      var picker = event.target.closest("[data-open]");
      if (!picker || !live.contains(picker)) return;
      var piece = picker.getAttribute("data-pawn") || picker.getAttribute("data-piece");
      var picked = (picker.hasAttribute("data-hit") && document.getElementById(picker.getAttribute("data-hit"))) || picker;
      document.querySelectorAll("#table .dest").forEach(function (d) {
        d.classList.toggle("shown", d.getAttribute("data-for") === piece);
      });
      document.querySelectorAll("#table [data-open]").forEach(function (p) { p.classList.toggle("selected", p === picked); });
      var list = document.getElementById(picker.getAttribute("data-open"));
      if (list) {
        document.querySelectorAll("#table details[data-pawn-moves]").forEach(function (d) { d.open = d === list; });
        list.open = true;
      }
    });

    // -- the socket: open, alive, or down -----------------------------------------------------------------------
    var raw = null;          // the WebSocket while it is open and alive
    var wrapper = null;      // the ws extension's socket wrapper (reconnect)
    var everOpen = false;    // taps go over the socket (or wait for it) once it has opened on this page
    var heard = 0;           // Date.now() of the last message from the server
    var lastPing = 0, pings = 0;
    var wasDown = false;
    var gone = false;        // the server closed the socket with 4403: this phone no longer holds a seat
    var STORE = "companion.taps." + (live.dataset.actUrl || "");
    function isOpen() { return !!raw && raw.readyState === 1; }
    var memory = [];         // the waiting taps, where sessionStorage cannot keep them (private mode)
    function pendingTaps() {
      try {
        var stored = sessionStorage.getItem(STORE);
        if (stored !== null) return JSON.parse(stored);
      } catch (e) { /* not kept: the copy in memory */ }
      return memory.slice();
    }
    function keep(list) {
      memory = list.slice();
      try { sessionStorage.setItem(STORE, JSON.stringify(list)); } catch (e) { /* private mode: kept in memory only */ }
      showState();
    }
    function localDigits(text) {
      if (document.documentElement.dataset.digits !== "persian") return text;
      return text.replace(/[0-9]/g, function (d) { return "۰۱۲۳۴۵۶۷۸۹"[+d]; });
    }
    function showState() {
      var banner = document.getElementById("reconnecting");
      var count = document.getElementById("taps-waiting");
      var back = document.getElementById("back-in-sync");
      var down = !isOpen() && !gone;  // a phone without a seat is not waiting to reconnect
      var n = pendingTaps().length;
      document.body.classList.toggle("offline", down && everOpen);
      document.body.dataset.ws = isOpen() ? "open" : "closed";
      document.body.dataset.tapsWaiting = String(n);
      if (banner) banner.hidden = !(down && everOpen);
      if (count) {
        count.hidden = !(down && n);
        // The plural form for n (one tap: the first, else the second; templatetags/companion.py taps_waiting).
        count.textContent = localDigits(((n === 1 ? count.dataset.one : count.dataset.many) || "").replace("%(n)s", String(n)));
      }
      if (back && down) back.hidden = true;
    }
    function ping() {
      if (!isOpen()) return;
      var mark = document.getElementById("r-frame");
      lastPing = Date.now();
      pings += 1;
      raw.send(JSON.stringify({ frame: mark ? mark.dataset.frame || "" : "", ping: pings }));
      return pings;
    }
    // Send every waiting tap, in order, then a heartbeat: its pong comes after the server handled them all (one
    // socket's messages are handled in order), and only then are they forgotten. A tap sent on a socket that died
    // before its pong is sent again on the next one, under the same key: applied once, whatever happened.
    function flush() {
      if (!isOpen()) return;
      var list = pendingTaps();
      var fresh = list.filter(function (t) { return !t.ping; });
      if (!fresh.length) return;
      fresh.forEach(function (t) { raw.send(JSON.stringify(t.message)); });
      var n = ping();
      fresh.forEach(function (t) { t.ping = n; });
      keep(list);
    }
    function tap(message) {
      if (gone) return;
      var list = pendingTaps();
      if (list.some(function (t) { return t.message.key === message.key; })) { flush(); return; }  // a double tap
      list.push({ message: message, ping: 0 });
      keep(list);
      flush();
    }
    function pong(n) {
      var list = pendingTaps();
      var left = list.filter(function (t) { return !t.ping || t.ping > n; });
      if (left.length !== list.length) keep(left);
      if (wasDown && !left.length) {
        wasDown = false;
        var back = document.getElementById("back-in-sync");
        if (back) { back.hidden = false; setTimeout(function () { back.hidden = true; }, 2500); }
      }
    }
    // The socket is dead (offline event, missed heartbeats): say so at once, close it quietly and open a new one.
    function dropSocket() {
      var old = raw;
      raw = null;
      wasDown = wasDown || everOpen;
      if (old) {
        old.onclose = null; old.onerror = null;
        try { old.close(); } catch (e) { /* already closing */ }
        if (wrapper && !gone) setTimeout(function () { if (!gone) wrapper.reconnect(); }, 250);
      }
      showState();
    }
    document.body.addEventListener("htmx:wsOpen", function (event) {
      // After a close the group messages of the gap are lost; the reopened socket sends every region that differs
      // from what this page first held (games/live.py), then the taps that waited go, in order.
      wrapper = event.detail.socketWrapper;
      raw = event.detail.event && event.detail.event.target;
      everOpen = true;
      heard = lastPing = Date.now();  // the first heartbeat once the socket's first push (if any) is applied
      var mark = document.getElementById("r-frame");
      if (mark) mark.dataset.frame = "";  // a push of the socket before is unknown to this one
      var list = pendingTaps();
      list.forEach(function (t) { t.ping = 0; });
      keep(list);
      flush();
      showState();
    });
    // The seat was handed over (close code 4403, games/socket/consumers.py): no reconnecting, the waiting taps are dropped
    // (no seat would take them), every control is disabled and the page says what to do.
    function seatGone() {
      gone = true;
      raw = null;
      keep([]);
      var ws = document.querySelector("[ws-connect]");
      if (ws) ws.removeAttribute("ws-connect");
      document.body.classList.add("seat-gone");
      document.querySelectorAll("#table button, #table input, #table select, #table textarea").forEach(function (c) {
        c.disabled = true;
      });
      var note = document.getElementById("seat-gone");
      if (note) { note.textContent = live.dataset.seatGone || ""; note.hidden = false; }
      var back = document.getElementById("back-in-sync");
      if (back) back.hidden = true;
      showState();
    }
    document.body.addEventListener("htmx:wsClose", function (event) {
      var closed = event.detail && event.detail.event;
      if (closed && closed.code === 4403) { seatGone(); return; }
      raw = null; wasDown = wasDown || everOpen; showState();
    });
    document.body.addEventListener("htmx:wsError", function () { if (raw && raw.readyState !== 1) { raw = null; showState(); } });
    window.addEventListener("offline", dropSocket);
    // Heartbeat: name the last push this page applied; the socket answers with whatever changed since (a frame or a
    // group message lost while the socket stayed open), then a pong. Nothing heard for DEAD_MS: the socket is dead.
    setInterval(function () {
      if (!isOpen() || document.visibilityState !== "visible") return;
      var now = Date.now();
      if (now - heard > DEAD_MS) { dropSocket(); return; }
      if (now - lastPing >= HEARTBEAT_MS) ping();
    }, 500);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { heard = Date.now(); ping(); }
    });
    showState();

    // -- taps ------------------------------------------------------------------------------------------------------
    function version() { var table = document.getElementById("table"); return table ? Number(table.dataset.version) : 0; }
    // The socket carries taps once it has opened on this page, or while taps already wait for it (a reload), or when
    // the phone knows it is offline; a page whose socket never opened (a network that refuses websockets) posts them.
    function overSocket() { return everOpen || isOpen() || navigator.onLine === false || pendingTaps().length > 0; }
    document.body.addEventListener("click", function (event) {
      var el = event.target.closest("[data-action]");
      if (!el || !live.contains(el)) return;
      event.preventDefault();
      if (gone) return;  // no seat: nothing to send
      var action = el.getAttribute("data-action");
      var table = document.getElementById("table");
      var v = table ? table.dataset.version : "";
      if (overSocket()) {
        var payload;
        try { payload = JSON.parse(action); } catch (e) { payload = action; }
        tap({ action: payload, version: Number(v), key: tapKey(v, action) });
        return;
      }
      // The source is the page's stable container: a push may replace the tapped button's region before
      // the answer arrives, and htmx cannot aim an answer from a button no longer on the page.
      htmx.ajax("POST", live.dataset.actUrl, {
        source: live, target: "#table", swap: "outerHTML",
        values: { action: action, version: v, key: tapKey(v, action) },
      });
    });
    // Forms marked data-post (Undo my move) and data-command (a correction answer).
    document.body.addEventListener("submit", function (event) {
      var form = event.target.closest("form[data-post], form[data-command]");
      if (!form || !live.contains(form)) return;
      var values = {};
      new FormData(form).forEach(function (value, name) { values[name] = value; });
      if (event.submitter && event.submitter.name) values[event.submitter.name] = event.submitter.value;
      if (overSocket()) {
        event.preventDefault();
        var v = values.version !== undefined ? Number(values.version) : version();
        if (form.dataset.command === "correction") {
          var answer = values.answer === "yes" ? "yes" : "no";
          tap({ command: "correction", args: { id: Number(form.dataset.id), answer: answer }, version: v,
                key: tapKey(v, "correction " + form.dataset.id + " " + answer) });
        } else {
          tap({ command: "undo_mine", args: {}, version: v, key: tapKey(v, "undo_mine") });
        }
        return;
      }
      if (!form.dataset.post) return;  // a correction answer without a socket: the plain form post
      event.preventDefault();
      values.key = tapKey(values.version, "undo_mine");
      htmx.ajax("POST", form.dataset.post, { source: live, target: "#table", swap: "outerHTML", values: values });
    });
    // The plain list of moves (hx-post forms): while the socket carries taps, the move goes on it instead.
    document.body.addEventListener("htmx:configRequest", function (event) {
      var source = event.detail.elt;
      if (event.detail.verb !== "post" || !source || !live.contains(source) || source === live) return;
      var params = event.detail.parameters || {};
      var action = params.get ? params.get("action") : params.action;
      if (!action) return;
      var v = params.get ? params.get("version") : params.version;
      if (!overSocket()) {  // posted: with this page's own key, not the one written in the form
        if (params.set) params.set("key", tapKey(v, action)); else params.key = tapKey(v, action);
        return;
      }
      event.preventDefault();
      var payload;
      try { payload = JSON.parse(action); } catch (e) { payload = action; }
      tap({ action: payload, version: Number(v), key: tapKey(v, action) });
    });
    function resync() {
      htmx.ajax("GET", live.dataset.fragmentUrl, { target: "#table", swap: "outerHTML" });
    }
    var lock = null;
    function keepAwake() {
      if (navigator.wakeLock && document.visibilityState === "visible") {
        navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
      }
    }
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { keepAwake(); resync(); }
    });
    // A push carries only the regions that changed (games/live.py), as out-of-band swaps; #r-meta
    // holds the version it brings. A push the phone already shows (its own tap's answer arrived
    // first) is skipped, so a list the player just opened does not snap shut; real updates keep
    // open lists open. A pong is read here and goes no further.
    var openLists = [];
    document.body.addEventListener("htmx:wsBeforeMessage", function (event) {
      heard = Date.now();
      var table = document.getElementById("table");
      var message = event.detail.message || "";
      var pinged = /^<i id="r-pong" hidden data-ping="(\d+)"><\/i>$/.exec(message);
      if (pinged) { pong(Number(pinged[1])); event.preventDefault(); return; }
      var sig = /id="r-meta"[^>]*data-sig="([^"]*)"/.exec(message);
      if (table && sig && sig[1] === table.dataset.sig && message.indexOf('id="r-static"') < 0) {
        var skipped = /id="r-frame"[^>]*data-frame="([^"]*)"/.exec(message);  // shown already: still applied
        var mark = document.getElementById("r-frame");
        if (skipped && mark) mark.dataset.frame = skipped[1];
        event.preventDefault(); return;
      }
      openLists = Array.prototype.map.call(document.querySelectorAll("#table details[open][id]"),
                                           function (d) { return d.id; });
    });
    var LOG_LINES = 40;
    document.body.addEventListener("htmx:wsAfterMessage", function () {
      openLists.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
      var table = document.getElementById("table");
      var meta = document.getElementById("r-meta");
      if (table && meta && meta.dataset.version !== table.dataset.version) {
        table.dataset.version = meta.dataset.version;
        table.dataset.sig = meta.dataset.sig;
        table.classList.toggle("my-turn", meta.dataset.myTurn === "1");
        // The table moved on: refusals of earlier taps no longer hold (a refusal sent with this push comes after it).
        table.querySelectorAll(":scope > .banner.error, :scope > .actionbar > .banner.error, #tap-refusal > *").forEach(function (b) { b.remove(); });
      } else if (table && meta) {
        table.dataset.sig = meta.dataset.sig;
        table.classList.toggle("my-turn", meta.dataset.myTurn === "1");
      }
      var lines = document.querySelectorAll("#loglines > li");
      for (var i = LOG_LINES; i < lines.length; i++) lines[i].remove();
      clearNotices();
    });
    // One-off notices ("Correction proposed…") belong to the moment they were made: once the
    // table changes they go, so they never linger for dozens of moves.
    function clearNotices() {
      document.querySelectorAll("ul.messages").forEach(function (m) { m.remove(); });
    }
    document.body.addEventListener("htmx:afterSwap", clearNotices);
    keepAwake();
  });
})();

// The table is felt: the last move lights up on the board, my turn shows in the tab title, with a short vibration and
// an optional beep (turned off per phone, localStorage "companion.sound") only when it becomes my turn, and − / +
// steppers set counts without typing. Public board pieces only: what changed between two
// renders of the board region is what the last move changed (the same on every phone).
(function () {
  "use strict";
  var PIECES = "[data-pawn], use[data-tile], g[data-leader], rect.pagoda, .province .bid-card, line.ship[data-route], use.lair[data-site], g.island[data-island], g.castle";
  var PASSING = /\b(tap|legal|on|sel|off|selected|shown|picking|last-move)\b/g;
  function keyOf(el) {
    if (el.dataset.pawn) return "pawn:" + el.dataset.pawn;
    if (el.dataset.tile) return "tile:" + el.dataset.tile;
    if (el.dataset.leader) return "leader:" + el.dataset.leader;
    if (el.dataset.route) return "ship:" + el.dataset.route;
    if (el.dataset.site) return "lair:" + el.dataset.site;
    if (el.dataset.island) return "island:" + el.dataset.island;
    var province = el.closest(".province");
    if (province) return "province:" + province.dataset.province;
    return el.tagName + ":" + (el.getAttribute("x") || "") + "," + (el.getAttribute("y") || "");
  }
  function valueOf(el) {
    var cls = (el.getAttribute("class") || "").replace(PASSING, "").replace(/\s+/g, " ").trim();
    var inner = el.querySelector("use");
    return [cls, el.dataset.loc, el.dataset.owner, el.dataset.card, el.getAttribute("transform"),
            inner ? inner.getAttribute("transform") : "", el.matches("g.island, g.castle") ? el.querySelectorAll("use, circle").length : ""].join("|");
  }
  function pieces() {
    var out = {};
    var board = document.getElementById("r-board");
    if (!board) return null;
    board.querySelectorAll(PIECES).forEach(function (el) { if (!el.hasAttribute("data-action")) out[keyOf(el)] = valueOf(el); });
    return out;
  }
  var before = null;
  var lastKeys = [];
  function remember() { before = pieces(); }
  function highlight() {
    var now = pieces();
    if (!now) return;
    var table = document.getElementById("table");
    var store = "companion.lastMove." + (document.getElementById("live").dataset.actUrl || "");
    if (before) {
      var changed = Object.keys(now).filter(function (k) { return before[k] !== now[k]; });
      if (changed.length && changed.length <= 6) {  // a whole new board (first render, new round) is no move
        lastKeys = changed;
        try { sessionStorage.setItem(store, JSON.stringify({ v: table && table.dataset.version, keys: changed })); } catch (e) { /* private mode */ }
      }
    } else {
      // A reload keeps the light of the move this phone saw last, while the table is still at that version.
      try {
        var kept = JSON.parse(sessionStorage.getItem(store) || "null");
        if (kept && table && kept.v === table.dataset.version) lastKeys = kept.keys;
      } catch (e) { /* nothing kept */ }
    }
    before = now;
    var board = document.getElementById("r-board");
    board.querySelectorAll(PIECES).forEach(function (el) {
      el.classList.toggle("last-move", !el.hasAttribute("data-action") && lastKeys.indexOf(keyOf(el)) >= 0);
    });
  }
  // Whose turn: the tab title, a vibration and a beep when it becomes mine.
  var baseTitle = document.title;
  var wasMine = null;
  var signalledAt = null;
  function soundOn() { try { return localStorage.getItem("companion.sound") !== "0"; } catch (e) { return true; } }
  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx || !soundOn()) return;
    try {
      var ctx = beep.ctx || (beep.ctx = new Ctx());
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 880; gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.15);
    } catch (e) { /* no audio on this phone */ }
  }
  function turnSignal() {
    var meta = document.getElementById("r-meta");
    var live = document.getElementById("live");
    if (!meta || !live) return;
    var mine = meta.dataset.myTurn === "1";
    document.title = mine ? "● " + live.dataset.yourTurn + " — " + baseTitle : baseTitle;
    if (mine && wasMine === false && signalledAt !== meta.dataset.version) {  // it became MY turn, at a new version
      signalledAt = meta.dataset.version;
      if (navigator.vibrate) { try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ } }
      beep();
    }
    wasMine = mine;
  }
  function soundButtons() {
    document.querySelectorAll(".sound-toggle").forEach(function (b) {
      var on = soundOn();
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.textContent = on ? b.dataset.on : b.dataset.off;
    });
  }
  // Every button in thumb reach: the action bar scrolls inside itself; bring ``el`` (its controls, or a fold
  // just opened in it) into the bar's view, scrolling as little as possible and never past el's top.
  function revealInBar(bar, el) {
    barHandle();  // the handle shows when the bar overflows: count it before scrolling
    var b = bar.getBoundingClientRect(), r = el.getBoundingClientRect();
    var handle = document.getElementById("bar-handle"), over = handle && !handle.hidden ? handle.offsetHeight : 0;
    var below = r.bottom - b.bottom;
    if (below > 0) bar.scrollTop += Math.max(0, Math.min(below, r.top - b.top - over));
    clearOfHandle(bar, el);
  }
  // What the bar scrolls to (its controls, a fold just opened and its title) is never left under its sticky handle,
  // measured from the handle's own box (its inset is negative, its height 44 px).
  function clearOfHandle(bar, el) {
    var handle = document.getElementById("bar-handle"), top = (el.querySelector(":scope > summary") || el);
    var floor = handle && !handle.hidden ? handle.getBoundingClientRect().bottom : bar.getBoundingClientRect().top;
    var gap = top.getBoundingClientRect().top - floor;
    if (gap < 0) bar.scrollTop += Math.floor(gap) - 2;
  }
  // Once per version on my turn: the step's controls in view (the prompt above them stays when there is room).
  function barToControls() {
    var bar = document.getElementById("actionbar"), meta = document.getElementById("r-meta");
    if (!bar || !meta || meta.dataset.myTurn !== "1" || bar.dataset.shownAt === meta.dataset.version) return;
    bar.dataset.shownAt = meta.dataset.version;
    var controls = bar.querySelector("section.controls");
    if (controls && controls.offsetHeight) revealInBar(bar, controls);
  }
  // The bar takes at most a third of the screen (companion.css); its handle shows when it holds more than that, and
  // opens it (body.bar-open, so it stays open across pushes) until tapped again.
  function barHandle() {
    var bar = document.getElementById("actionbar"), handle = document.getElementById("bar-handle");
    if (!bar || !handle) return;
    var open = document.body.classList.contains("bar-open");
    handle.setAttribute("aria-expanded", open ? "true" : "false");
    handle.hidden = !open && bar.scrollHeight <= bar.clientHeight + 2;
    // Named for what it opens: the moves only when the bar holds moves ("More moves" is Yellow & Yangtze's fold).
    var label = bar.querySelector("section.pregame.start form") ? handle.dataset.start
      : bar.querySelector("section.controls button, section.controls [data-action]") ? handle.dataset.moves
      : bar.querySelector("section.pregame.walk") ? handle.dataset.setup : handle.dataset.all;
    if (label && handle.textContent !== label) handle.textContent = label;
  }
  function walkFold() {
    var fold = document.getElementById("walk-fold"), open = false;
    try { open = sessionStorage.getItem("companion.walkOpen") === "1"; } catch (e) { /* private mode */ }
    if (fold && open && !fold.open) fold.open = true;
  }
  // A fold swapped in open fires "toggle" after the swap: that one must not scroll the bar off the step's controls.
  var arrivedOpen = new WeakSet();
  function noteArrivedOpen(event) {
    var el = event.target;
    if (!el || !el.querySelectorAll || !el.closest) return;
    var folds = Array.prototype.slice.call(el.querySelectorAll("details[open]"));
    if (el.matches("details[open]")) folds.push(el);
    folds.forEach(function (d) { if (d.closest("#actionbar")) arrivedOpen.add(d); });
  }
  function afterRender() { walkFold(); highlight(); turnSignal(); soundButtons(); barHandle(); barToControls(); }
  // − / + steppers: each changes its input within min/max and tells the page's own listeners (input event).
  function step(event) {
    var button = event.target.closest && event.target.closest(".stepper button[data-step]");
    if (!button) return;
    var input = button.parentNode.querySelector("input");
    if (!input || input.disabled) return;
    var n = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
    var min = input.min === "" ? 0 : +input.min, max = input.max === "" ? Infinity : +input.max;
    input.value = String(Math.max(min, Math.min(max, n)));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("click", step);
    document.addEventListener("toggle", function (event) {  // a fold opened in the bar: its choices in view
      var d = event.target, bar = d.closest && d.closest("#actionbar");
      if (arrivedOpen.has(d)) { arrivedOpen.delete(d); if (d.open) return; }
      if (d.id === "walk-fold") {  // the walkthrough opens the bar with it, and stays open across the host's ticks (a reload)
        document.body.classList.toggle("bar-open", d.open);
        try { sessionStorage.setItem("companion.walkOpen", d.open ? "1" : "0"); } catch (e) { /* private mode */ }
      }
      if (bar) barHandle();  // first: the handle that opening may show is counted when the fold is scrolled to
      if (bar && d.open) revealInBar(bar, d);
      if (bar && d.open && d.id === "walk-fold") clearOfHandle(bar, d);
    }, true);
    document.body.addEventListener("click", function (event) {
      var handle = event.target.closest && event.target.closest("#bar-handle");
      if (!handle) return;
      document.body.classList.toggle("bar-open");
      barHandle();
    });
    window.addEventListener("resize", barHandle);
    if (!document.getElementById("live")) return;
    document.body.addEventListener("click", function (event) {
      var b = event.target.closest(".sound-toggle");
      if (!b) return;
      try { localStorage.setItem("companion.sound", soundOn() ? "0" : "1"); } catch (e) { /* private mode */ }
      soundButtons();
      if (soundOn()) beep();
    });
    document.body.addEventListener("htmx:oobAfterSwap", noteArrivedOpen);  // a push's region, just swapped in
    document.body.addEventListener("htmx:afterSwap", noteArrivedOpen);     // an answer over HTTP
    document.body.addEventListener("htmx:wsBeforeMessage", remember);
    document.body.addEventListener("htmx:beforeSwap", remember);
    document.body.addEventListener("htmx:wsAfterMessage", afterRender);
    document.body.addEventListener("htmx:afterSettle", afterRender);
    noteArrivedOpen({ target: document.getElementById("actionbar") });  // the folds the page loads open
    afterRender();
  });
})();
