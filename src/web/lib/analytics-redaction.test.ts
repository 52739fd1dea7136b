import { expect, test } from 'vitest';
import { REDACTED, redactSecrets, redactUrl } from './analytics-redaction.ts';

test('the values of secret parameters are replaced; the rest of the URL stays', () => {
  expect(
    redactUrl('https://earshot.example/unsubscribe?token=abc.DEF_123-x&utm_source=email'),
  ).toBe(`https://earshot.example/unsubscribe?token=${REDACTED}&utm_source=email`);
  expect(redactUrl('/api/events?ticket=AbC')).toBe(`/api/events?ticket=${REDACTED}`);
  expect(redactUrl('/api/user/unsubscribe?unsubscribeToken=x.y')).toBe(
    `/api/user/unsubscribe?unsubscribeToken=${REDACTED}`,
  );
  expect(redactUrl('/x?a=1&TOKEN=abc#access_token=zzz')).toBe(
    `/x?a=1&TOKEN=${REDACTED}#access_token=${REDACTED}`,
  );
  // Encoded inside another URL (a referrer's `next=`), and inside HTML an rrweb snapshot keeps.
  expect(redactUrl('/login?next=%2Funsubscribe%3Ftoken%3Dabc')).toBe(
    `/login?next=%2Funsubscribe%3Ftoken%3D${REDACTED}`,
  );
  expect(redactUrl('<a href="/unsubscribe?token=abc">x</a>')).toBe(
    `<a href="/unsubscribe?token=${REDACTED}">x</a>`,
  );
  expect(redactUrl('/unsubscribe?token=a%2Eb%2Fc&x=1')).toBe(`/unsubscribe?token=${REDACTED}&x=1`);
  expect(redactUrl('/login?next=%2Fu%3Ftoken%3Da%2Eb%26x%3D1')).toBe(
    `/login?next=%2Fu%3Ftoken%3D${REDACTED}%26x%3D1`,
  );
  // Not a parameter: left alone.
  for (const plain of [
    '/dashboard/alerts?monitor=1',
    'tokens are great',
    'mytoken=1',
    '/x?tokenizer=a',
  ]) {
    expect(redactUrl(plain)).toBe(plain);
  }
});

test('an event is redacted throughout: properties, person properties and recording snapshots', () => {
  const secret = 'SECRET.value_1';
  const event = {
    event: '$pageview',
    properties: {
      $current_url: `https://earshot.example/unsubscribe?token=${secret}`,
      $pathname: '/unsubscribe',
      $referrer: `https://earshot.example/unsubscribe?token=${secret}`,
      $snapshot_data: [
        { type: 4, data: { href: `https://earshot.example/unsubscribe?token=${secret}` } },
        {
          type: 6,
          data: {
            plugin: 'rrweb/network@1',
            payload: {
              requests: [{ name: `https://earshot.example/api/events?ticket=${secret}` }],
            },
          },
        },
      ],
      count: 3,
      flag: true,
      nothing: null,
    },
    $set_once: { $initial_current_url: `https://earshot.example/unsubscribe?token=${secret}` },
  };
  const redacted = redactSecrets(event);
  expect(JSON.stringify(redacted)).not.toContain(secret);
  expect(redacted.properties.$current_url).toBe(
    `https://earshot.example/unsubscribe?token=${REDACTED}`,
  );
  expect(redacted.properties.count).toBe(3);
  expect(redacted.properties.flag).toBe(true);
  expect(redacted.properties.nothing).toBeNull();
});
