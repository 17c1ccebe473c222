import { createServer, type Server } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 for the tests (plain SMTP, any login accepted), keeping every
 * message it receives parsed as MIME. `stop()` closes it (a delivery is then refused) and
 * `start()` opens it again on the same port.
 */
export type TestSmtp = {
  readonly port: number;
  /** `smtp://test:test@127.0.0.1:<port>` for SMTP_URL. */
  readonly url: string;
  readonly messages: ParsedMail[];
  /** SMTP sessions opened so far (a delivery or a `verify` each). */
  connections(): number;
  /** Resolves with the next message to `to` (or one already received and not yet taken). */
  next(to: string, timeoutMs?: number): Promise<ParsedMail>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

async function freePort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

/** The six-digit code of a parsed code e-mail's part. */
export const codeIn = (text: string | undefined): string | undefined =>
  /\b(\d{6})\b/.exec(text ?? '')?.[1];

export async function startTestSmtp(): Promise<TestSmtp> {
  const port = await freePort();
  const messages: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const waiters: (() => void)[] = [];
  let server: SMTPServer | undefined;
  let connections = 0;

  const start = async () => {
    if (server) return;
    const next = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onConnect: (_session, done) => {
        connections += 1;
        done();
      },
      onAuth: (_auth, _session, done) => done(null, { user: 'test' }),
      onData: (stream, _session, done) => {
        simpleParser(stream)
          .then((mail) => {
            messages.push(mail);
            for (const wake of waiters.splice(0)) wake();
            done();
          })
          .catch((error: Error) => done(error));
      },
    });
    await new Promise<void>((done, fail) => {
      next.once('error', fail);
      next.listen(port, '127.0.0.1', () => done());
    });
    server = next;
  };
  const stop = () =>
    new Promise<void>((done) => {
      const running = server;
      server = undefined;
      if (!running) return done();
      running.close(() => done());
    });

  const recipientOf = (mail: ParsedMail): string[] => {
    const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
    return to.flatMap((list) => list.value.map((a) => (a.address ?? '').toLowerCase()));
  };

  const next = (to: string, timeoutMs = 10_000) =>
    new Promise<ParsedMail>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`No e-mail to ${to} reached the test SMTP server in ${timeoutMs} ms`)),
        timeoutMs,
      );
      const look = () => {
        const mail = messages.find(
          (m) => !taken.has(m) && recipientOf(m).includes(to.toLowerCase()),
        );
        if (!mail) return void waiters.push(look);
        taken.add(mail);
        clearTimeout(timer);
        done(mail);
      };
      look();
    });

  await start();
  return {
    port,
    url: `smtp://test:test@127.0.0.1:${port}`,
    messages,
    connections: () => connections,
    next,
    start,
    stop,
  };
}
