import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../tests/support/smtp-sink.ts';
import { createTestConfig } from '../../tests/support/test-config.ts';
import { createLogger } from './logger.ts';
import { createMailer, redactAddress } from './mailer.ts';

function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  return { logger, lines };
}

const message = {
  to: { address: 'alice@example.com' },
  subject: 'Your Earshot verification code',
  text: 'Your verification code is 123456',
  html: '<p>Your verification code is <b>123456</b></p>',
};

describe('createMailer', () => {
  let sink: SmtpSink | undefined;
  afterEach(async () => {
    await sink?.close();
    sink = undefined;
  });

  test('without SMTP_URL writes an owner-only .eml under DATA_DIR/mail and logs where, not what', async () => {
    const config = createTestConfig();
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ config, logger });

    const sent = await mailer.send(message);

    const directory = path.join(config.DATA_DIR, 'mail');
    expect(readdirSync(directory)).toEqual([path.basename(sent.file ?? '')]);
    const raw = readFileSync(sent.file ?? '', 'utf8');
    expect(raw).toContain('Subject: Your Earshot verification code');
    expect(raw).toContain('To: alice@example.com');
    expect(statSync(sent.file ?? '').mode & 0o777).toBe(0o600);
    const log = lines.join('');
    expect(log).toContain(sent.file);
    expect(log).toContain('a***@example.com');
    expect(log).not.toContain('123456');
    expect(log).not.toContain('alice@');
  });

  test('with SMTP_URL delivers over SMTP with a text and an HTML part', async () => {
    sink = await startSmtpSink();
    const config = createTestConfig({
      SMTP_URL: sink.url,
      MAIL_FROM: 'Earshot <no-reply@earshot.test>',
    });
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ config, logger });

    await mailer.send(message);
    const mail = await sink.waitForMail('alice@example.com');
    await mailer.close();

    expect(mail.subject).toBe('Your Earshot verification code');
    expect(mail.from).toBe('no-reply@earshot.test');
    expect(mail.text).toContain('123456');
    expect(mail.html).toContain('<b>123456</b>');
    expect(lines.join('')).not.toContain('123456');
  });
});

test('redactAddress keeps the first letter and the domain', () => {
  expect(redactAddress('alice@example.com')).toBe('a***@example.com');
  expect(redactAddress('nobody')).toBe('***');
});
