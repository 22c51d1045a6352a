import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { VolumeSummary } from '@/lib/api-types';

import { VolumeTable } from '../components/volume-table';
import { volumeList } from '../components/trace-upload-form';

const volume = (name: string, selected: boolean, records: number): VolumeSummary => ({
  name,
  records,
  read_pct: 75,
  gb_moved: 1.5,
  span_gb: 20,
  mean_iops: records / 60,
  selected,
});

describe('VolumeTable', () => {
  it('lists every volume with its figures and which the filter kept', () => {
    render(<VolumeTable volumes={[volume('usr/0', true, 1200), volume('web/0', false, 300)]} />);

    const table = screen.getByRole('table', { name: /Volumes in the trace \(the analysis kept the marked ones\)/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByRole('rowheader')).toHaveTextContent('usr/0');
    expect(rows[1]).toHaveTextContent('1,200');
    expect(rows[1]).toHaveTextContent('20'); // 1,200 I/Os over 60 s
    expect(within(rows[1]!).getAllByRole('cell').at(-1)).toHaveTextContent('yes');
    expect(within(rows[2]!).getAllByRole('cell').at(-1)).toHaveTextContent('no');
  });

  it('says nothing for a trace of one volume', () => {
    const { container } = render(<VolumeTable volumes={[volume('csv', true, 10)]} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('volumeList', () => {
  it('splits names on commas and leaves an empty field to mean every volume', () => {
    expect(volumeList(' usr , web/0,, ')).toEqual(['usr', 'web/0']);
    expect(volumeList('  ')).toBeNull();
  });
});
