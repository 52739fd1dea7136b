import type { IdpCodePurpose } from '../../db/schema/identity.ts';
import { html, renderHtmlDocument } from '../../platform/html.ts';
import type { MailMessage } from '../../platform/mailer.ts';

const CODE_EMAIL_SUBJECT = 'Your Earshot verification code';

const WHY: Record<IdpCodePurpose, { lead: string; ignore: string }> = {
  signup: {
    lead: 'Enter this code to confirm your e-mail address and finish creating your Earshot account.',
    ignore:
      'If you did not sign up for Earshot, ignore this e-mail: no account is created without the code.',
  },
  email: {
    lead: 'Enter this code to confirm your new e-mail address for your Earshot account.',
    ignore:
      'If you did not ask to change your address, ignore this e-mail: the account keeps its current one.',
  },
  reset: {
    lead: 'Enter this code to choose a new password for your Earshot account.',
    ignore:
      'If you did not ask to reset your password, ignore this e-mail: your password stays as it is.',
  },
};

/** The e-mail carrying a code: plain text and a simple HTML part, the code prominent in both. */
export function composeCodeEmail(options: {
  to: string;
  code: string;
  purpose: IdpCodePurpose;
  validForSeconds: number;
}): MailMessage {
  const { lead, ignore } = WHY[options.purpose];
  const validity = describeDuration(options.validForSeconds);
  const text = [
    `Your verification code is ${options.code}`,
    '',
    lead,
    `The code works once and expires in ${validity}.`,
    '',
    ignore,
    '',
    '— Earshot',
    '',
  ].join('\n');
  const muted = { margin: '0 0 16px', fontSize: '14px', color: '#4b5563' };
  const body = renderHtmlDocument(html`<html lang="en">
    <body style=${{ margin: 0, padding: '24px', background: '#f6f7f9', fontFamily: 'system-ui,-apple-system,Segoe UI,Roboto,sans-serif', color: '#111827' }}>
      <div style=${{ maxWidth: '480px', margin: '0 auto', background: '#ffffff', borderRadius: '12px', padding: '32px' }}>
        <p style=${{ margin: '0 0 16px', fontSize: '16px' }}>${lead}</p>
        <p style=${{ ...muted, margin: '0 0 8px' }}>Your verification code</p>
        <p style=${{ margin: '0 0 24px', fontSize: '36px', fontWeight: 700, letterSpacing: '8px', fontFamily: 'ui-monospace,Menlo,Consolas,monospace' }}>${options.code}</p>
        <p style=${muted}>The code works once and expires in ${validity}.</p>
        <p style=${{ margin: 0, fontSize: '13px', color: '#6b7280' }}>${ignore}</p>
      </div>
    </body>
  </html>`);
  return { to: { address: options.to }, subject: CODE_EMAIL_SUBJECT, text, html: body };
}

function describeDuration(seconds: number): string {
  if (seconds % 3600 === 0) {
    const hours = seconds / 3600;
    return hours === 1 ? '1 hour' : `${hours} hours`;
  }
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
