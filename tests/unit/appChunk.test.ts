import { resolve } from 'node:path';
import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { chunkName } from '../../src/prerender/appChunk';

const at = (path: string) => resolve(import.meta.dirname, '../..', path);
const REACT = '/p/node_modules/react-dom/client.js';
const RUNTIME_LIKE = '/p/node_modules/ky/index.js';
/** A small module graph: the entry, the app's second stage, the signed-in home, members. */
const graph: Record<string, string[]> = {
  [at('src/main.tsx')]: [RUNTIME_LIKE, at('machines/app/app.machine.ts')],
  [at('machines/app/app.machine.ts')]: [],
  [RUNTIME_LIKE]: [],
  [at('src/app/mount.tsx')]: [
    REACT,
    at('src/views/shell/Shell.tsx'),
    at('machines/app/app.machine.ts'),
  ],
  [at('src/views/shell/Shell.tsx')]: [REACT],
  [REACT]: [],
  [at('src/views/home/SignedInHome.tsx')]: [
    REACT,
    at('src/views/shell/Shell.tsx'),
    at('src/views/overlays/ModalFrame.tsx'),
    at('contract/money.ts'),
    at('src/views/home/InviteTab.tsx'),
    at('machines/app/app.machine.ts'),
  ],
  [at('src/views/home/InviteTab.tsx')]: [REACT],
  [at('src/views/overlays/ModalFrame.tsx')]: [REACT],
  [at('contract/money.ts')]: [],
  [at('src/app/members.ts')]: [at('contract/money.ts'), at('src/app/realtime.ts')],
  [at('src/app/realtime.ts')]: [],
};
const importersOf = (id: string) => Object.keys(graph).filter((from) => graph[from]?.includes(id));
const ctx = {
  getModuleInfo: (id: string) =>
    id in graph ? { importedIds: graph[id], importers: importersOf(id) } : null,
} as unknown as Rolldown.ChunkingContext;

describe('chunkName', () => {
  it('groups React with what the second stage needs beside the entry, and the dialog frame', () => {
    for (const id of [REACT, at('src/app/mount.tsx'), at('src/views/shell/Shell.tsx')]) {
      expect(chunkName(id, ctx), id).toBe('vendor');
    }
    expect(chunkName(at('src/views/overlays/ModalFrame.tsx'), ctx)).toBe('vendor');
  });

  it('leaves the entry and what it imports to the entry', () => {
    for (const id of [at('src/main.tsx'), at('machines/app/app.machine.ts'), RUNTIME_LIKE]) {
      expect(chunkName(id, ctx), id).toBeNull();
    }
  });

  it("leaves the signed-in home's own modules to its chunk; what it shares goes to one file", () => {
    expect(chunkName(at('src/views/home/SignedInHome.tsx'), ctx)).toBeNull();
    expect(chunkName(at('src/views/home/InviteTab.tsx'), ctx)).toBeNull();
    // The member services import it too: it must not tie them to the home's file.
    expect(chunkName(at('contract/money.ts'), ctx)).toBe('homeShared');
    expect(chunkName(at('src/app/members.ts'), ctx)).toBeNull();
    expect(chunkName(at('src/app/realtime.ts'), ctx)).toBeNull();
  });

  it("puts the wallet code's loader in a file of its own (the development wallet imports it too)", () => {
    expect(chunkName(at('src/wallet/transfer.ts'), ctx)).toBe('walletLoader');
  });
});
