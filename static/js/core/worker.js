/**
 * worker — registers the service worker (/sw.js, app/pwa.py) on every page, and lets a
 * new deploy's worker take over once this page is of its version (the worker then deletes
 * the old version's cache: a page never mixes files of two versions). A page whose
 * address changes (history.replaceState) asks the worker to keep the new address too.
 *
 *   registerWorker() → Promise<ServiceWorkerRegistration | null>
 *   pageVersion      the version of the build this page was loaded with (<html data-assets>)
 */

export const pageVersion = document.documentElement.dataset.assets || '';

function adoptWaiting(registration) {
  registration.waiting?.postMessage({ type: 'activate', version: pageVersion });
}

const keepThisPage = () => navigator.serviceWorker.controller?.postMessage({ type: 'keep', url: location.href });

const withoutFragment = () => location.href.split('#', 1)[0];

/** A page that takes a new address (a created game becomes /g/<id>) is kept under it too,
 * and so is the page the worker starts controlling (its first visit came before it). A new
 * fragment is the same page: a replay's every step (#ply=N) had the worker fetch it again. */
function keepNewAddresses() {
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name];
    history[name] = function (...args) {
      const before = withoutFragment();
      const result = original.apply(this, args);
      if (withoutFragment() !== before) keepThisPage();
      return result;
    };
  }
  navigator.serviceWorker.addEventListener('controllerchange', keepThisPage);
}

export async function registerWorker() {
  if (!('serviceWorker' in navigator)) return null;
  keepNewAddresses();
  try {
    const script = `/sw.js?lang=${encodeURIComponent(document.documentElement.lang)}`;
    const registration = await navigator.serviceWorker.register(script, { scope: '/' });
    // A page of a version the worker has no cache for: a deploy happened, look for its worker.
    if (registration.active && !(await caches.has(`nook-${pageVersion}`))) await registration.update();
    adoptWaiting(registration);
    registration.addEventListener('updatefound', () => {
      const installing = registration.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed') adoptWaiting(registration);
      });
    });
    return registration;
  } catch {
    return null; // no worker (a private window, a blocked scope): the site works without it
  }
}
