import { describe, expect, it } from 'vitest';
import { addCompileHints, COMPILE_HINT, holdsModule } from '../../src/prerender/compileHintsPlugin';

const chunk = (code: string, imports: string[] = [], isEntry = false, facadeModuleId = '') => ({
  type: 'chunk' as const,
  isEntry,
  imports,
  code,
  facadeModuleId,
});

describe('addCompileHints', () => {
  it('marks every entry, each part run on arrival, and what they import statically, once', () => {
    const bundle = {
      'index.js': chunk('import "./vendor.js";main()', ['vendor.js', 'runtime.js'], true),
      'early.js': chunk('early()', ['runtime.js'], true),
      'vendor.js': chunk('react()', ['runtime.js']),
      'runtime.js': chunk('runtime()'),
      'SignInModal.js': chunk('dialog()', ['vendor.js', 'ModalFrame.js'], false, '/x/Modal.tsx'),
      'ModalFrame.js': chunk('frame()'),
      'VideoModal.js': chunk('video()', ['vendor.js'], false, '/x/Video.tsx'),
      'index.css': { type: 'asset' as const },
    };
    expect(addCompileHints(bundle, ['/x/Modal.tsx']).sort()).toEqual([
      'ModalFrame.js',
      'SignInModal.js',
      'early.js',
      'index.js',
      'runtime.js',
      'vendor.js',
    ]);
    expect(bundle['index.js'].code).toBe(`${COMPILE_HINT}\nimport "./vendor.js";main()`);
    expect(bundle['runtime.js'].code).toBe(`${COMPILE_HINT}\nruntime()`);
    expect(bundle['SignInModal.js'].code).toBe(`${COMPILE_HINT}\ndialog()`);
    expect(bundle['VideoModal.js'].code).toBe('video()');
    // A second pass adds nothing: the hint must stay the file's first line, alone.
    addCompileHints(bundle, ['/x/Modal.tsx']);
    expect(bundle['vendor.js'].code.split(COMPILE_HINT)).toHaveLength(2);
  });
});

describe('holdsModule', () => {
  it('finds a part by its facade or among the modules of the chunk it was grouped into', () => {
    expect(holdsModule({ facadeModuleId: '/x/src/app/mount.tsx' }, 'src/app/mount.tsx')).toBe(true);
    const grouped = { facadeModuleId: null, moduleIds: ['/n/react.js', '/x/src/app/mount.tsx'] };
    expect(holdsModule(grouped, 'src/app/mount.tsx')).toBe(true);
    expect(holdsModule(grouped, 'src/app/members.ts')).toBe(false);
    expect(
      addCompileHints({ 'vendor.js': { ...chunk('app()'), ...grouped } }, ['src/app/mount.tsx']),
    ).toEqual(['vendor.js']);
  });
});
