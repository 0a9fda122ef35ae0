/* One table's WebSocket (docs/protocol.md): connect, reconnect with backoff, resync, send.
 *
 * Snapshots are whole, so resyncing is only reconnecting: the server sends a snapshot on
 * every connect. A socket closed by the server or the network comes back after a growing,
 * jittered delay (0.5 s doubling to 15 s); coming back to the tab or to the network tries
 * at once. Every frame sent carries a `ref`, which an `error` frame echoes.
 *
 * handlers: onSnapshot(frame), onChat(frame), onError(frame) (also for a frame that could
 * not be sent), onAlert(frame) (words for this player alone: removed by the host, a seat
 * request refused), onStatus(text, kind) with kind "wait", "ok" or "bad". A `moved` frame (a
 * tournament moved the player to another table) takes the page to the new table.
 */

const CLOSED_TABLE = 4004; // the table does not exist or was closed
const TOO_CHATTY = 4008; // more than 40 frames in 2 seconds

export function openTableSocket(path, handlers) {
  let socket = null;
  let attempts = 0;
  let retry = null;
  let refs = 0;
  let closedForGood = false;

  function connect() {
    clearTimeout(retry);
    retry = null;
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + path);
    handlers.onStatus(attempts ? gettext("Reconnecting…") : gettext("Connecting…"), "wait");
    socket.addEventListener("open", () => {
      attempts = 0;
      handlers.onStatus(gettext("Live"), "ok");
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (frame.type === "snapshot") handlers.onSnapshot(frame);
      else if (frame.type === "error") handlers.onError(frame);
      else if (frame.type === "chat") handlers.onChat(frame);
      else if (frame.type === "alert") handlers.onAlert(frame);
      else if (frame.type === "moved") {
        // A tournament moved this player to another table: the page goes there by itself.
        closedForGood = true;
        handlers.onStatus(gettext("Moving you to your new table…"), "wait");
        window.location.assign(frame.url);
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === CLOSED_TABLE) {
        closedForGood = true;
        handlers.onStatus(gettext("This table is closed"), "bad");
        return;
      }
      attempts += 1;
      const delay = Math.min(15000, 500 * 2 ** Math.min(attempts, 5)) * (0.75 + Math.random() / 2);
      handlers.onStatus(event.code === TOO_CHATTY
        ? gettext("Too many messages: reconnecting…")
        : gettext("Disconnected: reconnecting…"), "bad");
      retry = setTimeout(connect, delay);
    });
  }

  /* A phone woken up or a network back: no need to wait out the backoff. */
  function soon() {
    if (retry !== null && !closedForGood && document.visibilityState === "visible") connect();
  }
  document.addEventListener("visibilitychange", soon);
  window.addEventListener("online", soon);

  /* Send a frame with a fresh ref; the ref, or null (and an onError) when not connected. */
  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      handlers.onError({ type: "error", code: "not_connected",
        message: gettext("Not connected yet: try again in a moment.") });
      return null;
    }
    const ref = "c" + ++refs;
    socket.send(JSON.stringify({ ...frame, ref: ref }));
    return ref;
  }

  connect();
  return { send };
}
