import { fromCallback, type AnyActorRef, type EventObject } from 'xstate';
import { MAX_FRAME_BYTES, parseServerFrame, utf8Length } from '../../contract/realtime';
import {
  CLOSE_UNAUTHORIZED,
  type NetworkEvent,
  type RealtimeIntent,
  type SocketCommand,
  type SocketEvent,
} from '../../machines/realtime/realtime.types';
import { jwtExpiresAt } from '../app/jwtExpiry';

/**
 * The browser side of the realtime machine: a `fromCallback` socket actor (one actor = one
 * connection; stopping it closes the socket normally) and a network actor that reports the
 * browser's online/offline events. Credentials go in the first frame, never in the URL, and are
 * read at each connect so a reconnect uses the current jwt.
 *
 * The server closes a signed-in socket (4401) when its jwt expires, unless the socket sent a fresh
 * jwt first: JWT_RENEW_LEAD_MS before the jwt's `exp` the actor asks for a fresh one (the one an
 * API call's refresh already brought, else the auth service's single-flight refresh) and sends it
 * in an `auth` frame on the open socket, so the connection carries on without a reconnect.
 */

/** How long before its jwt expires a signed-in socket sends a fresh one (at most half its life). */
export const JWT_RENEW_LEAD_MS = 60_000;

/** The running actor system, to find the auth service in. */
export type SystemLike = { get(id: string): AnyActorRef | undefined };

type SocketCredentials = { jwt?: string | null; session?: string | null };

/** Close code reported when refused credentials were renewed: the machine retries as usual. */
export const CLOSE_RENEWED = 4000;

export type BrowserSocketOptions = {
  /** The websocket URL (from the api config: VITE_WS_URL or same origin `/ws`). */
  url: string | (() => string);
  /** The current jwt and visitor session token (read at every connect). */
  credentials: (system: SystemLike) => SocketCredentials;
  /**
   * A jwt fresher than `usedJwt`, or null when there is none (signed out). Called when the server
   * refuses a jwt (then once) and before the socket's jwt expires (to renew it on the socket).
   */
  renewJwt?: (system: SystemLike, usedJwt: string) => Promise<string | null>;
  WebSocketImpl?: typeof WebSocket;
  now?: () => number;
  /** Where ignored frames are reported (never with their content). */
  warn?: (message: string) => void;
};

type SendBack = (event: SocketEvent) => void;

export function createSocketActor(options: BrowserSocketOptions) {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const now = options.now ?? (() => Date.now());
  const warn = options.warn ?? ((message: string) => console.warn(message));
  return fromCallback<SocketCommand>(({ sendBack: send, receive, system }) => {
    const sendBack = send as SendBack;
    const url = typeof options.url === 'function' ? options.url() : options.url;
    const credentials = options.credentials(system);
    const ws = new Impl(url);
    let stopped = false;
    /** The jwt the socket is signed in with now (the first frame's, then each renewal's). */
    let usedJwt = credentials.jwt || null;
    let renewal: ReturnType<typeof setTimeout> | undefined;

    /** Before `jwt` expires, a fresh one goes to the server on this socket. */
    const scheduleRenewal = (jwt: string) => {
      const expiresAt = jwtExpiresAt(jwt);
      const renewJwt = options.renewJwt;
      if (expiresAt === null || !renewJwt) return;
      const left = expiresAt - now();
      const lead = Math.min(JWT_RENEW_LEAD_MS, Math.max(0, left / 2));
      renewal = setTimeout(
        () => {
          renewJwt(system, jwt).then(
            (fresh) => {
              if (stopped || !fresh || fresh === jwt || ws.readyState !== Impl.OPEN) return;
              usedJwt = fresh;
              ws.send(JSON.stringify({ type: 'auth', jwt: fresh, timestamp: now() }));
              scheduleRenewal(fresh);
            },
            // No fresh jwt (a failed refresh logs out, which closes the socket): nothing to send.
            () => {},
          );
        },
        Math.max(0, left - lead),
      );
    };

    ws.onopen = () => {
      ws.send(
        JSON.stringify({
          type: 'auth',
          ...(credentials.jwt ? { jwt: credentials.jwt } : {}),
          ...(credentials.session ? { session: credentials.session } : {}),
          timestamp: now(),
        }),
      );
      if (usedJwt) scheduleRenewal(usedJwt);
    };
    ws.onmessage = (event: MessageEvent) => {
      const receivedAt = now();
      const parsed = parseServerFrame(event.data);
      if (parsed.ok) {
        sendBack({ type: 'socket.received', frame: parsed.frame, receivedAt });
        return;
      }
      warn(`[realtime] ignored a frame from the server: ${parsed.reason}`);
      sendBack({ type: 'socket.ignored', reason: parsed.reason, receivedAt });
    };
    ws.onclose = (event: CloseEvent) => {
      clearTimeout(renewal);
      if (stopped) return;
      const report = (code: number) => {
        if (!stopped) sendBack({ type: 'socket.closed', code, reason: event.reason });
      };
      if (event.code === CLOSE_UNAUTHORIZED && usedJwt && options.renewJwt) {
        options.renewJwt(system, usedJwt).then(
          (renewed) => report(renewed ? CLOSE_RENEWED : CLOSE_UNAUTHORIZED),
          () => report(CLOSE_UNAUTHORIZED),
        );
        return;
      }
      report(event.code);
    };

    receive((command) => {
      if (command.type !== 'socket.send' || ws.readyState !== Impl.OPEN) return;
      const text = JSON.stringify(command.frame);
      if (utf8Length(text) > MAX_FRAME_BYTES) {
        warn(
          `[realtime] not sent: a ${command.frame.type} frame is larger than ${MAX_FRAME_BYTES} bytes`,
        );
        return;
      }
      ws.send(text);
    });

    return () => {
      stopped = true;
      clearTimeout(renewal);
      ws.onmessage = null;
      ws.onclose = null;
      if (ws.readyState === Impl.OPEN) ws.close(1000, 'normal closure');
      // Closing before the handshake ends is reported by browsers as an error: wait for it.
      else if (ws.readyState === Impl.CONNECTING)
        ws.onopen = () => ws.close(1000, 'normal closure');
    };
  });
}

