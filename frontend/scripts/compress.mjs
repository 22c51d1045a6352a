/**
 * After `vite build`: writes `<file>.br` and `<file>.gz` beside every text asset of `dist/` (1 KiB and
 * larger, when compression saves at least a tenth), so the server sends the smallest encoding the
 * browser accepts without compressing anything per request (backend/app/ui.py).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (TEXT.test(name)) yield path;
  }
}

let raw = 0;
let br = 0;
for (const path of files(dist)) {
  const data = readFileSync(path);
  if (data.length < MIN_BYTES) continue;
  const brotli = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
  const gzip = gzipSync(data, { level: 9 });
  if (gzip.length > data.length * 0.9) continue;
  writeFileSync(`${path}.br`, brotli);
  writeFileSync(`${path}.gz`, gzip);
  raw += data.length;
  br += brotli.length;
}
console.log(`compressed dist: ${(raw / 1024).toFixed(0)} KiB of text assets -> ${(br / 1024).toFixed(0)} KiB brotli`);
