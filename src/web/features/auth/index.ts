// What other features may use of auth: entering and resending an emailed code (changing the
// address in Settings asks for one too). Everything else in this folder is auth's own.
export { CodeField, ResendCodeButton } from './code-parts.tsx';
export { useResendCode } from './use-resend-code.ts';
