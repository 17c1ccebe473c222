import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  MAX_FRAME_BYTES,
  NOTIFICATION_MESSAGE,
  ROOMS,
  USER_CHANGED_MESSAGE,
  parseClientFrame,
  type BannerType,
  type Json,
  type ServerFrame,
  type UserEventKind,
  CLOSE_POLICY,
  CLOSE_UNAUTHORIZED,
  DEFAULT_ROOMS,
} from '../../contract/realtime';
import {
  CHAT_DROPS_BEFORE_CLOSE,
  CHAT_LIMIT,
  DEVELOPMENT_RATE_LIMITS,
  MAX_SOCKET_SEND_BUFFER_BYTES,
  PRESENCE_TICK_MS,
  SOCKET_JOIN_LIMIT,
} from '../limits';
import { clientAddressOf } from '../proxy';

export { CHAT_LIMIT };

/**
 * Websocket rooms on the HTTP server's `upgrade` at `/ws`. A client authenticates with its first
 * frame `{ type: 'auth', jwt?, session? }` (credentials never travel in the URL and are never
 * logged), then joins and leaves rooms, posts messages (echoed to the room as `room_message`) and
 * pings (answered with `pong`). The server pushes `notifications` room messages to one user.
 *
 * Under abuse: sockets are capped per IP (at the upgrade) and per owner (a user, or a guest's
 * visitor session); joins and leaves are rate-limited per socket; presence (`room_update` with
 * the member count) goes out at most once per room per PRESENCE_TICK_MS, so a join storm costs
 * linear work; the chat limit counts per user across sockets; a socket whose unsent frames pass
 * MAX_SOCKET_SEND_BUFFER_BYTES is dropped.
 *
 * A socket ends with its credentials: one signed in with a jwt is closed (4401) when that jwt's
 * `exp` passes (the sweep, and every frame in or out checks it), unless the page sent an `auth`
 * frame with a fresh jwt of the same user before; that renewal is answered with a `welcome`.
 */

const WS_PATH = '/ws';
/** An unauthenticated socket is closed after this long. */
const AUTH_TIMEOUT_MS = 10_000;
/** Rooms a single socket may be in at once. */
const MAX_ROOMS_PER_SOCKET = 20;
/** Join records kept for the stats (oldest dropped). */
const JOIN_LOG_LIMIT = 1_000;
/** Protocol-level keep-alive: a socket that misses one round is terminated. */
const KEEPALIVE_MS = 30_000;
/** How often signed-in sockets are checked for a jwt past its `exp` (on the server clock). */
const JWT_EXPIRY_SWEEP_MS = 1_000;
/** The close reason of a socket whose jwt expired before the page sent a fresh one. */
export const JWT_EXPIRED_REASON = 'jwt expired';

/**
 * A signed-in user's socket belongs to the sign-in session of its jwt; a guest's to none.
 * `owner` is who the per-owner cap counts: the user, or the guest's visitor session.
 * `expiresAt` (ms, server clock): when the jwt the socket is signed in with expires; the socket is
 * closed (4401) then unless an `auth` frame with a fresh jwt of the same user came first. A
 * guest's socket (a visitor session) has none.
 */
export type Identity = {
  userId: number | null;
  sessionId: string | null;
  owner: string;
  expiresAt?: number | null;
};

export type RealtimeOptions = {
  /** Checks the credentials of the `auth` frame; null refuses the socket. */
  authenticate(credentials: {
    jwt?: string;
    session?: string;
  }): Identity | null | Promise<Identity | null>;
  now(): number;
  log: { info(message: string): void; warn(message: string): void };
  authTimeoutMs?: number;
  /** Open sockets per IP and per owner; development's generous numbers by default. */
  limits?: { socketsPerIp: number; socketsPerOwner: number };
  /** The deployment's other instances (several on one Postgres); none for one process. */
  relay?: RoomRelay;
};

/** What one instance's rooms tell the same rooms on the deployment's other instances. */
export type RelayMessage =
  | { kind: 'chat'; room: string; frame: string }
  | { kind: 'presence'; room: string; members: number };

/**
 * The rooms of the deployment's other instances (server/store/sharedEvents.ts on Postgres): a
 * chat message and each instance's member count reach them, so a room is one room whichever
 * instance a player's socket holds.
 */
