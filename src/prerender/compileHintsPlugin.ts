import type { Plugin } from 'vite';

/** V8's explicit compile hint: compile every function of the file while it streams in. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

type ChunkLike = {
  type: 'chunk';
  isEntry: boolean;
  imports: string[];
  code: string;
  facadeModuleId?: string | null;
  /** The modules the chunk holds (a part grouped into a shared chunk is no chunk's facade). */
  moduleIds?: string[];
};

/** Whether `chunk` holds the module whose path ends with `part`. */
export function holdsModule(chunk: Pick<ChunkLike, 'facadeModuleId' | 'moduleIds'>, part: string) {
  return (
    (chunk.facadeModuleId ?? '').endsWith(part) ||
    (chunk.moduleIds ?? []).some((id) => id.endsWith(part))
  );
}

/**
 * Parts loaded on demand that run whole once they arrive, each on the path of a page a player waits
 * for: the app's second stage (React and the views), a docs page, the sign-in dialog (the first
 * tap), the signed-in home and its services.
 */
const RUN_ON_ARRIVAL = [
  'src/app/mount.tsx',
  'src/views/docs/DocsPage.tsx',
  'src/views/signIn/SignInModal.tsx',
  'src/views/home/SignedInHome.tsx',
  'src/app/members.ts',
];
type Bundle = Record<string, ChunkLike | { type: 'asset' }>;

/**
 * The files a page runs at start (every entry and the chunks they import statically), and the parts
 * of RUN_ON_ARRIVAL with theirs, carry V8's compile hint as their first line. Chromium then
 * compiles their functions on a background thread while the files download, instead of on the main
 * thread the first time each is called: the app's start-up tasks on a throttled phone shrink by
 * about a quarter, and Lighthouse's blocking time on `/` from about 270 ms to under 100 (`npm run
 * bench`). Other chunks loaded on demand (the other dialogs, the wallet's library) stay lazily
 * compiled: most of their functions never run.
 */
export function addCompileHints(bundle: Bundle, runOnArrival = RUN_ON_ARRIVAL): string[] {
  const marked: string[] = [];
  const mark = (fileName: string): void => {
    const chunk = bundle[fileName];
    if (!chunk || chunk.type !== 'chunk' || marked.includes(fileName)) return;
    marked.push(fileName);
    if (!chunk.code.startsWith(COMPILE_HINT)) chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
    chunk.imports.forEach(mark);
  };
  for (const [fileName, chunk] of Object.entries(bundle)) {
    if (chunk.type !== 'chunk') continue;
    if (chunk.isEntry || runOnArrival.some((part) => holdsModule(chunk, part))) mark(fileName);
  }
  return marked;
}

/** Adds the compile hint to the client build's start-up files, after minification. */
export function compileHintsPlugin(): Plugin {
  return {
    name: 'smw-compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      if (this.environment?.config.build.ssr) return;
      const chunks = bundle as unknown as Bundle;
      // A part renamed or merged away would lose its hint without a word: the build says so.
      const missing = RUN_ON_ARRIVAL.filter(
        (part) =>
          !Object.values(chunks).some(
            (chunk) => chunk.type === 'chunk' && holdsModule(chunk, part),
          ),
      );
      if (missing.length) this.error(`compile hints: no chunk for ${missing.join(', ')}`);
      addCompileHints(chunks);
    },
  };
}
