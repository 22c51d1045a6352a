import { useMutation } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `POST /api/v1/import/iometer`: an Iometer access specification -> a phase in `window`. */
export type ImportResult = ApiResponse<'/api/v1/import/iometer', 'post'>;

export type IometerImportInput = { text: string; window: string };

export function importIometer({ text, window }: IometerImportInput): Promise<ImportResult> {
  return api.post('/api/v1/import/iometer', { body: { text, window } });
}

export function useImportIometer() {
  return useMutation({ mutationFn: importIometer });
}
