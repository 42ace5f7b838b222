// qrelsmith audit page. Crawled text is only ever set through textContent, never parsed as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("audit-data").textContent);
  var VERDICTS = ["correct", "wrong", "partly", "unsure"];
  var KEYS = { "1": "correct", "2": "wrong", "3": "partly", "4": "unsure",
               c: "correct", w: "wrong", p: "partly", u: "unsure" };
  // A pool page (audit pool) brings its own verdicts and keys: one candidate document per row.
  var POOL = data.kind === "pool";
  if (POOL) { VERDICTS = data.verdicts; KEYS = data.keys; }
  var ADVANCE = data.advance || "correct";
  function keyOf(row) { return row.key || row.cells.qid; }
  var FORMULA_STARTS = ["=", "+", "-", "@", "\t", "\r"];
  var storageKey = "qrelsmith-audit:" + data.sample_id;
  var state = load();
  var $ = function (id) { return document.getElementById(id); };

  function load() {
    var saved = null;
    try { saved = JSON.parse(window.localStorage.getItem(storageKey) || "null"); } catch (e) { saved = null; }
    if (!saved || typeof saved !== "object" || !saved.rows) { saved = { pos: 0, rows: {} }; }
    return saved;
  }
  function save() {
    try { window.localStorage.setItem(storageKey, JSON.stringify(state)); } catch (e) { /* private mode: keep in memory */ }
  }
  function entry(row) {
    var qid = keyOf(row);
    if (!state.rows[qid]) { state.rows[qid] = { verdict: "", sections: row.matched.slice(), none: false, note: "" }; }
    return state.rows[qid];
  }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }
  function sectionsOf(row) { return data.articles[row.article] || []; }

  // The section's text in parts: its own text as paragraphs, each sub-heading (H3-H6) as a
  // heading with its level. The answer's span comes as pieces [part, start, end] (offsets in
  // the part's text, computed by page.py), each in a <mark>.
  function sectionText(row, s) {
    var box = el("div", undefined, "section-text");
    var span = row.evidence && row.evidence.section === s.id ? row.evidence : null;
    var named = row.named ? row.named[s.id] : undefined;
    s.parts.forEach(function (part, i) {
      var level = part[0], text = part[1];
      var node = level ? el("div", undefined, "sub") : el("p");
      if (level) {
        node.setAttribute("role", "heading");
        node.setAttribute("aria-level", String(Math.min(6, level + 2)));
        node.setAttribute("data-level", String(level));
        node.appendChild(el("span", "H" + level, "level"));
      }
      var done = 0;
      (span ? span.marks : []).forEach(function (m) {
        if (m[0] !== i) { return; }
        node.appendChild(document.createTextNode(text.slice(done, m[1])));
        var mark = el("mark", text.slice(m[1], m[2]));
        mark.title = "the answer, as written in this section";
        node.appendChild(mark);
        done = m[2];
      });
      node.appendChild(document.createTextNode(text.slice(done)));
      if (level && named === i) { node.appendChild(el("span", "named by the reference", "named")); }
      box.appendChild(node);
    });
    return box;
  }

  // Where in its section the label and the answer point, when a sub-heading tells: the
  // sub-heading the reference names, the one the answer's span lies under.
  function subheadingLines(row) {
    var lines = [];
    sectionsOf(row).forEach(function (s) {
      var where = "#" + s.n + " " + s.heading;
      var named = row.named ? row.named[s.id] : undefined;
      if (named !== undefined) {
        lines.push("the reference names the H" + s.parts[named][0] + " \u201c" + s.parts[named][1] + "\u201d in " + where);
      }
      var span = row.evidence;
      if (span && span.section === s.id && span.under !== null && span.under !== undefined) {
        var under = s.parts[span.under];
        lines.push("the answer is under the H" + under[0] + " \u201c" + under[1] + "\u201d in " + where);
      }
    });
    return lines;
  }

  function showText(row, ids) {
    var box = $("text");
    clear(box);
    var shown = sectionsOf(row).filter(function (s) { return ids.indexOf(s.id) >= 0; });
    $("text-heading").textContent = shown.length ? "Section text" : "No section selected";
    shown.forEach(function (s) {
      var heading = el("h4", "#" + s.n + " " + s.heading);
      if (POOL) { heading.appendChild(el("span", s.id === row.candidate ? "candidate" : "label", "elsewhere")); }
      else if (row.evidence && row.evidence.section === s.id && row.matched.indexOf(s.id) < 0) {
        heading.appendChild(el("span", "answer found here, not in the label", "elsewhere"));
      }
      else if (row.matched.indexOf(s.id) >= 0) { heading.appendChild(el("span", "label", "label")); }
      box.appendChild(heading);
      box.appendChild(sectionText(row, s));
    });
    // #reader (position: sticky) is the mark's offsetParent: scroll it to the span.
    var mark = box.querySelector("mark");
    $("reader").scrollTop = mark ? Math.max(0, mark.offsetTop - 80) : 0;
  }

  // The labelled sections, and the one holding the answer when it is another.
  function initialSections(row) {
    if (row.show) { return row.show.slice(); }
    var ids = row.matched.slice();
    if (row.evidence && ids.indexOf(row.evidence.section) < 0) { ids.push(row.evidence.section); }
    return ids;
  }

  // Why audit apply would refuse a row's verdict as it stands ("" when it would take it): a
  // 'wrong' label whose own section is still ticked, or a 'partly' that ticks just the label.
  function mismatch(row, mine) {
    if (POOL || mine.none || (mine.verdict !== "wrong" && mine.verdict !== "partly")) { return ""; }
    var kept = sectionsOf(row).filter(function (s) {
      return mine.sections.indexOf(s.id) >= 0 && row.matched.indexOf(s.id) >= 0;
    });
    var same = mine.sections.slice().sort().join("|") === row.matched.slice().sort().join("|");
    if (mine.verdict === "wrong" && kept.length) {
      var names = kept.map(function (s) { return "#" + s.n + " " + s.heading; }).join(", ");
      return "'wrong', but the label's own section is still ticked (" + names + "): untick it " +
        "and tick the right one(s), or choose 'partly' if it answers in part";
    }
    if (!mine.sections.length) {
      return "'" + mine.verdict + "' needs the right section(s) ticked, or 'no section of the " +
        "article answers it'";
    }
    if (mine.verdict === "partly" && same) {
      return "'partly', but only the label's own section is ticked: tick the section(s) " +
        "that answer the rest";
    }
    return "";
  }

  function renderStatus() {
    var total = data.rows.length;
    var row = data.rows[state.pos];
    var mine = entry(row);
    $("counter").textContent = (state.pos + 1) + " / " + total;
    var done = data.rows.filter(function (r) { var v = state.rows[keyOf(r)]; return v && v.verdict; }).length;
    var toFix = data.rows.filter(function (r) { var v = state.rows[keyOf(r)]; return v && mismatch(r, v); }).length;
    $("progress").value = total ? done / total : 0;
    $("done").textContent = done + " reviewed" + (toFix ? ", " + toFix + " to fix" : "");
    var why = mismatch(row, mine);
    $("warning").textContent = why;
    $("warning").hidden = !why;
    Array.prototype.forEach.call(document.querySelectorAll("#verdicts button"), function (b) {
      var on = b.getAttribute("data-verdict") === mine.verdict;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    Array.prototype.forEach.call(document.querySelectorAll("#headings input"), function (box) {
      box.checked = mine.sections.indexOf(box.value) >= 0;
    });
    $("none").checked = mine.none;
    // Only the ticks lock on 'correct': the headings still show their text.
    Array.prototype.forEach.call(document.querySelectorAll("#pick input"), function (box) {
      box.disabled = mine.verdict === "correct";
    });
  }

  // Why this row is in the sample, in a reviewer's words (the CSV keeps stratum and weight).
  var STRATA = {
    low_confidence: "drawn among the labels the tool is least sure of",
    fuzzy: "drawn among labels matched by resemblance or by the table's order",
    multi: "drawn among references naming several sections",
    plain: "drawn among the other labels",
    rereview: "to review again: it changed since the last review",
    carried: "reviewed before, verdict carried over"
  };
  function whyDrawn(stratum, weight) {
    var text = STRATA[stratum] || stratum;
    var stands = Number(weight);
    if (stands > 1) { text += "; it stands for " + stands.toFixed(1) + (POOL ? " pairs" : " labels") + " like it"; }
    return text;
  }

  function render() {
    var total = data.rows.length;
    if (!total) { $("counter").textContent = "empty sample"; return; }
    state.pos = Math.max(0, Math.min(state.pos || 0, total - 1));
    var row = data.rows[state.pos];
    var c = row.cells;
    $("qid").textContent = c.qid;
    $("stratum").textContent = whyDrawn(c.stratum, c.weight);
    $("rule").textContent = row.rule || (c.match + " " + c.confidence);
    $("path").textContent = c.path;
    $("query").textContent = c.query;
    $("answer").textContent = c.answer;
    $("reference").textContent = c.reference;
    $("matched").textContent = c.matched_headings;
    var lines = subheadingLines(row);
    $("where").textContent = lines.join("\n");
    $("where").hidden = $("where-label").hidden = !lines.length;
    var list = $("headings");
    clear(list);
    sectionsOf(row).forEach(function (s) {
      var li = el("li");
      var box = el("input");
      box.type = "checkbox";
      box.value = s.id;
      box.setAttribute("aria-label", s.heading);
      box.addEventListener("change", function () { toggleSection(row, s.id, box.checked); });
      var show = el("button", "#" + s.n + " " + s.heading, "show");
      show.type = "button";
      show.title = "show this section's text";
      show.addEventListener("click", function () { showText(row, [s.id]); });
      li.appendChild(box);
      li.appendChild(show);
      if (row.matched.indexOf(s.id) >= 0) { li.appendChild(el("span", "label", "label")); }
      list.appendChild(li);
    });
    $("note").value = entry(row).note;
    renderStatus();
    showText(row, initialSections(row));
  }

  function toggleSection(row, id, on) {
    var mine = entry(row);
    var rest = mine.sections.filter(function (x) { return x !== id; });
    mine.sections = on ? rest.concat([id]) : rest;
    if (on) { mine.none = false; }
    if (mine.verdict === "") {
      var same = mine.sections.slice().sort().join("|") === row.matched.slice().sort().join("|");
      var overlap = mine.sections.some(function (x) { return row.matched.indexOf(x) >= 0; });
      if (!same) { mine.verdict = overlap ? "partly" : "wrong"; }
    }
    save();
    renderStatus();
  }

  function setVerdict(verdict) {
    var row = data.rows[state.pos];
    var mine = entry(row);
    mine.verdict = verdict;
    if (verdict === "correct") { mine.sections = row.matched.slice(); mine.none = false; }
    save();
    if (verdict === ADVANCE && state.pos < data.rows.length - 1) { state.pos += 1; save(); render(); return; }
    renderStatus();
  }

  function move(step) { state.pos += step; save(); render(); }
  function nextOpen() {
    for (var i = 1; i <= data.rows.length; i++) {
      var k = (state.pos + i) % data.rows.length;
      var v = state.rows[keyOf(data.rows[k])];
      if (!v || !v.verdict) { state.pos = k; save(); render(); return; }
    }
  }

  function csvCell(value) {
    var text = String(value === undefined || value === null ? "" : value);
    if (FORMULA_STARTS.indexOf(text.charAt(0)) >= 0) { text = "'" + text; }
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  function sectionsCell(row, mine) {
    if (mine.verdict !== "wrong" && mine.verdict !== "partly") { return ""; }
    if (mine.none) { return "none"; }
    var order = sectionsOf(row).map(function (s) { return s.id; });
    return mine.sections.slice().sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); }).join(" | ");
  }
  function toCsv() {
    var lines = [data.columns.map(csvCell).join(",")];
    data.rows.forEach(function (row) {
      var mine = state.rows[keyOf(row)] || { verdict: "", sections: [], none: false, note: "" };
      var values = data.columns.map(function (col) {
        if (col === "verdict") { return mine.verdict; }
        if (col === "correct_sections") { return sectionsCell(row, mine); }
        if (col === "note") { return mine.note; }
        return row.cells[col];
      });
      lines.push(values.map(csvCell).join(","));
    });
    return "\ufeff" + lines.join("\r\n") + "\r\n";
  }
  function exportCsv() {
    var blob = new Blob([toCsv()], { type: "text/csv;charset=utf-8" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "verdicts-" + data.sample_id + ".csv";
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  if (POOL) {
    $("pick").hidden = true;
    document.querySelector("footer").textContent = "Keys: 1–4 or R P U verdict (3: not) · ← → (or K J) move · . next open row · N note · E export · Esc leave the note. Progress is saved in this browser.";
    Array.prototype.forEach.call(document.querySelectorAll("#verdicts button"), function (b, i) {
      b.setAttribute("data-verdict", VERDICTS[i]);
      b.lastChild.textContent = " " + VERDICTS[i];
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("#verdicts button"), function (b) {
    b.addEventListener("click", function () { setVerdict(b.getAttribute("data-verdict")); });
  });
  $("none").addEventListener("change", function () {
    var row = data.rows[state.pos];
    var mine = entry(row);
    mine.none = $("none").checked;
    if (mine.none) { mine.sections = []; if (mine.verdict !== "partly") { mine.verdict = "wrong"; } }
    save();
    renderStatus();
  });
  $("note").addEventListener("input", function () { entry(data.rows[state.pos]).note = $("note").value; save(); });
  $("prev").addEventListener("click", function () { move(-1); });
  $("next").addEventListener("click", function () { move(1); });
  $("next-open").addEventListener("click", nextOpen);
  $("export").addEventListener("click", exportCsv);
  document.addEventListener("keydown", function (event) {
    var typing = event.target && (event.target.tagName === "TEXTAREA" || event.target.type === "text");
    if (typing) { if (event.key === "Escape") { event.target.blur(); } return; }
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (KEYS[key]) { setVerdict(KEYS[key]); }
    else if (key === "ArrowRight" || key === "j") { move(1); }
    else if (key === "ArrowLeft" || key === "k") { move(-1); }
    else if (key === ".") { nextOpen(); }
    else if (key === "n") { $("note").focus(); }
    else if (key === "e") { exportCsv(); }
    else { return; }
    event.preventDefault();
  });
  window.qrelsmithAudit = { toCsv: toCsv, verdicts: VERDICTS };
  render();
}());
