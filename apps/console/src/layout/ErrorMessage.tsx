import type { ApiError } from '../api/graphql.js';

/** An API error as the user sees it: the stable code, then what the API said. */
export function ErrorMessage({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      <strong>{error.code}</strong>: {error.message}
    </p>
  );
}
