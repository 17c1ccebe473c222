import { describe, expect, it } from 'vitest';
import { addCompileHints, COMPILE_HINT } from '../../src/prerender/compileHintsPlugin';

const chunk = (code: string, imports: string[] = [], isEntry = false) => ({
  type: 'chunk' as const,
  isEntry,
  imports,
  code,
});

describe('addCompileHints', () => {
  it('marks every entry and what it imports statically, once, and nothing loaded on demand', () => {
    const bundle = {
      'index.js': chunk('import "./vendor.js";main()', ['vendor.js', 'runtime.js'], true),
      'early.js': chunk('early()', ['runtime.js'], true),
      'vendor.js': chunk('react()', ['runtime.js']),
      'runtime.js': chunk('runtime()'),
      'SignInModal.js': chunk('dialog()', ['vendor.js']),
      'index.css': { type: 'asset' as const },
    };
    expect(addCompileHints(bundle).sort()).toEqual([
      'early.js',
      'index.js',
      'runtime.js',
      'vendor.js',
    ]);
    expect(bundle['index.js'].code).toBe(`${COMPILE_HINT}\nimport "./vendor.js";main()`);
    expect(bundle['runtime.js'].code).toBe(`${COMPILE_HINT}\nruntime()`);
    expect(bundle['SignInModal.js'].code).toBe('dialog()');
    // A second pass adds nothing: the hint must stay the file's first line, alone.
    addCompileHints(bundle);
    expect(bundle['vendor.js'].code.split(COMPILE_HINT)).toHaveLength(2);
  });
});
