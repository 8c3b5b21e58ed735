// Reordering the dock's order fields by dragging, with mouse, pen or touch (Pointer Events).
// The ↑/↓ buttons stay the accessible way; this only moves the <li> (its hidden input travels
// with it, so the form's order follows) and tells order_list.js with an "orderdrop" event, which
// refreshes the buttons, announces the new place and saves the draft.
// Listeners sit on document because the dock's HTML is replaced whenever the surface changes.
(function () {
  "use strict";

  const THRESHOLD = 4; // px of movement before a press becomes a drag, so clicks stay clicks
  const EDGE = 32; // px from a scroll container's edge where dragging scrolls it
  const SCROLL_STEP = 8; // px per frame at the very edge

  let press = null; // a pointer is down on a draggable item; not yet a drag
  let drag = null; // the drag in progress
  let swallowClick = false; // the click that ends a drag is not a click on the item

  function draggableItem(target) {
    if (!(target instanceof Element)) return null;
    if (target.closest("button, input, textarea, select, a[href], [contenteditable]")) return null;
    const li = target.closest(".order-item");
    if (!li || !li.closest("#task-surface-dock .order-list")) return null;
    // Read-only replay rows have no buttons; a pending submission disables the fieldset.
    if (!li.querySelector(".order-buttons") || li.closest("fieldset:disabled")) return null;
    return li;
  }

  const items = (list) => Array.from(list.children).filter((el) => el.classList.contains("order-item"));

  // The nearest ancestor that scrolls vertically (the dock body), so a long list can be dragged past its fold.
  function scrollerOf(el) {
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (/(auto|scroll)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) return node;
    }
    return null;
  }

  function start(event) {
    const li = press.li;
    const list = li.parentElement;
    const rect = li.getBoundingClientRect();
    drag = {
      li,
      list,
      pointerId: press.pointerId,
      startIndex: items(list).indexOf(li),
      grabOffset: press.y - rect.top, // where in the item the pointer holds it
      y: event.clientY,
      scroller: scrollerOf(list),
      frame: 0,
    };
    press = null;
    swallowClick = true;
    // Capture on the list, not the item: moving the item in the DOM would drop a capture held by it.
    try {
      list.setPointerCapture(drag.pointerId);
    } catch (_) {
      /* the pointer is already gone; pointerup or cancel ends the drag */
    }
    li.classList.add("dragging");
    list.classList.add("is-sorting");
    const selection = window.getSelection();
    if (selection) selection.removeAllRanges();
    follow();
    drag.frame = window.requestAnimationFrame(autoScroll);
  }

  // Put the item in the slot under the pointer, then draw it under the pointer.
  function follow() {
    const { li, list, y } = drag;
    const others = items(list).filter((el) => el !== li);
    const before = others.find((el) => {
      const r = el.getBoundingClientRect();
      return y < r.top + r.height / 2;
    });
    if (before) {
      if (li.nextElementSibling !== before) list.insertBefore(li, before);
    } else if (others.length && li !== list.lastElementChild) {
      list.appendChild(li);
    }
    // Offset from its place in the layout; kept within the list so it never floats off elsewhere.
    li.style.transform = "";
    const home = li.getBoundingClientRect();
    const bounds = list.getBoundingClientRect();
    const top = Math.min(Math.max(y - drag.grabOffset, bounds.top), bounds.bottom - home.height);
    li.style.transform = "translateY(" + Math.round(top - home.top) + "px)";
  }

  // While the pointer rests near the top or bottom of the dock body, scroll it a little each frame.
  function autoScroll() {
    if (!drag) return;
    const scroller = drag.scroller;
    if (scroller) {
      const box = scroller.getBoundingClientRect();
      // The dock's sticky action bar covers the bottom of the body; the visible part ends above it.
      const bar = scroller.querySelector(".dock-actions");
      const bottom = bar ? Math.min(box.bottom, bar.getBoundingClientRect().top) : box.bottom;
      let depth = 0; // how far into an edge zone, -1 (top) to 1 (bottom)
      if (drag.y < box.top + EDGE) depth = (drag.y - box.top - EDGE) / EDGE;
      else if (drag.y > bottom - EDGE) depth = (drag.y - bottom + EDGE) / EDGE;
      const step = Math.round(Math.max(-1, Math.min(1, depth)) * SCROLL_STEP);
      if (step) {
        const was = scroller.scrollTop;
        scroller.scrollTop = was + step;
        if (scroller.scrollTop !== was) follow();
      }
    }
    drag.frame = window.requestAnimationFrame(autoScroll);
  }

  // Ends the drag; with dropped false the item goes back where it started.
  function finish(dropped) {
    const { li, list, pointerId, startIndex, frame } = drag;
    drag = null;
    window.cancelAnimationFrame(frame);
    li.classList.remove("dragging");
    li.style.transform = "";
    list.classList.remove("is-sorting");
    if (list.hasPointerCapture && list.hasPointerCapture(pointerId)) list.releasePointerCapture(pointerId);
    if (!li.isConnected || li.parentElement !== list) return; // the dock was replaced under the drag
    // A submission that went out meanwhile (another tab) freezes the list too.
    const frozen = Boolean(li.closest("fieldset:disabled"));
    if (!dropped || frozen) {
      const others = items(list).filter((el) => el !== li);
      list.insertBefore(li, others[startIndex] || null);
      return;
    }
    if (items(list).indexOf(li) !== startIndex) li.dispatchEvent(new CustomEvent("orderdrop", { bubbles: true }));
  }

  document.addEventListener("pointerdown", (event) => {
    swallowClick = false;
    if (drag || !event.isPrimary || event.button !== 0) return;
    const li = draggableItem(event.target);
    press = li ? { li, pointerId: event.pointerId, x: event.clientX, y: event.clientY } : null;
  });

  document.addEventListener("pointermove", (event) => {
    if (drag && event.pointerId === drag.pointerId) {
      event.preventDefault();
      drag.y = event.clientY;
      follow();
    } else if (press && event.pointerId === press.pointerId) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < THRESHOLD) return;
      if (!press.li.isConnected || !draggableItem(press.li)) {
        press = null;
        return;
      }
      event.preventDefault();
      start(event);
    }
  });

  document.addEventListener("pointerup", (event) => {
    if (press && event.pointerId === press.pointerId) press = null;
    if (drag && event.pointerId === drag.pointerId) finish(true);
    // The click, if any, follows this pointerup before any timer; later clicks are real ones.
    if (swallowClick) window.setTimeout(() => (swallowClick = false), 0);
  });

  document.addEventListener("pointercancel", (event) => {
    if (press && event.pointerId === press.pointerId) press = null;
    if (drag && event.pointerId === drag.pointerId) finish(false);
    swallowClick = false; // no click follows a cancelled pointer
  });

  // Losing the capture without a pointerup (the list left the page, the browser took the pointer) cancels.
  document.addEventListener("lostpointercapture", (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    // A list that left the page reports the loss on the document instead.
    if (event.target === drag.list || !drag.list.isConnected) finish(false);
  });

  // Capture phase on window: Escape must cancel the drag before the dock's own Escape collapses it.
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.key !== "Escape" || !drag) return;
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    },
    true,
  );

  window.addEventListener(
    "click",
    (event) => {
      if (!swallowClick) return;
      swallowClick = false;
      event.preventDefault();
      event.stopPropagation();
    },
    true,
  );
})();
