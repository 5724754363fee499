// Yellow & Yangtze board editor: taps on the grid edit the hidden JSON field "cells"
// ({"q,r": {"terrain": "land"|"yellow"|"yangtze"|"off", "capital"?: name}}); the server checks it all again.
(function () {
  "use strict";
  var CYCLE = ["land", "yellow", "yangtze", "off"];
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("yy-editor");
    if (!form) return;
    var field = form.querySelector("input[name=cells]");
    var cells = {};
    try { cells = JSON.parse(field.value || "{}"); } catch (e) { cells = {}; }
    function save() { field.value = JSON.stringify(cells); }
    function paint(g) {
      var cell = cells[g.dataset.key] || { terrain: "off" };
      g.setAttribute("class", "cell " + cell.terrain);
      g.dataset.terrain = cell.terrain;
      g.dataset.capital = cell.capital || "";
      g.querySelector("text").textContent = cell.capital || "";  // the whole name: "Zhao" fits a cell
    }
    form.addEventListener("click", function (event) {
      var g = event.target.closest("g.cell");
      if (!g) return;
      var key = g.dataset.key;
      var cell = cells[key] || { terrain: "off" };
      var tool = (form.querySelector("input[name=tool]:checked") || {}).value || "terrain";
      if (tool === "terrain") {
        cell.terrain = CYCLE[(CYCLE.indexOf(cell.terrain) + 1) % CYCLE.length];
        if (cell.terrain !== "land") delete cell.capital;
      } else {
        // One hex per capital: take it off any other hex, put it on land here (tap again to remove it).
        var had = cell.capital === tool;
        Object.keys(cells).forEach(function (k) {
          if (cells[k].capital === tool) {
            delete cells[k].capital;
            var other = form.querySelector('g.cell[data-key="' + k + '"]');
            if (other && k !== key) paint(other);
          }
        });
        if (!had) { cell.terrain = "land"; cell.capital = tool; }
      }
      cells[key] = cell;
      paint(g);
      save();
    });
  });
})();
