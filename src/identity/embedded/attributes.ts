import { isPlainText } from '../../shared/plain-text.ts';
import { errors } from './errors.ts';
import type { IdpUser } from './store.ts';

/**
 * The user attributes a client may write (SignUp, UpdateUserAttributes) and how GetUser shows
 * them. The pool's schema is Cognito's standard one with the e-mail address as user name; of the
 * writable attributes the product uses `email`, `given_name` and `family_name`.
 */
const WRITABLE = new Set(['email', 'given_name', 'family_name']);
const READ_ONLY = new Set([
  'sub',
  'email_verified',
  'phone_number_verified',
  'identities',
  'cognito:user_status',
]);

export type AttributeChanges = {
  email?: string;
  givenName?: string | null;
  familyName?: string | null;
};

export function readAttributeChanges(
  list: { Name: string; Value?: string | undefined }[],
): AttributeChanges {
  const changes: AttributeChanges = {};
  const seen = new Set<string>();
  for (const { Name, Value } of list) {
    if (READ_ONLY.has(Name))
      throw errors.invalidParameter('A client attempted to write unauthorized attribute');
    if (!WRITABLE.has(Name)) {
      throw errors.invalidParameter(
        `Attributes did not conform to the schema: Type for attribute {${Name}} could not be determined`,
      );
    }
    if (seen.has(Name)) throw errors.invalidParameter(`Attribute ${Name} is given more than once.`);
    seen.add(Name);
    const value = (Value ?? '').trim();
    // A NUL reached the database as a 500; bidi overrides and other controls make a name lie
    // about what it says wherever it is shown.
    if (!isPlainText(value)) {
      throw errors.invalidParameter(
        `Attribute ${Name} must not contain control or bidirectional formatting characters.`,
      );
    }
    if (Name === 'email') changes.email = normalizeEmail(value);
    if (Name === 'given_name') changes.givenName = value || null;
    if (Name === 'family_name') changes.familyName = value || null;
  }
  return changes;
}

/** User names and addresses compare as NFKC, then lower case: `zoë` typed either way is one. */
export function normalizeEmail(value: string): string {
  return value.trim().normalize('NFKC').toLowerCase();
}

// A plain addr-spec: a dot-atom local part (letters of any script allowed, as SMTPUTF8 does)
// and a domain of at least two labels. No display names, angle brackets, comments, quoted local
// parts or lists: mail goes to exactly the mailbox the ID token calls verified.
const ATOM = "[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
const ADDR_SPEC = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`, 'u');

export function isEmail(value: string): boolean {
  return value.length <= 128 && isPlainText(value) && ADDR_SPEC.test(value);
}

/** GetUser's `UserAttributes`: every value a string, in Cognito's order. */
export function userAttributes(user: IdpUser): { Name: string; Value: string }[] {
  const list = [
    { Name: 'sub', Value: user.sub },
    { Name: 'email_verified', Value: String(user.emailVerified) },
  ];
  if (user.givenName) list.push({ Name: 'given_name', Value: user.givenName });
  if (user.familyName) list.push({ Name: 'family_name', Value: user.familyName });
  list.push({ Name: 'email', Value: user.email });
  return list;
}
