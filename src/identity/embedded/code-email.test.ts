import { describe, expect, test } from 'vitest';
import type { IdpCodePurpose } from '../../db/schema/identity.ts';
import { composeCodeEmail } from './code-email.ts';

// What each part of a code e-mail must say, written out here: the mail is read by people, so
// the test holds the words, not the module's own constants.
const PURPOSES: {
  purpose: IdpCodePurpose;
  validForSeconds: number;
  validity: string;
  lead: string;
  ignore: string;
}[] = [
  {
    purpose: 'signup',
    validForSeconds: 86_400,
    validity: '24 hours',
    lead: 'confirm your e-mail address and finish creating your Earshot account',
    ignore: 'If you did not sign up for Earshot, ignore this e-mail',
  },
  {
    purpose: 'email',
    validForSeconds: 900,
    validity: '15 minutes',
    lead: 'confirm your new e-mail address',
    ignore: 'If you did not ask to change your address, ignore this e-mail',
  },
  {
    purpose: 'reset',
    validForSeconds: 3600,
    validity: '1 hour',
    lead: 'choose a new password',
    ignore: 'If you did not ask to reset your password, ignore this e-mail',
  },
];

/** The text a reader sees in the HTML part: tags dropped, white space collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

describe.each(PURPOSES)(
  'a $purpose code e-mail',
  ({ purpose, validForSeconds, validity, lead, ignore }) => {
    const mail = composeCodeEmail({
      to: 'a@example.com',
      code: '042917',
      purpose,
      validForSeconds,
    });

    test('goes to the address asked for, under a clear subject', () => {
      expect(mail.to).toEqual({ address: 'a@example.com' });
      expect(mail.subject).toBe('Your Earshot verification code');
    });

    test('the text part: the code first, then what it is for, how long it lasts, and what if unasked', () => {
      const lines = mail.text.split('\n');
      expect(lines[0]).toBe('Your verification code is 042917');
      expect(mail.text).toContain(lead);
      expect(mail.text).toContain(`The code works once and expires in ${validity}.`);
      expect(mail.text).toContain(ignore);
    });

    test('the HTML part says the same, the code on a line of its own', () => {
      const html = mail.html ?? '';
      const text = visibleText(html);
      expect(text).toContain('Your verification code 042917 The code works once');
      expect(text).toContain(lead);
      expect(text).toContain(`expires in ${validity}.`);
      expect(text).toContain(ignore);
      expect(html).toMatch(/<html lang="en">/u);
    });
  },
);

test('a validity under an hour is said in minutes, one minute at least', () => {
  const validityOf = (validForSeconds: number) =>
    composeCodeEmail({ to: 'a@example.com', code: '1', purpose: 'reset', validForSeconds }).text;
  expect(validityOf(60)).toContain('expires in 1 minute.');
  expect(validityOf(20)).toContain('expires in 1 minute.');
  expect(validityOf(5400)).toContain('expires in 90 minutes.');
  expect(validityOf(7200)).toContain('expires in 2 hours.');
});
