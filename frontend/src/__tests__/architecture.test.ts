// @vitest-environment node
/**
 * The import rules of STYLE.md (bulletproof-react's `import/no-restricted-paths`), checked here so
 * they hold without a linter: code flows shared -> features -> app.
 *
 * - `components/`, `lib/`, `config/`, `testing/`, `stores/`, `charts/` never import from `features/` or
 *   `app/` (cross-feature state lives in `stores/`, passed to features by the pages);
 * - a feature never imports from `app/` or from another feature;
 * - only `features/*\/api/*` files (and `lib/` itself, and tests) use the API client; anyone may
 *   import `lib/api-error`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every import of a file, as a path relative to src/ (`features/system/api/get-health`) or a package name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );
  return specs.map((spec) => {
    if (spec.startsWith('@/')) return spec.slice(2);
    if (spec.startsWith('.')) return relative(SRC, resolve(dirname(file), spec));
    return spec;
  });
}

const files = sourceFiles(SRC).map((abs) => ({ abs, rel: relative(SRC, abs) }));
const isTest = (rel: string) => rel.includes('__tests__/');
const featureOf = (rel: string) => /^features\/([^/]+)\//.exec(rel)?.[1];

describe('import rules', () => {
  it('shared code imports no feature and no app code', () => {
    const offenders = files
      .filter((f) => /^(components|lib|config|testing|stores|charts)\//.test(f.rel))
      .flatMap((f) => importsOf(f.abs).filter((i) => /^(features|app)(\/|$)/.test(i)).map((i) => `${f.rel} -> ${i}`));
    expect(offenders).toEqual([]);
  });

  it('features import neither the app nor each other', () => {
    const offenders = files
      .filter((f) => featureOf(f.rel) && !isTest(f.rel))
      .flatMap((f) =>
        importsOf(f.abs)
          .filter((i) => i.startsWith('app/') || (featureOf(i) !== undefined && featureOf(i) !== featureOf(f.rel)))
          .map((i) => `${f.rel} -> ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('only features/*/api files use the API client', () => {
    const offenders = files
      .filter((f) => !isTest(f.rel) && !f.rel.startsWith('lib/') && !f.rel.startsWith('testing/'))
      .filter((f) => !/^features\/[^/]+\/api\//.test(f.rel))
      .flatMap((f) =>
        importsOf(f.abs)
          .filter((i) => i === 'lib/api-client' || i.startsWith('api/'))
          .map((i) => `${f.rel} -> ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps Recharts out of the first-load code (app shell, shared code)', () => {
    const offenders = files
      .filter((f) => !isTest(f.rel) && /^(main\.tsx|app\/(app|provider|router)\.tsx|app\/routes\.ts|components\/|stores\/|lib\/)/.test(f.rel))
      .flatMap((f) => importsOf(f.abs).filter((i) => i.startsWith('recharts') || i.startsWith('charts/')).map((i) => `${f.rel} -> ${i}`));
    expect(offenders).toEqual([]);
  });

  it('loads chart code only behind lazy imports: a feature index exports charts via lazy()', () => {
    const offenders = files
      .filter((f) => /^features\/[^/]+\/index\.ts$/.test(f.rel))
      .flatMap((f) => {
        const text = readFileSync(f.abs, 'utf8');
        const staticImports = [...text.matchAll(/^export\s[^;]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
        return staticImports
          .map((spec) => relative(SRC, resolve(dirname(f.abs), spec)))
          .filter((target) => {
            const file = files.find((x) => x.rel.replace(/\.tsx?$/, '') === target);
            return file ? importsOf(file.abs).some((i) => i.startsWith('recharts') || i.startsWith('charts/')) : false;
          })
          .map((t) => `${f.rel} -> ${t}`);
      });
    expect(offenders).toEqual([]);
  });
});