export type RoomRelay = {
  publish(message: RelayMessage): void;
  /** `from` names the instance that published; an instance never hears itself. */
  subscribe(listener: (message: RelayMessage, from: string) => void): () => void;
};

/**
 * Each instance tells its rooms' member counts again this often; a count not heard for three
 * of them is dropped (its instance died), so a killed instance's players leave the counts.
 */
const PRESENCE_HEARTBEAT_MS = 15_000;
const PRESENCE_STALE_MS = 3 * PRESENCE_HEARTBEAT_MS;

type JoinRecord = { connection: number; userId: number | null; room: string; at: number };

export type RealtimeStats = {
  /** Authenticated sockets that are open now. */
  connections: number;
  /** Open sockets per user id ("guest" for a visitor session). */
  socketsByUser: Record<string, number>;
  /** Members per room now. */
  rooms: Record<string, number>;
  /** Every join, oldest first (bounded). */
  joins: JoinRecord[];
  /** Frames sent since the start. */
  framesSent: number;
};

export type RealtimeServer = {
  /**
   * Sends a `notifications` room message to every socket of `userId` in that room: a banner
   * (`notification`) and/or the user event (`data.event`) the page refetches its user data for.
   * A change without a banner goes out as a `user.changed` message.
   */
  notifyUser(
    userId: number,
    notification: { type: BannerType; text: string } | null,
    event?: UserEventKind,
  ): number;
  stats(): RealtimeStats;
  /** Closes (4401) every socket opened with a jwt of the sign-in session `sessionId`. */
  closeSession(sessionId: string): number;
  /** Ids of the signed-in users with an open, authenticated socket now. */
  connectedUserIds(): number[];
  close(): Promise<void>;
};

type Client = {
  id: number;
  ws: WebSocket;
  ip: string;
  identity: Identity | null;
  rooms: Set<string>;
  alive: boolean;
  /** Chat messages dropped, and the window in which this socket was last told to slow down. */
  dropped: number;
  warnedAt: number;
  /** Joins and leaves in the current window, and when it began. */
  moves: number;
  movesStart: number;
  /** A frame was refused before authentication (logged once per socket). */
  junkLogged: boolean;
};

/** Rooms only the server writes to. */
/** Rooms only the server writes: what it tells the players (§7's notifications and updates). */
const READ_ONLY_ROOMS = new Set<string>([ROOMS.notifications, ROOMS.updates]);
/** A player's chat message is relayed as plain text of at most this many characters (under the 16 KiB frame cap). */
export const MAX_CHAT_CHARACTERS = 15_000;
/** Plain text: no markup (tags and angle brackets go), no control characters, cut to the cap. */
const plainChat = (message: unknown): string =>
  String(message ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/[<>]/g, '')
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .trim()
    .slice(0, MAX_CHAT_CHARACTERS);
/** The rooms of §7; any other name is refused (no `admin`, no `user:1`). */
const KNOWN_ROOMS = new Set<string>(DEFAULT_ROOMS);

