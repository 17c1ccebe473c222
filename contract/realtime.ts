/**
 * The realtime wire protocol (§3 Realtime message, §7 Realtime), shared by the realtime machine,
 * the browser socket actor and the local server. Pure functions only: parsing never throws, it
 * returns `{ ok: false, reason }` so a malformed, unknown or oversized frame is ignored with a log.
 */

/** Close code the server uses when the credentials are refused: retrying cannot help. */
export const CLOSE_UNAUTHORIZED = 4401;
/** Close code of a policy violation (for example an oversized frame). */
export const CLOSE_POLICY = 1008;

/** Rooms of §7. */
export const ROOMS = {
  notifications: 'notifications',
  chat: 'chat',
  updates: 'updates',
} as const;
export const DEFAULT_ROOMS: readonly string[] = [ROOMS.notifications, ROOMS.chat, ROOMS.updates];

/** Largest frame either side accepts, in UTF-8 bytes. */
export const MAX_FRAME_BYTES = 16 * 1024;
/** Longest room name accepted. */
const MAX_ROOM_LENGTH = 64;

/** A JSON value as it crosses the wire. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** What the client sends: `auth` first (credentials never go into the URL), then §3's types. */
export type ClientFrame =
  | { type: 'auth'; jwt?: string; session?: string; timestamp: number }
  | { type: 'join'; room: string; timestamp: number }
  | { type: 'leave'; room: string; timestamp: number }
  | { type: 'message'; room: string; message: string; data?: Json; timestamp: number }
  | { type: 'ping'; timestamp: number };

/** What the server sends (§3 received types). */
export type ServerFrame =
  | { type: 'welcome'; timestamp: number; data?: Json }
  | { type: 'joined'; room: string; timestamp: number }
  | { type: 'left'; room: string; timestamp: number }
  | { type: 'pong'; timestamp: number }
  | {
      type: 'room_message';
      room: string;
      message: string;
      data?: Json;
      from?: string;
      timestamp: number;
    }
  | { type: 'room_update'; room: string; data?: Json; timestamp: number }
  | { type: 'error'; message?: string; timestamp: number };

export type Parsed<T> = { ok: true; frame: T } | { ok: false; reason: string };

/** Byte length of a string in UTF-8 without TextEncoder (works in node and the browser). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRoom(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_ROOM_LENGTH &&
    /^[A-Za-z0-9_.:-]+$/.test(value)
  );
}

function timestampOf(obj: Obj): number {
  const t = obj.timestamp;
  return typeof t === 'number' && Number.isFinite(t) ? t : 0;
}

function decode(raw: unknown): Parsed<Obj> {
  if (typeof raw !== 'string') return { ok: false, reason: 'not a text frame' };
  if (raw.length > MAX_FRAME_BYTES || utf8Length(raw) > MAX_FRAME_BYTES)
    return { ok: false, reason: `larger than ${MAX_FRAME_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (!isObj(value)) return { ok: false, reason: 'not an object' };
  if (typeof value.type !== 'string') return { ok: false, reason: 'no type' };
  return { ok: true, frame: value };
}

/** Parses one frame from the server. Never throws. */
export function parseServerFrame(raw: unknown): Parsed<ServerFrame> {
  const decoded = decode(raw);
  if (!decoded.ok) return decoded;
  const obj = decoded.frame;
  const timestamp = timestampOf(obj);
  const data = obj.data as Json | undefined;
  switch (obj.type) {
    case 'welcome':
      return { ok: true, frame: { type: 'welcome', timestamp, data } };
    case 'pong':
      return { ok: true, frame: { type: 'pong', timestamp } };
    case 'joined':
    case 'left':
      if (!isRoom(obj.room)) return { ok: false, reason: `${obj.type} without a room` };
      return { ok: true, frame: { type: obj.type, room: obj.room, timestamp } };
    case 'room_message': {
      if (!isRoom(obj.room)) return { ok: false, reason: 'room_message without a room' };
      const message = typeof obj.message === 'string' ? obj.message : '';
      const from = typeof obj.from === 'string' ? obj.from : undefined;
      return {
        ok: true,
        frame: { type: 'room_message', room: obj.room, message, data, from, timestamp },
      };
    }
    case 'room_update':
      if (!isRoom(obj.room)) return { ok: false, reason: 'room_update without a room' };
      return { ok: true, frame: { type: 'room_update', room: obj.room, data, timestamp } };
    case 'error': {
      const message =
        typeof obj.message === 'string' && obj.message.trim() !== '' ? obj.message : undefined;
      return { ok: true, frame: { type: 'error', message, timestamp } };
    }
    default:
      return { ok: false, reason: `unknown type ${JSON.stringify(obj.type).slice(0, 40)}` };
  }
}

