import type { AnyStateMachine } from 'xstate';
import { pickMachine } from './recording';

/**
 * Every machine of machines/<name>/<name>.machine.ts, found at build time and loaded on demand.
 */
const modules = import.meta.glob('../../machines/*/*.machine.ts');

export type MachineEntry = { name: string; load: () => Promise<AnyStateMachine> };

export const MACHINES: MachineEntry[] = Object.entries(modules)
  .map(([path, load]) => {
    const match = /machines\/([^/]+)\/([^/]+)\.machine\.ts$/.exec(path);
    return match && match[1] === match[2] ? { name: match[1]!, load } : null;
  })
  .filter((entry): entry is { name: string; load: () => Promise<unknown> } => entry !== null)
  .sort((a, b) => a.name.localeCompare(b.name))
  .map(({ name, load }) => ({
    name,
    load: async () => pickMachine((await load()) as Record<string, unknown>, name),
  }));
