import { useMutation } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `POST /api/v1/import/fio`: a fio job file or a fio JSON result -> a phase in `window`. */
export type FioImportResult = ApiResponse<'/api/v1/import/fio', 'post'>;

export type FioImportInput = { text: string; window: string; format: 'job' | 'json' };

export function importFio({ text, window, format }: FioImportInput): Promise<FioImportResult> {
  return api.post('/api/v1/import/fio', { body: { text, window, format } });
}

/** A fio JSON result starts with `{` (after whitespace); anything else is read as a job file. */
export function fioFormatOf(text: string): 'job' | 'json' {
  return text.trimStart().startsWith('{') ? 'json' : 'job';
}

export function useImportFio() {
  return useMutation({ mutationFn: importFio });
}
