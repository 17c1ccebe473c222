import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../../server/events';
import { signJwt, verifyJwt } from '../../../server/accessToken';
import { priceAt, SPEC_CALENDAR } from '../../../contract/calendar';
import { publicData } from '../../../server/pricing';
import { sanitizeInviteCode } from '../../../contract/inviteCode';
import { isValidEmail, newInviteCode } from '../../../server/users';

describe('the ticket offer', () => {
  it('uses the date boundaries of §9 and the old price 0.55', () => {
    const ticketPriceSolAt = (ms: number) => priceAt(SPEC_CALENDAR, ms);
    expect(ticketPriceSolAt(Date.parse('2025-11-19T23:59:59.999Z'))).toBe('0.22');
    expect(ticketPriceSolAt(Date.parse('2025-11-20T00:00:00Z'))).toBe('0.33');
    expect(ticketPriceSolAt(Date.parse('2025-12-19T23:59:59.999Z'))).toBe('0.33');
    expect(ticketPriceSolAt(Date.parse('2025-12-20T00:00:00Z'))).toBe('0.55');
    expect(publicData(0, SPEC_CALENDAR).old_price).toBe('0.55');
  });
});

describe('jwt', () => {
  const secret = Buffer.alloc(32, 7);
  it('verifies its own token until exp, then reports expired', async () => {
    const token = await signJwt(secret, 42, 'family-1', 900, 1_000_000);
    // Issued at 1,000 s for 900 s: it expires at 1,900 s (told in ms).
    const valid = { ok: true, userId: 42, sessionId: 'family-1', expiresAt: 1_900_000 };
    expect(await verifyJwt(secret, token, 1_000_000)).toEqual(valid);
    expect(await verifyJwt(secret, token, 1_000_000 + 899_000)).toEqual(valid);
    expect(await verifyJwt(secret, token, 1_000_000 + 900_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('rejects a changed payload, another secret and an alg:none token', async () => {
    const token = await signJwt(secret, 1, 'family-1', 900, 0);
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ sub: '2', sid: 'family-1', iat: 0, exp: 900, typ: 'access' }),
    ).toString('base64url');
    expect((await verifyJwt(secret, `${header}.${forged}.${signature}`, 0)).ok).toBe(false);
    expect((await verifyJwt(Buffer.alloc(32, 8), token, 0)).ok).toBe(false);
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await verifyJwt(secret, `${none}.${forged}.`, 0)).ok).toBe(false);
    expect((await verifyJwt(secret, 'a.b', 0)).ok).toBe(false);
  });
});

describe('invite codes and e-mails', () => {
  it('keeps letters and digits only, cut to 30 characters (§5) [§9.limits.invite] [§5.invite.sanitize]', () => {
    expect(sanitizeInviteCode('ab-C_1 2!')).toBe('abC12');
    expect(sanitizeInviteCode('x'.repeat(40))).toHaveLength(30);
    expect(sanitizeInviteCode('<script>')).toBe('script');
  });

  it('generates 8 upper-case letters or digits', () => {
    for (let i = 0; i < 200; i += 1) expect(newInviteCode()).toMatch(/^[A-Z0-9]{8}$/);
  });

  it('accepts e-mails by the rule of §5', () => {
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('a@b')).toBe(false);
    expect(isValidEmail('a b@c.d')).toBe(false);
  });
});

describe('event bus', () => {
  it('delivers typed payloads, survives a throwing listener and unsubscribes', () => {
    const errors: string[] = [];
    const bus = createEventBus((line) => errors.push(line));
    const seen: number[] = [];
    bus.on('invite.registered', () => {
      throw new Error('boom');
    });
    const off = bus.on('invite.registered', ({ userId }) => seen.push(userId));
    bus.emit('invite.registered', { inviterId: 1, userId: 2 });
    off();
    bus.emit('invite.registered', { inviterId: 1, userId: 3 });
    expect(seen).toEqual([2]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('boom');
  });
});
