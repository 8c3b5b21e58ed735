// Dashboard workspace: choosing a metric, a range or a chart redraws the view from the server's
// own SVG and figures; nothing is sent to the agent. Without this script the Show button posts.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page || !page.workspaces) return;
  const { $, $$, t } = page;

  function init(el) {
    const url = el.dataset.fragmentUrl;
    const view = $(".dashboard-view", el);
    if (!url || !view) throw new Error("dashboard markup is incomplete");
    const controls = $$("select", el);
    $$(".no-script-only", el).forEach((button) => (button.hidden = true));
    let asked = 0;

    async function redraw() {
      const query = new URLSearchParams(controls.map((c) => [c.name, c.value]));
      const mine = ++asked;
      try {
        const joined = url + (url.includes("?") ? "&" : "?") + query.toString();
        const response = await fetch(joined, { credentials: "same-origin" });
        if (!response.ok || mine !== asked) return;
        const holder = document.createElement("template");
        holder.innerHTML = (await response.text()).trim();
        const fresh = holder.content.firstElementChild;
        const current = $(".dashboard-view", el);
        if (fresh && current) current.replaceWith(fresh);
      } catch (_) {
        page.announce(t("connection problem"));
      }
    }

    controls.forEach((control) =>
      control.addEventListener("change", (event) => {
        event.stopPropagation(); // exploring is not a draft change of the panel
        redraw();
      }),
    );
  }

  page.workspaces.register("dashboard", init);
})();
