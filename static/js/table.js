// Companion phone page: taps on [data-action] post that action; 4xx answers are swapped in
// (they carry the rule that refused the move); the screen stays awake during a game; after
// a sleep the page re-fetches its fragment (the websocket extension reconnects by itself).
(function () {
  "use strict";
  // The idempotency key of a tap: one per (seat, table version, move), so a double tap or a second click
  // on the same button is a retry of the first (the server answers it with the first answer, writes
  // nothing) instead of a stale move refused 409. Two 32-bit FNV-1a hashes of the move (64 bits):
  // two different moves of one seat at one version would need to collide in both.
  function fnv(text, seed) {
    var h = seed >>> 0;
    for (var i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
    return ("0000000" + h.toString(16)).slice(-8);
  }
  function tapKey(seat, version, action) {
    return "tap-" + seat + "-" + version + "-" + fnv(action, 2166136261) + fnv(action, 84696351);
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) {
      htmx.config.responseHandling = [
        { code: "204", swap: false },
        { code: "[23]..", swap: true },
        { code: "4..", swap: true, error: false },
        { code: "...", swap: false, error: true },
      ];
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
    // shows the board targets marked data-for="<piece>" (class "dest").
    document.body.addEventListener("click", function (event) {
      var picker = event.target.closest("[data-open]");
      if (!picker || !live.contains(picker)) return;
      var piece = picker.getAttribute("data-pawn") || picker.getAttribute("data-piece");
      document.querySelectorAll("#table .dest").forEach(function (d) {
        d.classList.toggle("shown", d.getAttribute("data-for") === piece);
      });
      document.querySelectorAll("#table [data-open]").forEach(function (p) { p.classList.toggle("selected", p === picker); });
      var list = document.getElementById(picker.getAttribute("data-open"));
      if (list) {
        document.querySelectorAll("#table details[data-pawn-moves]").forEach(function (d) { d.open = d === list; });
        list.open = true;
      }
    });
    document.body.addEventListener("click", function (event) {
      var el = event.target.closest("[data-action]");
      if (!el || !live.contains(el)) return;
      event.preventDefault();
      var table = document.getElementById("table");
      // The source is the page's stable container: a push may replace the tapped button's region before
      // the answer arrives, and htmx cannot aim an answer from a button no longer on the page.
      htmx.ajax("POST", live.dataset.actUrl, {
        source: live, target: "#table", swap: "outerHTML",
        values: { action: el.getAttribute("data-action"), version: table ? table.dataset.version : "",
                  key: tapKey(table ? table.dataset.seat : "", table ? table.dataset.version : "", el.getAttribute("data-action")) },
      });
    });
    // Forms marked data-post (Undo my move) post the same way, answered by the #table fragment.
    document.body.addEventListener("submit", function (event) {
      var form = event.target.closest("form[data-post]");
      if (!form || !live.contains(form)) return;
      event.preventDefault();
      var values = {};
      new FormData(form).forEach(function (value, name) { values[name] = value; });
      htmx.ajax("POST", form.dataset.post, { source: live, target: "#table", swap: "outerHTML", values: values });
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
    // open lists open.
    var openLists = [];
    document.body.addEventListener("htmx:wsBeforeMessage", function (event) {
      var table = document.getElementById("table");
      var message = event.detail.message || "";
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
        table.querySelectorAll(":scope > .banner.error, :scope > .actionbar > .banner.error").forEach(function (b) { b.remove(); });
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
    document.body.addEventListener("htmx:wsClose", function () {
      document.body.classList.add("offline"); document.body.dataset.ws = "closed";
    });
    var socket = null;
    document.body.addEventListener("htmx:wsOpen", function (event) {
      // After a close (Redis or the server was away) the "version N" messages of the gap are lost; the
      // reopened socket sends every region that differs from what this page first held (games/live.py).
      document.body.classList.remove("offline"); document.body.dataset.ws = "open";
      socket = event.detail.socketWrapper;
    });
    // Heartbeat: name the last push this page applied; the socket answers with whatever changed since
    // (a frame or a group message lost while the socket stayed open), or nothing (games/consumers.py).
    setInterval(function () {
      var mark = document.getElementById("r-frame");
      if (socket && mark && document.body.dataset.ws === "open" && document.visibilityState === "visible") {
        socket.send(JSON.stringify({ frame: mark.dataset.frame || "" }));
      }
    }, 20000);
    keepAwake();
    markTapsWhileLive(live);
  });
  // While the websocket is open a tap says so (X-Live-Socket: open): the server then answers a done
  // move with 204 and this phone's socket pushes what changed, as it does on every other phone
  // (games/views.py _answer_write). Without an open socket the answer is the whole #table, as before.
  function markTapsWhileLive(live) {
    document.body.addEventListener("htmx:configRequest", function (event) {
      var source = event.detail.elt;
      if (event.detail.verb !== "post" || !source || !live.contains(source)) return;
      if (document.body.dataset.ws === "open") event.detail.headers["X-Live-Socket"] = "open";
    });
  }
})();

// The table is felt (issue 9): the last move lights up on the board, my turn shows in the tab title with a short
// vibration and an optional beep (turned off per phone, localStorage "companion.sound"), a dropped socket says
// "Reconnecting…", and − / + steppers set counts without typing. Public board pieces only: what changed between two
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
    document.title = mine ? "● " + live.dataset.yourTurn + " · " + baseTitle : baseTitle;
    if (mine && wasMine === false) {
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
  // Every button in thumb reach (issue 9): the action bar scrolls inside itself; bring ``el`` (its controls, or a fold
  // just opened in it) into the bar's view, scrolling as little as possible and never past el's top.
  function revealInBar(bar, el) {
    var b = bar.getBoundingClientRect(), r = el.getBoundingClientRect();
    var below = r.bottom - b.bottom;
    if (below > 0) bar.scrollTop += Math.max(0, Math.min(below, r.top - b.top));
  }
  // Once per version on my turn: the step's controls in view (the prompt above them stays when there is room).
  function barToControls() {
    var bar = document.getElementById("actionbar"), meta = document.getElementById("r-meta");
    if (!bar || !meta || meta.dataset.myTurn !== "1" || bar.dataset.shownAt === meta.dataset.version) return;
    bar.dataset.shownAt = meta.dataset.version;
    var controls = bar.querySelector("section.controls");
    if (controls && controls.offsetHeight) revealInBar(bar, controls);
  }
  function afterRender() { highlight(); turnSignal(); soundButtons(); barToControls(); }
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
      if (bar && d.open) revealInBar(bar, d);
    }, true);
    if (!document.getElementById("live")) return;
    document.body.addEventListener("click", function (event) {
      var b = event.target.closest(".sound-toggle");
      if (!b) return;
      try { localStorage.setItem("companion.sound", soundOn() ? "0" : "1"); } catch (e) { /* private mode */ }
      soundButtons();
      if (soundOn()) beep();
    });
    document.body.addEventListener("htmx:wsBeforeMessage", remember);
    document.body.addEventListener("htmx:beforeSwap", remember);
    document.body.addEventListener("htmx:wsAfterMessage", afterRender);
    document.body.addEventListener("htmx:afterSettle", afterRender);
    var banner = document.getElementById("reconnecting");
    document.body.addEventListener("htmx:wsClose", function () { if (banner) banner.hidden = false; });
    document.body.addEventListener("htmx:wsError", function () { if (banner) banner.hidden = false; });
    document.body.addEventListener("htmx:wsOpen", function () { if (banner) banner.hidden = true; });
    afterRender();
  });
})();
