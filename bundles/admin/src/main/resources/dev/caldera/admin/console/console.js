// The Caldera console: reads the admin JSON API and redraws every few seconds. Every value from
// the API reaches the page through textContent or setAttribute, never as markup, and through
// visible(): control and bidirectional formatting characters are drawn as escapes, so a name cannot
// hide itself or reorder the text around it.
'use strict';

(function () {
  const POLL_MILLIS = 2000;
  const TOKEN_KEY = 'caldera.adminToken';
  const BYTE_RESOURCES = new Set(['memory', 'ephemeral-storage', 'storage']);
  const KNOWN_RESOURCES = new Set(['cpu', 'memory', 'pods', 'ephemeral-storage', 'storage']);

  let token = sessionStorage.getItem(TOKEN_KEY) || '';
  let access = { tokenConfigured: false, authorized: false };
  let selectedJob = null;
  let timer = null;
  let refreshes = 0;

  const $ = (id) => document.getElementById(id);

  /**
   * C0 (but tab, line feed and carriage return: the conf and policy texts keep their lines), DEL,
   * C1 and the bidirectional formatting characters (marks, embeddings, overrides, isolates).
   */
  const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

  /** {@code v} as text with every unsafe character replaced by its visible escape, e.g. \u202E. */
  function visible(v) {
    return String(v).replace(
      UNSAFE,
      (c) => '\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
    );
  }

  /** Sets an element's text, through {@link visible}. */
  function setText(e, v) {
    e.textContent = visible(v);
  }

  /** An element with attributes (class, text, or plain attributes) and children (nodes or text). */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') setText(e, v);
      else e.setAttribute(k, v === true ? '' : visible(v));
    }
    for (const c of children) {
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : visible(c));
    }
    return e;
  }

  function table(headers, rows, attrs) {
    return el(
      'table',
      attrs,
      el('thead', null, el('tr', null, ...headers.map((h) => el('th', { text: h })))),
      el('tbody', null, ...rows)
    );
  }

  /** Replaces the children of {@code box} with {@code nodes}, leaving out the absent ones. */
  function fill(box, ...nodes) {
    box.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined && n !== false));
  }

  function empty(text) {
    return el('p', { class: 'empty', text: text });
  }

  function number(v) {
    if (v === null || v === undefined) return '';
    if (typeof v !== 'number') return String(v);
    if (!isFinite(v) || v >= 1e300) return 'unlimited';
    if (Number.isInteger(v)) return String(v);
    return String(Math.round(v * 1000) / 1000);
  }

  function quantity(resource, v) {
    if (typeof v === 'number' && isFinite(v) && v < 1e300 && BYTE_RESOURCES.has(resource)) {
      const units = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'];
      let i = 0;
      let x = v;
      while (Math.abs(x) >= 1024 && i < units.length - 1) {
        x /= 1024;
        i++;
      }
      return number(Math.round(x * 10) / 10) + units[i];
    }
    return number(v);
  }

  function resources(map) {
    return Object.keys(map || {})
      .sort()
      .map((r) => r + ' ' + quantity(r, map[r]))
      .join(', ');
  }

  function time(iso) {
    if (!iso) return '';
    const d = new Date(iso);
    return isNaN(d.getTime()) ? String(iso) : d.toLocaleTimeString();
  }

  function ago(iso) {
    if (!iso) return '';
    const s = Math.round((Date.now() - new Date(iso).getTime()) / 1000);
    if (!isFinite(s)) return '';
    if (s < 60) return s + ' s ago';
    if (s < 3600) return Math.round(s / 60) + ' min ago';
    return Math.round(s / 3600) + ' h ago';
  }

  function headers(extra) {
    const h = Object.assign({ Accept: 'application/json' }, extra || {});
    if (token) h.Authorization = 'Bearer ' + token;
    return h;
  }

  /** A request: {ok, status, body}, body the parsed JSON (an error's has an error field). */
  async function request(method, path, body) {
    try {
      const r = await fetch(path, {
        method: method,
        headers: headers(body ? { 'Content-Type': 'application/java-archive' } : null),
        body: body,
        cache: 'no-store',
      });
      let json = null;
      try {
        json = await r.json();
      } catch (e) {
        json = null;
      }
      return { ok: r.ok, status: r.status, body: json };
    } catch (e) {
      return { ok: false, status: 0, body: { error: 'the admin server does not answer' } };
    }
  }

  function get(path) {
    return request('GET', path, null);
  }

  /** The element {@code id} to draw {@code res} into; null after showing there why it failed. */
  function target(id, res) {
    const box = $(id);
    if (res.ok) return box;
    box.replaceChildren(empty(errorOf(res)));
    return null;
  }

  function errorOf(res) {
    if (res.body && typeof res.body.error === 'string') return res.body.error;
    return res.status ? 'HTTP ' + res.status : 'the admin server does not answer';
  }

  // ---- loop state -------------------------------------------------------------------------------

  function renderStatus(res) {
    const loop = $('loop');
    const badge = $('loop-state');
    const detail = $('loop-detail');
    if (!res.ok || !res.body) {
      loop.dataset.state = 'down';
      setText(badge, 'unavailable');
      setText(detail, errorOf(res));
      return;
    }
    const s = res.body;
    loop.dataset.state = s.state;
    setText(badge, s.state === 'holding' ? 'scheduling held' : s.state);
    const parts = [];
    if (s.reasons && s.reasons.length) parts.push(s.reasons.join('; '));
    if (s.missingPlugins && s.missingPlugins.length) {
      parts.push('missing plugins: ' + s.missingPlugins.join(', '));
    }
    parts.push(number(s.sessions) + ' sessions');
    if (s.lastSession) parts.push('last ' + time(s.lastSession));
    setText(detail, parts.join(' · '));
  }

  // ---- queues -----------------------------------------------------------------------------------

  /** One resource's bar: allocated against the limit (deserved, else capability, else real). */
  function bar(resource, q) {
    const allocated = (q.allocated || {})[resource] || 0;
    const limits = [
      ['deserved', q.deserved],
      ['capability', q.capability],
      ['realCapability', q.realCapability],
    ];
    let limitName = null;
    let limit = null;
    for (const [name, map] of limits) {
      const v = (map || {})[resource];
      if (typeof v === 'number' && isFinite(v) && v > 0 && v < 1e300) {
        limitName = name;
        limit = v;
        break;
      }
    }
    return meter(resource, allocated, limit, limitName, { class: 'bar-row', 'data-resource': resource });
  }

  /** A labelled bar: {@code allocated} against {@code limit} (none: the label says allocated). */
  function meter(resource, allocated, limit, limitName, attrs) {
    const fill = limit ? Math.min(100, (allocated / limit) * 100) : 0;
    const over = limit !== null && allocated > limit;
    const label =
      resource +
      ' ' +
      quantity(resource, allocated) +
      (limit !== null ? ' / ' + quantity(resource, limit) + ' ' + limitName : ' allocated');
    return el(
      'div',
      attrs,
      el('span', { class: 'bar-label', text: label }),
      el(
        'span',
        { class: 'bar' + (over ? ' over' : ''), title: label },
        (() => {
          const f = el('span', { class: 'bar-fill' });
          f.style.width = fill.toFixed(1) + '%';
          return f;
        })()
      )
    );
  }

  /**
   * A quota a plugin keeps of the queue (capacity-card: one card model), allocated vs quota, and
   * beside it the cluster's inventory of the model ({@code inventory}: card name → cards on the
   * nodes, from /api/queues' cards), marked where the quota is more than the inventory.
   */
  function quotaBar(f, inventory) {
    const row = meter(f.resource, f.allocated, f.limit, f.limitName, {
      class: 'bar-row quota-bar',
      'data-quota': f.resource,
      'data-allocated': String(f.allocated),
      'data-limit': String(f.limit),
    });
    const has = Object.prototype.hasOwnProperty.call(inventory, f.resource);
    const inv = has ? inventory[f.resource] : null;
    row.dataset.inventory = has ? String(inv) : '';
    const over = has && typeof f.limit === 'number' && f.limit > inv;
    row.appendChild(
      el('span', {
        class: 'inventory' + (over ? ' over-inventory' : ''),
        title: over ? 'the quota is more than the cluster has of this card model' : null,
        text: has ? 'inventory ' + number(inv) + (over ? ' (below quota)' : '') : 'inventory unknown',
      })
    );
    return row;
  }

  function queueResources(q) {
    // pods has a limit of its own only where the queue sets one.
    const names = new Set([
      ...Object.keys(q.allocated || {}).filter((r) => r !== 'pods'),
      ...Object.keys(q.deserved || {}),
      ...Object.keys(q.capability || {}),
    ]);
    return [...names].sort((a, b) => {
      const ka = KNOWN_RESOURCES.has(a) ? 0 : 1;
      const kb = KNOWN_RESOURCES.has(b) ? 0 : 1;
      return ka - kb || (a < b ? -1 : a > b ? 1 : 0);
    });
  }

  // Close, drain, open: POST /api/queues/NAME/COMMAND, shown only with an accepted token.
  function queueButtons(q) {
    const commands = q.state === 'Open' ? ['close', 'drain'] : ['drain', 'open'];
    return commands.map((c) => {
      const b = el('button', { type: 'button', class: 'queue-' + c, text: c[0].toUpperCase() + c.slice(1) });
      b.addEventListener('click', async () => {
        if (c !== 'open' && !window.confirm(c + ' queue ' + q.name + '?')) return;
        const r = await request('POST', '/api/queues/' + encodeURIComponent(q.name) + '/' + c, null);
        result(r, c + ' queue ' + q.name + (r.ok && r.body ? ': ' + r.body.state : ''));
      });
      return b;
    });
  }

  function renderQueues(res) {
    const box = target('queues', res);
    if (!box) return;
    const queues = res.body.queues || [];
    const inventory = {};
    for (const c of res.body.cards || []) inventory[c.card] = c.inventory;
    const depth = {};
    const rows = queues.map((q) => {
      depth[q.name] = q.parent && depth[q.parent] !== undefined ? depth[q.parent] + 1 : 0;
      const name = el('td', { class: 'queue-name', text: q.name });
      name.style.paddingLeft = 0.4 + depth[q.name] * 1.4 + 'em';
      const cards = Object.keys(q.capability || {}).filter(
        (r) => !KNOWN_RESOURCES.has(r) && !r.includes('/')
      );
      return el(
        'tr',
        { 'data-queue': q.name, class: q.state === 'Open' ? null : 'queue-not-open' },
        name,
        el('td', { text: q.state }),
        el('td', { class: 'num', text: number(q.weight) }),
        el('td', { class: 'num', text: number(q.pending) + ' (' + number(q.pendingTasks) + ' pods)' }),
        el(
          'td',
          { class: 'bars' },
          ...queueResources(q).map((r) => bar(r, q)),
          ...(q.quotas || []).map((f) => quotaBar(f, inventory))
        ),
        el(
          'td',
          { class: 'small' },
          q.guarantee && Object.keys(q.guarantee).length
            ? el('div', { text: 'guarantee: ' + resources(q.guarantee) })
            : null,
          cards.length
            ? el('div', {
                text: 'card quota: ' + cards.map((c) => c + ' ' + number(q.capability[c])).join(', '),
              })
            : null,
          el('div', { text: 'real capability: ' + (resources(q.realCapability) || 'none') }),
          access.authorized && q.name !== 'root' ? el('div', {}, ...queueButtons(q)) : null
        )
      );
    });
    const out = [
      queues.length
        ? table(['Queue', 'State', 'Weight', 'Pending', 'Allocated', 'Limits'], rows, {
            id: 'queue-tree',
          })
        : empty('no queues'),
    ];
    box.replaceChildren(...out);
  }

  // ---- pending ----------------------------------------------------------------------------------

  function blockerCell(b) {
    if (!b) return el('td', { text: 'not tried yet' });
    const figures = (b.figures || []).map((f) =>
      el('li', {
        text:
          f.resource +
          ': requested ' +
          quantity(f.resource, f.requested) +
          ', allocated ' +
          quantity(f.resource, f.allocated) +
          ' of ' +
          f.limitName +
          ' ' +
          quantity(f.resource, f.limit),
      })
    );
    // A policy denial counts victim candidates per deciding rule; every other stage counts nodes.
    const counted = b.stage === 'RECLAIM_POLICY' ? 'victim candidate' : 'node';
    const counts = Object.entries(b.nodeCounts || {}).map(([reason, n]) =>
      el('li', { text: n + ' ' + counted + (n === 1 ? '' : 's') + ': ' + reason })
    );
    const by = [b.action, b.plugin].filter((x) => x).join(' / ');
    return el(
      'td',
      { class: 'reason' },
      el('span', { class: 'stage', 'data-stage': b.stage, text: b.stage }),
      ' ',
      el('span', { class: 'message', text: b.message }),
      by ? el('span', { class: 'by', text: ' (' + by + ')' }) : null,
      figures.length || counts.length ? el('ul', null, ...figures, ...counts) : null
    );
  }

  /** A link that selects the pod group {@code podGroup} (its pods, history and evictions). */
  function jobLink(podGroup) {
    if (!podGroup) return '';
    const link = el('a', { href: '#job=' + podGroup, class: 'pg', 'data-job': podGroup, text: podGroup });
    link.addEventListener('click', (ev) => {
      ev.preventDefault();
      selectedJob = podGroup;
      showJob();
      $('job').scrollIntoView({ block: 'nearest' });
    });
    return link;
  }

  /** A link to the node's rows of the nodes and cards view. */
  function nodeLink(node) {
    return node ? el('a', { href: '#node-' + node, class: 'node', text: node }) : '';
  }

  function waitingRow(w) {
    const link = jobLink(w.podGroup);
    return el(
      'tr',
      { 'data-pod-group': w.podGroup },
      el('td', { class: 'num', text: w.position > 0 ? number(w.position) : '' }),
      el('td', null, link),
      el('td', { text: w.phase }),
      el('td', { class: 'num', text: number(w.minMember) }),
      el('td', { class: 'small', text: resources(w.minResources) }),
      blockerCell(w.blocker),
      el('td', { class: 'small', text: ago(w.since), title: w.since || '' })
    );
  }

  const PENDING_HEADERS = ['#', 'Pod group', 'Phase', 'Min', 'Min resources', 'Why', 'Since'];

  function renderPending(queuesRes, lines) {
    const box = target('pending', queuesRes);
    if (!box) return;
    const parts = [];
    for (const { queue, res } of lines) {
      if (!res.ok) {
        parts.push(el('h3', { text: queue }), empty(errorOf(res)));
        continue;
      }
      const line = res.body.pending || [];
      if (!line.length) continue;
      parts.push(
        el('h3', { text: 'queue ' + queue + ' · ' + line.length + ' waiting' }),
        table(PENDING_HEADERS, line.map(waitingRow), { class: 'line', 'data-queue': queue })
      );
    }
    const orphans = queuesRes.body.orphans || [];
    if (orphans.length) {
      parts.push(
        el('h3', { text: 'in no queue (the queue does not exist)' }),
        table(PENDING_HEADERS, orphans.map(waitingRow), { class: 'line', 'data-queue': '' })
      );
    }
    box.replaceChildren(...(parts.length ? parts : [empty('nothing is pending')]));
  }

  async function showJob() {
    const box = $('job');
    if (!selectedJob) {
      box.hidden = true;
      return;
    }
    const slash = selectedJob.indexOf('/');
    const path =
      '/api/jobs/' +
      encodeURIComponent(selectedJob.substring(0, slash)) +
      '/' +
      encodeURIComponent(selectedJob.substring(slash + 1));
    const res = await get(path);
    const close = el('button', { type: 'button', text: 'Close' });
    close.addEventListener('click', () => {
      selectedJob = null;
      box.hidden = true;
    });
    if (!res.ok) {
      box.replaceChildren(el('h3', { text: selectedJob }), empty(errorOf(res)), close);
      box.hidden = false;
      return;
    }
    const j = res.body.job;
    const ahead = res.body.ahead || [];
    const place =
      j.waiting && j.waiting.position > 0
        ? 'position ' + j.waiting.position + ' in queue ' + j.queue +
          (ahead.length ? ' (ahead: ' + ahead.join(', ') + ')' : '')
        : 'queue ' + j.queue;
    const history = (j.history || []).map((h) =>
      el(
        'tr',
        null,
        el('td', { class: 'small', text: time(h.since) + ' – ' + time(h.until) }),
        blockerCell(h.blocker)
      )
    );
    const tasks = (j.tasks || []).map((t) =>
      el(
        'tr',
        null,
        el('td', { text: t.name }),
        el('td', { text: t.phase }),
        el('td', null, nodeLink(t.node)),
        el('td', { class: 'small', text: t.reason || '' })
      )
    );
    const evictions = (j.evictions || []).map((e) =>
      el(
        'tr',
        { 'data-eviction': e.pod },
        el('td', { class: 'small', text: time(e.time) }),
        el('td', { text: e.podGroup === j.podGroup ? 'suffered' : 'caused' }),
        el('td', { class: 'small', text: e.message })
      )
    );
    const holding = (j.holding || []).map((h) => el('li', { text: h }));
    box.replaceChildren(
      el('h3', { text: j.podGroup + ' · ' + j.phase + ' · ' + place }),
      ...(holding.length ? [el('ul', { class: 'job-holding' }, ...holding)] : []),
      history.length ? table(['When', 'Blocker'], history) : empty('no blockers recorded'),
      tasks.length ? table(['Pod', 'Phase', 'Node', 'Why it waits'], tasks) : empty('no pods'),
      evictions.length
        ? table(['When', 'Eviction', 'What happened'], evictions, { class: 'job-evictions' })
        : null,
      close
    );
    box.hidden = false;
  }

  // ---- sessions, plugins, bundles, conf, policies, events ---------------------------------------

  function renderSessions(res) {
    const box = target('sessions', res);
    if (!box) return;
    const sessions = (res.body || []).slice().reverse();
    const rows = sessions.map((s) => {
      const binds = s.binds || [];
      const evictions = s.evictions || [];
      const pending = Object.entries(s.pendingByQueue || {})
        .filter(([, n]) => n > 0)
        .map(([q, n]) => q + ' ' + n)
        .join(', ');
      return el(
        'tr',
        { 'data-session': s.index },
        el('td', { class: 'num', text: number(s.index) }),
        el('td', { text: time(s.started) }),
        el('td', { class: 'num', text: number(Math.round(s.millis * 10) / 10) + ' ms' }),
        el(
          'td',
          { class: 'num', title: binds.map((b) => b.pod + ' → ' + b.node).join('\n') },
          number(binds.length)
        ),
        el('td', { class: 'num', title: evictions.join('\n') }, number(evictions.length)),
        el('td', { class: 'num', text: number(s.pipelined) }),
        el('td', { class: 'small', text: pending })
      );
    });
    box.replaceChildren(
      rows.length
        ? table(
            ['Session', 'Started', 'Duration', 'Binds', 'Evictions', 'Pipelined', 'Pending pods by queue'],
            rows
          )
        : empty('no session yet')
    );
  }

  function uninstallButton(bundle) {
    const b = el('button', { type: 'button', class: 'uninstall', text: 'Uninstall' });
    b.addEventListener('click', async () => {
      if (!window.confirm('Uninstall ' + bundle + '?')) return;
      const r = await request('DELETE', '/api/bundles/' + encodeURIComponent(bundle), null);
      result(r, 'uninstalled ' + bundle);
    });
    return b;
  }

  function renderPlugins(res) {
    const box = target('plugins', res);
    if (!box) return;
    const writable = access.authorized;
    const rows = (res.body || []).map((p) =>
      el(
        'tr',
        { 'data-plugin': p.name, class: p.state === 'MISSING' ? 'missing' : null },
        el('td', { text: p.name }),
        el('td', { class: 'state', text: p.state }),
        el('td', { text: p.bundle || '' }),
        el('td', { text: p.version || '' }),
        el('td', { class: 'num', text: number(p.sessionsServed) }),
        el('td', { text: p.inConf ? 'yes' : 'no' }),
        writable ? el('td', null, p.bundle ? uninstallButton(p.bundle) : null) : null
      )
    );
    const headers = ['Plugin', 'State', 'Bundle', 'Version', 'Sessions served', 'In conf'];
    if (writable) headers.push('');
    box.replaceChildren(rows.length ? table(headers, rows, { id: 'plugin-table' }) : empty('no plugins'));
  }

  function renderBundles(res) {
    const box = target('bundles', res);
    if (!box) return;
    const rows = (res.body || []).map((b) =>
      el(
        'tr',
        { 'data-bundle': b.symbolicName, class: b.problem ? 'problem' : null },
        el('td', { class: 'num', text: number(b.id) }),
        el('td', { text: b.symbolicName }),
        el('td', { text: b.version }),
        el('td', { class: 'state', text: b.state }),
        el('td', { class: 'small', text: b.problem || '' })
      )
    );
    box.replaceChildren(
      rows.length ? table(['Id', 'Bundle', 'Version', 'State', 'Problem'], rows) : empty('no bundles')
    );
  }

  function renderConf(res) {
    const box = target('conf', res);
    if (!box) return;
    const c = res.body;
    fill(
      box,
      el('p', {
        text:
          'conf ' + (c.path || '') + (c.loadedAt ? ', in force since ' + time(c.loadedAt) : '') +
          ' · actions: ' + (c.actions || []).join(', ') +
          ' · plugins: ' + (c.plugins || []).join(', '),
      }),
      c.lastError ? el('p', { class: 'error-text', text: 'refused: ' + c.lastError }) : null,
      c.text ? el('details', { 'data-key': 'conf' }, el('summary', { text: 'conf text' }), el('pre', { text: c.text })) : null
    );
  }

  function renderPolicies(res, eventsRes) {
    const box = target('policies', res);
    if (!box) return;
    const body = res.body || {};
    const texts = body.files || {};
    const files = Object.keys(texts).sort();
    // The checks' verdicts are events: the last one naming a file says whether its text was taken.
    const events = eventsRes.ok ? eventsRes.body || [] : [];
    const items = files.map((f) => {
      const last = events.filter((e) => (e.message || '').includes(f)).pop();
      return el(
        'details',
        { 'data-policy': f, 'data-key': 'policy:' + f },
        el(
          'summary',
          null,
          f,
          last ? el('span', { class: 'small', text: ' · ' + last.reason + ': ' + last.message }) : null
        ),
        el('pre', { text: texts[f] })
      );
    });
    // Policies in audit mode decide nothing; how often each would have decided otherwise.
    const audits = Object.entries(body.auditDisagreements || {}).map(([policy, n]) =>
      el('li', {
        'data-audit': policy,
        text: policy + ' (audit): ' + number(n) + ' disagreement' + (n === 1 ? '' : 's') + ' with the enforced policies',
      })
    );
    // The recent disagreements themselves: both decisions and both deciding rules.
    const recent = (body.recentDisagreements || [])
      .slice()
      .reverse()
      .map((d) =>
        el(
          'tr',
          { 'data-disagreement': d.object },
          el('td', { class: 'small', text: time(d.lastSeen) }),
          el('td', { text: d.kind + ' ' + d.object }),
          el('td', { class: 'small', text: d.message }),
          el('td', { class: 'num', text: number(d.sessions) })
        )
      );
    box.replaceChildren(
      ...(items.length ? items : [empty('no policy files in force')]),
      ...(audits.length ? [el('ul', { id: 'policy-audits' }, ...audits)] : []),
      ...(recent.length
        ? [table(['Last seen', 'Object', 'Disagreement', 'Sessions'], recent, { id: 'audit-disagreements' })]
        : [])
    );
  }

  /** The nodes and cards view: per card model, per node, and what can never fit. */
  function renderNodes(res) {
    const box = target('nodes', res);
    if (!box) return;
    const body = res.body || {};
    const models = (body.cards || []).map((c) =>
      el(
        'tr',
        { 'data-card': c.card },
        el('td', { text: c.card }),
        el('td', { text: c.kind }),
        el('td', { class: 'num inventory', text: number(c.inventory) }),
        el('td', { class: 'num allocated', text: number(c.allocated) }),
        el('td', { class: 'num free', text: number(c.free) }),
        el(
          'td',
          { class: 'small' },
          ...(c.queues || []).map((q) =>
            el('div', {
              'data-queue': q.queue,
              'data-allocated': q.allocated,
              'data-quota': q.quota,
              class: q.overInventory ? 'over' : null,
              text:
                q.queue + ' ' + number(q.allocated) + ' / ' + (q.quota < 0 ? 'no quota' : number(q.quota)) +
                (q.overInventory ? ' (quota above inventory ' + number(c.inventory) + ')' : ''),
            })
          )
        )
      )
    );
    const nodeRows = [];
    for (const n of body.nodes || []) {
      const cards = n.cards || [];
      if (!cards.length) {
        nodeRows.push(el('tr', { 'data-node': n.name }, el('td', { id: 'node-' + n.name, text: n.name }), el('td', { text: '-' })));
        continue;
      }
      for (const c of cards) {
        nodeRows.push(
          el(
            'tr',
            { 'data-node': n.name, 'data-card': c.card },
            el('td', { id: 'node-' + n.name, text: n.name }),
            el('td', { text: c.card + (c.kind !== 'whole' ? ' (' + c.kind + ')' : '') }),
            el('td', { class: 'num', text: number(c.capacity) }),
            el('td', { class: 'num', text: number(c.allocated) }),
            el('td', { class: 'num', text: number(Math.max(0, c.capacity - c.allocated)) }),
            el('td', { class: 'small', text: Object.entries(c.queues || {}).map(([q, v]) => q + ' ' + number(v)).join(', ') })
          )
        );
      }
    }
    const never = (body.neverFits || []).map((f) =>
      el('li', { 'data-never-fits': f.podGroup }, jobLink(f.podGroup), ': ' + f.message)
    );
    box.replaceChildren(
      models.length
        ? table(['Card', 'Kind', 'Inventory', 'Allocated', 'Free', 'Queues (allocated / quota)'], models, { id: 'card-models' })
        : empty('no cards reported (capacity-card reports them)'),
      table(['Node', 'Card', 'Capacity', 'Allocated', 'Free', 'Held by'], nodeRows, { id: 'node-cards' }),
      never.length ? el('h3', { text: 'never fits' }) : null,
      never.length ? el('ul', { id: 'never-fits' }, ...never) : null
    );
  }

  function renderEvictions(res) {
    const box = target('evictions', res);
    if (!box) return;
    const rows = ((res.body || {}).evictions || [])
      .slice()
      .reverse()
      .map((e) =>
        el(
          'tr',
          { 'data-pod': e.pod },
          el('td', { class: 'small', text: time(e.time) }),
          el('td', { text: e.action }),
          el('td', null, e.pod, el('br'), jobLink(e.podGroup)),
          el('td', { text: e.queue }),
          el('td', null, e.forPod || '', el('br'), jobLink(e.forPodGroup)),
          el('td', { text: e.forQueue }),
          el('td', null, nodeLink(e.node)),
          el('td', { class: 'small', text: Object.entries(e.freed || {}).map(([k, v]) => k + ' ' + v).join(', ') }),
          el('td', { class: 'small rule', text: e.rule })
        )
      );
    box.replaceChildren(
      rows.length
        ? table(['Time', 'Action', 'Victim', 'Queue', 'For', 'Queue', 'Node', 'Freed', 'Rule'], rows)
        : empty('no evictions yet')
    );
  }

  function renderEvents(res) {
    const box = target('events', res);
    if (!box) return;
    const rows = (res.body || [])
      .slice()
      .reverse()
      .map((e) =>
        el(
          'tr',
          { class: e.type === 'Warning' ? 'warning' : null },
          el('td', { class: 'small', text: time(e.time) }),
          el('td', { text: e.type }),
          el('td', { text: e.reason }),
          el('td', { class: 'small', text: e.message })
        )
      );
    box.replaceChildren(rows.length ? table(['Time', 'Type', 'Reason', 'Message'], rows) : empty('no events'));
  }

  // ---- writes -----------------------------------------------------------------------------------

  function result(res, what) {
    const box = $('action-result');
    setText(box, res.ok ? what : 'refused: ' + errorOf(res));
    box.className = res.ok ? 'result' : 'result error-text';
    box.hidden = false;
    refresh();
  }

  function renderAccess() {
    const mode = $('access-mode');
    if (!access.tokenConfigured) {
      setText(mode, 'read-only (no admin token configured)');
    } else if (access.authorized) {
      setText(mode, 'token accepted: bundle install and uninstall, queue close, drain and open enabled');
    } else {
      setText(mode, token ? 'read-only (token refused)' : 'read-only');
    }
    $('token-form').hidden = !access.tokenConfigured;
    $('token-forget').hidden = !token;
    $('install-form').hidden = !access.authorized;
  }

  // ---- refresh ----------------------------------------------------------------------------------

  /** The keys of the opened {@code <details data-key>} of the page. */
  function openDetails() {
    const open = new Set();
    document.querySelectorAll('details[data-key]').forEach((d) => {
      if (d.open) open.add(d.getAttribute('data-key'));
    });
    return open;
  }

  /** Opens again the details the user had opened before a redraw. */
  function reopen(open) {
    document.querySelectorAll('details[data-key]').forEach((d) => {
      if (open.has(d.getAttribute('data-key'))) d.open = true;
    });
  }

  async function refresh() {
    clearTimeout(timer);
    try {
      const [status, queues, plugins, bundles, sessions, conf, policies, events, acc, evictions, nodes] =
        await Promise.all([
          get('/api/status'),
          get('/api/queues'),
          get('/api/plugins'),
          get('/api/bundles'),
          get('/api/sessions?limit=10'),
          get('/api/conf'),
          get('/api/policies'),
          get('/api/events?limit=30'),
          get('/api/access'),
          get('/api/evictions?limit=20'),
          get('/api/nodes'),
        ]);
      const open = openDetails();
      if (acc.ok && acc.body) access = acc.body;
      const waiting = queues.ok
        ? (queues.body.queues || []).filter((q) => q.pending > 0).map((q) => q.name)
        : [];
      const lines = await Promise.all(
        waiting.map(async (q) => ({
          queue: q,
          res: await get('/api/queues/' + encodeURIComponent(q) + '/pending'),
        }))
      );
      renderAccess();
      renderStatus(status);
      renderQueues(queues);
      renderPending(queues, lines);
      renderSessions(sessions);
      renderPlugins(plugins);
      renderBundles(bundles);
      renderConf(conf);
      renderPolicies(policies, events);
      renderEvents(events);
      renderEvictions(evictions);
      renderNodes(nodes);
      reopen(open);
      const err = $('error');
      err.hidden = status.status !== 0;
      setText(err, status.status === 0 ? 'the admin server does not answer; retrying' : '');
      setText($('refreshed'), 'updated ' + new Date().toLocaleTimeString());
      refreshes++;
      setText($('refreshes'), String(refreshes));
      if (selectedJob) showJob();
    } finally {
      timer = setTimeout(refresh, POLL_MILLIS);
    }
  }

  /** Shows the tab {@code name} ({@code scheduler} or {@code bundles}). */
  function showTab(name) {
    document.querySelectorAll('main > section').forEach((sec) => {
      sec.hidden = (sec.getAttribute('data-tab') || 'scheduler') !== name;
    });
    document.querySelectorAll('nav.tabs button').forEach((b) => {
      b.setAttribute('aria-selected', String(b.getAttribute('data-tab') === name));
    });
  }

  function start() {
    document.querySelectorAll('nav.tabs button').forEach((b) => {
      b.addEventListener('click', () => showTab(b.getAttribute('data-tab')));
    });
    showTab('scheduler');
    $('token-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      token = $('token').value.trim();
      $('token').value = '';
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
      else sessionStorage.removeItem(TOKEN_KEY);
      refresh();
    });
    $('token-forget').addEventListener('click', () => {
      token = '';
      sessionStorage.removeItem(TOKEN_KEY);
      refresh();
    });
    $('install-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const file = $('install-jar').files[0];
      if (!file) return;
      const r = await request('POST', '/api/bundles?name=' + encodeURIComponent(file.name), file);
      result(r, 'installed ' + file.name);
    });
    refresh();
  }

  document.addEventListener('DOMContentLoaded', start);
})();
