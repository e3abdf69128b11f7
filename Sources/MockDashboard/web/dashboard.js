// The mock-server dashboard (served at / and /_mock/ui): sessions, one session's timeline,
// armed faults and per-test scenarios, the server's metrics. It reads and writes through the
// control API (same origin; with --control-token the cookie set from ?token= authorises it)
// and listens to the live feed /_mock/ui/live, a WebSocket of small JSON events.
(function () {
  "use strict";

  const API = {
    sessions: "/_mock/sessions",
    journal: (id) => "/_mock/sessions/" + encodeURIComponent(id) + "/journal",
    refusals: "/_mock/refusals",
    faults: "/_mock/faults",
    fault: (id) => "/_mock/faults/" + encodeURIComponent(id),
    faultKinds: "/_mock/fault-kinds",
    tests: "/_mock/tests",
    testScenario: (id) => "/_mock/tests/" + encodeURIComponent(id) + "/scenario",
    scenario: "/_mock/scenario",
    metrics: "/_mock/metrics",
    health: "/_mock/health",
    live: "/_mock/ui/live",
  };

  const $ = (selector) => document.querySelector(selector);
  const state = {
    sessions: [],
    selected: null,
    journal: [],
    journalOpen: false,
    timeline: null,
    faultKinds: [],
    live: null,
    pending: new Map(),
  };

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("data-")) node.setAttribute(key, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node[key] = value;
    }
    for (const child of children) {
      if (child === undefined || child === null) continue;
      node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
    }
    return node;
  }

  // A control API call: the parsed JSON (or text), or an Error carrying the API's {code, message}.
  async function call(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const response = await fetch(path, init);
    const text = await response.text();
    if (!response.ok) {
      let message = "HTTP " + response.status;
      try { const error = JSON.parse(text); message = response.status + " " + error.code + ": " + error.message; } catch (e) { /* not JSON */ }
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    const type = response.headers.get("Content-Type") || "";
    return type.includes("application/json") ? JSON.parse(text) : text;
  }

  // Runs `task` at most once per `ms` for `key` (events may come in bursts).
  function soon(key, task, ms) {
    if (state.pending.has(key)) return;
    state.pending.set(key, setTimeout(() => { state.pending.delete(key); task(); }, ms === undefined ? 250 : ms));
  }

  function verdictOf(session) {
    if (!session.violations) return session.open ? "open" : "clean";
    return session.mustViolations > 0 ? "fail" : "nonStrict";
  }

  function show(target, text, ok) {
    target.textContent = text;
    target.dataset.ok = ok ? "true" : "false";
  }

  // MARK: sessions

  async function loadSessions() {
    try {
      const answer = await call("GET", API.sessions);
      state.sessions = answer.sessions;
      renderSessions();
      const selected = state.sessions.find((s) => s.id === state.selected);
      if (selected) renderSummary(selected);
    } catch (error) {
      show($("#session-count"), error.message, false);
    }
  }

  function renderSessions() {
    const wantedProtocol = $("#filter-protocol").value, test = $("#filter-test").value.trim();
    const caseId = $("#filter-case").value.trim(), verdict = $("#filter-verdict").value;
    const protocols = new Set(state.sessions.map((s) => s.protocol));
    const select = $("#filter-protocol");
    for (const name of protocols) {
      if (!Array.from(select.options).some((o) => o.value === name)) select.appendChild(el("option", { value: name }, name));
    }
    const rows = state.sessions.filter((s) =>
      (!wantedProtocol || wantedProtocol === s.protocol) && (!test || (s.testId || "").includes(test))
      && (!caseId || (s.caseId || "").includes(caseId))
      && (!verdict || (verdict === "open" ? s.open : verdictOf(s) === verdict)));
    const body = $("#session-table tbody");
    body.textContent = "";
    // Newest first.
    for (const s of rows.slice().reverse()) {
      const verdict = verdictOf(s);
      const must = s.mustViolations || 0;
      body.appendChild(el("tr", {
        class: "session" + (s.id === state.selected ? " selected" : ""), "data-session": s.id,
        "data-protocol": s.protocol, "data-open": String(s.open), "data-verdict": verdict,
        onclick: () => selectSession(s.id),
      },
      el("td", {}, s.id), el("td", {}, el("span", { class: "badge " + verdict }, verdict)), el("td", {}, s.protocol),
      el("td", { class: "clip", title: s.testId || "" }, s.testId || ""),
      el("td", { class: "clip", title: s.caseId || "" }, s.caseId || ""), el("td", {}, s.open ? "open" : "closed"),
      el("td", { class: "num" }, s.framesIn + " / " + s.framesOut),
      el("td", { class: "num", title: "MUST / SHOULD" }, s.violations ? must + " / " + (s.violations - must) : "–")));
    }
    $("#session-count").textContent = rows.length + " of " + state.sessions.length + " (" + state.sessions.filter((s) => s.open).length + " open)";
  }

  async function loadRefusals() {
    try {
      const answer = await call("GET", API.refusals);
      const body = $("#refusal-table tbody");
      body.textContent = "";
      for (const r of answer.refusals.slice().reverse()) {
        body.appendChild(el("tr", { class: "refusal" }, el("td", {}, r.time), el("td", {}, r.path), el("td", {}, r.testId || ""),
          el("td", {}, r.caseId || ""), el("td", { class: "num" }, r.status), el("td", {}, r.reason)));
      }
      $("#refusal-count").textContent = answer.refusals.length + (answer.dropped ? " (+" + answer.dropped + " dropped)" : "");
    } catch (error) {
      show($("#refusal-count"), error.message, false);
    }
  }

  // MARK: one session

  function selectSession(id) {
    if (state.selected !== id) {
      state.selected = id;
      state.journal = [];
      if (state.timeline) { state.timeline.destroy(); state.timeline = null; }
      if (location.hash !== "#session=" + id) history.replaceState(null, "", "#session=" + encodeURIComponent(id));
    }
    for (const row of document.querySelectorAll("tr.session")) row.classList.toggle("selected", row.dataset.session === id);
    const session = state.sessions.find((s) => s.id === id);
    if (session) renderSummary(session);
    $("#session-title").textContent = id;
    loadJournal();
  }

  function renderSummary(s) {
    const verdict = verdictOf(s);
    const summary = $("#session-summary");
    summary.textContent = "";
    summary.appendChild(el("span", { class: "badge " + verdict, "data-verdict": verdict }, verdict));
    const facts = [s.protocol, s.path, s.testId && "test " + s.testId, s.caseId && "case " + s.caseId,
      s.open ? "open" : "closed", s.thread, s.framesIn + " frames in, " + s.framesOut + " out",
      s.framesNotJournaled && s.framesNotJournaled + " frames not journaled (--journal-limit)"];
    summary.appendChild(el("span", {}, facts.filter(Boolean).join(" · ")));
    state.journalOpen = s.open;
  }

  // The journal, fetched whole once and then from where it ended (?from=) while the session is open.
  async function loadJournal() {
    const id = state.selected;
    if (!id) return;
    try {
      const from = state.journal.length;
      const text = await call("GET", API.journal(id) + (from > 0 ? "?from=" + from : ""));
      if (state.selected !== id) return;
      const lines = text.split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line));
      if (lines.length === 0 && state.timeline) return;
      state.journal = state.journal.concat(lines);
      const data = { journal: state.journal, marks: [], title: id + " — " + state.journal.length + " journal entries" };
      if (state.timeline) state.timeline.update(data);
      else state.timeline = DialogTimeline.render($("#timeline"), data);
    } catch (error) {
      $("#timeline").textContent = "Journal of " + id + ": " + error.message;
    }
  }

  // MARK: faults and per-test scenarios

  async function loadFaultKinds() {
    try {
      const answer = await call("GET", API.faultKinds);
      state.faultKinds = answer.kinds;
      const select = $("#fault-kind");
      select.textContent = "";
      for (const kind of answer.kinds) select.appendChild(el("option", { value: kind.kind }, kind.kind));
      pickFaultKind();
    } catch (error) {
      show($("#fault-message"), "fault kinds: " + error.message, false);
    }
  }

  function pickFaultKind() {
    const kind = state.faultKinds.find((k) => k.kind === $("#fault-kind").value);
    if (!kind) return;
    $("#fault-json").value = JSON.stringify(kind.example);
    $("#fault-kind-summary").textContent = kind.summary;
  }

  // Runs a control request, says in `message` what it did (or why it failed), then reloads the
  // list it changed.
  async function act(message, request, describe, reload) {
    try {
      show($(message), describe(await request()), true);
    } catch (error) {
      show($(message), error.message, false);
    }
    reload();
  }

  async function loadFaults() {
    try {
      const answer = await call("GET", API.faults);
      const body = $("#fault-table tbody");
      body.textContent = "";
      for (const f of answer.faults) {
        const target = f.session !== undefined ? "session " + f.session : "test " + f.testId;
        body.appendChild(el("tr", { class: "fault", "data-fault-id": f.id },
          el("td", {}, f.id), el("td", {}, target), el("td", { class: "code" }, JSON.stringify(f.fault)),
          el("td", {}, f.sessions.join(", ")),
          el("td", {}, el("button", { type: "button", class: "remove-fault", "data-fault-id": f.id, onclick: () => removeFault(f.id) }, "Remove"))));
      }
      if (answer.faults.length === 0) body.appendChild(el("tr", { class: "empty" }, el("td", { colSpan: 5 }, "No fault armed through the control API.")));
    } catch (error) {
      show($("#fault-message"), error.message, false);
    }
  }

  async function armFault(event) {
    event.preventDefault();
    let fault;
    try { fault = JSON.parse($("#fault-json").value); } catch (error) {
      show($("#fault-message"), "The fault is not JSON: " + error.message, false);
      return;
    }
    const body = { fault };
    body[$("#fault-target-kind").value] = $("#fault-target").value.trim();
    await act("#fault-message", () => call("POST", API.faults, body),
      (answer) => "Armed " + answer.id + (answer.openSessions !== undefined ? " (" + answer.openSessions + " open sessions)" : ""),
      loadFaults);
  }

  async function removeFault(id) {
    await act("#fault-message", () => call("DELETE", API.fault(id)), () => "Removed " + id, loadFaults);
  }

  async function removeAllFaults() {
    await act("#fault-message", () => call("DELETE", API.faults),
      (answer) => "Removed " + (answer.removed.length ? answer.removed.join(", ") : "nothing"), loadFaults);
  }

  async function loadTests() {
    const body = $("#test-table tbody");
    try {
      const scenario = await call("GET", API.scenario);
      $("#global-scenario").textContent = scenario.name;
    } catch (error) {
      $("#global-scenario").textContent = error.message;
    }
    try {
      const answer = await call("GET", API.tests);
      body.textContent = "";
      for (const t of answer.tests) {
        body.appendChild(el("tr", { class: "test-scenario", "data-test-id": t.testId },
          el("td", {}, t.testId), el("td", {}, t.scenario || "—"), el("td", { class: "num" }, t.faults),
          el("td", { class: "num" }, t.sessions),
          el("td", {}, t.scenario ? el("button", { type: "button", class: "remove-scenario", onclick: () => removeTestScenario(t.testId) }, "Remove scenario") : null)));
      }
      if (answer.tests.length === 0) body.appendChild(el("tr", { class: "empty" }, el("td", { colSpan: 5 }, "No test id has a scenario or fault of its own.")));
    } catch (error) {
      body.textContent = "";
      body.appendChild(el("tr", { class: "empty" }, el("td", { colSpan: 5 }, "Per-test scenarios: " + error.message)));
    }
  }

  async function putTestScenario(event) {
    event.preventDefault();
    const testId = $("#scenario-test").value.trim();
    try {
      JSON.parse($("#scenario-json").value);
    } catch (error) {
      show($("#scenario-message"), "The scenario is not JSON: " + error.message, false);
      return;
    }
    await act("#scenario-message", () => call("PUT", API.testScenario(testId), $("#scenario-json").value),
      (answer) => "Test " + answer.testId + " gets " + (answer.scenario && answer.scenario.name), loadTests);
  }

  async function removeTestScenario(testId) {
    await act("#scenario-message", () => call("DELETE", API.testScenario(testId)),
      () => "Removed the scenario of " + testId, loadTests);
  }

  // MARK: server

  const SHOWN_METRICS = [
    ["dialogmock_sessions_open", "sessions open"], ["dialogmock_sessions_total", "sessions total"],
    ["dialogmock_sessions_refused_total", "refused at capacity"], ["dialogmock_frames_received_total", "frames received"],
    ["dialogmock_frames_sent_total", "frames sent"], ["dialogmock_bytes_received_total", "bytes received"],
    ["dialogmock_bytes_sent_total", "bytes sent"], ["dialogmock_slow_readers_closed_total", "slow readers closed"],
    ["dialogmock_answer_audio_hits_total", "answer audio hits"], ["dialogmock_answer_audio_misses_total", "answer audio misses"],
  ];

  function definitionList(target, pairs) {
    target.textContent = "";
    for (const [name, value] of pairs) {
      target.appendChild(el("div", { "data-name": name }, el("dt", {}, name), el("dd", {}, String(value))));
    }
  }

  async function loadServer() {
    try {
      const health = await call("GET", API.health);
      $("#server-version").textContent = "version " + health.version;
      definitionList($("#health"), [["status", health.status], ["version", health.version], ["event loop", health.eventLoop],
        ["threads", health.threads], ["scenario", health.scenario], ["libwebsockets", health.libraries.libwebsockets]]);
    } catch (error) {
      $("#server-version").textContent = error.message;
    }
    try {
      const text = await call("GET", API.metrics);
      $("#metrics-text").textContent = text;
      const values = new Map();
      for (const line of text.split("\n")) {
        const match = /^([a-z_]+) ([0-9.e+-]+)$/.exec(line);
        if (match) values.set(match[1], match[2]);
      }
      definitionList($("#metric-values"), SHOWN_METRICS.filter(([name]) => values.has(name)).map(([name, label]) => [label, values.get(name)]));
    } catch (error) {
      $("#metrics-text").textContent = error.message;
    }
  }

  // MARK: live feed

  function connectLive(delay) {
    const status = $("#live-status");
    const socket = new WebSocket(("https:" === location.protocol ? "wss://" : "ws://") + location.host + API.live);
    state.live = socket;
    socket.onopen = () => {
      status.dataset.state = "live";
      status.textContent = "live";
      delay = 500;
      refreshAll();
    };
    socket.onmessage = (message) => {
      let event;
      try { event = JSON.parse(message.data); } catch (e) { return; }
      onEvent(event);
    };
    socket.onclose = () => {
      status.dataset.state = "disconnected";
      status.textContent = "reconnecting…";
      const next = Math.min(10000, (delay || 500) * 2);
      setTimeout(() => connectLive(next), delay || 500);
    };
  }

  function onEvent(event) {
    switch (event.type) {
      case "opened": case "closed": case "violation":
        soon("sessions", loadSessions);
        soon("server", loadServer);
        if (event.session === state.selected) soon("journal", loadJournal);
        break;
      case "fault":
        if (event.session === state.selected) soon("journal", loadJournal);
        break;
      case "faults": soon("faults", loadFaults); soon("tests", loadTests); break;
      case "refusal": soon("refusals", loadRefusals); break;
      case "scenario": soon("tests", loadTests); break;
      default: break;
    }
  }

  function refreshAll() {
    loadSessions().then(() => { if (state.selected) selectSession(state.selected); });
    loadRefusals();
    loadFaults();
    loadTests();
    loadServer();
  }

  function start() {
    for (const id of ["#filter-protocol", "#filter-test", "#filter-case", "#filter-verdict"]) $(id).addEventListener("input", renderSessions);
    $("#session-filters").addEventListener("submit", (event) => event.preventDefault());
    $("#fault-kind").addEventListener("change", pickFaultKind);
    $("#fault-form").addEventListener("submit", armFault);
    $("#remove-all-faults").addEventListener("click", removeAllFaults);
    $("#scenario-form").addEventListener("submit", putTestScenario);
    const match = /^#session=(.+)$/.exec(location.hash);
    if (match) state.selected = decodeURIComponent(match[1]);
    loadFaultKinds();
    refreshAll();
    connectLive(500);
    // An open session's frames are not announced one by one: its journal's new lines are read
    // while it is shown and open (a cheap ?from= read of what was added).
    setInterval(() => { if (state.selected && state.journalOpen) loadJournal(); }, 1000);
    // Counters move with every frame, which the feed does not announce: re-read them now and then.
    setInterval(loadServer, 5000);
  }

  window.DialogMockDashboard = { state, verdictOf, refresh: refreshAll };
  start();
})();
