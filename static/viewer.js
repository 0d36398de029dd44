// Memory viewer: plain DOM, no framework, no build step. Every string from the server is set with
// textContent (the page's CSP enforces Trusted Types, so HTML parsing sinks are off anyway).
// The token lives in sessionStorage (this tab only) and goes out as a bearer header — never a
// cookie, so other sites cannot make requests on the user's behalf.

const TOKEN_KEY = "langgraph-memory.token";
const KIND_ORDER = ["preference", "fact", "entity", "episode", "procedure", "knowledge"];
const KIND_LABELS = {
  preference: "Preferences",
  fact: "Facts",
  entity: "People, places and things",
  episode: "Past events",
  procedure: "How-tos",
  knowledge: "Knowledge",
};
const KIND_SINGULAR = { preference: "preference", fact: "fact", entity: "person, place or thing", episode: "past event", procedure: "how-to", knowledge: "knowledge" };
const STATUS_LABELS = { superseded: "Replaced", expired: "Expired", inactive: "Set aside" };
const ORIGIN_LABELS = { user_stated: "you said so", extracted: "picked up from a conversation", inferred: "inferred" };
const RULE_SOURCE_LABELS = { manual: "added by the app", feedback: "from your feedback", learned: "learned from conversations" };

const state = {
  token: null,
  me: null,
  memories: [],
  results: null,
  query: "",
  profile: null,
  rules: [],
  retention: null,
  status: null,
  editing: null,
  profileEditing: false,
};

const $ = (id) => document.getElementById(id);
const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const timeFmt = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });
const fmtDate = (iso) => (iso ? dateFmt.format(new Date(iso)) : "");

/** Create an element: attributes (strings, booleans) and children (nodes or text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

function clip(text, n = 60) {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

// ── Status and errors ─────────────────────────────────────────────────────────────────────────

let statusTimer;
function announce(message) {
  const el = $("status");
  // Clear first so the same message twice is announced twice.
  el.textContent = "";
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => (el.textContent = message), 30);
}

function showAlert(message) {
  const el = $("alert");
  el.textContent = message;
  el.hidden = !message;
}

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (state.token) headers.Authorization = `Bearer ${state.token}`;
  const init = { method, headers, cache: "no-store", credentials: "omit" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, "NETWORK", "The server cannot be reached. Check that it is running, then try again.");
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const err = new ApiError(res.status, data?.error?.code ?? "HTTP", data?.error?.message ?? `The server answered ${res.status}.`);
    if (res.status === 401 && path !== "api/session") signOut(state.me ? "Your session ended. Sign in again." : "That access token was not accepted.");
    throw err;
  }
  return { data, res };
}

/** Run an action; show its error instead of failing silently. */
async function guarded(fn) {
  try {
    showAlert("");
    return await fn();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return undefined;
    showAlert(err instanceof ApiError ? err.message : "Something went wrong. Reload the page and try again.");
    return undefined;
  }
}

// ── Sign-in ───────────────────────────────────────────────────────────────────────────────────

async function start() {
  fillKindFilter();
  wireEvents();
  const login = new URLSearchParams(location.hash.slice(1)).get("login");
  if (login) {
    // Take the one-time code out of the address bar (and this history entry) before anything else.
    history.replaceState(null, "", location.pathname + location.search);
    try {
      const { data } = await api("POST", "api/session", { code: login });
      setToken(data.token);
    } catch (err) {
      showSignIn(err instanceof ApiError ? err.message : "Signing in failed.");
      return;
    }
  } else {
    state.token = sessionStorage.getItem(TOKEN_KEY);
  }
  if (!state.token) return showSignIn("");
  await openApp();
}

function setToken(token) {
  state.token = token;
  sessionStorage.setItem(TOKEN_KEY, token);
}

function showSignIn(message) {
  $("app").hidden = true;
  $("who").hidden = true;
  $("signin").hidden = false;
  showAlert(message);
  $("token-input").focus();
}

function signOut(message) {
  state.token = null;
  sessionStorage.removeItem(TOKEN_KEY);
  showSignIn(message);
}

async function openApp() {
  const ok = await guarded(async () => {
    await loadAll();
    return true;
  });
  if (!ok) return;
  $("signin").hidden = true;
  $("app").hidden = false;
  $("who").hidden = false;
  $("who-name").textContent = `Signed in as ${state.me.userId} (${state.me.tenantId})`;
}