/**
 * The websocket URL: `VITE_WS_URL` when the build sets it, otherwise `/ws` on the page's own
 * origin (ws: or wss: following the page).
 */
export function websocketUrl(
  configured: string | undefined = import.meta.env.VITE_WS_URL as string | undefined,
  location: Pick<Location, 'protocol' | 'host'> = window.location,
): string {
  if (configured) return configured;
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

type OnlineTarget = Pick<Window, 'addEventListener' | 'removeEventListener'> & {
  navigator?: { onLine?: boolean };
};
type VisibilityTarget = Pick<Document, 'addEventListener' | 'removeEventListener'> & {
  visibilityState?: DocumentVisibilityState;
};

/**
 * Reports the browser's `offline` and `online` events (and an offline start) and the tab's
 * visibility (`visibilitychange`, and a hidden start) as facts.
 */
export function createNetworkActor(
  target: OnlineTarget = window,
  page: VisibilityTarget | undefined = typeof document === 'undefined' ? undefined : document,
) {
  return fromCallback<EventObject>(({ sendBack }) => {
    const offline = () => sendBack({ type: 'network.wentOffline' } satisfies NetworkEvent);
    const online = () => sendBack({ type: 'network.wentOnline' } satisfies NetworkEvent);
    const visibility = () =>
      sendBack({
        type: page?.visibilityState === 'hidden' ? 'page.hidden' : 'page.shown',
      } satisfies NetworkEvent);
    target.addEventListener('offline', offline);
    target.addEventListener('online', online);
    page?.addEventListener('visibilitychange', visibility);
    if (target.navigator?.onLine === false) offline();
    if (page?.visibilityState === 'hidden') visibility();
    return () => {
      target.removeEventListener('offline', offline);
      target.removeEventListener('online', online);
      page?.removeEventListener('visibilitychange', visibility);
    };
  });
}

/**
 * Follows the auth service: a jwt appearing (sign-in, or one restored from storage) connects,
 * its removal (logout, a failed refresh, a logout in another tab) closes the socket normally.
 * A refreshed jwt changes nothing: the next reconnect reads the current one.
 */
export function createSignInWatch(
  watch: (system: SystemLike, onChange: (signedIn: boolean) => void) => (() => void) | undefined,
) {
  return fromCallback<EventObject>(({ sendBack, system }) => {
    let signedIn = false;
    return watch(system, (now) => {
      if (now === signedIn) return;
      signedIn = now;
      sendBack({ type: now ? 'realtime.connect' : 'realtime.disconnect' } satisfies RealtimeIntent);
    });
  });
}
