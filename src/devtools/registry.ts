import type { AnyStateMachine } from 'xstate';

/**
 * Every machine of machines/<name>/<name>.machine.ts, found at build time and loaded on demand.
 */
const modules = import.meta.glob('../../machines/*/*.machine.ts');

export type MachineEntry = { name: string; load: () => Promise<AnyStateMachine> };

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'definition' in value;
}

export const MACHINES: MachineEntry[] = Object.entries(modules)
  .map(([path, load]) => {
    const match = /machines\/([^/]+)\/([^/]+)\.machine\.ts$/.exec(path);
    return match && match[1] === match[2] ? { name: match[1]!, load } : null;
  })
  .filter((entry): entry is { name: string; load: () => Promise<unknown> } => entry !== null)
  .sort((a, b) => a.name.localeCompare(b.name))
  .map(({ name, load }) => ({
    name,
    load: async () => {
      const mod = (await load()) as Record<string, unknown>;
      const machine = isMachine(mod[`${name}Machine`])
        ? mod[`${name}Machine`]
        : Object.values(mod).find(isMachine);
      if (!isMachine(machine)) throw new Error(`machines/${name} exports no machine`);
      return machine;
    },
  }));
