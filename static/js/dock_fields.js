// The open panel's fields as values: what each kind of field holds, put back from a draft, and
// which fields apply (`visibleWhen`, decided as the server decides it). The dock reads and writes
// them; it does not need to know one kind of field from another.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, $$, t } = page;

  const form = () => $("#dock-form");
  const fields = () => $$(".field[data-field-id]", form());

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
      case "number": {
        // As typed; the server says beside the field when it is not a number it accepts.
        const el = named("input")[0];
        const text = el ? el.value.trim() : "";
        if (!text) return el && el.validity && el.validity.badInput ? "?" : null;
        const number = Number(text);
        return Number.isFinite(number) ? number : text;
      }
      case "date": {
        const el = named("input")[0];
        return el && el.value ? el.value : null; // YYYY-MM-DD as the control gives it: no time zone
      }
      case "comparison": {
        const checked = named("input:checked").map((el) => el.value);
        return $("input[type=radio]", field) ? checked[0] || null : checked;
      }
      case "itinerary":
        return named("input[type=hidden]").map((el) => el.value);
      case "review": {
        const decisions = {};
        $$("input[type=radio]:checked", field).forEach((el) => {
          decisions[el.name.slice(field.dataset.fieldId.length + 3)] = el.value;
        });
        return decisions;
      }
      default:
        return null;
    }
  }

  // Only the fields that apply are sent; a hidden one is neither required nor submitted.
  function read() {
    const values = {};
    fields().forEach((field) => {
      if (!field.hidden) values[field.dataset.fieldId] = fieldValue(field);
    });
    return values;
  }

  function readAll() {
    const values = {};
    fields().forEach((field) => {
      values[field.dataset.fieldId] = fieldValue(field);
    });
    return values;
  }

  const sameValue = (a, b) => typeof a === typeof b && a === b;

  const fieldLabel = (field) => {
    const label = $("label, legend", field);
    return label ? label.textContent.replace("*", "").trim() : "";
  };

  // visibleWhen: one pass in field order, as the server decides it (domain/visibility.py).
  function applyConditions() {
    if (!form()) return;
    const values = readAll();
    const shown = new Set();
    fields().forEach((field) => {
      const raw = field.dataset.visibleWhen;
      let visible = true;
      if (raw) {
        const condition = JSON.parse(raw);
        const value = values[condition.field];
        const list = Array.isArray(value) ? value : [value];
        visible = shown.has(condition.field) && list.some((v) => condition.values.some((w) => sameValue(v, w)));
      }
      if (visible) shown.add(field.dataset.fieldId);
      if (field.hidden === visible) {
        field.hidden = !visible;
        if (visible) page.announce(t("Another field now applies: %(label)s", { label: fieldLabel(field) }));
      }
    });
  }

  // `values` as `read` gave them (a draft); `note` for the dock's note, when it has one.
  function apply(values, note) {
    fields().forEach((field) => {
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
          if (Array.isArray(value)) page.orderList.reorder(field, value);
          break;
        case "comparison":
          inputs.forEach((el) => (el.checked = Array.isArray(value) ? value.includes(el.value) : el.value === value));
          break;
        case "number":
        case "date":
          if (inputs[0]) inputs[0].value = value === null || value === undefined ? "" : String(value);
          break;
        case "review":
          if (value && typeof value === "object") {
            $$("input[type=radio]", field).forEach((el) => {
              el.checked = value[el.name.slice(id.length + 3)] === el.value;
            });
          }
          break;
      }
    });
    applyConditions();
    const noteEl = $("#dock-note");
    if (noteEl && typeof note === "string") noteEl.value = note;
  }

  page.dockFields = { read, apply, applyConditions };
})();
