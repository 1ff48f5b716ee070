/**
 * deploy — a page that learns the server now serves another build than its own (a
 * snapshot's `build` vs <html data-assets>) loads itself again, so the new views are read
 * by the new code. Once per build: a page still of another version after that (an old
 * copy served offline) plays on as it is rather than reloading in a loop.
 *
 *   shouldReload(build) → whether this tab has not reloaded for that build yet
 *   reloadFor(build)    → reloads (body[data-reloading]); its promise never settles
 */

const RELOADED_FOR = 'nook-reloaded-for'; // sessionStorage: the build this tab reloaded for

function remembered() {
  try {
    return sessionStorage.getItem(RELOADED_FOR);
  } catch {
    return null; // storage refused (a privacy mode): the page may reload once per load
  }
}

export function shouldReload(build) {
  return remembered() !== build;
}

export function reloadFor(build) {
  try {
    sessionStorage.setItem(RELOADED_FOR, build);
  } catch {
    /* as above */
  }
  document.body.dataset.reloading = build;
  location.reload();
  return new Promise(() => {}); // nothing queued after this runs on this page
}
