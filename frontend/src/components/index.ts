export { Layout, type NavItem } from './layout/layout';
export { Loading } from './feedback/loading';
export { ErrorState } from './feedback/error-state';
export { Figure, figureText, formatNumber, type FigureExplanation } from './figure/figure';
export {
  CommitTextField,
  Field,
  FormErrors,
  NumberField,
  SelectField,
  SliderField,
  TextField,
  type FieldProps,
  type SelectGroup,
  type SelectOption,
} from './form';
export { Stat } from './stat/stat';
export { UtilizationBar } from './meter/utilization-bar';
export { MoneyFields } from './money/money-fields';
export { TcoCompare } from './money/tco-compare';
export { TcoPanel } from './money/tco-panel';
export { CalibrationNote } from './calibration-note';
