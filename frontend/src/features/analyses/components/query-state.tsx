import { ErrorState, FormErrors, Loading } from '@/components';
import { ApiError, fieldPath } from '@/lib/api-error';
import type { Workload } from '@/lib/api-types';
import { describePath } from '@/lib/field-errors';

type QueryStateProps = {
  /** What is being computed, e.g. "Projecting growth…". */
  loading: string;
  /** What failed, e.g. "The growth projection failed". */
  failed: string;
  query: { isPending: boolean; isFetching: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  /** For naming workloads and phases in the API's 422 messages. */
  workloads?: Workload[];
};

/** Loading and error states of one analysis (422 messages listed by field, other errors with a retry). */
export function QueryState({ loading, failed, query, workloads = [] }: QueryStateProps) {
  const error = query.error instanceof ApiError ? query.error : null;
  return (
    <>
      {query.isPending && query.isFetching ? <Loading label={loading} /> : null}
      {error?.isValidation ? (
        <FormErrors title={failed} messages={error.issues.map((i) => `${describePath(fieldPath(i.loc), { workloads })}: ${i.msg}`)} />
      ) : null}
      {query.isError && !error?.isValidation ? <ErrorState title={failed} error={query.error} onRetry={() => void query.refetch()} /> : null}
    </>
  );
}
