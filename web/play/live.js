// Server-sent event streams that survive drops.
//
// EventSource reconnects by itself, but it reuses its URL, and a seat's URL holds a
// stream ticket that is good only once. So on every error we close it ourselves, ask
// for a fresh ticket, and reopen with `?since=<last id seen>`: the server then sends
// every change after that id, in order, before going live. Nothing is lost or doubled.

import { api, url } from "./api.js";

export class Follower {
  /**
   * @param {object} o
   * @param {() => Promise<string>} o.makeUrl  builds the URL (fetching a ticket if needed)
   * @param {Record<string, (data: any, id: string) => void>} o.on  handlers by event name
   * @param {() => boolean} [o.done]  true once the stream should not be reopened
   * @param {(state: string) => void} [o.onState]  "connecting" | "live" | "reconnecting" | "closed"
   */
  constructor({ makeUrl, on, done = () => false, onState = () => {} }) {
    Object.assign(this, { makeUrl, on, done, onState });
    this.lastId = null;
    this.es = null;
    this.stopped = false;
    this.delay = 500;
    this.timer = null;
  }

  async start() {
    this.stopped = false;
    this.onState(this.lastId === null ? "connecting" : "reconnecting");
    let target;
    try {
      target = await this.makeUrl(this.lastId);
    } catch (e) {
      // No ticket (server down, token revoked): try again later, say why meanwhile.
      this.onState(`reconnecting (${e.message})`);
      return this.retry();
    }
    if (this.stopped) return;
    const es = new EventSource(target);
    this.es = es;
    es.onopen = () => { this.delay = 500; this.onState("live"); };
    for (const [name, fn] of Object.entries(this.on)) {
      es.addEventListener(name, (e) => {
        if (e.lastEventId) this.lastId = e.lastEventId;
        fn(JSON.parse(e.data), e.lastEventId);
      });
    }
    es.onerror = () => {
      es.close();
      if (this.es !== es) return;
      this.es = null;
      if (this.stopped || this.done()) { this.onState("closed"); return; }
      this.retry();
    };
  }

  retry() {
    if (this.stopped) return;
    this.onState("reconnecting");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), this.delay);
    this.delay = Math.min(this.delay * 2, 10000); // back off while the server is away
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.es) this.es.close();
    this.es = null;
    this.onState("closed");
  }
}

/** Follows one game, as a seat (token: a ticket per connection) or as a spectator. */
export function followGame({ kind, id, token, on, done, onState }) {
  return new Follower({
    async makeUrl(since) {
      const q = new URLSearchParams();
      if (token) {
        const { ticket } = await api("POST", `/v1/${kind}/games/${id}/stream-ticket`, { token });
        q.set("ticket", ticket);
      }
      if (since !== null) q.set("since", since);
      return url(`/v1/${kind}/games/${id}/events?${q}`);
    },
    on, done, onState,
  });
}

/** Follows the lobby: no ticket needed, resumed with `since` like a game. */
export function followLobby({ game, status, on, onState }) {
  return new Follower({
    async makeUrl(since) {
      const q = new URLSearchParams();
      if (game) q.set("game", game);
      if (status) q.set("status", status);
      if (since !== null) q.set("since", since);
      return url(`/v1/games/events?${q}`);
    },
    on, onState,
  });
}

/** Follows one's own seek until it is paired (its stream needs a ticket from the secret). */
export function followSeek({ id, secret, on, done, onState }) {
  return new Follower({
    async makeUrl() {
      const { ticket } = await api("POST", `/v1/seeks/${id}/stream-ticket`, { token: secret });
      return url(`/v1/seeks/${id}/events?ticket=${encodeURIComponent(ticket)}`);
    },
    on, done, onState,
  });
}
