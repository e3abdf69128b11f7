// DialogTimeline: one dialog session on a time axis, from the mock's journal lines.
// Plain ES2020, no dependencies, no network. Used by the mock-server dashboard and embedded in
// the conformance HTML report (Sources/TimelineView; .ci/embed-web copies it into Swift).
//
//   const view = DialogTimeline.render(element, {journal: [entry…], marks: [mark…], title: "…"});
//   view.update(data)   // new data (e.g. a live session's longer journal); zoom is kept
//   view.select(index)  // select a journal entry: its JSON shows in the detail panel
//   view.destroy()
//
// Journal entries are the mock's journal lines: t (µs since session start), kind, dir, event,
// bytes, json, text, audio {codec, durationMs, frames, sampleRate, level?: {rmsDb, peakDb}}, state,
// fault, violation, code/reason, data. Marks: {index?, t?, kind, label, obligation?, verdict?},
// pinned on the axis. Audio strips draw a waveform of the PCM payload when the entry keeps it, else
// the energy of audio.level (RMS bar, peak behind it), else a plain duration block.
// For tests: the root has data-timeline-frames (frames drawn), data-timeline-entries and
// data-audio-levels (audio blocks drawn from audio.level, without a payload); each
// state band is a [data-state] element (in time order, data-t in µs), each mark a
// [data-mark-kind] element, each entry row of the list a [data-index] element (journal order).
(function () {
  "use strict";

  const LANE = { axis: 24, state: 22, frames: 30, audio: 30 };
  const GUTTER = 118;
  const LIST_CHUNK = 500;
  const FRAME_KINDS = new Set(["text", "binary"]);
  const PALETTE = ["#3b82f6", "#10b981", "#8b5cf6", "#f59e0b", "#06b6d4", "#ec4899", "#84cc16", "#6366f1", "#14b8a6", "#d946ef"];
  const STATE_PALETTE = ["#bfdbfe", "#bbf7d0", "#fde68a", "#fbcfe8", "#ddd6fe", "#a5f3fc", "#fed7aa", "#d9f99d", "#e9d5ff", "#fecaca"];

  function hash(text) {
    let h = 0;
    for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
    return Math.abs(h);
  }

  // The event family: "response.audio.delta" → "response"; "RespondingStarted" → "Responding".
  function family(event) {
    if (!event) return "";
    const dot = event.indexOf(".");
    if (dot > 0) return event.slice(0, dot);
    const m = /^[A-Z]?[a-z]+/.exec(event);
    return m ? m[0] : event;
  }

  function colourOf(entry) {
    const event = entry.event || "";
    if (/error|fail/i.test(event)) return "#dc2626";
    if (entry.kind === "close") return "#111827";
    if (!event) return entry.audio ? "#64748b" : "#94a3b8";
    return PALETTE[hash(family(event)) % PALETTE.length];
  }

  function stateColour(name) { return STATE_PALETTE[hash(name) % STATE_PALETTE.length]; }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function formatMicros(t) {
    const s = t / 1e6;
    if (Math.abs(s) >= 100) return s.toFixed(1) + " s";
    if (Math.abs(s) >= 1) return s.toFixed(3) + " s";
    return (t / 1000).toFixed(1) + " ms";
  }

  // Long strings (base64 audio) shortened for display.
  function displayJSON(value) {
    return JSON.stringify(value, (key, v) =>
      typeof v === "string" && v.length > 240 ? v.slice(0, 120) + "… (" + v.length + " characters)" : v, 2);
  }

  function describe(entry) {
    const parts = [formatMicros(entry.t)];
    if (entry.dir) parts.push(entry.dir === "in" ? "client → server" : "server → client");
    if (entry.kind !== "state" && !((entry.kind === "fault" && entry.fault) || (entry.kind === "violation" && entry.violation))) {
      parts.push(entry.event || entry.kind);
    }
    if (entry.bytes !== undefined) parts.push(entry.bytes + " B");
    if (entry.audio) {
      parts.push(entry.audio.codec + " " + entry.audio.durationMs.toFixed(1) + " ms");
      const level = summaryLevel(entry);
      if (level) parts.push("RMS " + level.rmsDb.toFixed(1) + " dBFS, peak " + level.peakDb.toFixed(1) + " dBFS");
    }
    if (entry.state) parts.push("state " + entry.state);
    if (entry.violation) parts.push(entry.violation.obligation + ": " + entry.violation.message);
    if (entry.fault) parts.push("fault " + entry.fault.kind + (entry.fault.detail ? ": " + entry.fault.detail : ""));
    if (entry.kind === "close") parts.push("code " + (entry.code === undefined ? "none" : entry.code) + (entry.reason ? " " + entry.reason : ""));
    return parts.join(" · ");
  }

  // PCM16 little-endian base64 → RMS levels (dBFS) per window of `windowMs`.
  function pcmLevels(base64, sampleRate, windowMs) {
    let bin;
    try { bin = atob(base64); } catch (e) { return null; }
    const samples = bin.length >> 1;
    if (samples === 0) return null;
    const win = Math.max(1, Math.round((sampleRate || 16000) * windowMs / 1000));
    const levels = [];
    for (let start = 0; start < samples; start += win) {
      const end = Math.min(samples, start + win);
      let sum = 0;
      for (let i = start; i < end; i++) {
        let v = bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8);
        if (v >= 32768) v -= 65536;
        sum += v * v;
      }
      const rms = Math.sqrt(sum / (end - start)) / 32768;
      levels.push(rms > 0 ? 20 * Math.log10(rms) : -120);
    }
    return levels;
  }

  // An audio entry's base64 payload: a binary frame's `data`, else the frame's `audio`, `delta` or
  // `data` field (the report's HTMLAudio.payloadKey looks in the same places, in the same order).
  function audioPayload(entry) {
    if (typeof entry.data === "string" && entry.data.length > 0) return entry.data;
    const j = entry.json;
    if (j && typeof j === "object") {
      for (const key of ["audio", "delta", "data"]) {
        if (typeof j[key] === "string" && j[key].length > 0) return j[key];
      }
    }
    return null;
  }

  // The mock's measured level of an audio entry ({rmsDb, peakDb} in dBFS), if it has one.
  function summaryLevel(entry) {
    const level = entry.audio && entry.audio.level;
    if (!level || typeof level.rmsDb !== "number" || !isFinite(level.rmsDb)) return null;
    const peakDb = typeof level.peakDb === "number" && isFinite(level.peakDb) ? level.peakDb : level.rmsDb;
    return { rmsDb: level.rmsDb, peakDb };
  }

  function hasPCMPayload(entry) {
    return /^pcm/i.test(entry.audio.codec) && audioPayload(entry) !== null;
  }

  // Energy levels by journal entry, computed once (a live session's timeline is rebuilt as it grows).
  const levelCache = new WeakMap();

  function levelsOf(entry) {
    if (levelCache.has(entry)) return levelCache.get(entry);
    const payload = /^pcm/i.test(entry.audio.codec) ? audioPayload(entry) : null;
    const levels = payload ? pcmLevels(payload, entry.audio.sampleRate, 10) : null;
    levelCache.set(entry, levels);
    return levels;
  }

  // Bar height (0…1) of a level in dBFS: −60 dB and below are flat.
  function barOf(db) {
    return Math.max(0, Math.min(1, (db + 60) / 60));
  }

  function lowerBound(items, t) {
    let lo = 0, hi = items.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (items[mid].t < t) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // The model: lanes of items sorted by time, state bands per machine, marks.
  function model(data) {
    const journal = Array.isArray(data.journal) ? data.journal : [];
    const lanes = { in: [], out: [] };
    const audio = { in: [], out: [] };
    const states = new Map();
    const marks = [];
    let tMin = Infinity, tMax = -Infinity, frames = 0, audioLevels = 0;
    journal.forEach((entry, index) => {
      if (!entry || typeof entry.t !== "number") return;
      const t = entry.t;
      tMin = Math.min(tMin, t);
      tMax = Math.max(tMax, t);
      const dir = entry.dir === "in" ? "in" : "out";
      if (FRAME_KINDS.has(entry.kind) || entry.kind === "close") {
        if (FRAME_KINDS.has(entry.kind)) frames++;
        lanes[dir].push({ t, index, entry, colour: colourOf(entry) });
      }
      if (entry.audio && typeof entry.audio.durationMs === "number") {
        const end = t + entry.audio.durationMs * 1000;
        tMax = Math.max(tMax, end);
        const level = hasPCMPayload(entry) ? null : summaryLevel(entry);
        if (level) audioLevels++;
        audio[dir].push({ t, end, index, entry, levels: undefined, level });
      }
      if (entry.kind === "state" && entry.state) {
        const name = String(entry.state);
        const colon = entry.machine ? -1 : name.indexOf(":");
        const machine = entry.machine || (colon > 0 ? name.slice(0, colon) : "state");
        const state = colon > 0 ? name.slice(colon + 1) : name;
        if (!states.has(machine)) states.set(machine, []);
        states.get(machine).push({ t, index, state, entry });
      }
      if (data.autoMarks !== false && (entry.kind === "violation" || entry.kind === "fault")) {
        const label = entry.kind === "violation"
          ? (entry.violation ? entry.violation.obligation + ": " + entry.violation.message : "violation")
          : (entry.fault ? "fault " + entry.fault.kind + (entry.fault.detail ? ": " + entry.fault.detail : "") : "fault");
        marks.push({ t, index, kind: entry.kind, label, obligation: entry.violation && entry.violation.obligation });
      }
    });
    for (const mark of Array.isArray(data.marks) ? data.marks : []) {
      if (!mark) continue;
      let t = typeof mark.t === "number" ? mark.t : undefined;
      if (t === undefined && typeof mark.index === "number" && journal[mark.index]) t = journal[mark.index].t;
      if (t === undefined) continue;
      tMin = Math.min(tMin, t);
      tMax = Math.max(tMax, t);
      marks.push(Object.assign({}, mark, { t, external: true }));
    }
    const byTime = (a, b) => a.t - b.t || a.index - b.index;
    lanes.in.sort(byTime); lanes.out.sort(byTime);
    audio.in.sort(byTime); audio.out.sort(byTime);
    for (const bands of states.values()) bands.sort(byTime);
    marks.sort((a, b) => a.t - b.t);
    if (!isFinite(tMin)) { tMin = 0; tMax = 1e6; }
    if (tMax - tMin < 1000) tMax = tMin + 1000;
    return { journal, lanes, audio, states, marks, tMin, tMax, frames, audioLevels };
  }

  function niceStep(span, target) {
    const raw = span / Math.max(1, target);
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
    return 10 * power;
  }

  class Timeline {
    constructor(element, data) {
      this.element = element;
      this.root = el("div", "dtl");
      this.toolbar = el("div", "dtl-toolbar");
      this.titleNode = el("span", "dtl-title");
      this.toolbar.appendChild(this.titleNode);
      for (const [zoom, text, title] of [["in", "+", "Zoom in"], ["out", "−", "Zoom out"], ["fit", "Fit", "Show the whole session"]]) {
        const button = el("button", "dtl-button", text);
        button.type = "button";
        button.title = title;
        button.dataset.zoom = zoom;
        button.addEventListener("click", () => this.zoomButton(zoom));
        this.toolbar.appendChild(button);
      }
      this.rangeNode = el("span", "dtl-range");
      this.toolbar.appendChild(this.rangeNode);
      this.chart = el("div", "dtl-chart");
      this.canvas = el("canvas", "dtl-canvas");
      this.overlay = el("div", "dtl-overlay");
      this.chart.appendChild(this.canvas);
      this.chart.appendChild(this.overlay);
      const bottom = el("div", "dtl-bottom");
      this.list = el("div", "dtl-list");
      this.list.setAttribute("role", "list");
      this.detail = el("pre", "dtl-detail", "Click a frame, a state band or a mark to see its JSON.");
      bottom.appendChild(this.list);
      bottom.appendChild(this.detail);
      this.root.appendChild(this.toolbar);
      this.root.appendChild(this.chart);
      this.root.appendChild(bottom);
      element.textContent = "";
      element.appendChild(this.root);
      element.dialogTimeline = this;
      this.view = null;
      this.selected = -1;
      this.listShown = 0;
      this.bindEvents();
      this.resizeObserver = typeof ResizeObserver === "function" ? new ResizeObserver(() => this.draw()) : null;
      if (this.resizeObserver) this.resizeObserver.observe(this.chart);
      this.update(data);
    }

    update(data) {
      const previous = this.model;
      this.data = data || {};
      this.model = model(this.data);
      const m = this.model;
      const followsEnd = !this.view || !previous || this.view.t1 >= previous.tMax;
      if (!this.view || !previous) this.fit();
      else if (followsEnd) this.view = { t0: this.view.t0, t1: Math.max(this.view.t1, m.tMax + (m.tMax - m.tMin) * 0.02) };
      this.titleNode.textContent = this.data.title || "";
      this.root.dataset.timelineFrames = String(m.frames);
      this.root.dataset.timelineEntries = String(m.journal.length);
      this.root.dataset.audioLevels = String(m.audioLevels);
      this.machines = Array.from(m.states.keys());
      this.layout();
      this.renderList(previous ? Math.max(this.listShown, Math.min(m.journal.length, LIST_CHUNK)) : LIST_CHUNK);
      this.draw();
    }

    layout() {
      let y = LANE.axis;
      this.rows = [];
      for (const machine of this.machines) { this.rows.push({ kind: "state", machine, y, h: LANE.state, label: machine }); y += LANE.state; }
      if (this.machines.length === 0) { this.rows.push({ kind: "state", machine: null, y, h: LANE.state, label: "state" }); y += LANE.state; }
      this.rows.push({ kind: "frames", dir: "in", y, h: LANE.frames, label: "client → server" }); y += LANE.frames;
      this.rows.push({ kind: "audio", dir: "in", y, h: LANE.audio, label: "uplink audio" }); y += LANE.audio;
      this.rows.push({ kind: "frames", dir: "out", y, h: LANE.frames, label: "server → client" }); y += LANE.frames;
      this.rows.push({ kind: "audio", dir: "out", y, h: LANE.audio, label: "downlink audio" }); y += LANE.audio;
      this.height = y + 6;
      this.chart.style.height = this.height + "px";
    }

    fit() {
      const m = this.model;
      const pad = (m.tMax - m.tMin) * 0.02;
      this.view = { t0: m.tMin - pad, t1: m.tMax + pad };
    }

    zoomButton(kind) {
      if (kind === "fit") this.fit();
      else this.zoomAt((this.view.t0 + this.view.t1) / 2, kind === "in" ? 0.5 : 2);
      this.draw();
    }

    zoomAt(t, factor) {
      const m = this.model;
      const full = (m.tMax - m.tMin) * 1.5 + 1000;
      const span = Math.min(full, Math.max(1000, (this.view.t1 - this.view.t0) * factor));
      const ratio = (t - this.view.t0) / (this.view.t1 - this.view.t0);
      this.view = { t0: t - ratio * span, t1: t - ratio * span + span };
    }

    plotWidth() { return Math.max(10, this.chart.clientWidth - GUTTER - 8); }
    x(t) { return GUTTER + (t - this.view.t0) / (this.view.t1 - this.view.t0) * this.plotWidth(); }
    tAt(x) { return this.view.t0 + (x - GUTTER) / this.plotWidth() * (this.view.t1 - this.view.t0); }

    bindEvents() {
      this.canvas.addEventListener("wheel", (event) => {
        event.preventDefault();
        const rect = this.canvas.getBoundingClientRect();
        const x = event.clientX - rect.left;
        if (x < GUTTER) return;
        this.zoomAt(this.tAt(x), event.deltaY < 0 ? 0.8 : 1.25);
        this.draw();
      }, { passive: false });
      let drag = null;
      this.canvas.addEventListener("mousedown", (event) => { drag = { x: event.clientX, view: this.view, moved: false }; });
      this.onWindowMove = (event) => {
        if (!drag) return;
        const dx = event.clientX - drag.x;
        if (Math.abs(dx) > 3) drag.moved = true;
        if (!drag.moved) return;
        const dt = dx / this.plotWidth() * (drag.view.t1 - drag.view.t0);
        this.view = { t0: drag.view.t0 - dt, t1: drag.view.t1 - dt };
        this.draw();
      };
      this.onWindowUp = (event) => {
        if (drag && !drag.moved) {
          const hit = this.hitTest(event);
          if (hit) this.select(hit.index, false);
        }
        drag = null;
      };
      window.addEventListener("mousemove", this.onWindowMove);
      window.addEventListener("mouseup", this.onWindowUp);
      this.canvas.addEventListener("mousemove", (event) => {
        const hit = this.hitTest(event);
        this.canvas.title = hit ? describe(hit.entry) : "";
        this.canvas.style.cursor = hit ? "pointer" : "grab";
      });
    }

    // The frame or audio block under the pointer (within 4 px), if any.
    hitTest(event) {
      const rect = this.canvas.getBoundingClientRect();
      const x = event.clientX - rect.left, y = event.clientY - rect.top;
      if (x < GUTTER) return null;
      const row = this.rows.find((r) => y >= r.y && y < r.y + r.h);
      if (!row || row.kind === "state") return null;
      const items = row.kind === "frames" ? this.model.lanes[row.dir] : this.model.audio[row.dir];
      const t = this.tAt(x), slack = 4 / this.plotWidth() * (this.view.t1 - this.view.t0);
      if (row.kind === "audio") {
        let i = lowerBound(items, t + slack) - 1;
        for (; i >= 0 && i >= lowerBound(items, t + slack) - 50; i--) if (items[i].t - slack <= t && items[i].end + slack >= t) return items[i];
        return null;
      }
      const i = lowerBound(items, t);
      let best = null, distance = slack;
      for (const j of [i - 1, i]) if (items[j] && Math.abs(items[j].t - t) <= distance) { best = items[j]; distance = Math.abs(items[j].t - t); }
      return best;
    }

    select(index, scroll = true) {
      const entry = this.model.journal[index];
      if (!entry) return;
      this.selected = index;
      this.detail.textContent = displayJSON(entry);
      this.detail.dataset.index = String(index);
      for (const row of this.list.querySelectorAll(".dtl-row.selected")) row.classList.remove("selected");
      if (index >= this.listShown) this.renderList(index + 1);
      const row = this.list.querySelector('[data-index="' + index + '"]');
      if (row) { row.classList.add("selected"); if (scroll) row.scrollIntoView({ block: "nearest" }); }
      if (entry.t < this.view.t0 || entry.t > this.view.t1) {
        const span = this.view.t1 - this.view.t0;
        this.view = { t0: entry.t - span / 2, t1: entry.t + span / 2 };
      }
      this.draw();
    }

    showDetail(value, index) {
      this.detail.textContent = displayJSON(value);
      if (index !== undefined) this.detail.dataset.index = String(index); else delete this.detail.dataset.index;
    }

    renderList(count) {
      const journal = this.model.journal;
      const shown = Math.min(journal.length, count);
      this.list.textContent = "";
      const fragment = document.createDocumentFragment();
      for (let index = 0; index < shown; index++) {
        const entry = journal[index];
        const row = el("div", "dtl-row dtl-kind-" + entry.kind + (index === this.selected ? " selected" : ""));
        row.setAttribute("role", "listitem");
        row.dataset.index = String(index);
        row.dataset.t = String(entry.t);
        row.dataset.kind = entry.kind;
        if (entry.dir) row.dataset.dir = entry.dir;
        if (entry.event) row.dataset.event = entry.event;
        if (entry.state) row.dataset.state = entry.state;
        const swatch = el("span", "dtl-swatch");
        swatch.style.background = entry.kind === "state" ? stateColour(String(entry.state)) : colourOf(entry);
        row.appendChild(swatch);
        row.appendChild(el("span", "dtl-row-t", formatMicros(entry.t)));
        row.appendChild(el("span", "dtl-row-dir", entry.dir === "in" ? "→" : entry.dir === "out" ? "←" : "·"));
        row.appendChild(el("span", "dtl-row-text", describe(entry).split(" · ").slice(entry.dir ? 2 : 1).join(" · ")));
        row.addEventListener("click", () => this.select(index, false));
        fragment.appendChild(row);
      }
      if (shown < journal.length) {
        const more = el("button", "dtl-button dtl-more", "Show " + Math.min(LIST_CHUNK, journal.length - shown) + " more of " + (journal.length - shown));
        more.type = "button";
        more.addEventListener("click", () => this.renderList(shown + LIST_CHUNK));
        fragment.appendChild(more);
      }
      this.list.appendChild(fragment);
      this.listShown = shown;
    }

    draw() {
      if (!this.model || !this.view) return;
      const width = Math.max(200, this.chart.clientWidth);
      const ratio = window.devicePixelRatio || 1;
      if (this.canvas.width !== Math.round(width * ratio) || this.canvas.height !== Math.round(this.height * ratio)) {
        this.canvas.width = Math.round(width * ratio);
        this.canvas.height = Math.round(this.height * ratio);
        this.canvas.style.width = width + "px";
        this.canvas.style.height = this.height + "px";
      }
      const g = this.canvas.getContext("2d");
      if (!g) return;
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, width, this.height);
      g.font = "11px system-ui, sans-serif";
      g.textBaseline = "middle";
      this.drawAxis(g, width);
      for (const row of this.rows) {
        g.fillStyle = "#f8fafc";
        g.fillRect(GUTTER, row.y + 1, width - GUTTER, row.h - 2);
        g.fillStyle = "#334155";
        g.fillText(row.label, 6, row.y + row.h / 2);
        if (row.kind === "frames") this.drawFrames(g, row);
        if (row.kind === "audio") this.drawAudio(g, row);
      }
      if (this.selected >= 0 && this.model.journal[this.selected]) {
        const x = this.x(this.model.journal[this.selected].t);
        g.strokeStyle = "#0f172a";
        g.setLineDash([3, 3]);
        g.beginPath(); g.moveTo(x + 0.5, LANE.axis); g.lineTo(x + 0.5, this.height); g.stroke();
        g.setLineDash([]);
      }
      this.rangeNode.textContent = formatMicros(Math.max(0, this.view.t0)) + " – " + formatMicros(this.view.t1);
      this.drawOverlay();
    }

    drawAxis(g, width) {
      const span = this.view.t1 - this.view.t0;
      const step = niceStep(span, Math.max(2, Math.floor(this.plotWidth() / 90)));
      g.strokeStyle = "#e2e8f0";
      g.fillStyle = "#475569";
      for (let t = Math.ceil(this.view.t0 / step) * step; t <= this.view.t1; t += step) {
        const x = Math.round(this.x(t)) + 0.5;
        g.beginPath(); g.moveTo(x, LANE.axis - 4); g.lineTo(x, this.height); g.stroke();
        g.fillText(formatMicros(t), x + 3, LANE.axis / 2);
      }
      g.strokeStyle = "#94a3b8";
      g.beginPath(); g.moveTo(GUTTER, LANE.axis - 0.5); g.lineTo(width, LANE.axis - 0.5); g.stroke();
    }

    drawFrames(g, row) {
      const items = this.model.lanes[row.dir];
      const from = lowerBound(items, this.view.t0), to = lowerBound(items, this.view.t1 + 1);
      for (let i = from; i < to; i++) {
        const item = items[i];
        const x = Math.round(this.x(item.t)) + 0.5;
        g.strokeStyle = item.colour;
        g.lineWidth = item.entry.kind === "close" ? 3 : item.index === this.selected ? 2.5 : 1.5;
        const inset = item.entry.audio ? 9 : 4;
        g.beginPath(); g.moveTo(x, row.y + inset); g.lineTo(x, row.y + row.h - inset); g.stroke();
      }
      g.lineWidth = 1;
    }

    drawAudio(g, row) {
      const items = this.model.audio[row.dir];
      const mid = row.y + row.h / 2, half = row.h / 2 - 3;
      // Audio blocks may start before the view and end inside it: start from a few blocks back.
      const from = Math.max(0, lowerBound(items, this.view.t0) - 64), to = lowerBound(items, this.view.t1 + 1);
      for (let i = from; i < to; i++) {
        const item = items[i];
        if (item.end < this.view.t0) continue;
        const x0 = this.x(item.t), x1 = Math.max(x0 + 1, this.x(item.end));
        if (item.levels === undefined) item.levels = levelsOf(item.entry);
        if (item.levels && item.levels.length > 0) {
          g.fillStyle = row.dir === "in" ? "#0ea5e9" : "#22c55e";
          const w = (x1 - x0) / item.levels.length;
          item.levels.forEach((db, k) => {
            const h = Math.max(1, half * barOf(db));
            g.fillRect(x0 + k * w, mid - h, Math.max(1, w - 0.2), 2 * h);
          });
        } else if (item.level) {
          // The mock's measured level: the peak as a pale bar, the RMS energy over it.
          const w = Math.max(1, x1 - x0 - (x1 - x0 > 3 ? 0.5 : 0));
          const peak = Math.max(1, half * barOf(item.level.peakDb));
          const rms = Math.max(1, half * barOf(item.level.rmsDb));
          g.fillStyle = row.dir === "in" ? "rgba(14,165,233,0.3)" : "rgba(34,197,94,0.3)";
          g.fillRect(x0, mid - peak, w, 2 * peak);
          g.fillStyle = row.dir === "in" ? "#0ea5e9" : "#22c55e";
          g.fillRect(x0, mid - rms, w, 2 * rms);
        } else {
          g.fillStyle = row.dir === "in" ? "rgba(14,165,233,0.55)" : "rgba(34,197,94,0.55)";
          g.fillRect(x0, mid - half * 0.6, x1 - x0, half * 1.2);
        }
      }
    }

    // State bands and marks are elements (few, clickable, readable by tests).
    drawOverlay() {
      this.overlay.textContent = "";
      const left = GUTTER, right = GUTTER + this.plotWidth();
      const fragment = document.createDocumentFragment();
      for (const row of this.rows) {
        if (row.kind !== "state" || row.machine === null) continue;
        const bands = this.model.states.get(row.machine);
        bands.forEach((band, k) => {
          const end = k + 1 < bands.length ? bands[k + 1].t : this.model.tMax;
          const x0 = this.x(band.t), x1 = this.x(end);
          const node = el("div", "dtl-band");
          node.dataset.state = band.state;
          node.dataset.machine = row.machine;
          node.dataset.t = String(band.t);
          node.dataset.index = String(band.index);
          node.title = band.state + " from " + formatMicros(band.t) + " to " + formatMicros(end);
          const visible0 = Math.max(left, x0), visible1 = Math.min(right, Math.max(x0 + 1, x1));
          if (visible1 <= visible0) node.classList.add("dtl-offscreen");
          node.style.left = visible0 + "px";
          node.style.width = Math.max(0, visible1 - visible0) + "px";
          node.style.top = row.y + 2 + "px";
          node.style.height = row.h - 4 + "px";
          node.style.background = stateColour(band.state);
          if (visible1 - visible0 > 30) node.textContent = band.state;
          node.addEventListener("click", () => this.select(band.index));
          fragment.appendChild(node);
        });
      }
      for (const mark of this.model.marks) {
        const x = this.x(mark.t);
        const node = el("div", "dtl-mark dtl-mark-" + mark.kind);
        node.dataset.markKind = mark.kind;
        node.dataset.t = String(mark.t);
        if (mark.index !== undefined) node.dataset.index = String(mark.index);
        if (mark.obligation) node.dataset.obligation = mark.obligation;
        node.title = mark.label + " at " + formatMicros(mark.t);
        if (x < left || x > right) node.classList.add("dtl-offscreen");
        node.style.left = x + "px";
        node.style.top = "0px";
        node.style.height = this.height + "px";
        node.addEventListener("click", () => {
          if (mark.index !== undefined && !mark.external) this.select(mark.index);
          else { this.showDetail(mark, mark.index); }
        });
        fragment.appendChild(node);
      }
      this.overlay.appendChild(fragment);
    }

    destroy() {
      if (this.resizeObserver) this.resizeObserver.disconnect();
      window.removeEventListener("mousemove", this.onWindowMove);
      window.removeEventListener("mouseup", this.onWindowUp);
      this.element.textContent = "";
      delete this.element.dialogTimeline;
    }
  }

  window.DialogTimeline = {
    version: 1,
    render(element, data) {
      if (element.dialogTimeline) element.dialogTimeline.destroy();
      return new Timeline(element, data);
    },
    describe,
    formatMicros,
    audioPayload,
  };
})();
