/**
 * worker — registers the service worker (/sw.js, app/pwa.py) on every page, and lets a
 * new deploy's worker take over once this page is of its version (the worker then deletes
 * the old version's cache: a page never mixes files of two versions).
 *
 *   registerWorker() → Promise<ServiceWorkerRegistration | null>
 *   pageVersion      the assets' version this page was loaded with (from its own URL)
 */

export const pageVersion = new URL(import.meta.url).pathname.split('/')[3] || '';

function adoptWaiting(registration) {
  registration.waiting?.postMessage({ type: 'activate', version: pageVersion });
}

export async function registerWorker() {
  if (!('serviceWorker' in navigator)) return null;
  try {
    const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
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
