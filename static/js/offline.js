/**
 * offline — the offline page (templates/offline.html): the service worker shows it in
 * place of a page it never kept. It is the offline state (body[data-connection=offline]);
 * "try again", or the network coming back, loads the page the player asked for.
 */

document.body.dataset.connection = 'offline';
const retry = () => window.location.reload();
document.querySelector('[data-offline-retry]')?.addEventListener('click', retry);
window.addEventListener('online', retry);
