import { useMutation } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `POST /api/v1/import/iometer`: an Iometer access specification -> a phase (size mix, read %, random %). */
export type ImportedPhase = ApiResponse<'/api/v1/import/iometer', 'post'>;

export function importIometer({ text }: { text: string }): Promise<ImportedPhase> {
  return api.post('/api/v1/import/iometer', { body: { text, window: 'imported' } });
}

export function useImportIometer() {
  return useMutation({ mutationFn: importIometer });
}
