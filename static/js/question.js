// The composer takeover: while the agent waits for an answer to its question, the question takes
// the composer area over. The dock and the composer are hidden, never removed, so the dock's
// draft and focus state survive and the same dock comes back when the question is answered.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, $$, t, dockSlot } = page;
  const questionSlot = $("#question-slot");
  const takeover = () => $("#question-takeover");

  function takeOver(on) {
    dockSlot.hidden = on;
    $("#composer").hidden = on;
  }

  function focusDockOrComposer() {
    if (!page.dock.focusTitle()) page.composerText.focus();
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
    if (later) focusDockOrComposer();
    else $("#question-answer").focus();
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
      page.announce(t("The agent asks a question."));
    } else {
      focusDockOrComposer();
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
      await page.postJson(page.sessionUrl("/questions/" + encodeURIComponent(formEl.dataset.callId) + "/answer"), {
        answerId: formEl.elements.answerId.value,
        text,
      });
      // The push that logs the answer ends the takeover.
    } catch (error) {
      problem.textContent = page.refusal(error, t("connection problem"));
      problem.hidden = false;
      controls.forEach((el) => (el.disabled = false));
      delete formEl.dataset.sending;
    }
  });
  questionSlot.addEventListener("keydown", (event) => {
    if (
      event.target.id === "question-answer" &&
      event.key === "Enter" &&
      !event.shiftKey &&
      !event.isComposing
    ) {
      event.preventDefault();
      takeover().requestSubmit();
    } else if (event.key === "Escape" && takeover() && !takeover().classList.contains("later")) {
      setLater(true);
    }
  });

  page.onMessage((message) => {
    if (message.type === "hello" || message.type === "change") {
      applyQuestion(message.question, message.questionHtml);
    }
  });

  mountQuestion();
})();
