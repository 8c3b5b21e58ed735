// Comparison workspace: search the candidate cards, group them, sort them by price or a property,
// and keep a shortlist while exploring (kept in the browser per panel, never sent). The answer is
// the ordinary radio or checkbox of each card, so it works the same without this script.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page || !page.workspaces) return;
  const { $, $$, t } = page;

  function shortlistKey(el) {
    const holder = el.closest("[data-surface-id]");
    return "ts-shortlist:" + page.sessionId + ":" + (holder ? holder.dataset.surfaceId : "") + ":" + el.id;
  }

  function readShortlist(el) {
    try {
      return new Set(JSON.parse(localStorage.getItem(shortlistKey(el)) || "[]"));
    } catch (_) {
      return new Set();
    }
  }

  function init(el) {
    const tools = $(".workspace-tools", el);
    const list = $(".candidates", el);
    const cards = $$(".candidate", list);
    if (!tools || !list || !cards.length) throw new Error("comparison markup is incomplete");
    const search = $(".candidate-search", tools);
    const group = $(".candidate-group", tools);
    const sort = $(".candidate-sort", tools);
    const onlyShort = $(".shortlist-filter", tools);
    const count = $(".candidate-count", tools);
    if (!el.id) el.id = "cmp-" + ($("input", list) || { name: "x" }).name.replace(/\W/g, "-");
    const shortlist = readShortlist(el);

    const sortValue = (card, key) => {
      if (key === "price") return card.dataset.price === "" ? null : Number(card.dataset.price);
      if (key.startsWith("p:")) {
        const value = JSON.parse(card.dataset.values || "{}")[key.slice(2)];
        return value === undefined ? null : value;
      }
      return Number(card.dataset.order);
    };

    function compare(a, b, key) {
      const x = sortValue(a, key);
      const y = sortValue(b, key);
      if (x === y) return Number(a.dataset.order) - Number(b.dataset.order);
      if (x === null) return 1; // gaps last
      if (y === null) return -1;
      if (typeof x === "number" && typeof y === "number") return x - y;
      return String(x).localeCompare(String(y));
    }

    function apply() {
      const query = search.value.trim().toLocaleLowerCase();
      const key = sort.value || "";
      const ordered = cards.slice().sort((a, b) => {
        if (group && group.value === "group") {
          const byGroup = (a.dataset.group || "").localeCompare(b.dataset.group || "");
          if (byGroup) return byGroup;
        }
        return compare(a, b, key);
      });
      let shown = 0;
      $$(".candidate-group-heading", list).forEach((h) => h.remove());
      let lastGroup = null;
      ordered.forEach((card) => {
        const checked = $("input", card).checked;
        const matches = !query || card.textContent.toLocaleLowerCase().includes(query);
        const listed = !onlyShort.checked || shortlist.has(card.dataset.candidateId);
        card.hidden = !(checked || (matches && listed));
        if (!card.hidden) shown += 1;
        if (group && group.value === "group" && !card.hidden && card.dataset.group !== lastGroup) {
          lastGroup = card.dataset.group;
          const heading = document.createElement("h5");
          heading.className = "candidate-group-heading";
          heading.textContent = lastGroup || t("Other");
          list.appendChild(heading);
        }
        list.appendChild(card);
      });
      count.textContent = t("%(shown)s of %(total)s shown", { shown, total: cards.length });
    }

    cards.forEach((card) => {
      const button = $(".shortlist-toggle", card);
      if (!button) return;
      button.hidden = false;
      const set = (on) => {
        button.setAttribute("aria-pressed", String(on));
        button.textContent = on ? t("On the shortlist") : t("Shortlist");
        card.classList.toggle("shortlisted", on);
      };
      set(shortlist.has(card.dataset.candidateId));
      button.addEventListener("click", () => {
        const id = card.dataset.candidateId;
        if (shortlist.has(id)) shortlist.delete(id);
        else shortlist.add(id);
        set(shortlist.has(id));
        try {
          localStorage.setItem(shortlistKey(el), JSON.stringify([...shortlist]));
        } catch (_) {
          /* a shortlist is a convenience */
        }
        if (onlyShort.checked) apply();
      });
    });
    search.addEventListener("input", apply);
    search.addEventListener("keydown", (event) => {
      if (event.key === "Enter") event.preventDefault(); // searching never submits the panel
    });
    [group, sort, onlyShort].forEach((control) => control && control.addEventListener("change", apply));
    tools.hidden = false;
    apply();
  }

  page.workspaces.register("comparison", init);
})();
