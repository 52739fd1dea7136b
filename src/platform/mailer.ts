import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from './logger.ts';

/**
 * A recipient is a parsed address, never a string for nodemailer to parse: a string such as
 * `x<attacker@evil.com>` would be read as a display name and another mailbox.
 */
export type MailAddress = { address: string };

export type MailMessage = {
  to: MailAddress;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  /** `<id@host>`; nodemailer makes one when absent. */
  messageId?: string;
};

export type SentMail = { messageId: string; file?: string };

export type Mailer = {
  send(message: MailMessage): Promise<SentMail>;
  close(): Promise<void>;
};

/**
 * One mailer for every email Earshot sends (identity codes now, alerts later): SMTP when
 * SMTP_URL is set, otherwise an .eml file under DATA_DIR/mail and a log line saying where.
 * Never logs the body or the full address: a body can hold a code.
 */
/** The settings the mailer reads (a part of the configuration, src/config/env.ts). */
export type MailSettings = {
  readonly SMTP_URL?: string | undefined;
  readonly MAIL_FROM: string;
  readonly DATA_DIR: string;
};

export function createMailer({ config, logger }: { config: MailSettings; logger: Logger }): Mailer {
  if (config.SMTP_URL) {
    // Bounded waits: a relay that stops answering fails the attempt (retried later) well within
    // the delivery lease, so no other sender takes the message while this one still might send it.
    const transport = nodemailer.createTransport({
      url: config.SMTP_URL,
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 60_000,
    });
    return {
      async send(message) {
        const info = await transport.sendMail(envelope(config, message));
        logger.info(
          {
            to: redactAddress(message.to.address),
            subject: message.subject,
            messageId: info.messageId,
          },
          'mail sent',
        );
        return { messageId: info.messageId };
      },
      async close() {
        transport.close();
      },
    };
  }

  const directory = path.resolve(config.DATA_DIR, 'mail');
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(message) {
      const info = await transport.sendMail(envelope(config, message));
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(directory, `${stamp}-${randomUUID().slice(0, 8)}.eml`);
      const raw = info.message;
      // Readable by the owner only: the file can hold a sign-up or reset code.
      await writeFile(file, Buffer.isBuffer(raw) ? raw : String(raw), { mode: 0o600 });
      logger.info(
        { to: redactAddress(message.to.address), subject: message.subject, file },
        `mail written to ${file} (no SMTP_URL configured)`,
      );
      return { messageId: info.messageId, file };
    },
    async close() {},
  };
}

function envelope(config: MailSettings, message: MailMessage) {
  return { ...message, from: config.MAIL_FROM, to: { name: '', address: message.to.address } };
}

/** "alice@example.com" → "a***@example.com": enough to follow a delivery in logs. */
export function redactAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}
