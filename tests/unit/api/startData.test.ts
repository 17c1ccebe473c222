import { describe, expect, it } from 'vitest';
import { readStored, sessionStartData } from '../../../src/app/compose';
import { createStorage, STORAGE_KEYS } from '../../../src/platform/storage';

describe('session-start data (§3)', () => {
  it('reads language, user agent and the utm params', () => {
    expect(
      sessionStartData({
        language: 'pt-BR',
        userAgent: 'UA/1',
        search: '?utm_source=tw&utm_campaign=launch&utm_medium=social&i=ABC',
      }),
    ).toEqual({
      language: 'pt-BR',
      user_agent: 'UA/1',
      utm_source: 'tw',
      utm_campaign: 'launch',
      utm_medium: 'social',
    });
  });

  it('takes `from` when utm_source is absent, and leaves out missing params', () => {
    expect(sessionStartData({ language: 'en', userAgent: 'UA', search: '?from=friend' })).toEqual({
      language: 'en',
      user_agent: 'UA',
      utm_source: 'friend',
    });
  });

  it('cuts values to what the contract accepts', () => {
    const data = sessionStartData({
      language: 'x'.repeat(100),
      userAgent: 'u'.repeat(1000),
      search: `?utm_source=${'s'.repeat(300)}`,
    });
    expect(data.language).toHaveLength(64);
    expect(data.user_agent).toHaveLength(512);
    expect(data.utm_source).toHaveLength(200);
  });
});

describe('storage', () => {
  it('uses exactly the keys jwt, refreshToken, sessionToken, theme, codeInvite [§3.storage.keys]', () => {
    expect([...STORAGE_KEYS]).toEqual([
      'jwt',
      'refreshToken',
      'sessionToken',
      'theme',
      'codeInvite',
    ]);
  });

  it('keeps working in memory when localStorage throws', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    const storage = createStorage(() => throwing);
    expect(storage.get('jwt')).toBeNull();
    storage.set('jwt', 'abc');
    expect(storage.get('jwt')).toBe('abc');
    storage.remove('jwt');
    expect(storage.get('jwt')).toBeNull();
    const none = createStorage(() => null);
    none.set('theme', 'dark');
    expect(readStored(none)).toEqual({
      jwt: null,
      refreshToken: null,
      sessionToken: null,
      theme: 'dark',
      codeInvite: null,
    });
  });
});
