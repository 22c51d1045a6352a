import { useMutation } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `POST /api/v1/import/fio`: a fio job file or a fio JSON result -> a phase. */
export type ImportedFioPhase = ApiResponse<'/api/v1/import/fio', 'post'>;

export function importFio({ text }: { text: string }): Promise<ImportedFioPhase> {
  return api.post('/api/v1/import/fio', { body: { text, window: 'imported' } });
}

export function useImportFio() {
  return useMutation({ mutationFn: importFio });
}
