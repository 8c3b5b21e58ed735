// Drafts: a panel's unsubmitted values per session and surface, kept in the browser, bounded,
// never sent early and never written to the log.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;

  const DRAFT_PREFIX = "ts-draft:";
  const DRAFT_BUDGET = 256 * 1024; // bytes of all drafts together; the oldest go first
  const DRAFT_MAX = 32 * 1024; // one draft; larger is not kept

  page.drafts = {
    key: (surfaceId) => DRAFT_PREFIX + page.sessionId + ":" + surfaceId,
    read(surfaceId) {
      if (!page.surfacesOn) return null;
      try {
        const raw = localStorage.getItem(this.key(surfaceId));
        return raw ? JSON.parse(raw) : null;
      } catch (_) {
        return null;
      }
    },
    write(surfaceId, draft) {
      if (!page.surfacesOn) return;
      try {
        const raw = JSON.stringify({ ...draft, savedAt: Date.now() });
        if (raw.length * 2 > DRAFT_MAX) return;
        localStorage.setItem(this.key(surfaceId), raw);
        this.evict();
      } catch (_) {
        /* storage full or disabled: drafts are a convenience */
      }
    },
    clear(surfaceId) {
      try {
        localStorage.removeItem(this.key(surfaceId));
      } catch (_) {
        /* ignore */
      }
    },
    evict() {
      const entries = [];
      let total = 0;
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (!key || !key.startsWith(DRAFT_PREFIX)) continue;
        const raw = localStorage.getItem(key) || "";
        let savedAt = 0;
        try {
          savedAt = JSON.parse(raw).savedAt || 0;
        } catch (_) {
          /* a broken entry is evicted first */
        }
        entries.push({ key, savedAt, size: (key.length + raw.length) * 2 });
        total += (key.length + raw.length) * 2;
      }
      entries.sort((a, b) => a.savedAt - b.savedAt);
      while (total > DRAFT_BUDGET && entries.length) {
        const oldest = entries.shift();
        localStorage.removeItem(oldest.key);
        total -= oldest.size;
      }
    },
  };
})();
