import type { DataType, MoneyInputs } from '@/lib/api-types';
import type { FieldErrors } from '@/lib/field-errors';

import { NumberField, SelectField, TextField } from '../form';

const DATA_TYPES: { value: DataType; label: string }[] = [
  { value: 'mixed', label: 'Mixed (general file shares)' },
  { value: 'file-shares', label: 'File shares' },
  { value: 'user-documents', label: 'User documents' },
  { value: 'software-deployment', label: 'Software deployment shares' },
  { value: 'virtual-desktops', label: 'Virtual desktops and VM images' },
  { value: 'database', label: 'Databases' },
  { value: 'media-or-encrypted', label: 'Compressed media or encrypted data' },
];

type MoneyFieldsProps = {
  value: MoneyInputs;
  onChange: (value: MoneyInputs) => void;
  /** The API's messages, scoped to the request's `money`. */
  errors: FieldErrors;
};

/**
 * Currency, discounts, support, energy, rack space, horizon and data type: what the TCO and the
 * three-ratio table assume. Prices of energy and rack space are in the chosen currency; the server
 * converts the catalog's USD prices at its dated rate table and names a currency it has no rate for.
 */
export function MoneyFields({ value, onChange, errors }: MoneyFieldsProps) {
  const set = <K extends keyof MoneyInputs>(key: K) => (v: MoneyInputs[K]) => onChange({ ...value, [key]: v });
  const number = (key: 'discount_pct' | 'years' | 'support_years' | 'energy_price_per_kwh' | 'pue' | 'rack_price_per_u_month') =>
    (v: number | null) => onChange({ ...value, [key]: v ?? Number.NaN });
  const drives = value.line_discount_pct?.drives ?? null;
  const cur = value.currency || 'currency';
  return (
    <details className="options money-fields" open={errors.count > 0}>
      <summary>Money: currency, discounts, support, energy and rack space ({value.currency}, {value.years} years)</summary>
      <div className="grid grid-4">
        <TextField
          label="Currency"
          value={value.currency}
          maxLength={3}
          hint="ISO code, e.g. USD, EUR, GBP"
          errors={errors.at('currency')}
          onChange={(v) => set('currency')(v.toUpperCase())}
        />
        <NumberField label="Discount off list" unit="%" value={value.discount_pct} min={0} max={99.99} errors={errors.at('discount_pct')} onChange={number('discount_pct')} />
        <NumberField
          label="Discount on drives"
          unit="%"
          value={drives}
          optional
          min={0}
          max={99.99}
          hint="Empty: the discount off list"
          errors={errors.scope('line_discount_pct').at('drives')}
          onChange={(v) => {
            const { drives: _drop, ...rest } = value.line_discount_pct ?? {};
            onChange({ ...value, line_discount_pct: v === null ? rest : { ...rest, drives: v } });
          }}
        />
        <NumberField label="Years of ownership" value={value.years} min={1} max={10} step={1} errors={errors.at('years')} onChange={number('years')} />
        <NumberField label="Support bought" unit="years" value={value.support_years} min={0} max={10} step={1} errors={errors.at('support_years')} onChange={number('support_years')} />
        <NumberField
          label="Support a year"
          unit="% of net"
          value={value.support_pct_per_year ?? null}
          optional
          min={0}
          max={100}
          hint="Empty: the catalog's rate"
          errors={errors.at('support_pct_per_year')}
          onChange={(v) => set('support_pct_per_year')(v)}
        />
        <NumberField label="Energy price" unit={`${cur}/kWh`} value={value.energy_price_per_kwh} min={0} errors={errors.at('energy_price_per_kwh')} onChange={number('energy_price_per_kwh')} />
        <NumberField label="Cooling factor (PUE)" value={value.pue} min={1} max={4} errors={errors.at('pue')} onChange={number('pue')} />
        <NumberField
          label="Rack space"
          unit={`${cur}/U/month`}
          value={value.rack_price_per_u_month}
          min={0}
          errors={errors.at('rack_price_per_u_month')}
          onChange={number('rack_price_per_u_month')}
        />
        <SelectField label="Data type" value={value.data_type} options={DATA_TYPES} hint="For the expected reduction ratio" errors={errors.at('data_type')} onChange={(v) => set('data_type')(v as DataType)} />
        <NumberField
          label="Vendor-claimed reduction"
          unit=":1"
          value={value.claimed_ratio ?? null}
          optional
          min={1}
          max={100}
          hint="Empty: the workloads' own ratio"
          errors={errors.at('claimed_ratio')}
          onChange={(v) => set('claimed_ratio')(v)}
        />
      </div>
    </details>
  );
}
