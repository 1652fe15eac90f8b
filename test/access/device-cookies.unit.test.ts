// A device cookie verifies only in the exact form this service issued it. Its MAC is 32 bytes in 43 base64url
// characters, so the last character carries 2 bits that decode to nothing: a lenient decoder reads "…A" and "…B"
// as the same bytes. Compared as bytes alone, a cookie with such a last character changed was still accepted.
import { expect } from 'chai';
import { DeviceCookies } from '../../src/capabilities/access/device-cookies.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The same cookie with its last character's two unused bits changed: other text, the same decoded bytes. */
function sameBytesOtherText(cookie: string): string {
  const last = ALPHABET.indexOf(cookie.at(-1)!);
  return cookie.slice(0, -1) + ALPHABET[last ^ 1];
}

describe('device cookies (unit)', () => {
  const cookies = new DeviceCookies(async () => 'a device-cookie test secret, 32 characters or more');
  const now = new Date('2026-03-01T09:00:00Z');

  it('verifies a cookie it issued, for that e-mail only', async () => {
    const c = await cookies.issue('ada@example.com', now);
    expect(await cookies.verify(c, 'ada@example.com', now)).to.not.equal(null);
    expect(await cookies.verify(c, 'bob@example.com', now)).to.equal(null);
  });

  it('refuses a MAC written another way that decodes to the same bytes', async () => {
    for (let i = 0; i < 20; i++) {
      const c = await cookies.issue('ada@example.com', now);
      const other = sameBytesOtherText(c);
      expect(Buffer.from(other.split('.')[3]!, 'base64url')).to.deep.equal(Buffer.from(c.split('.')[3]!, 'base64url'));
      expect(await cookies.verify(other, 'ada@example.com', now), other).to.equal(null);
    }
  });
});
