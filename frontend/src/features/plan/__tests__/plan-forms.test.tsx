import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { QuoteCheck, Workload } from '@/lib/api-types';
import { noFieldErrors, fieldErrors } from '@/lib/field-errors';
import { renderWithProviders } from '@/testing/test-utils';

import { ConsolidateForm, QuoteForm } from '../components/plan-forms';
import { QuoteCheckView } from '../components/plan-results';

const workloads = [
  { name: 'oltp', capacity_tb: 2, phases: [{ name: 'day', window: 'business hours', iops: 5000, read_pct: 70, io_size_kib: 8 }] },
] as unknown as Workload[];
const arrays = [
  { id: 'netapp-fas3270', label: 'NetApp FAS3270', drives: ['hdd-10k-sas-600'], raid: ['raid-dp'] },
  { id: 'emc-vnx5300', label: 'EMC VNX5300', drives: [], raid: ['raid5'] },
];
const drives = [{ id: 'hdd-10k-sas-600', label: '600 GB 10K SAS' }];

describe('QuoteForm', () => {
  it("sends the vendor's bill of materials as the quote", async () => {
    const onSubmit = vi.fn();
    const { user } = renderWithProviders(<QuoteForm workloads={workloads} arrays={arrays} drives={drives} errors={noFieldErrors} onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: 'Model as quoted' }), 'FAS3270 HA');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Catalog array' }), 'netapp-fas3270');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Drive' }), 'hdd-10k-sas-600');
    await user.type(screen.getByRole('spinbutton', { name: /Drives quoted/ }), '96');
    await user.type(screen.getByRole('spinbutton', { name: 'Shelves quoted' }), '4');
    await user.click(screen.getByRole('button', { name: 'Check the quote' }));

    expect(onSubmit).toHaveBeenCalledOnce();
    const body = onSubmit.mock.calls[0]![0];
    expect(body.workloads).toBe(workloads);
    expect(body.quote).toMatchObject({ model: 'FAS3270 HA', array_id: 'netapp-fas3270', drive_id: 'hdd-10k-sas-600', drive_count: 96, shelves: 4 });
  });

  it('sends a quote pasted as text instead of the fields', async () => {
    const onSubmit = vi.fn();
    const { user } = renderWithProviders(<QuoteForm workloads={workloads} arrays={arrays} drives={drives} errors={noFieldErrors} onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: /Or paste the quote as text/ }), 'FAS3270, 96 x 600GB 10K');
    await user.click(screen.getByRole('button', { name: 'Check the quote' }));
    expect(onSubmit.mock.calls[0]![0]).toEqual({ workloads, text: 'FAS3270, 96 x 600GB 10K', calibration_margin: 'pessimistic' });
  });

  it("shows the API's message at the field it names", () => {
    const errors = fieldErrors({ 'quote.drive_count': ['96 drives leave none for data'] });
    renderWithProviders(<QuoteForm workloads={workloads} arrays={arrays} drives={drives} errors={errors} onSubmit={vi.fn()} />);
    expect(screen.getByText('96 drives leave none for data')).toBeInTheDocument();
  });
});

describe('ConsolidateForm', () => {
  it('sends the ticked candidate families and the arrays already owned', async () => {
    const onSubmit = vi.fn();
    const { user } = renderWithProviders(<ConsolidateForm workloads={workloads} arrays={arrays} drives={drives} errors={noFieldErrors} onSubmit={onSubmit} />);
    await user.click(screen.getByRole('checkbox', { name: 'EMC VNX5300' }));
    await user.click(screen.getByRole('button', { name: 'Add an owned array' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Drives in owned array 1' }), '48');
    await user.click(screen.getByRole('button', { name: 'Consolidate' }));

    const body = onSubmit.mock.calls[0]![0];
    expect(body.candidates).toEqual([{ array_id: 'emc-vnx5300', drive_count: null }]);
    expect(body.fixed).toEqual([{ array_id: 'netapp-fas3270', drive_count: 48, name: 'owned 1' }]);
    expect(body.options).toEqual({ objective: 'cost', fixed_only: false });
  });
});

describe('QuoteCheckView', () => {
  it("shows the engine's verdict, labels and each finding", () => {
    const result = {
      verdict: 'over',
      text: 'FAS3270 as quoted (96 x 600 GB 10K SAS): meets every window and failure case; over-provisioned in drives.',
      labels: ['estimate: software release 9.1 is not modelled'],
      findings: [{ area: 'drives', verdict: 'over', amount: 40, unit: 'drives', text: '96 drives quoted, 56 needed with spares' }],
      sizing: { explanation: '52 x 600 GB 10K SAS in 4 raid-dp groups is the fewest that meets every window.' },
      evaluation: {
        calibration: {
          parts: Object.fromEntries(['drives', 'controller', 'cache', 'ports'].map((p) => [p, { status: 'estimate', sources: [], note: null, figures: {} }])),
          estimated: ['drives', 'controller', 'cache', 'ports'],
          text: 'drives: estimate; controller: estimate; cache: estimate; ports: estimate',
          margins: [{ part: 'controller', status: 'estimate', factor: 1.157, band_pct: 15.7, basis: 'the 90th percentile of 80 HDD arrays rows', text: 'controller (estimate): CPU costs x 1.16' }],
        },
        model_error: { system_class: 'hdd', label: 'HDD arrays', median_pct: 6, p90_pct: 15.7, rows: 80, basis: 'make validate', text: 'HDD arrays: off by 6% (median)' },
      },
    } as unknown as QuoteCheck;
    renderWithProviders(<QuoteCheckView result={result} />);
    // what the quoted system's figures rest on, beside the verdict, with the margin it was checked at
    const note = screen.getByRole('region', { name: "How calibrated the quoted system's figures are" });
    expect(note).toHaveTextContent('HDD arrays: off by 6% (median)');
    expect(note).toHaveTextContent('controller (estimate): CPU costs x 1.16');
    expect(screen.getByRole('heading', { name: 'Second opinion: over-provisioned' })).toBeInTheDocument();
    expect(screen.getByTestId('quote-verdict')).toHaveTextContent('over-provisioned in drives');
    const row = screen.getByRole('row', { name: /drives over 40/ });
    expect(within(row).getByText('96 drives quoted, 56 needed with spares')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Parts the catalog lacks' })).toHaveTextContent('software release 9.1');
  });
});
