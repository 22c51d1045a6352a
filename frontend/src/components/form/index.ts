export { Field, type FieldProps } from './field';
export { NumberField } from './number-field';
export { SelectField, type SelectGroup, type SelectOption } from './select-field';
export { TextField } from './text-field';
export { CommitTextField } from './commit-text-field';
export { SliderField } from './slider-field';
export { FormErrors } from './form-errors';
