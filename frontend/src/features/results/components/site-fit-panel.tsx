import { useState } from 'react';

import { CalibrationNote, formatNumber, Loading } from '@/components';
import { ApiError, fieldPath } from '@/lib/api-error';
import type { ConfigurationInput, SiteFit, SiteFitRow, Workload } from '@/lib/api-types';

import { useFitSite } from '../api/fit-site';

type SiteFitPanelProps = {
  workloads: Workload[];
  /** The configuration the statistics came from (null: not chosen yet). */
  configuration: ConfigurationInput | null;
  /** Size with the fitted workloads (each observed phase's working set as fitted). */
  onUseWorkloads: (workloads: Workload[]) => void;
  /** Keep the fitted controller and drives as custom hardware; resolves to the names of the records kept. */
  onSave: (fit: SiteFit) => Promise<string[]>;
};

const ms = (x: number | null | undefined) => (x == null ? '–' : `${formatNumber(x)} ms`);
const pct = (x: number | null | undefined) => (x == null ? '–' : `${x > 0 ? '+' : ''}${formatNumber(x)} %`);

/**
 * Calibrate from your own array: the engine fits the controller's CPU costs, the drive times and the
 * working sets of the system the statistics came from to the latency its host saw, and says how far
 * off the model was before and after. The fitted parts can be kept as custom hardware (status
 * "fitted (site)") and the fitted working sets used for the successor's sizing.
 */
export function SiteFitPanel({ workloads, configuration, onUseWorkloads, onSave }: SiteFitPanelProps) {
  const fit = useFitSite();
  const [saved, setSaved] = useState<string[] | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  if (!configuration) return null;
  const error = fit.error instanceof ApiError ? fit.error : null;
  const result = fit.data;
  return (
    <div className="site-fit">
      <button
        type="button"
        onClick={() => {
          setSaved(null);
          setSaveError(null);
          fit.mutate({ workloads, configuration });
        }}
        disabled={fit.isPending}
      >
        Fit the model to this system
      </button>
      {fit.isPending ? <Loading label="Fitting the model to the host's latencies…" /> : null}
      {error?.isValidation ? (
        <div className="error-state" role="alert">
          <p className="error-title">The model cannot be fitted to these statistics</p>
          <ul>
            {error.issues.map((i) => (
              <li key={`${fieldPath(i.loc)}-${i.msg}`}>{i.msg}</li>
            ))}
          </ul>
        </div>
      ) : fit.isError ? (
        <p role="alert">The fit failed: {String(fit.error)}</p>
      ) : null}
      {result && !fit.isPending ? (
        <section aria-label="Fitted to this system">
          <p>{result.summary}</p>
          <CalibrationNote result={result} title="What the fitted system rests on" />
          <p className="muted">{result.formula}</p>
          <div className="table-scroll">
            <table className="data-table site-fit-table">
              <caption>Host latency beside the fitted model</caption>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">Read: host</th>
                  <th scope="col">before</th>
                  <th scope="col">fitted</th>
                  <th scope="col">difference</th>
                  <th scope="col">Write: host</th>
                  <th scope="col">before</th>
                  <th scope="col">fitted</th>
                  <th scope="col">difference</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r: SiteFitRow) => (
                  <tr key={`${r.workload}/${r.phase}`}>
                    <th scope="row">
                      {r.workload} / {r.window}
                    </th>
                    <td>{ms(r.observed_read_latency_ms)}</td>
                    <td>{ms(r.before_read_latency_ms)}</td>
                    <td>{ms(r.fitted_read_latency_ms)}</td>
                    <td>{pct(r.fitted_read_error_pct)}</td>
                    <td>{ms(r.observed_write_latency_ms)}</td>
                    <td>{ms(r.before_write_latency_ms)}</td>
                    <td>{ms(r.fitted_write_latency_ms)}</td>
                    <td>{pct(r.fitted_write_error_pct)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="muted">{result.controller.calibration?.note}</p>
          <div className="actions">
            <button type="button" onClick={() => onUseWorkloads(result.workloads)}>
              Size with the fitted working sets
            </button>
            <button
              type="button"
              onClick={() => {
                setSaveError(null);
                onSave(result).then(setSaved, (e: unknown) => setSaveError(String(e)));
              }}
            >
              Keep the fitted controller and drives as my hardware
            </button>
          </div>
          {saved ? <p role="status">Kept as your hardware: {saved.join(', ')}</p> : null}
          {saveError ? <p role="alert">Not kept: {saveError}</p> : null}
        </section>
      ) : null}
    </div>
  );
}
