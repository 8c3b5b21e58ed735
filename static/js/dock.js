// The dock: the only editor of the open panel. It submits and dismisses without reloading,
// keeps the draft, shows refusals beside their fields, and follows the log: a new surface swaps
// the dock in, a closed one takes it out, and the pending phase decides whether it is editable.
// What its fields hold is dock_fields.js's to read and write; its size is dock_size.js's.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, $$, t, drafts, dockSlot } = page;
  const fields = page.dockFields;

  let submitting = false; // a submit request is on its way; pushes cannot settle the phase yet
  let heldState = null; // the newest surface state pushed while a submit was on its way
  const dock = page.docked;
  const form = () => $("#dock-form");

  // `values`: what a submission just read from the form, so it is not read again.
  function saveDraft(values) {
    const d = dock();
    if (!d || d.dataset.pendingPhase) return;
    const noteEl = $("#dock-note");
    drafts.write(d.dataset.surfaceId, { values: values || fields.read(), note: noteEl ? noteEl.value : "" });
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
        phase === "claiming"
          ? t("Submitted: the agent is reading it…")
          : t("Submitted: waiting for the agent to read it…");
    }
  }

  // A refusal in the page's language: the code's template with its figures, else the server's words.
  function problemText(problem) {
    const params = problem.params || {};
    const key =
      problem.code === "submission.invalid-format" && params.format
        ? "problem:format:" + params.format
        : "problem:" + problem.code;
    return page.strings[key] ? t(key, params) : problem.message;
  }

  function showRejection(result) {
    const status = $("#dock-status");
    $$(".field-problem", form()).forEach((el) => el.remove());
    $$(".field.has-problem", form()).forEach((el) => el.classList.remove("has-problem"));
    $$("[aria-invalid]", form()).forEach((el) => el.removeAttribute("aria-invalid"));
    const general = [];
    (result.problems || []).forEach((problem) => {
      const field = problem.where && $('.field[data-field-id="' + CSS.escape(problem.where) + '"]', form());
      if (!field) {
        general.push(problemText(problem));
        return;
      }
      field.classList.add("has-problem");
      const message = document.createElement("p");
      message.className = "field-problem";
      message.id = "problem-" + problem.where;
      message.textContent = problemText(problem);
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
      const reason = page.strings["reason:" + result.reason] || result.reason;
      span.textContent = t("Not sent: %(reason)s.", { reason }) + " " + general.join(". ");
      status.appendChild(span);
    }
    const first = $(".has-problem input:not([type=hidden]), .has-problem textarea", form());
    if (first) first.focus();
  }

  const activeUrl = (surfaceId) => page.sessionUrl("/task-surfaces/" + encodeURIComponent(surfaceId));
  const surfaceUrl = (surfaceId, action) => activeUrl(surfaceId) + "/" + action;

  async function submitDock(submitter) {
    const d = dock();
    if (!d || d.dataset.pendingPhase) return;
    const surfaceId = d.dataset.surfaceId;
    const idInput = $("input[name=submissionId]", form());
    const noteEl = $("#dock-note");
    const payload = { submissionId: idInput.value, values: fields.read() };
    if (submitter && submitter.name === "action") payload.action = submitter.value;
    if (noteEl && noteEl.value.trim()) payload.note = noteEl.value;
    // The request leaves first; the rest of this task runs before any answer or push can.
    const url = surfaceUrl(surfaceId, "submit");
    const request = page.request("taskSurface.submit", { ...payload, surfaceId }, url, payload);
    saveDraft(payload.values);
    setBusy("queued");
    submitting = true;
    heldState = null;
    try {
      const result = await request;
      submitting = false;
      if (result.accepted) {
        // The push that follows the commit says where the submission is; one that came while
        // the request was on its way is applied now, so no request asks what a push answered.
        d.dataset.pendingSubmission = payload.submissionId;
        if (heldState) applySurface(heldState);
        heldState = null;
        page.announce(t("Submitted."));
        composerNext();
        return;
      }
      setBusy("");
      idInput.value = page.newId();
      showRejection(result);
    } catch (error) {
      submitting = false;
      // Transport trouble: keep the same submissionId, so a retry cannot create a second message.
      setBusy("");
      showRejection({
        reason: page.refusal(error, t("connection problem")),
      });
    }
  }

  async function dismissDock() {
    const d = dock();
    if (!d || d.dataset.pendingPhase) return;
    const surfaceId = d.dataset.surfaceId;
    const payload = { dismissalId: $("input[name=dismissalId]", form()).value };
    try {
      const url = surfaceUrl(surfaceId, "dismiss");
      const result = await page.request("taskSurface.dismiss", { ...payload, surfaceId }, url, payload);
      if (result.dismissed) {
        page.announce(t("Panel dismissed."));
        if (page.composerText) page.composerText.focus();
      } else {
        showRejection({ reason: result.reason });
      }
    } catch (_) {
      showRejection({ reason: t("connection problem") });
    }
  }

  function mountDock(focus) {
    const d = dock();
    if (!d) return;
    page.dockSize.mount(d);
    $$(".no-script-only", d).forEach((el) => (el.hidden = true));
    if (page.optionFilter) page.optionFilter.mount(d);
    $$(".order-list", d).forEach(page.orderList.refresh);
    if (!d.dataset.pendingPhase) {
      const draft = drafts.read(d.dataset.surfaceId);
      if (draft && draft.values) fields.apply(draft.values, draft.note);
    }
    fields.applyConditions();
    if (focus && !dockSlot.hidden) focusTitle();
  }

  // Focus goes to the dock's title; `true` when there was a dock to take it.
  function focusTitle() {
    const title = dock() && $("#dock-title", dock());
    if (title) title.focus();
    return Boolean(title);
  }

  let loadingSurface = null; // the surface whose dock is being fetched, so pushes do not fetch it twice
  let wantedSurface = null;

  async function replaceDock(surfaceId, focus) {
    wantedSurface = surfaceId;
    if (loadingSurface) return;
    loadingSurface = surfaceId;
    try {
      const response = await fetch("/sessions/" + encodeURIComponent(page.sessionId) + "/dock", {
        credentials: "same-origin",
      });
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
    if (target.dataset.action === "dismiss") {
      event.preventDefault();
      dismissDock();
    }
  });
  dockSlot.addEventListener("submit", (event) => {
    const submitter = event.submitter;
    // A workspace that could not start shows its no-script buttons: they post, and the page answers.
    if (submitter && /^_(explore|itin)$/.test(submitter.name)) return;
    event.preventDefault();
    if (submitter && submitter.dataset.panelAction) page.panelActions.send(submitter);
    else if (submitter && submitter.dataset.withdraw) page.panelActions.withdraw(submitter);
    else if (!submitter || submitter.name !== "_refresh") submitDock(submitter);
  });
  dockSlot.addEventListener("input", () => {
    fields.applyConditions();
    saveDraft();
  });
  dockSlot.addEventListener("change", () => {
    fields.applyConditions();
    saveDraft();
  });

  // After an acknowledged submission focus goes to the composer, for what the person says next,
  // unless they have put it somewhere else of their own. Not at the acknowledgement itself: moving
  // focus into a text field costs the browser work that would hold up the reply, which usually
  // comes a few milliseconds later with the panel's close. So the close moves it, in the frame
  // after the one that shows the reply; a panel still waiting for a busy agent does a moment
  // after the acknowledgement.
  let focusOnClose = false;
  const FOCUS_WHILE_WAITING_MS = 300;

  function composerNext() {
    focusOnClose = true;
    if (dock()) window.setTimeout(moveFocusOn, FOCUS_WHILE_WAITING_MS);
    else afterNextFrame(moveFocusOn); // the push that closed the panel came first
  }

  function moveFocusOn() {
    if (!focusOnClose) return;
    focusOnClose = false;
    const focused = document.activeElement;
    const unplaced = !focused || focused === document.body || dockSlot.contains(focused);
    if (unplaced && page.composerText) page.composerText.focus();
  }

  function afterNextFrame(action) {
    window.requestAnimationFrame(() => window.setTimeout(action, 0));
  }

  // A pending record that vanished is never taken as an outcome: the dock asks getActive.
  function applySurface(state) {
    if (!state) return;
    const d = dock();
    const activeId = state.active ? state.active.surfaceId : null;
    const shownId = d ? d.dataset.surfaceId : null;
    if (activeId !== shownId) {
      if (shownId) drafts.clear(shownId);
      submitting = false;
      if (activeId) {
        focusOnClose = false; // the next panel's title takes focus
        replaceDock(activeId, true);
      } else {
        wantedSurface = null;
        if (!loadingSurface) dockSlot.innerHTML = "";
        if (focusOnClose) afterNextFrame(moveFocusOn);
      }
      return;
    }
    if (!d) return;
    if (submitting) {
      heldState = state;
      return;
    }
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
      if (draft && draft.values) fields.apply(draft.values, draft.note);
      const status = $("#dock-status");
      if (status) status.textContent = t("Your answer was not delivered; you can send it again.");
      $("input[name=submissionId]", form()).value = page.newId();
    }
  }

  page.dock = { saveDraft, focusTitle, readValues: fields.read, showRejection, form };

  page.onMessage((message) => {
    if (message.type === "hello" || message.type === "change") applySurface(message.taskSurface);
  });

  mountDock(false);
})();