/** Parses one frame from a client (used by the server). Never throws. */
export function parseClientFrame(raw: unknown): Parsed<ClientFrame> {
  const decoded = decode(raw);
  if (!decoded.ok) return decoded;
  const obj = decoded.frame;
  const timestamp = timestampOf(obj);
  switch (obj.type) {
    case 'auth': {
      const jwt = typeof obj.jwt === 'string' && obj.jwt !== '' ? obj.jwt : undefined;
      const session =
        typeof obj.session === 'string' && obj.session !== '' ? obj.session : undefined;
      return { ok: true, frame: { type: 'auth', jwt, session, timestamp } };
    }
    case 'ping':
      return { ok: true, frame: { type: 'ping', timestamp } };
    case 'join':
    case 'leave':
      if (!isRoom(obj.room)) return { ok: false, reason: `${obj.type} without a valid room` };
      return { ok: true, frame: { type: obj.type, room: obj.room, timestamp } };
    case 'message':
      if (!isRoom(obj.room)) return { ok: false, reason: 'message without a valid room' };
      if (typeof obj.message !== 'string') return { ok: false, reason: 'message without text' };
      return {
        ok: true,
        frame: {
          type: 'message',
          room: obj.room,
          message: obj.message,
          data: obj.data as Json | undefined,
          timestamp,
        },
      };
    default:
      return { ok: false, reason: `unknown type ${JSON.stringify(obj.type).slice(0, 40)}` };
  }
}

/** Banner types of §2 Information banner. */
const BANNER_TYPES = ['success', 'error', 'warning', 'info', 'load', 'default'] as const;
export type BannerType = (typeof BANNER_TYPES)[number];

const DEFAULT_NOTIFICATION_TEXT = 'New notification';
export const DEFAULT_SERVER_ERROR_TEXT = 'WebSocket error occurred';

/** §7: a `notifications` room message with data.type and data.text becomes a banner. */
export function notificationBanner(data: Json | undefined): { message: string; type: BannerType } {
  const obj = isObj(data) ? data : {};
  const text = typeof obj.text === 'string' && obj.text.trim() !== '' ? obj.text : '';
  const type = BANNER_TYPES.find((t) => t === obj.type) ?? 'info';
  return { message: text || DEFAULT_NOTIFICATION_TEXT, type };
}

/**
 * Changes the server makes to a signed-in user's data, pushed to that user alone on the
 * `notifications` room as `data.event` (with a banner's `type` and `text` when the change is
 * news to the player). The page answers every one of them the same way: it fetches user/data
 * again (machines/userData). Shared by the server and the site.
 */
const USER_EVENTS = [
  /** Someone opened the site through the user's invite link (clicks). */
  'invite.clicked',
  /** A friend signed up with the user's invite code (registered). */
  'invite.registered',
  /** A friend's ticket was confirmed (confirmed). */
  'invite.confirmed',
  /** The user now has training access (own ticket or friends' tickets). */
  'access.granted',
  /** The payment wallet's balance changed. */
  'balance.changed',
  /** Invitation codes were issued to the user. */
  'codes.issued',
] as const;
export type UserEventKind = (typeof USER_EVENTS)[number];

/** `message` of a change pushed without a banner (no data.text): the page only refetches. */
export const USER_CHANGED_MESSAGE = 'user.changed';
/** `message` of a change pushed with a banner (data.type, data.text and data.event). */
export const NOTIFICATION_MESSAGE = 'notification';

/** The user event a frame carries: a `notifications` room message with a known data.event. */
export function userEventOf(frame: ServerFrame): UserEventKind | null {
  if (frame.type !== 'room_message' || frame.room !== ROOMS.notifications) return null;
  const data = isObj(frame.data) ? frame.data : {};
  return USER_EVENTS.find((kind) => kind === data.event) ?? null;
}

/** A silent change (no text) is not a banner: only a notification with text or type is. */
export function isSilentUserChange(frame: ServerFrame): boolean {
  if (frame.type !== 'room_message' || frame.message !== USER_CHANGED_MESSAGE) return false;
  const data = isObj(frame.data) ? frame.data : {};
  return typeof data.text !== 'string' && userEventOf(frame) !== null;
}