// ── Loading ───────────────────────────────────────────────────────────────────────────────────

async function loadAll() {
  const [me, list, profile, rules, retention] = await Promise.all([
    api("GET", "api/me"),
    api("GET", "api/memories"),
    api("GET", "api/profile"),
    api("GET", "api/rules"),
    api("GET", "api/retention"),
  ]);
  state.me = me.data;
  state.memories = list.data.memories;
  state.profile = profile.data;
  state.rules = rules.data.rules;
  state.retention = retention.data;
  // The status line is a nicety: the page works without it (an older server has no such route).
  state.status = await api("GET", "api/status").then((r) => r.data, () => null);
  if (state.query) await runSearch(state.query, false);
  render();
}

async function refreshMemories() {
  const { data } = await api("GET", "api/memories");
  state.memories = data.memories;
  if (state.query) await runSearch(state.query, false);
}

// ── Rendering ─────────────────────────────────────────────────────────────────────────────────

function render() {
  renderSettings();
  renderMemories();
  renderProfile();
  renderRules();
  renderRetention();
  renderStatus();
}

function renderSettings() {
  const off = state.me.optedOut;
  $("memory-switch").setAttribute("aria-checked", String(!off));
  $("memory-switch").querySelector(".switch-text").textContent = off ? "Memory is off" : "Memory is on";
  $("memory-switch-help").textContent = off
    ? "Nothing is read or remembered while memory is off. What was stored before is kept, unused, until you delete it."
    : "The assistant remembers useful things from your conversations. Turn it off to stop reading and remembering.";
  $("export").disabled = off;
  for (const id of ["memories", "profile", "rules"]) $(id).hidden = off;
  const request = state.me.deleteAllRequest;
  $("forget-request").hidden = !request;
  if (request) {
    $("forget-request-text").textContent = `On ${dateTimeFmt.format(new Date(request.requestedAt))} you asked the assistant to forget everything. Nothing has been deleted yet.`;
  }
}

function visibleMemories() {
  const kind = $("kind-filter").value;
  const showInactive = $("show-inactive").checked;
  const source = state.results ?? state.memories;
  return source.filter((m) => (!kind || m.kind === kind) && (showInactive || m.status === "active"));
}

function renderMemories() {
  const groups = $("memory-groups");
  groups.replaceChildren();
  const shown = visibleMemories();
  const byId = new Map(state.memories.map((m) => [m.id, m]));
  const total = state.memories.filter((m) => m.status === "active").length;
  $("memory-count").textContent = state.results
    ? `${shown.length} ${shown.length === 1 ? "memory matches" : "memories match"} “${state.query}”.`
    : `${total} ${total === 1 ? "memory" : "memories"} in use.`;
  if (shown.length === 0) {
    groups.append(h("p", { class: "empty" }, state.results ? "Nothing matches this search." : "Nothing is remembered about you yet."));
    return;
  }
  for (const kind of KIND_ORDER) {
    const items = shown.filter((m) => m.kind === kind);
    if (items.length === 0) continue;
    const headingId = `kind-${kind}`;
    groups.append(
      h("section", { class: "kind-group", "aria-labelledby": headingId },
        h("h3", { id: headingId }, `${KIND_LABELS[kind]} (${items.length})`),
        h("ul", { class: "memory-list" }, items.map((m) => renderMemory(m, byId))),
      ),
    );
  }
}

