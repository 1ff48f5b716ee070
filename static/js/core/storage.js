/**
 * storage — localStorage under a prefix, never throwing (blocked or full storage, private
 * mode: the page still works, it just forgets).
 *
 *   const store = storage('pairs.')
 *   store.get(key, fallback = null)   the stored JSON value, or fallback
 *   store.set(key, value)             stores it; null or undefined removes the key
 */

/** @param {string} prefix */
export function storage(prefix) {
  return {
    get(key, fallback = null) {
      try {
        const raw = localStorage.getItem(prefix + key);
        return raw === null ? fallback : JSON.parse(raw);
      } catch {
        return fallback;
      }
    },
    set(key, value) {
      try {
        if (value === null || value === undefined) localStorage.removeItem(prefix + key);
        else localStorage.setItem(prefix + key, JSON.stringify(value));
      } catch {
        /* private mode: the page still works, it just forgets */
      }
    },
  };
}
