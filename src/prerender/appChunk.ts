import { resolve } from 'node:path';
import type { Rolldown } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = resolve(ROOT, 'src/main.tsx');
const STAGE_TWO = resolve(ROOT, 'src/app/mount.tsx');
const SIGNED_IN_HOME = resolve(ROOT, 'src/views/home/SignedInHome.tsx');

/** React's packages: whichever part imports them, they are in the app's second stage. */
const REACT_STACK =
  /node_modules\/(react|react-dom|scheduler|@xstate|use-sync-external-store|use-isomorphic-layout-effect)\//;
/** The dialogs' frame, shared by the sign-in dialog (the first tap) and the signed-in home. */
const DIALOG_FRAME = /\/src\/views\/overlays\/(ModalFrame\.tsx|useDialogFocus\.ts)$/;
/** Modules in the second stage's file whichever part imports them. */
const inVendorByName = (id: string): boolean => REACT_STACK.test(id) || DIALOG_FRAME.test(id);

/** The modules `root` imports statically, all the way down (itself included). */
function staticClosure(root: string, ctx: Rolldown.ChunkingContext): Set<string> {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

type Parts = { app: Set<string>; home: Set<string> };
const partsOf = new WeakMap<Rolldown.ChunkingContext, Parts>();

function parts(ctx: Rolldown.ChunkingContext): Parts {
  let found = partsOf.get(ctx);
  if (!found) {
    const entry = staticClosure(ENTRY, ctx);
    const app = new Set([...staticClosure(STAGE_TWO, ctx)].filter((id) => !entry.has(id)));
    const home = new Set(
      [...staticClosure(SIGNED_IN_HOME, ctx)].filter(
        (id) => !entry.has(id) && !app.has(id) && !inVendorByName(id),
      ),
    );
    found = { app, home };
    partsOf.set(ctx, found);
  }
  return found;
}

/**
 * The files a page's first parts load as, each a request: on HTTP/1.1's six connections per host
 * a request waits its turn, and the small shared chunks the bundler would split off cost a round
 * trip each. So:
 * - `vendor`, the app's second stage: src/app/mount.tsx with everything it imports that the entry
 *   does not (React, the shell, the landing's views) and the dialogs' frame. The entry
 *   (src/main.tsx: the api client, the machines, xstate) stays a file of its own: it runs while
 *   this one downloads.
 * - `homeShared`: in one file, the small modules the signed-in home shares with the member
 *   services and the error dialog (the wallets' list, the lamports helpers, the copy feedback's
 *   selectors), which would be a file each.
 */
const WALLET_LOADER = /\/src\/(wallet\/transfer|platform\/pagePreloads)\.ts$/;

export function chunkName(id: string, ctx: Rolldown.ChunkingContext): string | null {
  if (inVendorByName(id)) return 'vendor';
  // The wallet code's loader (and the list of files it fetches ahead) is imported by the member
  // services and by the development wallet,
  // which loads later on its own: inside the members' file it would tie the development wallet
  // to it, and members that failed to load (their file held as failed by the browser) would take
  // it down even after a Retry brought the members back.
  if (WALLET_LOADER.test(id)) return 'walletLoader';
  const { app, home } = parts(ctx);
  if (app.has(id)) return 'vendor';
  if (!home.has(id)) return null;
  // The home's own modules stay in its chunk (its exports keep their names, which a Retry's
  // import of the file relies on: src/platform/retryableImport.ts). A module the later parts
  // import too (the member services, the error dialog) goes to the shared file: inside the
  // home's file it would tie them to it, and a home that failed to load (its file held as failed
  // by the browser) would take them down with it.
  const importers = ctx.getModuleInfo(id)?.importers ?? [];
  return importers.every((importer) => home.has(importer)) ? null : 'homeShared';
}
