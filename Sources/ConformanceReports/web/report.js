(() => {
  'use strict';
  const cases = Array.from(document.querySelectorAll('details.case'));
  const form = document.getElementById('filters');
  const FILTER = 'filter:';
  const SVG = 'http://www.w3.org/2000/svg';

  // ---- the case's data block: {journal, marks, title}, parsed once, when first needed
  const parsed = new WeakMap();
  function caseData(details) {
    let data = parsed.get(details);
    if (!data) {
      const block = details.querySelector('script.case-data');
      data = block ? JSON.parse(block.textContent) : {journal: [], marks: []};
      parsed.set(details, data);
    }
    return data;
  }

  // ---- filter: verdict, baseline change, obligation, free text; kept in the URL's hash
  function current() {
    const verdicts = Array.from(form.querySelectorAll('input[name=verdict]'));
    const change = form.querySelector('input[name=change]:checked');
    return {
      verdicts: new Set(verdicts.filter((input) => input.checked).map((input) => input.value)),
      allVerdicts: verdicts.every((input) => input.checked),
      change: change ? change.value : '',
      obligation: form.elements.obligation.value,
      text: form.elements.q.value.trim(),
    };
  }
  function matchesOthers(details, filter) {
    if (filter.change && details.dataset.change !== filter.change) return false;
    if (filter.obligation && !details.dataset.obligations.split(' ').includes(filter.obligation)) return false;
    return !filter.text || details.dataset.search.includes(filter.text.toLowerCase());
  }
  function hashOf(filter) {
    const parts = [];
    if (!filter.allVerdicts) parts.push('verdict=' + Array.from(filter.verdicts).join(','));
    if (filter.change) parts.push('change=' + filter.change);
    if (filter.obligation) parts.push('obligation=' + encodeURIComponent(filter.obligation));
    if (filter.text) parts.push('q=' + encodeURIComponent(filter.text));
    return parts.length ? FILTER + parts.join('&') : '';
  }
  function apply(writeHash) {
    const filter = current();
    const counts = {};
    let shown = 0;
    for (const details of cases) {
      const others = matchesOthers(details, filter);
      if (others) counts[details.dataset.verdict] = (counts[details.dataset.verdict] || 0) + 1;
      details.hidden = !(others && filter.verdicts.has(details.dataset.verdict));
      if (!details.hidden) shown += 1;
    }
    for (const input of form.querySelectorAll('input[name=verdict]')) {
      input.parentElement.querySelector('.n').textContent = counts[input.value] || 0;
    }
    for (const group of document.querySelectorAll('section.group')) {
      const visible = group.querySelectorAll('details.case:not([hidden])').length;
      const count = group.querySelector('.group-count');
      group.hidden = visible === 0;
      count.textContent = String(visible) === count.dataset.total ? visible : visible + ' of ' + count.dataset.total;
    }
    document.getElementById('shown').textContent =
      shown === cases.length ? cases.length + ' cases' : shown + ' of ' + cases.length + ' cases shown';
    if (writeHash) {
      const hash = hashOf(filter);
      history.replaceState(null, '', hash ? '#' + hash : location.pathname + location.search);
    }
  }
  function reset() {
    for (const input of form.querySelectorAll('input[name=verdict]')) input.checked = true;
    const all = form.querySelector('input[name=change][value=""]');
    if (all) all.checked = true;
    form.elements.obligation.value = '';
    form.elements.q.value = '';
  }
  function readHash() {
    if (!location.hash.startsWith('#' + FILTER)) return false;
    const params = new URLSearchParams(location.hash.slice(1 + FILTER.length));
    reset();
    if (params.has('verdict')) {
      const wanted = params.get('verdict').split(',');
      for (const input of form.querySelectorAll('input[name=verdict]')) input.checked = wanted.includes(input.value);
    }
    const change = form.querySelector('input[name=change][value="' + CSS.escape(params.get('change') || '') + '"]');
    if (change) change.checked = true;
    const obligation = params.get('obligation') || '';
    if (Array.from(form.elements.obligation.options).some((option) => option.value === obligation)) {
      form.elements.obligation.value = obligation;
    }
    form.elements.q.value = params.get('q') || '';
    return true;
  }
  // A link to a case (#qrt.tools.001) opens it, clearing a filter that hides it.
  function reveal() {
    let id = '';
    try {
      id = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : '';
    } catch (error) {
      return;  // a malformed escape names no case
    }
    const target = id ? document.getElementById(id) : null;
    if (!target || !target.matches('details.case')) return;
    if (target.hidden) {
      reset();
      apply(false);
    }
    target.open = true;
    target.scrollIntoView();
  }
  if (form) {
    form.hidden = false;
    form.addEventListener('submit', (event) => event.preventDefault());
    form.addEventListener('input', () => apply(true));
    form.addEventListener('change', () => apply(true));
    document.getElementById('clear-filters').addEventListener('click', () => {
      reset();
      apply(true);
    });
    window.addEventListener('hashchange', () => {
      if (readHash()) apply(false);
      else reveal();
    });
    const filtered = readHash();
    apply(false);
    if (!filtered) reveal();
  }

  // ---- base64 payloads: expand or copy the string the evidence abbreviates
  function atPointer(value, pointer) {
    for (const part of pointer.split('/').slice(1)) {
      if (value == null) return undefined;
      value = value[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return value;
  }
  async function copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'copied';
    } catch (error) {
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      const done = document.execCommand('copy');
      area.remove();
      button.textContent = done ? 'copied' : 'select and copy';
    }
  }
  document.addEventListener('click', (event) => {
    const button = event.target.closest('.b64 button');
    if (!button) return;
    const span = button.closest('.b64');
    const data = caseData(span.closest('details.case'));
    const text = String(atPointer(data.journal[Number(span.dataset.entry)], span.dataset.pointer) ?? '');
    if (!text && data.audioLeftOut) {
      button.textContent = 'not in this page: see the case JSON';
      return;
    }
    if (button.classList.contains('b64-copy')) {
      copy(text, button);
      return;
    }
    const shown = span.querySelector('.b64-full');
    if (shown) {
      shown.remove();
      button.textContent = 'expand';
    } else {
      const full = document.createElement('span');
      full.className = 'b64-full';
      full.textContent = text;
      span.append(full);
      button.textContent = 'collapse';
    }
  });

  // ---- audio: a direction's chunks concatenated (or one evidence chunk), a waveform, a player
  // The timeline's (inlined before this script): one place knows where a payload is.
  const payloadOf = (entry) => DialogTimeline.audioPayload(entry);
  function bytesOf(base64) {
    try {
      const text = atob(base64);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
      return bytes;
    } catch (error) {
      return null;
    }
  }
  function concat(parts) {
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
  function ascii(bytes, at, length) {
    return String.fromCharCode(...bytes.subarray(at, at + length));
  }
  // The 16-bit PCM of a WAV file: {bytes, rate, channels}, or null for another format.
  function wavData(bytes) {
    if (bytes.length < 12 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE') return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let format = null;
    for (let at = 12; at + 8 <= bytes.length; ) {
      const id = ascii(bytes, at, 4);
      const size = view.getUint32(at + 4, true);
      if (id === 'fmt ') {
        format = {tag: view.getUint16(at + 8, true), channels: view.getUint16(at + 10, true),
          rate: view.getUint32(at + 12, true), bits: view.getUint16(at + 22, true)};
      } else if (id === 'data' && format && format.tag === 1 && format.bits === 16) {
        return {bytes: bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + size)), rate: format.rate,
          channels: format.channels};
      }
      at += 8 + size + (size & 1);
    }
    return null;
  }
  function wavBlob(pcm, rate, channels) {
    const header = new DataView(new ArrayBuffer(44));
    const text = (at, value) => { for (let i = 0; i < 4; i += 1) header.setUint8(at + i, value.charCodeAt(i)); };
    text(0, 'RIFF'); header.setUint32(4, 36 + pcm.length, true); text(8, 'WAVE');
    text(12, 'fmt '); header.setUint32(16, 16, true); header.setUint16(20, 1, true);
    header.setUint16(22, channels, true); header.setUint32(24, rate, true);
    header.setUint32(28, rate * channels * 2, true); header.setUint16(32, channels * 2, true);
    header.setUint16(34, 16, true); text(36, 'data'); header.setUint32(40, pcm.length, true);
    return new Blob([header.buffer, pcm], {type: 'audio/wav'});
  }
  // What can be shown and played of these audio entries.
  function track(entries, leftOut) {
    const first = entries[0].audio;
    const codec = String(first.codec || '').toLowerCase();
    const same = entries.filter((e) => String(e.audio.codec || '').toLowerCase() === codec &&
      (e.audio.sampleRate || 0) === (first.sampleRate || 0));
    const chunks = same.map((e) => ({entry: e, ms: Number(e.audio.durationMs) || 0,
      bytes: payloadOf(e) == null ? null : bytesOf(payloadOf(e))}));
    const kept = chunks.filter((chunk) => chunk.bytes && chunk.bytes.length);
    const result = {codec, rate: first.sampleRate || 0, chunks, skipped: entries.length - same.length,
      durationMs: chunks.reduce((sum, chunk) => sum + chunk.ms, 0), kind: 'blocks', reason: ''};
    if (!kept.length && leftOut) {
      result.reason = 'the payloads are left out of this page (its audio budget was spent on cases above): ' +
        'durations only; the case JSON has them';
    } else if (!kept.length) {
      result.reason = 'no payload in the journal (a binary frame keeps only its summary unless the mock runs ' +
        'with --journal-audio): durations only';
    } else if (codec === 'pcm' || codec === 'pcm16' || codec === 's16le') {
      if (!result.rate) result.reason = 'PCM without a sample rate: durations only';
      else {
        result.kind = 'pcm';
        result.pcm = concat(kept.map((chunk) => chunk.bytes.subarray(0, chunk.bytes.length & ~1)));
        result.channels = 1;
      }
    } else if (codec === 'wav') {
      const parts = kept.map((chunk) => wavData(chunk.bytes)).filter((part) => part);
      if (parts.length) {
        result.kind = 'pcm';
        result.rate = parts[0].rate;
        result.channels = parts[0].channels;
        result.pcm = concat(parts.map((part) => part.bytes));
      } else result.reason = 'WAV that is not 16-bit PCM: durations only';
    } else if (codec === 'mp3' || codec === 'mpeg') {
      result.kind = 'encoded';
      result.blob = new Blob(kept.map((chunk) => chunk.bytes), {type: 'audio/mpeg'});
    } else if (ascii(kept[0].bytes, 0, 4) === 'OggS') {
      result.kind = 'encoded';
      result.blob = new Blob(kept.map((chunk) => chunk.bytes), {type: 'audio/ogg'});
    } else if (codec.includes('opus')) {
      result.reason = 'raw Opus packets have no container a browser can play or decode: durations only';
    } else {
      result.reason = 'a browser cannot play ' + (codec || 'this audio') + ' as journaled: durations only';
    }
    return result;
  }
  function svgElement(name, attributes) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  }
  const WIDTH = 480;
  const HEIGHT = 40;
  // Min and max per column as one filled outline; `sample(i)` is in -1…1.
  function drawPeaks(svg, count, sample) {
    const columns = Math.max(1, Math.min(WIDTH, count));
    const top = [];
    const bottom = [];
    for (let column = 0; column < columns; column += 1) {
      const from = Math.floor((column * count) / columns);
      const to = Math.max(from + 1, Math.floor(((column + 1) * count) / columns));
      let low = 0;
      let high = 0;
      for (let i = from; i < to && i < count; i += 1) {
        const value = sample(i);
        if (value < low) low = value;
        if (value > high) high = value;
      }
      const x = ((column + 0.5) * WIDTH) / columns;
      top.push(x.toFixed(1) + ',' + (HEIGHT / 2 - (high * HEIGHT) / 2 - 0.5).toFixed(1));
      bottom.unshift(x.toFixed(1) + ',' + (HEIGHT / 2 - (low * HEIGHT) / 2 + 0.5).toFixed(1));
    }
    svg.append(svgElement('path', {d: 'M' + top.concat(bottom).join('L') + 'Z'}));
    svg.dataset.points = String(columns);
  }
  // Chunks as blocks on the journal's time axis, so gaps show.
  function drawBlocks(svg, chunks) {
    const start = chunks[0].entry.t;
    const end = Math.max(...chunks.map((chunk) => chunk.entry.t + chunk.ms * 1000));
    const span = Math.max(end - start, 1);
    for (const chunk of chunks) {
      svg.append(svgElement('rect', {x: (((chunk.entry.t - start) / span) * WIDTH).toFixed(1), y: 8,
        width: Math.max((chunk.ms * 1000 * WIDTH) / span, 1).toFixed(1), height: HEIGHT - 16}));
    }
    svg.dataset.blocks = String(chunks.length);
  }
  function player(container, entries, leftOut) {
    const audio = track(entries, leftOut);
    const root = document.createElement('div');
    root.className = 'player';
    const svg = svgElement('svg', {class: 'wave', viewBox: '0 0 ' + WIDTH + ' ' + HEIGHT,
      preserveAspectRatio: 'none', role: 'img'});
    const info = document.createElement('span');
    info.className = 'info';
    const seconds = (audio.durationMs / 1000).toFixed(2) + ' s';
    info.textContent = audio.reason || seconds + (audio.chunks.length > 1 ? ' concatenated' : '') +
      (audio.skipped ? '; ' + audio.skipped + ' chunks in another format left out' : '');
    container.append(root);
    if (audio.kind === 'blocks') {
      drawBlocks(svg, audio.chunks);
      root.append(svg, info);
      return;
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'play';
    button.textContent = '▶ play';
    const element = document.createElement('audio');
    element.preload = 'metadata';
    const playhead = svgElement('line', {x1: 0, x2: 0, y1: 0, y2: HEIGHT});
    root.append(button, svg, info, element);
    if (audio.kind === 'pcm') {
      const samples = new Int16Array(audio.pcm.buffer, audio.pcm.byteOffset, audio.pcm.length >> 1);
      drawPeaks(svg, samples.length, (i) => samples[i] / 32768);
      element.src = URL.createObjectURL(wavBlob(audio.pcm, audio.rate, audio.channels));
    } else {
      // An encoded stream's own length is the one to trust (a summary may only estimate it).
      element.addEventListener('loadedmetadata', () => {
        if (!Number.isFinite(element.duration)) return;
        info.textContent = info.textContent.replace(seconds, element.duration.toFixed(2) + ' s');
      });
      element.src = URL.createObjectURL(audio.blob);
      audio.blob.arrayBuffer()
        .then((buffer) => new OfflineAudioContext(1, 1, 44100).decodeAudioData(buffer))
        .then((decoded) => {
          const channel = decoded.getChannelData(0);
          drawPeaks(svg, channel.length, (i) => channel[i]);
        })
        .catch(() => drawBlocks(svg, audio.chunks));
    }
    svg.append(playhead);
    button.addEventListener('click', () => {
      if (element.paused) element.play().catch((error) => { info.textContent = 'cannot play: ' + error.message; });
      else element.pause();
    });
    element.addEventListener('play', () => { button.textContent = '⏸ pause'; });
    element.addEventListener('pause', () => { button.textContent = '▶ play'; });
    element.addEventListener('timeupdate', () => {
      const x = element.duration ? ((element.currentTime / element.duration) * WIDTH).toFixed(1) : 0;
      playhead.setAttribute('x1', x);
      playhead.setAttribute('x2', x);
    });
    svg.addEventListener('click', (event) => {
      const box = svg.getBoundingClientRect();
      if (element.duration) element.currentTime = ((event.clientX - box.left) / box.width) * element.duration;
    });
  }

  // ---- a case comes alive when first opened: its audio tracks, clips and timeline
  const ready = new WeakSet();
  function initCase(details) {
    if (ready.has(details)) return;
    ready.add(details);
    const data = caseData(details);
    for (const container of details.querySelectorAll('.track')) {
      const entries = data.journal.filter((entry) => entry.dir === container.dataset.dir && entry.audio);
      if (entries.length) player(container, entries, data.audioLeftOut);
    }
    for (const container of details.querySelectorAll('.clip')) {
      const entry = data.journal[Number(container.dataset.entry)];
      if (entry && entry.audio) player(container, [entry], data.audioLeftOut);
    }
    const timeline = details.querySelector('.dialog-timeline');
    if (timeline && window.DialogTimeline) window.DialogTimeline.render(timeline, data);
  }
  // An open case comes alive when it nears the viewport, so a run with many failing (open)
  // cases loads at once. Observing anew always reports the current intersection.
  const near = 'IntersectionObserver' in window ? new IntersectionObserver((items) => {
    for (const item of items) {
      if (item.isIntersecting && item.target.open) {
        near.unobserve(item.target);
        initCase(item.target);
      }
    }
  }, {rootMargin: '800px 0px'}) : null;
  function wake(details) {
    if (!details.open || ready.has(details)) return;
    if (!near) {
      initCase(details);
      return;
    }
    near.unobserve(details);
    near.observe(details);
  }
  for (const details of cases) {
    details.addEventListener('toggle', () => wake(details));
    wake(details);
  }
})();
