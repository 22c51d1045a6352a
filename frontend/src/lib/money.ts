import type { MoneyInputs } from './api-types';

/**
 * The money inputs a request starts from: the API's documented defaults (list prices in USD, no
 * discount, 5 years with 3 years of support at the catalog's rate, energy at 0.15 per kWh with the
 * survey-average PUE, rack space not charged, mixed data, the workloads' own reduction claimed).
 * The default exchange-rate table is the server's (left out here).
 */
export const DEFAULT_MONEY: MoneyInputs = {
  currency: 'USD',
  discount_pct: 0,
  line_discount_pct: {},
  years: 5,
  support_years: 3,
  support_pct_per_year: null,
  energy_price_per_kwh: 0.15,
  pue: 1.58,
  rack_price_per_u_month: 0,
  data_type: 'mixed',
  claimed_ratio: null,
};