function renderMemory(m, byId) {
  const li = h("li", { class: "memory", id: `memory-${m.id}`, "data-id": m.id });
  if (state.editing === m.id) {
    li.append(renderEditForm(m));
    return li;
  }
  const meta = [];
  if (m.status !== "active") meta.push(h("span", { class: "badge" }, STATUS_LABELS[m.status] ?? m.status));
  const parts = [ORIGIN_LABELS[m.origin] ?? m.origin, `confidence ${Math.round(m.confidence * 100)}%`];
  if (m.source.threadId) parts.push(`from conversation ${m.source.threadId}`);
  parts.push(`added ${fmtDate(m.createdAt)}`);
  if (m.updatedAt && m.updatedAt.slice(0, 19) !== m.createdAt.slice(0, 19)) parts.push(`changed ${fmtDate(m.updatedAt)}`);
  if (m.lastUsedAt) parts.push(`last used ${fmtDate(m.lastUsedAt)}`);
  if (m.expiresAt) parts.push(`${m.status === "expired" ? "expired" : "expires"} ${fmtDate(m.expiresAt)}`);
  if (m.score !== null && m.score !== undefined) parts.push(`match ${Math.round(m.score * 100)}%`);
  meta.push(parts.join(" · "));
  const textId = `memory-text-${m.id}`;
  li.append(h("p", { class: "memory-text", id: textId }, m.text), h("p", { class: "meta" }, meta));
  const previous = (m.supersedes ?? []).map((id) => byId.get(id)).filter(Boolean);
  if (previous.length > 0) {
    li.append(
      h("details", { class: "versions" },
        h("summary", {}, previous.length === 1 ? "1 earlier version" : `${previous.length} earlier versions`),
        h("ul", {}, previous.map((p) => h("li", {}, `“${p.text}” `, h("span", { class: "muted" }, `(added ${fmtDate(p.createdAt)})`)))),
      ),
    );
  }
  if (m.supersededBy) {
    const next = byId.get(m.supersededBy);
    if (next) li.append(h("p", { class: "meta" }, `Replaced by: “${clip(next.text, 80)}”`));
  }
  li.append(
    h("div", { class: "actions" },
      h("button", { type: "button", class: "edit", "data-action": "edit", "data-id": m.id }, "Edit", h("span", { class: "visually-hidden" }, ` memory: ${clip(m.text)}`)),
      h("button", { type: "button", "data-action": "delete", "data-id": m.id }, "Delete", h("span", { class: "visually-hidden" }, ` memory: ${clip(m.text)}`)),
    ),
  );
  return li;
}

function renderEditForm(m) {
  const textId = `edit-text-${m.id}`;
  const kindId = `edit-kind-${m.id}`;
  const hintId = `edit-hint-${m.id}`;
  const form = h("form", { class: "edit-form", "data-id": m.id, novalidate: true },
    h("label", { for: textId }, "Memory text"),
    h("textarea", { id: textId, name: "text", rows: 3, maxlength: 4000, required: true, "aria-describedby": hintId }),
    h("label", { for: kindId }, "Kind"),
    h("select", { id: kindId, name: "kind" }, KIND_ORDER.map((k) => h("option", { value: k, selected: k === m.kind }, KIND_SINGULAR[k]))),
    h("p", { class: "muted hint", id: hintId }, "Saving marks this as something you said yourself. Ctrl+Enter saves, Escape cancels."),
    h("p", { class: "field-error", role: "alert" }),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary" }, "Save"),
      h("button", { type: "button", "data-action": "cancel-edit" }, "Cancel"),
    ),
  );
  form.elements.text.value = m.text;
  return form;
}

function renderProfile() {
  const view = $("profile-view");
  view.replaceChildren();
  const p = state.profile?.profile;
  $("profile-form").hidden = !state.profileEditing;
  view.hidden = state.profileEditing;
  $("profile-edit").hidden = state.profileEditing;
  if (!p || p.fields.length === 0) {
    view.append(h("dt", {}, "Nothing yet"), h("dd", { class: "muted" }, "No profile facts are stored."));
    return;
  }
  for (const f of orderedFields(p.fields.map((x) => x.field))) {
    const entry = p.fields.find((x) => x.field === f);
    if (!entry) continue;
    const src = entry.source;
    const where = !src ? "" : src.kind === "user_edit" ? "set by you" : src.kind === "extraction" ? `learned${src.threadId ? ` in conversation ${src.threadId}` : ""}` : `set via ${src.kind}`;
    view.append(
      h("dt", {}, humanize(f)),
      h("dd", {}, formatValue(entry.value), where ? h("span", { class: "muted" }, ` — ${where}${src?.at ? `, ${fmtDate(src.at)}` : ""}`) : null),
    );
  }
}

function orderedFields(present) {
  const order = state.profile?.fields ?? [];
  return [...order.filter((f) => present.includes(f)), ...present.filter((f) => !order.includes(f))];
}

