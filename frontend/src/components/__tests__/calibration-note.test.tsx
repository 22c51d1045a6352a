import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { EvaluationResult } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';

import { CalibrationNote } from '../calibration-note';

const estimate = { status: 'estimate' as const, sources: [], note: 'CPU costs per I/O: era estimates, uncalibrated', figures: {} };
const datasheet = { status: 'datasheet' as const, sources: ['seagate-cheetah-15k7'], note: null, figures: {} };

const result: EvaluationResult = {
  ...fixtures.sizeOltp.result,
  calibration: {
    parts: { drives: datasheet, controller: estimate, cache: estimate, ports: estimate },
    estimated: ['controller', 'cache', 'ports'],
    text: 'drives: datasheet [seagate-cheetah-15k7]; controller: estimate; cache: estimate; ports: estimate',
  },
  model_error: {
    system_class: 'hdd',
    label: 'HDD arrays',
    median_pct: 5.6,
    p90_pct: 14.6,
    rows: 73,
    basis: 'make validate: 73 cross-validated and out-of-sample rows (73 + 0) from fas3070_fileserver_moderate',
    text: 'HDD arrays: predictions of published measurements were off by 5.6% (median) and 14.6% (90th percentile) over 73 rows not fitted to',
  },
};

describe('CalibrationNote', () => {
  it("gives the class's expected error and each part's status with its sources", () => {
    render(<CalibrationNote result={result} />);
    expect(screen.getByTestId('model-error')).toHaveTextContent('off by 5.6% (median) and 14.6% (90th percentile)');
    expect(screen.getByTestId('model-error')).toHaveTextContent('Basis: make validate: 73 cross-validated');
    expect(screen.getByTestId('calibration-drives')).toHaveTextContent('drives: datasheet [seagate-cheetah-15k7]');
    expect(screen.getByTestId('calibration-controller')).toHaveTextContent('controller: estimate (CPU costs per I/O: era estimates, uncalibrated)');
    expect(screen.getByTestId('calibration-controller')).toHaveClass('estimate');
    expect(screen.getByTestId('calibration-drives')).not.toHaveClass('estimate');
  });

  it('names each margin taken and what it costs', () => {
    const margined: EvaluationResult = {
      ...result,
      calibration: {
        ...result.calibration!,
        margins: [
          {
            part: 'controller',
            status: 'estimate',
            factor: 1.152,
            band_pct: 15.2,
            basis: 'the 90th percentile of 75 HDD arrays rows',
            text: 'controller (estimate): CPU costs x 1.15 and throughput ceilings / 1.15',
          },
        ],
        margin_cost: 'The margins cost +12 drives (144 as stated, 156 with them).',
      },
    };
    render(<CalibrationNote result={margined} />);
    const box = screen.getByTestId('calibration-margins');
    expect(box).toHaveTextContent('controller (estimate): CPU costs x 1.15 and throughput ceilings / 1.15');
    expect(box).toHaveTextContent('The margins cost +12 drives (144 as stated, 156 with them).');
  });

  it('shows nothing for a result saved before answers carried their calibration', () => {
    const { container } = render(<CalibrationNote result={{ ...result, calibration: null, model_error: null }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
