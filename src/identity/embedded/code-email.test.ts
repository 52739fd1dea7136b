import { expect, test } from 'vitest';
import { CODE_EMAIL_SUBJECT, composeCodeEmail } from './code-email.ts';

test('a sign-up code e-mail: clear subject, the code first, validity, text and HTML', () => {
  const mail = composeCodeEmail({
    to: 'a@example.com',
    code: '042917',
    purpose: 'signup',
    validForSeconds: 86_400,
  });
  expect(mail.subject).toBe(CODE_EMAIL_SUBJECT);
  expect(mail.subject).toBe('Your Earshot verification code');
  expect(mail.text.split('\n')[0]).toBe('Your verification code is 042917');
  expect(mail.text).toContain('expires in 24 hours');
  expect(mail.text).toContain('confirm your e-mail address');
  expect(mail.html).toContain('>042917</p>');
});

test('a reset code e-mail says what it is for and that it lasts an hour', () => {
  const mail = composeCodeEmail({
    to: 'a@example.com',
    code: '123456',
    purpose: 'reset',
    validForSeconds: 3600,
  });
  expect(mail.text).toContain('new password');
  expect(mail.text).toContain('expires in 1 hour');
  expect(mail.text).toContain('did not ask to reset your password');
});
