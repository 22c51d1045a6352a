import { describe, expect, it } from 'vitest';

import { parseApiError } from '../api-error';
import { describePath, fieldErrors } from '../field-errors';

const error = parseApiError(422, {
  detail: [
    { type: 'less_than_equal', loc: ['body', 'workloads', 0, 'phases', 1, 'read_pct'], msg: 'Input should be less than or equal to 100' },
    { type: 'value_error', loc: ['body', 'workloads', 0, 'phases', 1], msg: 'Value error, io_sizes percentages must sum to 100, got 90' },
    { type: 'value_error', loc: ['body', 'configuration', 'drive_count'], msg: 'must be null: sizing finds the drive count' },
    { type: 'value_error', loc: ['body'], msg: 'the engine cannot evaluate these inputs' },
  ],
});

describe('fieldErrors', () => {
  it('scopes the API messages to a part of the form', () => {
    const phase = fieldErrors(error.fieldErrors).scope('workloads').scope(0).scope('phases.1');
    expect(phase.at('read_pct')).toEqual(['Must be at most 100']);
    expect(phase.here()).toEqual(['I/O sizes percentages must sum to 100, got 90']); // field names in the forms' words
    expect(phase.count).toBe(2);
    expect(fieldErrors(error.fieldErrors).scope('configuration').at('drive_count')).toEqual([
      'Must be null: sizing finds the drive count',
    ]);
  });

  it('lists what is under a scope with paths relative to it', () => {
    expect(fieldErrors(error.fieldErrors).scope('workloads.0').entries().map(([k]) => k)).toEqual(['phases.1.read_pct', 'phases.1']);
    expect(fieldErrors(null).count).toBe(0);
  });
});

describe('describePath', () => {
  it('reads a loc path in words, with the names of workloads and phases', () => {
    const workloads = [{ name: 'OLTP', phases: [{ name: 'online' }, { name: 'export' }] }];
    expect(describePath('workloads.0.phases.1.read_pct', { workloads })).toBe('workload “OLTP” › phase “export” › reads');
    expect(describePath('workloads.2.capacity_tb')).toBe('workload 3 › capacity today');
    expect(describePath('configurations.1.drive_count')).toBe('configurations 2 › drive count');
    expect(describePath('')).toBe('the request');
    expect(describePath('configuration.headroom.drive_max_pct')).toBe('configuration › headroom › drives at most');
    expect(describePath('hardware.seq_write_mb_s')).toBe('hardware › seq write [MB/s]');
  });
});
