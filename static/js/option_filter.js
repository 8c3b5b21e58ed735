// Filterable option lists: a search box above a long choice or multi-choice narrows the options by
// their text; chosen options always stay in view, and the count is announced politely.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, $$, t } = page;

  function apply(box) {
    const field = box.closest(".field");
    const query = $(".option-filter-input", box).value.trim().toLocaleLowerCase();
    const options = $$(".option", field);
    let shown = 0;
    options.forEach((option) => {
      const checked = $("input", option).checked;
      const visible = !query || checked || option.textContent.toLocaleLowerCase().includes(query);
      option.hidden = !visible;
      if (visible) shown += 1;
    });
    $(".option-filter-count", box).textContent = query
      ? t("%(shown)s of %(total)s options", { shown, total: options.length })
      : "";
  }

  function mount(root) {
    $$(".option-filter", root).forEach((box) => {
      box.hidden = false;
      const input = $(".option-filter-input", box);
      if (input.dataset.bound) return;
      input.dataset.bound = "true";
      input.addEventListener("input", () => apply(box));
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") event.preventDefault(); // filtering never submits the panel
        if (event.key === "Escape" && input.value) {
          event.stopPropagation(); // clears the filter, not the dock
          input.value = "";
          apply(box);
        }
      });
    });
  }

  page.optionFilter = { mount };
})();