function humanize(field) {
  const s = field.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function formatValue(v) {
  return typeof v === "string" ? v : JSON.stringify(v);
}

function profileFieldSpecs() {
  const props = state.profile?.schema?.properties ?? {};
  const names = [...new Set([...(state.profile?.fields ?? []), ...Object.keys(props)])];
  return names.map((name) => ({ name, spec: props[name] ?? {} }));
}

function renderProfileForm() {
  const box = $("profile-fields");
  box.replaceChildren();
  const doc = state.profile?.profile?.document ?? {};
  for (const { name, spec } of profileFieldSpecs()) {
    const id = `profile-field-${name}`;
    const value = doc[name];
    let input;
    if (Array.isArray(spec.enum) || spec.type === "boolean") {
      const options = spec.type === "boolean" ? [true, false] : spec.enum;
      input = h("select", { id, name },
        h("option", { value: "" }, "— not set —"),
        options.map((o) => h("option", { value: JSON.stringify(o), selected: value === o }, spec.type === "boolean" ? (o ? "yes" : "no") : String(o))),
      );
    } else if (spec.type === "string" && (spec.maxLength ?? 0) > 200) {
      input = h("textarea", { id, name, rows: 3, maxlength: spec.maxLength });
      input.value = value ?? "";
    } else if (spec.type === "number" || spec.type === "integer") {
      input = h("input", { id, name, type: "number", step: spec.type === "integer" ? 1 : "any" });
      input.value = value ?? "";
    } else {
      input = h("input", { id, name, type: "text", maxlength: spec.maxLength, autocomplete: "off" });
      input.value = value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
    }
    input.dataset.kind = Array.isArray(spec.enum) || spec.type === "boolean" ? "json" : spec.type === "number" || spec.type === "integer" ? "number" : spec.type === "string" ? "string" : "any";
    box.append(h("label", { for: id }, humanize(name)), input);
  }
}

function profilePatch() {
  const doc = state.profile?.profile?.document ?? {};
  const patch = {};
  for (const el of $("profile-fields").querySelectorAll("input, select, textarea")) {
    const raw = el.value.trim();
    let value;
    if (raw === "") value = null;
    else if (el.dataset.kind === "json") value = JSON.parse(raw);
    else if (el.dataset.kind === "number") value = Number(raw);
    else if (el.dataset.kind === "any") {
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw;
      }
    } else value = raw;
    const before = doc[el.name];
    if (value === null ? before !== undefined : JSON.stringify(value) !== JSON.stringify(before)) patch[el.name] = value;
  }
  return patch;
}

function renderRules() {
  const box = $("rule-groups");
  box.replaceChildren();
  const groups = [
    ["proposed", "Waiting for your review"],
    ["approved", "In use"],
    ["revoked", "Revoked"],
  ];
  if (state.rules.length === 0) {
    box.append(h("p", { class: "empty" }, "No instructions yet."));
    return;
  }
  for (const [st, title] of groups) {
    const rules = state.rules.filter((r) => r.state === st);
    if (rules.length === 0) continue;
    const headingId = `rules-${st}`;
    box.append(
      h("section", { "aria-labelledby": headingId },
        h("h3", { id: headingId }, `${title} (${rules.length})`),
        h("ul", { class: "rule-list" }, rules.map(renderRule)),
      ),
    );
  }
}

function renderRule(r) {
  const parts = [RULE_SOURCE_LABELS[r.source] ?? r.source, `added ${fmtDate(r.createdAt)}`];
  if (r.taskType) parts.push(`for ${r.taskType} tasks`);
  if (!r.active) parts.push("paused");
  const actions = [];
  const label = h("span", { class: "visually-hidden" }, ` rule: ${clip(r.text)}`);
  if (r.state !== "approved") actions.push(h("button", { type: "button", class: "primary", "data-action": "approve", "data-id": r.id }, r.state === "revoked" ? "Approve again" : "Approve", label.cloneNode(true)));
  if (r.state !== "revoked") actions.push(h("button", { type: "button", "data-action": "revoke", "data-id": r.id }, "Revoke", label.cloneNode(true)));
  return h("li", { class: "rule", id: `rule-${r.id}` }, h("p", { class: "rule-text" }, r.text), h("p", { class: "meta" }, parts.join(" · ")), h("div", { class: "actions" }, actions));
}

