import { describe, expect, it } from 'vitest';
import {
  readInviteCode,
  sanitizeInviteCode,
  storeInviteCode,
  storeInviteCodeFromSearch,
} from '../../src/platform/inviteCode';
import { ensureInviteCode, fallbackInviteCode } from '../../src/platform/fallbackInviteCode';
import { createStorage } from '../../src/platform/storage';

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

  it('stores a non-empty code under codeInvite and nothing for an empty one', () => {
    const storage = memoryStorage();
    expect(storeInviteCode('', storage)).toBeNull();
    expect(storeInviteCode('!!', storage)).toBeNull();
    expect(storage.get('codeInvite')).toBeNull();
    expect(storeInviteCode('AB-c!d', storage)).toBe('ABcd');
    expect(storage.get('codeInvite')).toBe('ABcd');
    expect(storeInviteCode('', storage)).toBeNull();
    expect(storage.get('codeInvite')).toBe('ABcd');
  });

  it('reads ?i= from the query string', () => {
    const storage = memoryStorage();
    expect(storeInviteCodeFromSearch('?utm_source=x', storage)).toBeNull();
    expect(storeInviteCodeFromSearch('?i=don%2D42&utm_source=x', storage)).toBe('don42');
    expect(readInviteCode(storage)).toBe('don42');
  });

  it('generates an 8-character fallback of letters and digits', () => {
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
