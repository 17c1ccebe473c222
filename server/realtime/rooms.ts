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

/**
 * Websocket rooms on the HTTP server's `upgrade` at `/ws`. A client authenticates with its first
 * frame `{ type: 'auth', jwt?, session? }` (credentials never travel in the URL and are never
 * logged), then joins and leaves rooms, posts messages (echoed to the room as `room_message`) and
 * pings (answered with `pong`). The server pushes `notifications` room messages to one user.
 */

export const WS_PATH = '/ws';
/** An unauthenticated socket is closed after this long. */
export const AUTH_TIMEOUT_MS = 10_000;
/** Rooms a single socket may be in at once. */
export const MAX_ROOMS_PER_SOCKET = 20;
/** Join records kept for the stats (oldest dropped). */
const JOIN_LOG_LIMIT = 1_000;
/** Protocol-level keep-alive: a socket that misses one round is terminated. */
const KEEPALIVE_MS = 30_000;

/** A signed-in user's socket belongs to the sign-in session of its jwt; a guest's to none. */
export type Identity = { userId: number | null; sessionId: string | null };

export type RealtimeOptions = {
  /** Checks the credentials of the `auth` frame; null refuses the socket. */
  authenticate(credentials: {
    jwt?: string;
    session?: string;
  }): Identity | null | Promise<Identity | null>;
  now(): number;
  log: { info(message: string): void; warn(message: string): void };
  authTimeoutMs?: number;
};

export type JoinRecord = { connection: number; userId: number | null; room: string; at: number };

export type RealtimeStats = {
  /** Authenticated sockets that are open now. */
  connections: number;
  /** Open sockets per user id ("guest" for a visitor session). */
  socketsByUser: Record<string, number>;
  /** Members per room now. */
  rooms: Record<string, number>;
  /** Every join, oldest first (bounded). */
  joins: JoinRecord[];
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
  identity: Identity | null;
  rooms: Set<string>;
  alive: boolean;
  /** Chat messages sent in the current window, when it began, and messages dropped. */
  sent: number;
  windowStart: number;
  dropped: number;
  /** A frame was refused before authentication (logged once per socket). */
  junkLogged: boolean;
};

/** Rooms only the server writes to. */
const READ_ONLY_ROOMS = new Set<string>([ROOMS.notifications]);
/** The rooms of §7; any other name is refused (no `admin`, no `user:1`). */
const KNOWN_ROOMS = new Set<string>(DEFAULT_ROOMS);
/** Chat messages a socket may send per window; more are dropped with one error frame. */
export const CHAT_LIMIT = { max: 5, windowMs: 10_000 } as const;
/** Dropped messages after which a socket is closed (policy violation). */
export const CHAT_DROPS_BEFORE_CLOSE = 50;

export function attachRealtime(httpServer: Server, options: RealtimeOptions): RealtimeServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<Client>();
  const joins: JoinRecord[] = [];
  let nextId = 1;

  const send = (client: Client, frame: ServerFrame): void => {
    if (client.ws.readyState === WebSocket.OPEN) client.ws.send(JSON.stringify(frame));
  };
  const members = (room: string): Client[] =>
    [...clients].filter((c) => c.identity !== null && c.rooms.has(room));
  const announce = (room: string): void => {
    const list = members(room);
    for (const c of list)
      send(c, {
        type: 'room_update',
        room,
        data: { members: list.length },
        timestamp: options.now(),
      });
  };
  // Senders are named by an opaque handle (a keyed hash of the user id, new key per process),
  // never by the sequential database id.
  const handleKey = randomBytes(32);
  const fromOf = (client: Client): string =>
    client.identity?.userId != null
      ? `player:${createHmac('sha256', handleKey).update(String(client.identity.userId)).digest('hex').slice(0, 12)}`
      : 'guest';

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
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws));
  }
  httpServer.on('upgrade', onUpgrade);

  function accept(ws: WebSocket): void {
    const client: Client = {
      id: nextId++,
      ws,
      identity: null,
      rooms: new Set(),
      alive: true,
      sent: 0,
      windowStart: 0,
      dropped: 0,
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
      for (const room of client.rooms) announce(room);
    });
  }

  async function onFrame(client: Client, raw: string | null): Promise<void> {
    // A socket being closed (its session ended, say) reads nothing more, not even an `auth`.
    if (client.ws.readyState !== WebSocket.OPEN) return;
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
      if (client.identity) return;
      const identity = await options.authenticate({ jwt: frame.jwt, session: frame.session });
      if (!identity) {
        options.log.info(`realtime socket ${client.id}: credentials refused`);
        client.ws.close(CLOSE_UNAUTHORIZED, 'unauthorized');
        return;
      }
      client.identity = identity;
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
          joins.push({
            connection: client.id,
            userId: client.identity.userId,
            room: frame.room,
            at: timestamp,
          });
          if (joins.length > JOIN_LOG_LIMIT) joins.splice(0, joins.length - JOIN_LOG_LIMIT);
        }
        send(client, { type: 'joined', room: frame.room, timestamp });
        announce(frame.room);
        return;
      case 'leave':
        client.rooms.delete(frame.room);
        send(client, { type: 'left', room: frame.room, timestamp });
        announce(frame.room);
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
        if (timestamp - client.windowStart >= CHAT_LIMIT.windowMs) {
          client.windowStart = timestamp;
          client.sent = 0;
        }
        if (client.sent >= CHAT_LIMIT.max) {
          client.dropped += 1;
          if (client.dropped >= CHAT_DROPS_BEFORE_CLOSE) client.ws.close(CLOSE_POLICY, 'flooding');
          else if (client.sent === CHAT_LIMIT.max) {
            client.sent += 1; // one error frame per window
            send(client, { type: 'error', message: 'Too many messages, slow down', timestamp });
          }
          return;
        }
        client.sent += 1;
        const echo: ServerFrame = {
          type: 'room_message',
          room: frame.room,
          message: frame.message,
          data: frame.data as Json | undefined,
          from: fromOf(client),
          timestamp,
        };
        for (const member of members(frame.room)) send(member, echo);
        return;
      }
    }
  }

  const keepalive = setInterval(() => {
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

  return {
    notifyUser(userId, notification, event) {
      let sent = 0;
      const data: Json = {
        ...(notification ? { type: notification.type, text: notification.text } : {}),
        ...(event ? { event } : {}),
      };
      for (const client of members(ROOMS.notifications)) {
        if (client.identity?.userId !== userId) continue;
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
        client.identity = null;
        for (const room of client.rooms) announce(room);
        client.rooms.clear();
        client.ws.close(CLOSE_UNAUTHORIZED, 'session ended');
        closed += 1;
      }
      return closed;
    },
    connectedUserIds() {
      const ids = new Set<number>();
      for (const c of clients) if (c.identity?.userId != null) ids.add(c.identity.userId);
      return [...ids];
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
      return { connections: authed.length, socketsByUser, rooms, joins: [...joins] };
    },
    async close() {
      clearInterval(keepalive);
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
