import { describe, expect, it } from 'vitest';
import { sanitizeInviteCode } from '../../contract/inviteCode';
import {
  inviteCodeOfPathSegment,
  readInviteCode,
  storeInviteCode,
  offerSearchCode,
  onLinkCode,
} from '../../src/platform/inviteCode';
import { ensureInviteCode, fallbackInviteCode } from '../../src/platform/fallbackInviteCode';
import { createStorage } from '../../src/platform/storage';
import { createActor } from 'xstate';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { signInMachine } from '../../machines/signIn/signIn.machine';
import { selectInvitedCode, selectWasInvited } from '../../machines/signIn/invited.selectors';

const memoryStorage = () => createStorage(() => null);

describe('invite code', () => {
  it.each([
    ['AB-c!d', 'ABcd'],
    ['  x y_z ', 'xyz'],
    ['ÄBC', 'BC'],
    ['---', ''],
    ['', ''],
    ['a'.repeat(31) + 'b', 'a'.repeat(30)],
    ['1234567890-1234567890-1234567890-XYZ', '123456789012345678901234567890'],
  ])('sanitises %j to %j', (raw, expected) => {
    expect(sanitizeInviteCode(raw)).toBe(expected);
  });

  it.each([
    ['ABC123', 'ABC123'],
    ['ab%20cd', 'abcd'],
    ['%20%20', ''],
    ['%F0%9F%98%80', ''],
    ['caf%C3%A9%E4%B8%AD', 'caf'],
    ['x%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', 'ximgsrcxonerroralert1'],
    ['a%2Fb', 'ab'],
    ['ab%E0%A4%A', 'ab'],
    ['ab%zzcd', 'abzzcd'],
  ])(
    'an invite link segment %j is the code %j (escapes decoded before §5 cleans it)',
    (segment, code) => {
      expect(sanitizeInviteCode(inviteCodeOfPathSegment(segment))).toBe(code);
    },
  );

  it('stores a non-empty code under codeInvite and nothing for an empty one [§2.routes.ref]', () => {
    const storage = memoryStorage();
    expect(storeInviteCode('', storage)).toBeNull();
    expect(storeInviteCode('!!', storage)).toBeNull();
    expect(storage.get('codeInvite')).toBeNull();
    expect(storeInviteCode('AB-c!d', storage)).toBe('ABcd');
    expect(storage.get('codeInvite')).toBe('ABcd');
    expect(storeInviteCode('', storage)).toBeNull();
    expect(storage.get('codeInvite')).toBe('ABcd');
  });

  it('offers ?i= of the query string to the invitation service, as a link is, storing nothing', () => {
    const storage = memoryStorage();
    const heard: string[] = [];
    const stop = onLinkCode((code) => heard.push(code));
    offerSearchCode('?utm_source=x');
    offerSearchCode('?i=don%2D42&utm_source=x');
    stop();
    // Offered as the address spelled it; the service cleans it (§5), and keeps nothing empty.
    expect(heard.map(sanitizeInviteCode)).toEqual(['', 'don42']);
    expect(readInviteCode(storage)).toBeNull();
  });

  it('generates an 8-character fallback of letters and digits [§5.invite.fallback]', () => {
    for (let i = 0; i < 200; i += 1) expect(fallbackInviteCode()).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(fallbackInviteCode(() => [0, 1, 25, 26, 51, 52, 61, 62])).toBe('ABZaz09A');
  });

  it('keeps a stored code, otherwise repeats one fallback that is never stored', () => {
    const storage = memoryStorage();
    const first = ensureInviteCode(storage);
    expect(first).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(storage.get('codeInvite')).toBeNull();
    expect(ensureInviteCode(storage)).toBe(first);
    storeInviteCode('FRIEND', storage);
    expect(ensureInviteCode(storage)).toBe('FRIEND');
  });
});

describe('an invited visitor (the landing cue)', () => {
  const signInWith = (codeInvite: string | null) =>
    createActor(signInMachine, { input: { stored: { ...EMPTY_STORED, codeInvite } } }).start();

  it('a code kept from a friend’s link means invited, shown upper-cased [§2.routes.ref]', () => {
    const actor = signInWith('abc123');
    expect(selectWasInvited(actor.getSnapshot())).toBe(true);
    expect(selectInvitedCode(actor.getSnapshot())).toBe('ABC123');
    actor.stop();
  });

  it('no code: not invited, until /r/{code} stores one', () => {
    const actor = signInWith(null);
    expect(selectWasInvited(actor.getSnapshot())).toBe(false);
    expect(selectInvitedCode(actor.getSnapshot())).toBe('');
    actor.send({ type: 'inviteCode.stored', code: 'Friend9' });
    expect(selectWasInvited(actor.getSnapshot())).toBe(true);
    expect(selectInvitedCode(actor.getSnapshot())).toBe('FRIEND9');
    actor.stop();
  });
});
