import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: { key: string; value: string }[];
  raw: string;
};

export type SmtpSink = {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message received so far, oldest first. */
  messages: ReceivedMail[];
  /** The next message to `address` not yet returned by waitForMail/nextCode (waits for it). */
  waitForMail(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The 6-digit code of the next message to `address`. */
  nextCode(address: string, timeoutMs?: number): Promise<string>;
  /** Messages to `address` received but not yet returned. */
  pending(address: string): ReceivedMail[];
  close(): Promise<void>;
};

/**
 * A real SMTP server on loopback that keeps what it receives, parsed with postal-mime. Point
 * SMTP_URL at `sink.url` and read codes with `sink.nextCode(email)`.
 */
export async function startSmtpSink(
  options: {
    /** A fixed port (to stop the sink and start it again where the sender expects it). */
    port?: number;
    /** Wait this long before accepting each message (a slow relay); a message whose
     * connection closes meanwhile is never accepted and not kept. */
    acceptDelayMs?: number;
  } = {},
): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const closedSessions = new Set<string>();
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const delay = options.acceptDelayMs ?? 0;
        new Promise((resolve) => setTimeout(resolve, delay))
          .then(() => PostalMime.parse(raw))
          .then((email) => {
            if (closedSessions.has(session.id)) return callback(new Error('connection closed'));
            messages.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              from: email.from && 'address' in email.from ? (email.from.address ?? '') : '',
              subject: email.subject ?? '',
              text: email.text ?? '',
              html: email.html ?? '',
              headers: email.headers.map(({ key, value }) => ({ key, value })),
              raw: raw.toString('utf8'),
            });
            for (const wake of waiters) wake();
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  const pending = (address: string) =>
    messages.filter((mail) => !taken.has(mail) && mail.to.includes(address.toLowerCase()));

  const waitForMail = (address: string, timeoutMs = 5000) =>
    new Promise<ReceivedMail>((resolve, reject) => {
      const check = () => {
        const [mail] = pending(address);
        if (!mail) return false;
        taken.add(mail);
        cleanup();
        resolve(mail);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No mail to ${address} within ${timeoutMs} ms`));
      }, timeoutMs);
      const wake = () => void check();
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail,
    async nextCode(address, timeoutMs) {
      const mail = await waitForMail(address, timeoutMs);
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      if (!code) throw new Error(`The mail to ${address} has no 6-digit code: ${mail.subject}`);
      return code;
    },
    pending,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
