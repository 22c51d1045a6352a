#!/usr/bin/env node
/**
 * Records the API answers the vitest fixtures of the analyses, traces, custom hardware and
 * recommend screens are made of, from a running backend:
 *
 *   node scripts/record-fixtures.mjs http://127.0.0.1:8000 [host-stats]
 *
 * Uses a database of its own (it creates custom hardware records). The workloads and configuration
 * are those of the existing fixtures (the OLTP template sized on a NetApp FAS3170 in RAID-DP), so
 * every screen's tests talk about the same system. The synthetic trace is generated here
 * (deterministic), like the one the e2e test uploads.
 */
import { readFileSync, writeFileSync } from 'node:fs';

import { syntheticIostat } from '../e2e/host-stats-sample.mjs';

const base = (process.argv[2] ?? 'http://127.0.0.1:8000').replace(/\/+$/, '');
const dir = new URL('../src/testing/fixtures/', import.meta.url);
const read = (name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
const write = (name, data) => {
  writeFileSync(new URL(name, dir), `${JSON.stringify(data, null, 2)}\n`);
  console.log(`wrote ${name}`);
};

async function call(method, path, body, { expect = [200, 201, 202], headers = {} } = {}) {
  const init = { method, headers: { Accept: 'application/json', ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${base}/api/v1${path}`, init);
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!expect.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 400)}`);
  return data;
}

/** A deterministic synthetic trace: `time_s,op,offset,size,latency_ms`, 80% of I/O on a hot 2% of blocks. */
export function syntheticTrace(rows = 4000, seed = 7) {
  let s = seed >>> 0;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const sizes = [4096, 4096, 8192, 8192, 16384, 65536];
  const lines = ['time_s,op,offset,size,latency_ms'];
  let t = 0;
  let next = 0;
  for (let i = 0; i < rows; i += 1) {
    t += -Math.log(1 - rand()) / (Math.floor(i / 1000) % 2 === 0 ? 8 : 20);
    const sequential = rand() < 0.2;
    const block = sequential ? next : rand() < 0.8 ? Math.floor(rand() * 2000) : Math.floor(rand() * 100000);
    const size = sizes[Math.floor(rand() * sizes.length)];
    next = block + size / 4096;
    const op = rand() < 0.7 ? 'R' : 'W';
    const latency = -Math.log(1 - rand()) * 8;
    lines.push(`${t.toFixed(6)},${op},${block * 4096},${size},${latency.toFixed(3)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Host statistics: the e2e test's iostat day imported, and "what you have now" on a FAS3170 of 48 drives. */
async function recordHostStats() {
  const res = await fetch(`${base}/api/v1/import/host-stats?capacity_tb=2`, {
    method: 'POST',
    body: syntheticIostat(),
    headers: { Accept: 'application/json', 'Content-Type': 'application/octet-stream', 'X-Filename': 'iostat-dbhost01.txt' },
  });
  if (res.status !== 200) throw new Error(`POST /import/host-stats: ${res.status} ${await res.text()}`);
  const imported = await res.json();
  write('host-stats-iostat.json', imported);
  const current = { array_id: 'netapp-fas3170', raid_scheme: 'raid-dp', drive_count: 48 };
  write('observed-fas3170.json', await call('POST', '/import/observed', { workloads: imported.workloads, configuration: current }));
}

async function main() {
  if (process.argv[3] === 'host-stats') return recordHostStats();
  await recordHostStats();
  const templates = read('workload-templates.json');
  const sized = read('size-oltp-fas3170.json');
  const workloads = [templates.templates[0].workload];
  const configuration = sized.configuration;
  const pair = { workloads, configuration };

  write('growth-oltp.json', await call('POST', '/whatif/growth', pair));
  write('sensitivity-oltp.json', await call('POST', '/whatif/sensitivity', pair));
  write('max-workload-oltp.json', await call('POST', '/whatif/max-workload', pair));
  write('ranges-oltp.json', await call('POST', '/whatif/ranges', pair));
  write('confidence-oltp.json', await call('POST', '/whatif/confidence', pair));
  write('degraded-oltp.json', await call('POST', '/whatif/degraded', pair));
  write(
    'raid-conversion.json',
    await call('POST', '/whatif/raid-conversion', {
      measured_iops: 20000,
      read_pct: 70,
      from_raid: { scheme: 'raid5', group_width: 8 },
      to_raid: { scheme: 'raid10', group_width: 8 },
    }),
  );
  write(
    'building-blocks.json',
    await call('POST', '/whatif/building-blocks', { target: { read_gb_s: 50 }, catalog: { array_id: 'netapp-fas3170' } }),
  );
  write('drives.json', await call('GET', '/catalog/drives'));

  // recommend: OLTP over the whole catalog
  const recommendation = await call('POST', '/recommend', { workloads, limit: 10, one_per: 'scheme', pareto_limit: 30, constraints: {} });
  write('recommend-oltp.json', recommendation);

  // traces: one analysed to the end, one refused (more than half of its lines malformed)
  const form = new FormData();
  form.append('file', new Blob([syntheticTrace()], { type: 'text/csv' }), 'synthetic.csv');
  const created = await call('POST', '/traces?interval_s=10&latency_target_ms=5&name=synthetic', form);
  let job;
  for (let i = 0; i < 200; i += 1) {
    job = await call('GET', `/traces/${created.id}`);
    if (!['queued', 'running'].includes(job.status)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (job.status !== 'done') throw new Error(`trace job ended ${job.status}: ${job.error}`);
  write('trace-job-done.json', job);
  const good = syntheticTrace(10).split('\n').slice(1, 11);
  const bad = Array.from({ length: 30 }, (_, i) => `${i + 1}.5,R,-${i + 1},4096`);
  const badForm = new FormData();
  badForm.append('file', new Blob([[...good, ...bad].join('\n')], { type: 'text/csv' }), 'broken.csv');
  write('trace-rejected.json', await call('POST', '/traces', badForm, { expect: [400] }));

  // custom hardware: a drive, a controller and an array listing the drive
  const drive = await call('POST', '/hardware', {
    kind: 'drive',
    spec: {
      name: 'Lab SSD 3.84 TB',
      kind: 'ssd',
      interface: 'SAS',
      capacity_gb: 3840,
      media_rate_mb_s: 2000,
      read_iops_4k: 300000,
      write_iops_4k: 80000,
      read_latency_us: 100,
      write_latency_us: 30,
      power_w: 9,
      price_usd: 900,
    },
  });
  write(
    'hardware-drive-422.json',
    await call(
      'POST',
      '/hardware',
      { kind: 'drive', spec: { name: '', kind: 'ssd', capacity_gb: -1, media_rate_mb_s: 500 } },
      { expect: [422] },
    ),
  );
  write(
    'hardware-ssd-422.json',
    await call(
      'POST',
      '/hardware',
      { kind: 'drive', spec: { name: 'No latency SSD', kind: 'ssd', capacity_gb: 960, media_rate_mb_s: 500 } },
      { expect: [422] },
    ),
  );
  const controller = await call('POST', '/hardware', {
    kind: 'controller',
    spec: { model: 'Lab controller', count: 2, cores: 16, dram_cache_gb: 64, max_iops: 500000 },
  });
  const fas = (await call('GET', '/catalog/arrays/netapp-fas3170')).array;
  const { id: _ignored, ...spec } = fas;
  await call('POST', '/hardware', {
    kind: 'array',
    spec: { ...spec, vendor: 'Lab', model: 'Lab FAS', drives: [...fas.drives, drive.id], controller: controller.spec },
  });
  write('hardware-list.json', await call('GET', '/hardware'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
