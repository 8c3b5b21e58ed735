// Itinerary workspace: add and remove stops, reorder them (↑/↓ and dragging come from the order
// list), filter the places by group and focus one on the map. The dashed route and the stop
// numbers follow the list; the stops' hidden inputs are the answer, in visit order.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page || !page.workspaces) return;
  const { $, $$, t } = page;

  function init(el) {
    const stops = $(".stops", el);
    const map = $(".map", el);
    const route = map && $(".map-route", map);
    if (!stops || !map || !route) throw new Error("itinerary markup is incomplete");
    const fieldId = el.dataset.fieldId;
    const readOnly = !$(".place-add", el) && !$(".order-buttons", stops);
    const marker = (id) => $('.map-place[data-place-id="' + CSS.escape(id) + '"]', map);
    const place = (id) => $('.place[data-place-id="' + CSS.escape(id) + '"]', el);
    const labelOf = (id) => ($(".option-label", place(id)) || {}).textContent || id;

    function stopIds() {
      return $$(".stop", stops).map((li) => li.dataset.optionId);
    }

    function redraw() {
      const ids = stopIds();
      route.setAttribute(
        "points",
        ids.map((id) => marker(id)).filter(Boolean).map((m) => m.dataset.x + "," + m.dataset.y).join(" "),
      );
      $$(".map-place", map).forEach((m) => {
        const n = ids.indexOf(m.dataset.placeId) + 1;
        m.classList.toggle("is-stop", n > 0);
        $("circle", m).setAttribute("r", n ? "11" : "6");
        $(".map-stop-number", m).textContent = n ? String(n) : "";
      });
      $$(".place", el).forEach((li) => {
        const on = ids.includes(li.dataset.placeId);
        li.classList.toggle("is-stop", on);
        const add = $(".place-add", li);
        if (add) add.hidden = on;
      });
      const empty = $(".stops-empty", el);
      if (empty) empty.hidden = ids.length > 0;
      if (page.orderList) page.orderList.refresh(stops);
    }

    function stopItem(id) {
      const li = document.createElement("li");
      li.className = "order-item stop";
      li.dataset.optionId = id;
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "f." + fieldId;
      input.value = id;
      const text = document.createElement("span");
      text.className = "order-text";
      const label = document.createElement("span");
      label.className = "option-label";
      label.textContent = labelOf(id);
      text.appendChild(label);
      const buttons = document.createElement("span");
      buttons.className = "order-buttons";
      [
        ["up", "↑", t("Move %(label)s up", { label: labelOf(id) })],
        ["down", "↓", t("Move %(label)s down", { label: labelOf(id) })],
      ].forEach(([move, glyph, name]) => {
        const b = document.createElement("button");
        b.type = "submit";
        b.className = "icon-button";
        b.dataset.move = move;
        b.setAttribute("aria-label", name);
        b.textContent = glyph;
        buttons.appendChild(b);
      });
      const remove = document.createElement("button");
      remove.type = "submit";
      remove.className = "icon-button";
      remove.dataset.itinerary = "remove";
      remove.setAttribute("aria-label", t("Remove %(label)s from the stops", { label: labelOf(id) }));
      remove.textContent = "×";
      buttons.appendChild(remove);
      li.append(input, text, buttons);
      return li;
    }

    function setStops(ids) {
      $$(".stop", stops).forEach((li) => li.remove());
      ids.filter((id) => place(id)).forEach((id) => stops.appendChild(stopItem(id)));
      redraw();
    }

    function focusPlace(id) {
      $$(".map-place.is-focused, .place.is-focused", el).forEach((n) => n.classList.remove("is-focused"));
      const m = marker(id);
      if (m) m.classList.add("is-focused");
      const li = place(id);
      if (li) li.classList.add("is-focused");
      page.announce(labelOf(id));
    }

    el.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button || !el.contains(button)) return;
      const id = (button.closest("[data-place-id], [data-option-id]") || {}).dataset || {};
      const placeId = id.placeId || id.optionId;
      if (button.classList.contains("place-focus")) {
        focusPlace(placeId);
      } else if (button.dataset.itinerary === "add") {
        event.preventDefault();
        stops.appendChild(stopItem(placeId));
        redraw();
        page.announce(t("%(label)s added as stop %(position)s", { label: labelOf(placeId), position: stopIds().length }));
        if (page.dock) page.dock.saveDraft();
      } else if (button.dataset.itinerary === "remove") {
        event.preventDefault();
        button.closest(".stop").remove();
        redraw();
        page.announce(t("%(label)s removed from the stops", { label: labelOf(placeId) }));
        const add = $(".place-add", place(placeId));
        if (add) add.focus();
        if (page.dock) page.dock.saveDraft();
      }
    });
    $$(".map-place", map).forEach((m) => m.addEventListener("click", () => focusPlace(m.dataset.placeId)));
    $$(".place-focus", el).forEach((b) => (b.hidden = false));
    const groups = $(".place-group", el);
    if (groups) {
      groups.addEventListener("change", (event) => {
        event.stopPropagation();
        $$(".place", el).forEach((li) => (li.hidden = Boolean(groups.value) && li.dataset.group !== groups.value));
        $$(".map-place", map).forEach((m) =>
          m.classList.toggle("is-muted", Boolean(groups.value) && m.dataset.group !== groups.value),
        );
      });
    }
    // Tiles come only from the operator's tile server; when they fail the list still works. A tile
    // may have failed before this script ran, so each is also checked through an image probe, which
    // the browser answers from its cache when the tile did load.
    const tiles = $$(".map-tile", map);
    const notice = $(".map-tiles-failed", el);
    const failed = () => {
      if (notice) notice.hidden = false;
    };
    const check = (url) => {
      const probe = new Image();
      probe.addEventListener("error", failed);
      probe.src = url;
    };
    tiles.forEach((tile) => {
      tile.addEventListener("error", failed);
      check(tile.getAttribute("href"));
    });
    const retry = $(".map-retry", el);
    if (retry) {
      retry.addEventListener("click", () => {
        notice.hidden = true;
        const stamp = "#retry-" + Date.now();
        tiles.forEach((tile) => {
          const url = tile.getAttribute("href").split("#")[0] + stamp;
          tile.setAttribute("href", url);
          check(url);
        });
      });
    }
    new MutationObserver(redraw).observe(stops, { childList: true });
    const surface = el.closest("[data-surface-id]");
    const draft = !readOnly && surface && page.drafts && page.drafts.read(surface.dataset.surfaceId);
    if (draft && draft.values && Array.isArray(draft.values[fieldId])) setStops(draft.values[fieldId]);
    else redraw();
    $$(".workspace-tools", el).forEach((tools) => (tools.hidden = false));
  }

  page.workspaces.register("itinerary", init);
})();
