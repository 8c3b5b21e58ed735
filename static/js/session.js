// The chat page's behaviour: live updates over the websocket, the dock's submit and
// dismiss without reloading, per-surface drafts, keyboard reordering.
// The page works without this file; every control here is a plain form underneath.
(function () {
  "use strict";

  const body = document.body;
  const sessionId = body.dataset.sessionId;
  if (!sessionId) return;
  const paging = body.dataset.paging === "true";
  let lastSeq = Number(body.dataset.lastSeq || "0");

  const $ = (selector, root) => (root || document).querySelector(selector);
  // Product chrome in the page's language, rendered by the server as a JSON data block.
  const strings = JSON.parse((document.getElementById("chrome-strings") || {}).textContent || "{}");
  const t = (key, values) =>
    (strings[key] || key).replace(/%\((\w+)\)s/g, (_, name) => String((values || {})[name] ?? ""));
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  // ---- Drafts: unsubmitted values per session and surface, bounded, never sent early ----

  const DRAFT_PREFIX = "ts-draft:";
  const DRAFT_BUDGET = 256 * 1024; // bytes of all drafts together; the oldest go first
  const DRAFT_MAX = 32 * 1024; // one draft; larger is not kept

  const surfacesOn = body.dataset.taskSurface !== "off"; // off: no dock, so no draft store either

  const drafts = {
    key: (surfaceId) => DRAFT_PREFIX + sessionId + ":" + surfaceId,
    read(surfaceId) {
      if (!surfacesOn) return null;
      try {
        const raw = localStorage.getItem(this.key(surfaceId));
        return raw ? JSON.parse(raw) : null;
      } catch (_) {
        return null;
      }
    },
    write(surfaceId, draft) {
      if (!surfacesOn) return;
      try {
        const raw = JSON.stringify({ ...draft, savedAt: Date.now() });
        if (raw.length * 2 > DRAFT_MAX) return;
        localStorage.setItem(this.key(surfaceId), raw);
        this.evict();
      } catch (_) {
        /* storage full or disabled: drafts are a convenience */
      }
    },
    clear(surfaceId) {
      try {
        localStorage.removeItem(this.key(surfaceId));
      } catch (_) {
        /* ignore */
      }
    },
    evict() {
      const entries = [];
      let total = 0;
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (!key || !key.startsWith(DRAFT_PREFIX)) continue;
        const raw = localStorage.getItem(key) || "";
        let savedAt = 0;
        try {
          savedAt = JSON.parse(raw).savedAt || 0;
        } catch (_) {
          /* a broken entry is evicted first */
        }
        entries.push({ key, savedAt, size: (key.length + raw.length) * 2 });
        total += (key.length + raw.length) * 2;
      }
      entries.sort((a, b) => a.savedAt - b.savedAt);
      while (total > DRAFT_BUDGET && entries.length) {
        const oldest = entries.shift();
        localStorage.removeItem(oldest.key);
        total -= oldest.size;
      }
    },
  };

  // ---- The dock ----

  const dockSlot = $("#dock-slot");
  let submitting = false; // a submit request is on its way; pushes cannot settle the phase yet
  const dock = () => $("#task-surface-dock");
  const form = () => $("#dock-form");
  const composerText = $("#composer-text");
  const announcer = document.createElement("p");
  announcer.className = "visually-hidden";
  announcer.setAttribute("aria-live", "polite");
  document.body.appendChild(announcer);
  const announce = (text) => {
    announcer.textContent = "";
    window.setTimeout(() => (announcer.textContent = text), 30);
  };

  function fieldValue(field) {
    const kind = field.dataset.fieldKind;
    const named = (selector) => $$(selector, field).filter((el) => el.name && el.name.startsWith("f."));
    switch (kind) {
      case "text": {
        const el = named("input, textarea")[0];
        return el ? el.value : "";
      }
      case "toggle": {
        const el = named("input")[0];
        return Boolean(el && el.checked);
      }
      case "choice": {
        const el = named("input:checked")[0];
        return el ? el.value : null;
      }
      case "multi-choice":
        return named("input:checked").map((el) => el.value);
      case "order":
        return named("input[type=hidden]").map((el) => el.value);
      default:
        return null;
    }
  }

  function readValues() {
    const values = {};
    $$(".field[data-field-id]", form()).forEach((field) => {
      values[field.dataset.fieldId] = fieldValue(field);
    });
    return values;
  }

  function applyValues(values, note) {
    $$(".field[data-field-id]", form()).forEach((field) => {
      const id = field.dataset.fieldId;
      if (!(id in values)) return;
      const value = values[id];
      const inputs = $$("input, textarea", field).filter((el) => el.name === "f." + id);
      switch (field.dataset.fieldKind) {
        case "text":
          if (inputs[0] && typeof value === "string") inputs[0].value = value;
          break;
        case "toggle":
          if (inputs[0]) inputs[0].checked = value === true;
          break;
        case "choice":
          inputs.forEach((el) => (el.checked = el.value === value));
          break;
        case "multi-choice":
          if (Array.isArray(value)) inputs.forEach((el) => (el.checked = value.includes(el.value)));
          break;
        case "order":
          if (Array.isArray(value)) reorder(field, value);
          break;
      }
    });
    const noteEl = $("#dock-note");
    if (noteEl && typeof note === "string") noteEl.value = note;
  }

  function reorder(field, order) {
    const list = $(".order-list", field);
    const items = new Map($$(".order-item", list).map((li) => [li.dataset.optionId, li]));
    if (order.length !== items.size || !order.every((id) => items.has(id))) return;
    order.forEach((id) => list.appendChild(items.get(id)));
    refreshOrderButtons(list);
  }

  function refreshOrderButtons(list) {
    const items = $$(".order-item", list);
    items.forEach((li, index) => {
      const up = $("[data-move=up]", li);
      const down = $("[data-move=down]", li);
      if (up) up.setAttribute("aria-disabled", String(index === 0));
      if (down) down.setAttribute("aria-disabled", String(index === items.length - 1));
    });
  }

  function saveDraft() {
    const d = dock();
    if (!d || d.dataset.pendingPhase) return;
    const noteEl = $("#dock-note");
    drafts.write(d.dataset.surfaceId, { values: readValues(), note: noteEl ? noteEl.value : "" });
  }

  function setBusy(phase) {
    const d = dock();
    if (!d) return;
    d.dataset.pendingPhase = phase || "";
    const busy = Boolean(phase);
    $$("input, textarea, button, fieldset", form()).forEach((el) => {
      if (el.type === "hidden") return;
      el.disabled = busy;
    });
    const status = $("#dock-status");
    if (status && busy) {
      status.textContent =
        phase === "claiming" ? t("Submitted: the agent is reading it…") : t("Submitted: waiting for the agent to read it…");
    }
  }

  function showRejection(result) {
    const status = $("#dock-status");
    $$(".field-problem", form()).forEach((el) => el.remove());
    $$(".field.has-problem", form()).forEach((el) => el.classList.remove("has-problem"));
    $$("[aria-invalid]", form()).forEach((el) => el.removeAttribute("aria-invalid"));
    const reasons = {
      "invalid-submission": t("please check the highlighted fields"),
      "not-open": t("this panel is no longer open"),
      stale: t("another panel has replaced this one"),
      "submission-pending": t("an answer is already on its way"),
    };
    const general = [];
    (result.problems || []).forEach((problem) => {
      const field = problem.where && $('.field[data-field-id="' + CSS.escape(problem.where) + '"]', form());
      if (!field) {
        general.push(problem.message);
        return;
      }
      field.classList.add("has-problem");
      const message = document.createElement("p");
      message.className = "field-problem";
      message.id = "problem-" + problem.where;
      message.textContent = problem.message;
      field.appendChild(message);
      const control = $("input:not([type=hidden]), textarea, fieldset", field);
      if (control) {
        control.setAttribute("aria-invalid", "true");
        control.setAttribute("aria-describedby", message.id);
      }
    });
    if (status) {
      status.innerHTML = "";
      const span = document.createElement("span");
      span.className = "problem";
      span.textContent = t("Not sent: %(reason)s.", { reason: reasons[result.reason] || result.reason }) + " " + general.join(". ");
      status.appendChild(span);
    }
    const first = $(".has-problem input:not([type=hidden]), .has-problem textarea", form());
    if (first) first.focus();
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "id-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }

  async function postJson(url, payload) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(payload),
      credentials: "same-origin",
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw Object.assign(new Error("request failed"), { data, status: response.status });
    return data;
  }

  const activeUrl = (surfaceId) =>
    "/api/sessions/" + encodeURIComponent(sessionId) + "/task-surfaces/" + encodeURIComponent(surfaceId);
  const surfaceUrl = (surfaceId, action) => activeUrl(surfaceId) + "/" + action;

  async function submitDock() {
    const d = dock();
    if (!d || d.dataset.pendingPhase) return;
    const surfaceId = d.dataset.surfaceId;
    const idInput = $("input[name=submissionId]", form());
    const noteEl = $("#dock-note");
    const payload = { submissionId: idInput.value, values: readValues() };
    if (noteEl && noteEl.value.trim()) payload.note = noteEl.value;
    saveDraft();
    setBusy("queued");
    submitting = true;
    try {
      const result = await postJson(surfaceUrl(surfaceId, "submit"), payload);
      submitting = false;
      if (result.accepted) {
        recheck(surfaceId);
        d.dataset.pendingSubmission = payload.submissionId;
        announce(t("Submitted."));
        if (composerText) composerText.focus();
        return;
      }
      setBusy("");
      idInput.value = newId();
      showRejection(result);
    } catch (error) {
      submitting = false;
      // Transport trouble: keep the same submissionId, so a retry cannot create a second message.
      setBusy("");
      showRejection({ reason: (error.data && error.data.error && error.data.error.message) || t("connection problem") });
    }
  }

  async function dismissDock() {
    const d = dock();
    if (!d || d.dataset.pendingPhase) return;
    const idInput = $("input[name=dismissalId]", form());
    try {
      const result = await postJson(surfaceUrl(d.dataset.surfaceId, "dismiss"), { dismissalId: idInput.value });
      if (result.dismissed) {
        announce(t("Panel dismissed."));
        if (composerText) composerText.focus();
      } else {
        showRejection({ reason: result.reason });
      }
    } catch (_) {
      showRejection({ reason: t("connection problem") });
    }
  }

  // After any move (buttons or dragging): buttons at the ends, the new place announced, the draft kept.
  function settleMove(li) {
    const list = li.parentElement;
    refreshOrderButtons(list);
    const position = $$(".order-item", list).indexOf(li) + 1;
    announce(t("%(label)s, position %(position)s of %(total)s", {
      label: $(".option-label", li).textContent,
      position,
      total: list.children.length,
    }));
    li.classList.add("moved");
    window.setTimeout(() => li.classList.remove("moved"), 600);
  }

  function moveItem(button) {
    if (button.getAttribute("aria-disabled") === "true") return;
    const li = button.closest(".order-item");
    const list = li.parentElement;
    const up = button.dataset.move === "up";
    const sibling = up ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    list.insertBefore(li, up ? sibling : sibling.nextElementSibling);
    settleMove(li);
    const same = $("[data-move=" + button.dataset.move + "]", li);
    const target = same.getAttribute("aria-disabled") === "true" ? $("[data-move=" + (up ? "down" : "up") + "]", li) : same;
    target.focus();
    saveDraft();
  }

  function mountDock(focus) {
    const d = dock();
    if (!d) return;
    const collapse = $(".dock-collapse", d);
    if (collapse) collapse.hidden = false;
    $$(".order-list", d).forEach(refreshOrderButtons);
    if (!d.dataset.pendingPhase) {
      const draft = drafts.read(d.dataset.surfaceId);
      if (draft && draft.values) applyValues(draft.values, draft.note);
    }
    if (focus && !dockSlot.hidden) {
      const title = $("#dock-title", d);
      if (title) title.focus();
    }
  }

  let loadingSurface = null; // the surface whose dock is being fetched, so pushes do not fetch it twice
  let wantedSurface = null;

  async function replaceDock(surfaceId, focus) {
    wantedSurface = surfaceId;
    if (loadingSurface) return;
    loadingSurface = surfaceId;
    try {
      const response = await fetch("/sessions/" + encodeURIComponent(sessionId) + "/dock", { credentials: "same-origin" });
      if (response.ok) {
        dockSlot.innerHTML = await response.text();
        mountDock(focus);
      }
    } finally {
      loadingSurface = null;
    }
    const d = dock();
    if ((d ? d.dataset.surfaceId : null) !== wantedSurface) {
      if (wantedSurface) replaceDock(wantedSurface, focus);
      else dockSlot.innerHTML = "";
    }
  }

  dockSlot.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || !dock()) return;
    if (target.dataset.move) {
      event.preventDefault();
      moveItem(target);
    } else if (target.dataset.action === "dismiss") {
      event.preventDefault();
      dismissDock();
    } else if (target.classList.contains("dock-collapse")) {
      toggleCollapse();
    }
  });
  dockSlot.addEventListener("submit", (event) => {
    event.preventDefault();
    submitDock();
  });
  // Dragging lives in order_drag.js; it moves the item and tells us where it landed.
  dockSlot.addEventListener("orderdrop", (event) => {
    if (!dock() || dock().dataset.pendingPhase) return;
    settleMove(event.target.closest(".order-item"));
    saveDraft();
  });
  dockSlot.addEventListener("input", saveDraft);
  dockSlot.addEventListener("change", saveDraft);
  dockSlot.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && dock() && !dock().classList.contains("collapsed")) toggleCollapse();
  });

  function toggleCollapse() {
    const d = dock();
    const button = $(".dock-collapse", d);
    const collapsed = d.classList.toggle("collapsed");
    button.setAttribute("aria-expanded", String(!collapsed));
    button.textContent = collapsed ? t("Expand") : t("Collapse");
    button.focus();
  }

  // ---- Applying what the server pushes ----

  const events = $("#events");

  // The agent's reply while it streams: one provisional bubble at the end of the transcript,
  // hidden from screen readers (they hear the logged message once), replaced by the first
  // logged event that follows.
  function showPartial(text) {
    if (paging || typeof text !== "string") return;
    let row = document.getElementById("partial-reply");
    if (!row) {
      row = document.createElement("li");
      row.id = "partial-reply";
      row.className = "event event-partial";
      row.setAttribute("aria-hidden", "true");
      const bubble = document.createElement("div");
      bubble.className = "bubble bubble-agent plain-text";
      bubble.dataset.provisional = "true";
      row.appendChild(bubble);
      events.appendChild(row);
    }
    row.firstChild.textContent = text;
    window.scrollTo({ top: document.body.scrollHeight });
  }

  function clearPartial() {
    const row = document.getElementById("partial-reply");
    if (row) row.remove();
  }

  function appendEvents(list) {
    if (paging) return;
    if (list.length) clearPartial();
    list.forEach((event) => {
      if (event.seq <= lastSeq || document.getElementById("ev-" + event.seq)) return;
      const holder = document.createElement("template");
      holder.innerHTML = event.html.trim();
      events.appendChild(holder.content);
      lastSeq = event.seq;
    });
    if (list.length) window.scrollTo({ top: document.body.scrollHeight });
  }

  function replaceRows(rows) {
    Object.keys(rows || {}).forEach((seq) => {
      const current = document.getElementById("ev-" + seq);
      if (!current) return;
      const holder = document.createElement("template");
      holder.innerHTML = rows[seq].trim();
      current.replaceWith(holder.content);
    });
  }

  function applyQueue(queue) {
    if (!queue) return;
    $("#queue-slot").innerHTML = queue.html;
  }

  // The dock follows the log: a new surface swaps the dock in, a closed one takes it out,
  // and the pending phase decides whether the same surface is editable. A pending record
  // that vanished is never taken as an outcome: the dock asks getActive what happened.
  function applySurface(state) {
    if (!state) return;
    const d = dock();
    const activeId = state.active ? state.active.surfaceId : null;
    const shownId = d ? d.dataset.surfaceId : null;
    if (activeId !== shownId) {
      if (shownId) drafts.clear(shownId);
      submitting = false;
      if (activeId) {
        replaceDock(activeId, true);
      } else {
        wantedSurface = null;
        if (!loadingSurface) dockSlot.innerHTML = "";
      }
      return;
    }
    if (!d || submitting) return;
    const phase = state.pending ? state.pending.phase : "";
    if (phase === (d.dataset.pendingPhase || "")) return;
    if (phase) setBusy(phase);
    else recheck(activeId);
  }

  async function recheck(surfaceId) {
    let result;
    try {
      const response = await fetch(activeUrl(surfaceId), { credentials: "same-origin" });
      result = await response.json();
    } catch (_) {
      return; // the next push or reconnect asks again
    }
    const d = dock();
    if (!d || d.dataset.surfaceId !== surfaceId || submitting) return;
    if (!result.active) {
      drafts.clear(surfaceId);
      dockSlot.innerHTML = "";
    } else if (result.pending) {
      setBusy(result.pending.phase);
    } else if (d.dataset.pendingPhase) {
      // A discard: the same surface is editable again, with the draft the user left.
      setBusy("");
      const draft = drafts.read(surfaceId);
      if (draft && draft.values) applyValues(draft.values, draft.note);
      const status = $("#dock-status");
      if (status) status.textContent = t("Your answer was not delivered; you can send it again.");
      $("input[name=submissionId]", form()).value = newId();
    }
  }

  // ---- The composer takeover: a question from the agent ----
  // While the agent waits for an answer, the question takes the composer area over. The dock
  // and the composer are hidden, never removed, so the dock's draft and focus state survive
  // and the same dock comes back when the question is answered.

  const questionSlot = $("#question-slot");
  const takeover = () => $("#question-takeover");

  function takeOver(on) {
    dockSlot.hidden = on;
    $("#composer").hidden = on;
  }

  // "Answer later" folds the question into a bar and gives the dock and composer back for a
  // while (nothing is sent); "Answer now" takes the composer area over again.
  function setLater(later) {
    const formEl = takeover();
    if (!formEl) return;
    formEl.classList.toggle("later", later);
    $(".question-bar", formEl).hidden = !later;
    $("#question-body", formEl).hidden = later;
    $(".question-later", formEl).setAttribute("aria-expanded", String(!later));
    takeOver(!later);
    if (later) {
      const title = dock() && $("#dock-title", dock());
      (title || composerText).focus();
    } else {
      $("#question-answer").focus();
    }
  }

  function mountQuestion() {
    const formEl = takeover();
    if (!formEl) return;
    formEl.noValidate = true; // the script explains an empty answer itself, next to the box
    const later = $(".question-later", formEl);
    later.hidden = false;
    later.setAttribute("aria-expanded", "true");
  }

  function applyQuestion(question, html) {
    if (question === undefined) return; // a message that says nothing about the question
    const shown = takeover();
    const wanted = question ? question.callId : null;
    if ((shown ? shown.dataset.callId : null) === wanted) return;
    questionSlot.innerHTML = wanted ? html : "";
    takeOver(Boolean(wanted));
    if (wanted) {
      mountQuestion();
      const answer = $("#question-answer");
      if (answer) answer.focus();
      announce(t("The agent asks a question."));
    } else {
      const title = dock() && $("#dock-title", dock());
      (title || composerText).focus();
    }
  }

  questionSlot.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.classList.contains("question-later")) setLater(true);
    else if (button.classList.contains("question-resume")) setLater(false);
  });

  questionSlot.addEventListener("submit", async (event) => {
    event.preventDefault();
    const formEl = takeover();
    if (!formEl || formEl.dataset.sending) return;
    const chosen = event.submitter && event.submitter.name === "option" ? event.submitter.value : null;
    const text = chosen !== null ? chosen : $("#question-answer").value;
    const problem = $("#question-problem");
    if (!text.trim()) {
      problem.textContent = t("Write an answer or pick one of the suggestions.");
      problem.hidden = false;
      $("#question-answer").focus();
      return;
    }
    formEl.dataset.sending = "true";
    const controls = $$("button, textarea", formEl);
    controls.forEach((el) => (el.disabled = true));
    try {
      // The answerId minted with the form makes a retry after a lost reply harmless.
      await postJson(
        "/api/sessions/" + encodeURIComponent(sessionId) + "/questions/" + encodeURIComponent(formEl.dataset.callId) + "/answer",
        { answerId: formEl.elements.answerId.value, text },
      );
      // The push that logs the answer ends the takeover.
    } catch (error) {
      const data = error.data && error.data.error;
      problem.textContent = (data && data.message) || t("connection problem");
      problem.hidden = false;
      controls.forEach((el) => (el.disabled = false));
      delete formEl.dataset.sending;
    }
  });
  questionSlot.addEventListener("keydown", (event) => {
    if (event.target.id === "question-answer" && event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      takeover().requestSubmit();
    } else if (event.key === "Escape" && takeover() && !takeover().classList.contains("later")) {
      setLater(true);
    }
  });

  function apply(message) {
    switch (message.type) {
      case "hello":
        clearPartial(); // a reconnect starts from the log; the next partial shows the rest
      // falls through
      case "change":
        appendEvents(message.events || []);
        replaceRows(message.rows);
        applyQueue(message.queue);
        applySurface(message.taskSurface);
        applyQuestion(message.question, message.questionHtml);
        break;
      case "partial":
        showPartial(message.text);
        break;
      case "reset":
        if (!paging) window.location.reload();
        break;
    }
  }

  // ---- The websocket, with reconnect ----

  const connection = $("#connection");
  let retry = 0;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = scheme + "//" + location.host + "/ws/sessions/" + encodeURIComponent(sessionId) + "?after=" + lastSeq;
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      retry = 0;
      if (connection) connection.textContent = "";
      body.dataset.live = "true";
    });
    socket.addEventListener("message", (event) => {
      try {
        apply(JSON.parse(event.data));
      } catch (error) {
        console.error(error);
      }
    });
    socket.addEventListener("close", () => {
      body.dataset.live = "false";
      if (connection) connection.textContent = t("Reconnecting…");
      retry = Math.min(retry + 1, 6);
      window.setTimeout(connect, 250 * 2 ** retry);
    });
  }

  // ---- The composer and the queue ----

  const composer = $("#composer");
  composer.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = composerText.value;
    if (!text.trim()) return;
    try {
      await postJson("/api/sessions/" + encodeURIComponent(sessionId) + "/messages", { text });
      composerText.value = "";
    } catch (error) {
      if (connection) connection.textContent = (error.data && error.data.error && error.data.error.message) || t("Not sent.");
    }
  });
  composerText.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      composer.requestSubmit();
    }
  });

  $("#queue-slot").addEventListener("submit", async (event) => {
    const target = event.target;
    const item = target.closest(".queue-item");
    event.preventDefault();
    try {
      if (item) {
        await postJson("/api/sessions/" + encodeURIComponent(sessionId) + "/queue/" + encodeURIComponent(item.dataset.itemId), {
          action: "remove",
        });
      } else {
        const paused = $("input[name=paused]", target).value === "true";
        await postJson("/api/sessions/" + encodeURIComponent(sessionId) + "/agent", { paused });
      }
    } catch (_) {
      /* the push shows the queue as it really is */
    }
  });

  mountDock(false);
  mountQuestion();
  window.scrollTo({ top: document.body.scrollHeight });
  connect();
})();