function renderRetention() {
  const r = state.retention;
  if (!r) return;
  const policy = `Past events are forgotten after ${r.policy.episodeTtlDays} days; inferred memories that are never used are set aside after ${r.policy.unusedDays} days.`;
  const when = r.lastRun
    ? `Automatic clean-up last ran ${dateTimeFmt.format(new Date(r.lastRun.finishedAt ?? r.lastRun.startedAt))}${r.nextDueAt ? `; next run due ${dateTimeFmt.format(new Date(r.nextDueAt))}` : ""}.`
    : "Automatic clean-up has not run yet.";
  $("retention").textContent = `${when} ${policy}`;
}

/** "3 s", "4 min", "2 h", "3 days". */
function ago(ms) {
  const s = Math.max(0, ms / 1000);
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  if (s < 129600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

function renderStatus() {
  const el = $("memory-status");
  const st = state.status;
  el.hidden = !st;
  if (!st) return;
  const { waiting, oldestAgeMs } = st.queue;
  const { live, lastHeartbeatAgeMs } = st.worker;
  const heartbeat = lastHeartbeatAgeMs === null ? "No memory worker has run yet." : `The memory worker last checked in ${ago(lastHeartbeatAgeMs)} ago.`;
  let text;
  if (waiting === 0) text = `Memory is up to date. ${heartbeat}`;
  else {
    const queued = `${waiting} ${waiting === 1 ? "conversation turn is" : "conversation turns are"} waiting to be remembered (the oldest for ${ago(oldestAgeMs ?? 0)}).`;
    text = live ? `${queued} ${heartbeat}` : `${queued} No memory worker is running, so nothing new is being remembered — tell whoever runs this app. ${heartbeat}`;
  }
  el.textContent = text;
  el.classList.toggle("warning", waiting > 0 && !live);
}

// ── Actions ───────────────────────────────────────────────────────────────────────────────────

let searchTimer;
async function runSearch(q, announceIt = true) {
  state.query = q.trim();
  if (!state.query) {
    const wasSearching = state.results !== null;
    state.results = null;
    if (announceIt && wasSearching) announce("Search cleared: all memories are shown.");
    return;
  }
  const { data } = await api("GET", `api/memories?q=${encodeURIComponent(state.query)}`);
  state.results = data.memories;
  if (announceIt) {
    const n = visibleMemories().length;
    announce(`${n} ${n === 1 ? "memory matches" : "memories match"} “${state.query}”.`);
  }
}

function focusMemoryAction(id, action = "edit") {
  const el = document.querySelector(`#memory-${CSS.escape(id)} [data-action="${action}"]`);
  if (el) el.focus();
  else $("memories-heading").focus();
}

async function saveEdit(form) {
  const id = form.dataset.id;
  const text = form.elements.text.value.trim();
  const errorEl = form.querySelector(".field-error");
  if (!text) {
    form.elements.text.setAttribute("aria-invalid", "true");
    errorEl.textContent = "Write the memory, or cancel.";
    form.elements.text.focus();
    return;
  }
  try {
    await api("PATCH", `api/memories/${id}`, { text, kind: form.elements.kind.value });
  } catch (err) {
    if (err.status === 401) return;
    errorEl.textContent = err.message;
    form.elements.text.setAttribute("aria-invalid", "true");
    form.elements.text.focus();
    return;
  }
  state.editing = null;
  await guarded(refreshMemories);
  renderMemories();
  focusMemoryAction(id);
  announce("Memory updated.");
}

function startEdit(id) {
  state.editing = id;
  renderMemories();
  const ta = document.getElementById(`edit-text-${id}`);
  ta.focus();
  ta.setSelectionRange(ta.value.length, ta.value.length);
}

function cancelEdit() {
  const id = state.editing;
  state.editing = null;
  renderMemories();
  if (id) focusMemoryAction(id);
}

// A single confirmation dialog: set its text and action, open it, resolve when done.
let confirmAction = null;
let returnFocus = null;
function confirmDialog({ title, body, ok, action }) {
  const dialog = $("confirm-dialog");
  $("confirm-title").textContent = title;
  $("confirm-body").replaceChildren(...body);
  $("confirm-ok").textContent = ok;
  $("confirm-ok").disabled = false;
  $("confirm-error").textContent = "";
  confirmAction = action;
  returnFocus = document.activeElement;
  dialog.showModal();
  // The safe choice has the focus.
  $("confirm-cancel").focus();
}

function closeDialog() {
  const dialog = $("confirm-dialog");
  if (dialog.open) dialog.close();
}

function deleteMemory(id) {
  const m = state.memories.find((x) => x.id === id);
  if (!m) return;
  const previous = (m.supersedes ?? []).length;
  confirmDialog({
    title: "Delete this memory?",
    body: [
      h("blockquote", {}, m.text),
      h("p", {}, previous > 0 ? `The ${previous === 1 ? "earlier version" : `${previous} earlier versions`} it replaced will be deleted too. This cannot be undone.` : "This cannot be undone."),
    ],
    ok: "Delete memory",
    action: async () => {
      const order = visibleMemories().map((x) => x.id);
      const next = order[order.indexOf(id) + 1] ?? order[order.indexOf(id) - 1];
      await api("DELETE", `api/memories/${id}`);
      closeDialog();
      await guarded(refreshMemories);
      renderMemories();
      if (next) focusMemoryAction(next);
      else $("memories-heading").focus();
      announce("Memory deleted.");
    },
  });
}

async function deleteEverything() {
  await guarded(async () => {
    const { data } = await api("POST", "api/delete-all/request");
    const active = state.memories.filter((m) => m.status === "active").length;
    const others = state.memories.length - active;
    const rules = state.rules.length;
    confirmDialog({
      title: "Delete everything the assistant remembers about you?",
      body: [
        h("p", {}, "This deletes, for good:"),
        state.me.optedOut
          ? h("ul", {},
              h("li", {}, "every memory, your profile and instructions (memory is off, so they cannot be listed here)"),
              h("li", {}, "your conversation history with the assistant"),
            )
          : h("ul", {},
              h("li", {}, `${active} ${active === 1 ? "memory" : "memories"}${others > 0 ? `, plus ${others} earlier or set-aside ${others === 1 ? "version" : "versions"}` : ""}`),
              h("li", {}, "your profile and its history"),
              h("li", {}, `${rules} ${rules === 1 ? "instruction" : "instructions"}`),
              h("li", {}, "your conversation history with the assistant"),
            ),
        h("p", {}, `It cannot be undone. Your memory setting stays as it is. This confirmation is valid until ${timeFmt.format(new Date(data.expiresAt))}.`),
      ],
      ok: "Delete everything",
      action: async () => {
        const { data: done } = await api("POST", "api/delete-all", { token: data.token });
        closeDialog();
        state.query = "";
        state.results = null;
        $("search-input").value = "";
        await guarded(loadAll);
        $("memories-heading").focus();
        const d = done.deleted;
        announce(`Everything was deleted: ${d.memories} ${d.memories === 1 ? "memory" : "memories"}, ${d.profile ? "your profile" : "no profile"}, ${d.rules} ${d.rules === 1 ? "instruction" : "instructions"}, ${d.threads} ${d.threads === 1 ? "conversation" : "conversations"}.`);
      },
    });
  });
}

async function exportData() {
  await guarded(async () => {
    const { data, res } = await api("GET", "api/export");
    const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "memory-export.json";
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
    const a = h("a", { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    announce(`Your data was downloaded as ${name}.`);
  });
}

async function toggleMemory() {
  await guarded(async () => {
    const turningOff = !state.me.optedOut;
    await api("POST", turningOff ? "api/opt-out" : "api/opt-in");
    await loadAll();
    $("memory-switch").focus();
    announce(turningOff ? "Memory is off. Nothing is read or remembered until you turn it back on." : "Memory is on again.");
  });
}

async function reviewRule(id, action) {
  await guarded(async () => {
    await api("POST", `api/rules/${id}/${action}`);
    const { data } = await api("GET", "api/rules");
    state.rules = data.rules;
    renderRules();
    const again = document.querySelector(`#rule-${CSS.escape(id)} button`);
    (again ?? $("rules-heading")).focus();
    announce(action === "approve" ? "Instruction approved: it applies from your next message." : "Instruction revoked: it no longer applies from your next message.");
  });
}

async function saveProfile(event) {
  event.preventDefault();
  const errorEl = $("profile-error");
  errorEl.textContent = "";
  for (const el of $("profile-fields").querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  const patch = profilePatch();
  if (Object.keys(patch).length === 0) {
    closeProfileForm();
    announce("Nothing changed in your profile.");
    return;
  }
  try {
    await api("PATCH", "api/profile", patch);
  } catch (err) {
    if (err.status === 401) return;
    errorEl.textContent = err.message;
    // Mark the fields the message names ("timezone: must be …").
    let first = null;
    for (const { name } of profileFieldSpecs()) {
      if (new RegExp(`(^|[—;\\s])${name}:`).test(err.message)) {
        const el = document.getElementById(`profile-field-${name}`);
        el?.setAttribute("aria-invalid", "true");
        el?.setAttribute("aria-describedby", "profile-error");
        first ??= el;
      }
    }
    (first ?? $("profile-fields").querySelector("input, select, textarea"))?.focus();
    return;
  }
  const { data } = await api("GET", "api/profile");
  state.profile = data;
  closeProfileForm();
  announce("Profile saved.");
}

function openProfileForm() {
  state.profileEditing = true;
  renderProfileForm();
  renderProfile();
  $("profile-fields").querySelector("input, select, textarea")?.focus();
}

function closeProfileForm() {
  state.profileEditing = false;
  renderProfile();
  $("profile-edit").focus();
}

function fillKindFilter() {
  const select = $("kind-filter");
  for (const k of KIND_ORDER) select.append(h("option", { value: k }, KIND_LABELS[k]));
}

function wireEvents() {
  $("signin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = $("token-input").value.trim();
    if (!value) {
      $("token-input").setAttribute("aria-invalid", "true");
      showAlert("Paste your access token first.");
      return;
    }
    $("token-input").removeAttribute("aria-invalid");
    setToken(value);
    $("token-input").value = "";
    await openApp();
    if (!$("app").hidden) announce("Signed in.");
  });
  $("sign-out").addEventListener("click", async () => {
    await api("DELETE", "api/session").catch(() => undefined);
    signOut("");
    announce("Signed out.");
  });
  $("search-form").addEventListener("submit", (e) => {
    e.preventDefault();
    clearTimeout(searchTimer);
    guarded(async () => {
      await runSearch($("search-input").value);
      renderMemories();
    });
  });
  $("search-input").addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => guarded(async () => {
      await runSearch($("search-input").value);
      renderMemories();
    }), 300);
  });
  $("kind-filter").addEventListener("change", renderMemories);
  $("show-inactive").addEventListener("change", renderMemories);
  $("memory-groups").addEventListener("click", (e) => {
    const button = e.target.closest("button[data-action]");
    if (!button) return;
    const { action, id } = button.dataset;
    if (action === "edit") startEdit(id);
    else if (action === "delete") deleteMemory(id);
    else if (action === "cancel-edit") cancelEdit();
  });
  $("memory-groups").addEventListener("submit", (e) => {
    e.preventDefault();
    guarded(() => saveEdit(e.target));
  });
  $("memory-groups").addEventListener("keydown", (e) => {
    const form = e.target.closest?.(".edit-form");
    if (!form) return;
    if (e.key === "Escape") {
      e.preventDefault();
      cancelEdit();
    } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  $("rule-groups").addEventListener("click", (e) => {
    const button = e.target.closest("button[data-action]");
    if (button) reviewRule(button.dataset.id, button.dataset.action);
  });
  $("memory-switch").addEventListener("click", toggleMemory);
  $("export").addEventListener("click", exportData);
  $("delete-all").addEventListener("click", deleteEverything);
  $("forget-request-review").addEventListener("click", deleteEverything);
  $("profile-edit").addEventListener("click", openProfileForm);
  $("profile-cancel").addEventListener("click", closeProfileForm);
  $("profile-form").addEventListener("submit", (e) => guarded(() => saveProfile(e)));
  $("profile-form").addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      closeProfileForm();
    }
  });
  $("confirm-cancel").addEventListener("click", closeDialog);
  $("confirm-ok").addEventListener("click", async () => {
    if (!confirmAction) return;
    $("confirm-ok").disabled = true;
    try {
      await confirmAction();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return closeDialog();
      const expired = err instanceof ApiError && err.code === "CONFIRMATION_INVALID";
      $("confirm-error").textContent = expired ? "This confirmation has expired. Close this and start again." : err.message ?? "Something went wrong.";
      $("confirm-ok").disabled = expired;
    }
  });
  $("confirm-dialog").addEventListener("close", () => {
    confirmAction = null;
    if (returnFocus && document.contains(returnFocus)) returnFocus.focus();
    returnFocus = null;
  });
}

start();
