// Rich workspaces load only where there is one: when a comparison, dashboard or itinerary is on
// the page (now or after a push), its stylesheet and script are fetched once. A workspace whose
// script fails to load or throws keeps its server-drawn form (it works without the script) and
// offers a local Retry; the rest of the panel, the dock and the page go on working.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $$, t } = page;
  const inits = {};
  let loading = null;

  function failed(el, error) {
    if (error) console.error(error);
    el.dataset.workspaceState = "failed";
    $$(".workspace-tools", el).forEach((tools) => (tools.hidden = true));
    $$(".no-script-only", el).forEach((button) => (button.hidden = false));
    if (el.querySelector(":scope > .workspace-failed")) return;
    const note = document.createElement("p");
    note.className = "workspace-failed";
    note.setAttribute("role", "status");
    note.textContent = t("This part could not start; it still works as a plain form.") + " ";
    const retry = document.createElement("button");
    retry.type = "button";
    retry.className = "link-button workspace-retry";
    retry.textContent = t("Retry");
    retry.addEventListener("click", () => {
      note.remove();
      delete el.dataset.workspaceState;
      load().then(() => mount(el), () => failed(el));
    });
    note.appendChild(retry);
    el.prepend(note);
  }

  function mount(el) {
    const init = inits[el.dataset.workspace];
    if (!init || el.dataset.workspaceState === "ready") return;
    try {
      init(el);
      el.dataset.workspaceState = "ready";
    } catch (error) {
      failed(el, error);
    }
  }

  function load() {
    if (loading) return loading;
    const body = page.body;
    if (!document.querySelector("link[data-workspaces-css]")) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = body.dataset.workspacesCss;
      link.dataset.workspacesCss = "";
      document.head.appendChild(link);
    }
    loading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = body.dataset.workspacesJs;
      script.onload = resolve;
      script.onerror = () => {
        script.remove();
        loading = null; // a Retry asks again
        reject(new Error("the workspace script did not load"));
      };
      document.head.appendChild(script);
    });
    return loading;
  }

  function scan() {
    const found = $$("[data-workspace]").filter((el) => !el.dataset.workspaceState);
    if (!found.length) return;
    load().then(
      () => found.forEach(mount),
      () => found.forEach((el) => failed(el)),
    );
  }

  page.workspaces = {
    register(name, init) {
      inits[name] = init;
    },
    scan,
  };

  // A missing or broken image keeps its card and its selection: its alt text takes its place.
  function showAlt(img) {
    const missing = document.createElement("span");
    missing.className = "image-missing";
    missing.textContent = img.alt;
    img.replaceWith(missing);
  }

  document.addEventListener(
    "error",
    (event) => {
      const img = event.target;
      if (img instanceof HTMLImageElement && img.hasAttribute("data-media-image")) showAlt(img);
    },
    true,
  );
  // This script is deferred, so an image may have failed before the listener above existed.
  $$("img[data-media-image]")
    .filter((img) => img.complete && img.naturalWidth === 0)
    .forEach(showAlt);

  new MutationObserver(scan).observe(document.body, { childList: true, subtree: true });
  scan();
})();
