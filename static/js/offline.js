/**
 * offline — the offline page (templates/offline.html): the service worker shows it in
 * place of a page it never kept. It is the offline state (body[data-connection=offline]);
 * "try again", or the server answering again (the browser's online event, or a probe of
 * /healthz every few seconds), loads the page the player asked for.
 */

const PROBE_MS = [2000, 3000, 5000, 8000];
let probes = 0;

document.body.dataset.connection = 'offline';
const retry = () => window.location.reload();

async function probe() {
  try {
    const answer = await fetch('/healthz', { cache: 'no-store' });
    if (answer.ok) {
      retry();
      return;
    }
  } catch {
    /* still offline */
  }
  setTimeout(probe, PROBE_MS[Math.min(probes++, PROBE_MS.length - 1)]);
}

document.querySelector('[data-offline-retry]')?.addEventListener('click', retry);
window.addEventListener('online', retry);
setTimeout(probe, PROBE_MS[0]);
