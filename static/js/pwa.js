/* Installs the site's service worker (its address in this script's data-worker, scope "/";
 * templates/pwa/sw.js says what it keeps), once the page has loaded.
 *
 * The visit that installs the worker loads before the worker runs, so the worker never saw
 * its page and files: once it is ready, it is told the addresses this page loaded, and keeps
 * those its rules keep (a TV clock opened once is then there offline).
 *
 * A page also says who it was made for (data-viewer, an opaque mark of the account or the
 * visitor's session): when that changes (another person logged in on this phone, a guest's
 * PIN, a session that ended), the worker is told to forget the pages it kept, so nobody is
 * shown someone else's night offline.
 */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  const script = document.currentScript;
  const worker = script && script.dataset.worker;
  if (!worker) return;
  const seen = Boolean(navigator.serviceWorker.controller);
  const viewer = script.dataset.viewer || "";

  function forgetIfAnotherViewer(registration) {
    let before = null;
    try {
      before = window.localStorage.getItem("pwa-viewer");
      window.localStorage.setItem("pwa-viewer", viewer);
    } catch (error) {
      before = null; /* no storage (a private window): nothing was kept for anyone */
    }
    if (before !== null && before !== viewer && registration.active) {
      registration.active.postMessage({ type: "forget" });
    }
    return registration;
  }

  function tell(registration) {
    if (seen || !registration.active) return;
    const urls = [window.location.href];
    for (const entry of performance.getEntriesByType("resource")) urls.push(entry.name);
    registration.active.postMessage({ type: "keep", urls });
  }

  function register() {
    navigator.serviceWorker
      .register(worker, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then(forgetIfAnotherViewer)
      .then(tell)
      .catch(() => {
        /* no worker (a private window, an old browser): the site works as before */
      });
  }

  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
