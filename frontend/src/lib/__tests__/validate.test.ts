import { describe, expect, it } from 'vitest';

import { fixtures } from '@/testing/mocks/fixtures';

import { validateRequest } from '../validate';

const workload = fixtures.templates.templates[0]!.workload;
const reference = { array_id: 'netapp-fas3170', flash_cache_gb: 0, headroom: null, hypothetical: false };
const body = (w: unknown, configuration: unknown = reference) => ({
  workloads: [w],
  configuration,
  flash_cache_options_gb: null,
  degraded: 'none',
  max_drives: null,
});

describe('validateRequest (the OpenAPI constraints, checked in the browser)', () => {
  it('passes a template as it is', () => {
    expect(validateRequest('SizeRequest', body(workload))).toEqual([]);
  });

  it('flags a cleared number (NaN in the form, null once stored) at its field', () => {
    const issues = validateRequest('SizeRequest', body({ ...workload, capacity_tb: Number.NaN }));
    expect(issues).toEqual([{ loc: ['body', 'workloads', 0, 'capacity_tb'], msg: 'Enter a number', type: 'client' }]);
    expect(validateRequest('SizeRequest', body({ ...workload, capacity_tb: null }))[0]!.msg).toBe('Enter a number');
  });

  it('flags an emptied field the API would take as null (working set %, throughput, an I/O size): never a silent none', () => {
    const phase = workload.phases[0]!;
    const ws = validateRequest('SizeRequest', body({ ...workload, working_set_gb: null, working_set_pct: Number.NaN }));
    expect(ws).toEqual([{ loc: ['body', 'workloads', 0, 'working_set_pct'], msg: 'Enter a number', type: 'client' }]);
    const mbs = validateRequest('SizeRequest', body({ ...workload, phases: [{ ...phase, iops: 0, mb_per_s: Number.NaN }] }));
    expect(mbs).toEqual([{ loc: ['body', 'workloads', 0, 'phases', 0, 'mb_per_s'], msg: 'Enter a number', type: 'client' }]);
    const size = validateRequest('SizeRequest', body({ ...workload, phases: [{ ...phase, io_sizes: [], io_size_kib: Number.NaN }] }));
    expect(size).toEqual([{ loc: ['body', 'workloads', 0, 'phases', 0, 'io_size_kib'], msg: 'Enter a number', type: 'client' }]);
    // null, the API's "not stated", stays allowed where it is allowed
    expect(validateRequest('SizeRequest', body({ ...workload, working_set_gb: null, working_set_pct: null }))).toEqual([]);
  });

  it('says each bound in words: at least, at most, more than, whole numbers', () => {
    const phase = workload.phases[0]!;
    const at = (p: object) => validateRequest('SizeRequest', body({ ...workload, phases: [{ ...phase, ...p }] })).map((i) => i.msg);
    expect(at({ read_pct: 120 })).toEqual(['Must be at most 100']);
    expect(at({ read_pct: -1 })).toEqual(['Must be at least 0']);
    expect(validateRequest('SizeRequest', body({ ...workload, capacity_tb: 0 }))[0]!.msg).toBe('Must be more than 0');
    expect(validateRequest('SizeRequest', body(workload, { ...reference, drive_count: 2.5 }))[0]).toMatchObject({
      loc: ['body', 'configuration', 'drive_count'],
      msg: 'Enter a whole number',
    });
  });

  it('checks a catalog reference and a full configuration each by its own schema', () => {
    expect(validateRequest('EvaluateRequest', { workloads: [workload], configuration: fixtures.sizeOltp.configuration, degraded: 'none' })).toEqual([]);
    const headroom = { controller_max_pct: null, failover_max_pct: 100, drive_max_pct: 170, port_max_pct: 70, capacity_max_fill_pct: 100 };
    expect(validateRequest('SizeRequest', body(workload, { ...reference, headroom }))).toEqual([
      { loc: ['body', 'configuration', 'headroom', 'drive_max_pct'], msg: 'Must be at most 100', type: 'client' },
    ]);
  });

  it('flags an empty name', () => {
    expect(validateRequest('SizeRequest', body({ ...workload, name: '' }))[0]).toMatchObject({ loc: ['body', 'workloads', 0, 'name'], msg: 'Must not be empty' });
  });
});
