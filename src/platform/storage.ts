/**
 * Browser storage (§3 keys). Every access is guarded: private modes and blocked storage throw,
 * and the site must still work (values then live only for this page load).
 */
export const STORAGE_KEYS = ['jwt', 'refreshToken', 'sessionToken', 'theme', 'codeInvite'] as const;
type StorageKey = (typeof STORAGE_KEYS)[number];

export type KeyValueStorage = {
  get(key: StorageKey): string | null;
  set(key: StorageKey, value: string): void;
  remove(key: StorageKey): void;
};

function backing(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function createStorage(getBacking: () => Storage | null = backing): KeyValueStorage {
  const memory = new Map<StorageKey, string>();
  return {
    get(key) {
      try {
        const store = getBacking();
        if (store) return store.getItem(key);
      } catch {
        // fall through to the in-memory copy
      }
      return memory.get(key) ?? null;
    },
    set(key, value) {
      memory.set(key, value);
      try {
        getBacking()?.setItem(key, value);
      } catch {
        // quota or blocked storage: the in-memory copy keeps the value for this page load
      }
    },
    remove(key) {
      memory.delete(key);
      try {
        getBacking()?.removeItem(key);
      } catch {
        // blocked storage: nothing persisted to remove
      }
    },
  };
}

export const storage = createStorage();
