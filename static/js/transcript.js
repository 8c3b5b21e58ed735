// The transcript follows the log: pushed events are appended once each, rows of panels that
// changed state are replaced, and a streaming reply shows as one provisional bubble, hidden from
// screen readers (they hear the logged message once), until the first logged event replaces it.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const events = page.$("#events");
  let scrollAsked = false;

  // To the newest message, in the frame that shows it: measuring the page inside a message's
  // handler would lay it out once there and again when the dock and rows it changes are drawn.
  function showNewest() {
    if (scrollAsked) return;
    scrollAsked = true;
    window.requestAnimationFrame(() => {
      scrollAsked = false;
      window.scrollTo({ top: document.body.scrollHeight });
    });
  }

  function showPartial(text) {
    if (page.paging || typeof text !== "string") return;
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
    showNewest();
  }

  function clearPartial() {
    const row = document.getElementById("partial-reply");
    if (row) row.remove();
  }

  function appendEvents(list) {
    if (page.paging) return;
    if (list.length) clearPartial();
    list.forEach((event) => {
      if (event.seq <= page.lastSeq || document.getElementById("ev-" + event.seq)) return;
      const holder = document.createElement("template");
      holder.innerHTML = event.html.trim();
      events.appendChild(holder.content);
      page.lastSeq = event.seq;
    });
    if (list.length) showNewest();
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

  page.onMessage((message) => {
    switch (message.type) {
      case "hello":
        clearPartial(); // a reconnect starts from the log; the next partial shows the rest
      // falls through
      case "change":
        appendEvents(message.events || []);
        replaceRows(message.rows);
        break;
      case "partial":
        showPartial(message.text);
        break;
    }
  });
})();
