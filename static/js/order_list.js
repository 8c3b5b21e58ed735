// Order lists in the dock: ↑/↓ buttons move an item (keyboard and screen readers), each move is
// announced, the buttons at the ends are marked, and the draft keeps the new order. Dragging
// (order_drag.js) ends in the same place through its "orderdrop" event.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, $$, t, dockSlot } = page;
  const dock = page.docked;

  function refresh(list) {
    const items = $$(".order-item", list);
    items.forEach((li, index) => {
      const up = $("[data-move=up]", li);
      const down = $("[data-move=down]", li);
      if (up) up.setAttribute("aria-disabled", String(index === 0));
      if (down) down.setAttribute("aria-disabled", String(index === items.length - 1));
    });
  }

  function reorder(field, order) {
    const list = $(".order-list", field);
    const items = new Map($$(".order-item", list).map((li) => [li.dataset.optionId, li]));
    if (order.length !== items.size || !order.every((id) => items.has(id))) return;
    order.forEach((id) => list.appendChild(items.get(id)));
    refresh(list);
  }

  // After any move (buttons or dragging): buttons at the ends, the new place announced, the draft kept.
  function settleMove(li) {
    const list = li.parentElement;
    refresh(list);
    const position = $$(".order-item", list).indexOf(li) + 1;
    page.announce(
      t("%(label)s, position %(position)s of %(total)s", {
        label: $(".option-label", li).textContent,
        position,
        total: list.children.length,
      }),
    );
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
    const target =
      same.getAttribute("aria-disabled") === "true" ? $("[data-move=" + (up ? "down" : "up") + "]", li) : same;
    target.focus();
    page.dock.saveDraft();
  }

  page.orderList = { refresh, reorder };

  dockSlot.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-move]");
    if (!button || !dock()) return;
    event.preventDefault(); // without the script, the button posts the form and the page moves it
    moveItem(button);
  });
  dockSlot.addEventListener("orderdrop", (event) => {
    if (!dock() || dock().dataset.pendingPhase) return;
    settleMove(event.target.closest(".order-item"));
    page.dock.saveDraft();
  });
})();