export function attachRealtime(httpServer: Server, options: RealtimeOptions): RealtimeServer {
  const limits = options.limits ?? DEVELOPMENT_RATE_LIMITS;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<Client>();
  /** Authenticated members per room, sockets per owner and per user, open sockets per IP. */
  const byRoom = new Map<string, Set<Client>>();
  const byOwner = new Map<string, Set<Client>>();
  const byUser = new Map<number, Set<Client>>();
  const byIp = new Map<string, number>();
  /** Chat windows per owner: messages sent in the window and when it began. */
  const chatWindows = new Map<string, { start: number; sent: number }>();
  /** Per room: when presence last went out, and the pending update. */
  const presence = new Map<string, { last: number; timer: NodeJS.Timeout | null }>();
  /** Members per room on the other instances, by instance, with when each was last heard. */
  const remote = new Map<string, Map<string, { members: number; at: number }>>();
  /** This instance's member count last told to the others, per room. */
  const told = new Map<string, number>();
  const joins: JoinRecord[] = [];
  let nextId = 1;
  let framesSent = 0;

  const addTo = <K>(index: Map<K, Set<Client>>, key: K, client: Client): void => {
    const set = index.get(key);
    if (set) set.add(client);
    else index.set(key, new Set([client]));
  };
  const removeFrom = <K>(index: Map<K, Set<Client>>, key: K, client: Client): void => {
    const set = index.get(key);
    if (!set) return;
    set.delete(client);
    if (set.size === 0) index.delete(key);
  };

  /** Sends a serialized frame; a reader too far behind is dropped instead. */
  const sendRaw = (client: Client, text: string): void => {
    if (client.ws.readyState !== WebSocket.OPEN || endIfExpired(client)) return;
    if (client.ws.bufferedAmount > MAX_SOCKET_SEND_BUFFER_BYTES) {
      options.log.warn(`realtime socket ${client.id}: dropped, not reading its frames`);
      client.ws.terminate();
      return;
    }
    framesSent += 1;
    client.ws.send(text);
  };
  const send = (client: Client, frame: ServerFrame): void => sendRaw(client, JSON.stringify(frame));
  const members = (room: string): ReadonlySet<Client> => byRoom.get(room) ?? new Set();

  const remoteMembers = (room: string): number => {
    let count = 0;
    for (const entry of remote.get(room)?.values() ?? []) count += entry.members;
    return count;
  };
  /** Tells the other instances this room's count here, when it changed since last told. */
  const tell = (room: string, size: number): void => {
    if (!options.relay || told.get(room) === size) return;
    told.set(room, size);
    options.relay.publish({ kind: 'presence', room, members: size });
  };
  const flushPresence = (room: string): void => {
    const list = members(room);
    tell(room, list.size);
    if (list.size === 0) return;
    const text = JSON.stringify({
      type: 'room_update',
      room,
      data: { members: list.size + remoteMembers(room) },
      timestamp: options.now(),
    } satisfies ServerFrame);
    for (const c of list) sendRaw(c, text);
  };
  /** Presence of `room` changed: one update per room per tick carries the count then. */
  const announce = (room: string): void => {
    let state = presence.get(room);
    if (!state) {
      state = { last: -Infinity, timer: null };
      presence.set(room, state);
    }
    if (state.timer) return;
    const pending = state;
    pending.timer = setTimeout(
      () => {
        pending.timer = null;
        pending.last = Date.now();
        flushPresence(room);
      },
      Math.max(0, pending.last + PRESENCE_TICK_MS - Date.now()),
    );
    pending.timer.unref();
  };

  // Senders are named by an opaque handle (a keyed hash of the user id, new key per process),
  // never by the sequential database id.
  const handleKey = randomBytes(32);
  const fromOf = (client: Client): string =>
    client.identity?.userId != null
      ? `player:${createHmac('sha256', handleKey).update(String(client.identity.userId)).digest('hex').slice(0, 12)}`
      : 'guest';

  /**
   * A signed-in socket whose jwt has expired (server clock) is taken out of every index and
   * closed 4401: nothing more reaches it, nothing it sends is read. True when it was.
   */
  function endIfExpired(client: Client): boolean {
    const expiresAt = client.identity?.expiresAt;
    if (expiresAt == null || options.now() < expiresAt) return false;
    forget(client);
    client.ws.close(CLOSE_UNAUTHORIZED, JWT_EXPIRED_REASON);
    return true;
  }

  /** Takes an authenticated socket out of every index (closing, or its session ended). */
  const forget = (client: Client): void => {
    const identity = client.identity;
    if (!identity) return;
    client.identity = null;
    removeFrom(byOwner, identity.owner, client);
    if (identity.userId !== null) removeFrom(byUser, identity.userId, client);
    for (const room of client.rooms) {
      removeFrom(byRoom, room, client);
      announce(room);
    }
    client.rooms.clear();
  };

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    let pathname = '';
    try {
      pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    } catch {
      pathname = '';
    }
    if (pathname !== WS_PATH) {
      // Another listener may own this path; with none, refuse rather than leave it hanging.
      if (httpServer.listenerCount('upgrade') <= 1) socket.destroy();
      return;
    }
    const ip = clientAddressOf(httpServer, req);
    if ((byIp.get(ip) ?? 0) >= limits.socketsPerIp) {
      socket.end(
        'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: 60\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    byIp.set(ip, (byIp.get(ip) ?? 0) + 1);
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, ip));
  }
  httpServer.on('upgrade', onUpgrade);

  function accept(ws: WebSocket, ip: string): void {
    const client: Client = {
      id: nextId++,
      ws,
      ip,
      identity: null,
      rooms: new Set(),
      alive: true,
      dropped: 0,
      warnedAt: -Infinity,
      moves: 0,
      movesStart: 0,
      junkLogged: false,
    };
    clients.add(client);
    const authTimer = setTimeout(() => {
      if (!client.identity) ws.close(CLOSE_UNAUTHORIZED, 'authentication timeout');
    }, options.authTimeoutMs ?? AUTH_TIMEOUT_MS);
    authTimer.unref();
    ws.on('pong', () => {
      client.alive = true;
    });
    // Frames are handled one after another: a join right after the auth frame waits for it.
    let frames = Promise.resolve();
    ws.on('message', (raw: RawData, isBinary: boolean) => {
      client.alive = true;
      const text = isBinary ? null : raw.toString('utf8');
      frames = frames
        .then(() => onFrame(client, text))
        .catch((error: unknown) =>
          options.log.warn(`realtime socket ${client.id}: ${String(error)}`),
        );
    });
    ws.on('error', (error) => {
      // Oversized frames end here (ws closes with 1009): log the reason, never the payload.
      options.log.warn(`realtime socket ${client.id}: ${error.message}`);
    });
    ws.on('close', () => {
      clearTimeout(authTimer);
      clients.delete(client);
      forget(client);
      const open = (byIp.get(client.ip) ?? 1) - 1;
      if (open > 0) byIp.set(client.ip, open);
      else byIp.delete(client.ip);
    });
  }

  async function onFrame(client: Client, raw: string | null): Promise<void> {
    // A socket being closed (its session ended, say) reads nothing more, not even an `auth`.
    if (client.ws.readyState !== WebSocket.OPEN || endIfExpired(client)) return;
    const parsed = parseClientFrame(raw);
    if (!parsed.ok) {
      // Before authentication a socket gets one log line, however many junk frames it sends.
      if (client.identity || !client.junkLogged)
        options.log.warn(`realtime socket ${client.id}: ignored frame (${parsed.reason})`);
      if (!client.identity) client.junkLogged = true;
      if (client.identity)
        send(client, { type: 'error', message: 'Malformed message', timestamp: options.now() });
      return;
    }
    const frame = parsed.frame;
    const timestamp = options.now();
    if (frame.type === 'auth') {
      if (client.identity) {
        await reauthenticate(client, frame.jwt, frame.session);
        return;
      }
      const identity = await options.authenticate({ jwt: frame.jwt, session: frame.session });
      if (!identity) {
        options.log.info(`realtime socket ${client.id}: credentials refused`);
        client.ws.close(CLOSE_UNAUTHORIZED, 'unauthorized');
        return;
      }
      if (client.ws.readyState !== WebSocket.OPEN) return;
      if ((byOwner.get(identity.owner)?.size ?? 0) >= limits.socketsPerOwner) {
        options.log.info(`realtime socket ${client.id}: too many sockets of one owner`);
        client.ws.close(CLOSE_POLICY, 'too many sockets');
        return;
      }
      client.identity = identity;
      addTo(byOwner, identity.owner, client);
      if (identity.userId !== null) addTo(byUser, identity.userId, client);
      send(client, { type: 'welcome', timestamp, data: { connection: client.id } });
      return;
    }
    if (!client.identity) {
      client.ws.close(CLOSE_UNAUTHORIZED, 'authenticate first');
      return;
    }
    switch (frame.type) {
      case 'ping':
        send(client, { type: 'pong', timestamp });
        return;
      case 'join':
      case 'leave':
        if (!tookMove(client, timestamp)) return;
        if (frame.type === 'leave') {
          if (client.rooms.delete(frame.room)) {
            removeFrom(byRoom, frame.room, client);
            announce(frame.room);
          }
          send(client, { type: 'left', room: frame.room, timestamp });
          return;
        }
        if (!KNOWN_ROOMS.has(frame.room)) {
          send(client, { type: 'error', message: 'Unknown room', timestamp });
          return;
        }
        if (!client.rooms.has(frame.room)) {
          if (client.rooms.size >= MAX_ROOMS_PER_SOCKET) {
            send(client, { type: 'error', message: 'Too many rooms', timestamp });
            return;
          }
          client.rooms.add(frame.room);
          addTo(byRoom, frame.room, client);
          announce(frame.room);
          joins.push({
            connection: client.id,
            userId: client.identity.userId,
            room: frame.room,
            at: timestamp,
          });
          if (joins.length > JOIN_LOG_LIMIT) joins.splice(0, joins.length - JOIN_LOG_LIMIT);
        }
        send(client, { type: 'joined', room: frame.room, timestamp });
        return;
      case 'message': {
        if (!client.rooms.has(frame.room)) {
          send(client, { type: 'error', message: 'Join the room first', timestamp });
          return;
        }
        if (READ_ONLY_ROOMS.has(frame.room)) {
          send(client, { type: 'error', message: 'This room is read-only', timestamp });
          return;
        }
        if (client.identity.userId === null) {
          send(client, { type: 'error', message: 'Sign in to write here', timestamp });
          return;
        }
        // The limit counts per user, whichever of their sockets the messages come from.
        let chat = chatWindows.get(client.identity.owner);
        if (!chat || timestamp - chat.start >= CHAT_LIMIT.windowMs) {
          chat = { start: timestamp, sent: 0 };
          chatWindows.set(client.identity.owner, chat);
        }
        if (chat.sent >= CHAT_LIMIT.max) {
          client.dropped += 1;
          if (client.dropped >= CHAT_DROPS_BEFORE_CLOSE) client.ws.close(CLOSE_POLICY, 'flooding');
          else if (client.warnedAt !== chat.start) {
            client.warnedAt = chat.start; // one error frame per socket and window
            send(client, { type: 'error', message: 'Too many messages, slow down', timestamp });
          }
          return;
        }
        chat.sent += 1;
        // What a player writes is relayed as plain text only: no markup, no data (no router_link).
        const echo: ServerFrame = {
          type: 'room_message',
          room: frame.room,
          message: plainChat(frame.message),
          from: fromOf(client),
          timestamp,
        };
        const text = JSON.stringify(echo);
        for (const member of members(frame.room)) sendRaw(member, text);
        options.relay?.publish({ kind: 'chat', room: frame.room, frame: text });
        return;
      }
    }
  }

  /**
   * An `auth` frame on a signed-in socket: a fresh jwt of the same user (the page refreshed its
   * token) moves the socket's expiry to that jwt's and is answered with a `welcome`; anything
   * else (refused, expired, another user's, a guest's session) closes the socket 4401. A guest
   * socket has nothing to renew: its repeated `auth` is ignored.
   */
  async function reauthenticate(
    client: Client,
    jwt: string | undefined,
    session: string | undefined,
  ): Promise<void> {
    const current = client.identity;
    if (!current || current.userId === null) return;
    const renewed = jwt ? await options.authenticate({ jwt, session }) : null;
    if (client.ws.readyState !== WebSocket.OPEN || client.identity !== current) return;
    if (!renewed || renewed.userId !== current.userId) {
      options.log.info(`realtime socket ${client.id}: renewed credentials refused`);
      forget(client);
      client.ws.close(CLOSE_UNAUTHORIZED, 'unauthorized');
      return;
    }
    current.expiresAt = renewed.expiresAt ?? null;
    current.sessionId = renewed.sessionId;
    send(client, { type: 'welcome', timestamp: options.now(), data: { connection: client.id } });
  }

  /** Counts one join or leave of the socket; past the limit, one error frame per window. */
  function tookMove(client: Client, timestamp: number): boolean {
    if (timestamp - client.movesStart >= SOCKET_JOIN_LIMIT.windowMs) {
      client.movesStart = timestamp;
      client.moves = 0;
    }
    client.moves += 1;
    if (client.moves <= SOCKET_JOIN_LIMIT.max) return true;
    if (client.moves === SOCKET_JOIN_LIMIT.max + 1)
      send(client, { type: 'error', message: 'Too many joins, slow down', timestamp });
    return false;
  }

  const keepalive = setInterval(() => {
    const at = options.now();
    for (const [owner, chat] of chatWindows)
      if (at - chat.start >= CHAT_LIMIT.windowMs) chatWindows.delete(owner);
    for (const client of clients) {
      if (!client.alive) {
        client.ws.terminate();
        continue;
      }
      client.alive = false;
      if (client.ws.readyState === WebSocket.OPEN) client.ws.ping();
    }
  }, KEEPALIVE_MS);
  keepalive.unref();
  // Sockets end with their credentials: a jwt past its `exp` closes its socket (4401) within a
  // sweep, even if the socket sends nothing and nothing is sent to it.
  const expirySweep = setInterval(() => {
    for (const set of byUser.values()) for (const client of [...set]) endIfExpired(client);
  }, JWT_EXPIRY_SWEEP_MS);
  expirySweep.unref();

  // Across instances: the others' counts as they tell them, and ours told again on a heartbeat.
  const stopRelay = options.relay?.subscribe((message, from) => {
    if (message.kind === 'chat') {
      for (const member of members(message.room)) sendRaw(member, message.frame);
      return;
    }
    let counts = remote.get(message.room);
    if (!counts) {
      counts = new Map();
      remote.set(message.room, counts);
    }
    const before = counts.get(from)?.members ?? 0;
    if (message.members === 0) counts.delete(from);
    else counts.set(from, { members: message.members, at: Date.now() });
    if (before !== message.members) announce(message.room);
  });
  // One process has no other instances: no heartbeat to tell them.
  const { relay } = options;
  const heartbeat = relay
    ? setInterval(() => {
        for (const [room, size] of told) {
          if (size > 0) relay.publish({ kind: 'presence', room, members: size });
        }
        const stale = Date.now() - PRESENCE_STALE_MS;
        for (const [room, counts] of remote) {
          for (const [from, entry] of counts) {
            if (entry.at >= stale) continue;
            counts.delete(from);
            announce(room);
          }
        }
      }, PRESENCE_HEARTBEAT_MS)
    : undefined;
  heartbeat?.unref();

  return {
    notifyUser(userId, notification, event) {
      let sent = 0;
      const data: Json = {
        ...(notification ? { type: notification.type, text: notification.text } : {}),
        ...(event ? { event } : {}),
      };
      for (const client of byUser.get(userId) ?? []) {
        if (!client.rooms.has(ROOMS.notifications)) continue;
        send(client, {
          type: 'room_message',
          room: ROOMS.notifications,
          message: notification ? NOTIFICATION_MESSAGE : USER_CHANGED_MESSAGE,
          data,
          from: 'server',
          timestamp: options.now(),
        });
        sent += 1;
      }
      return sent;
    },
    closeSession(sessionId) {
      let closed = 0;
      for (const client of clients) {
        if (client.identity?.sessionId !== sessionId) continue;
        // Out of every room at once: nothing more reaches it while the close handshake runs.
        forget(client);
        client.ws.close(CLOSE_UNAUTHORIZED, 'session ended');
        closed += 1;
      }
      return closed;
    },
    connectedUserIds() {
      return [...byUser.keys()];
    },
    stats() {
      const authed = [...clients].filter((c) => c.identity !== null);
      const socketsByUser: Record<string, number> = {};
      const rooms: Record<string, number> = {};
      for (const c of authed) {
        const key = c.identity?.userId != null ? String(c.identity.userId) : 'guest';
        socketsByUser[key] = (socketsByUser[key] ?? 0) + 1;
        for (const room of c.rooms) rooms[room] = (rooms[room] ?? 0) + 1;
      }
      return { connections: authed.length, socketsByUser, rooms, joins: [...joins], framesSent };
    },
    async close() {
      clearInterval(keepalive);
      clearInterval(heartbeat);
      stopRelay?.();
      clearInterval(expirySweep);
      for (const state of presence.values()) if (state.timer) clearTimeout(state.timer);
      httpServer.off('upgrade', onUpgrade);
      const open = [...clients];
      // 1001 (going away): the browser treats it as abnormal and reconnects to the next server.
      for (const client of open) client.ws.close(1001, 'server shutting down');
      await Promise.race([
        Promise.all(
          open.map(
            (c) =>
              new Promise<void>((done) => {
                if (c.ws.readyState === WebSocket.CLOSED) done();
                else c.ws.once('close', () => done());
              }),
          ),
        ),
        new Promise<void>((done) => setTimeout(done, 500).unref()),
      ]);
      for (const client of clients) client.ws.terminate();
      clients.clear();
      await new Promise<void>((done) => wss.close(() => done()));
    },
  };
}
