import type { Upload } from './use-uploads.js';

/** Each upload's status, announced as it changes. */
export function UploadList({ uploads }: { uploads: Upload[] }) {
  if (uploads.length === 0) return null;
  return (
    <section aria-label="Uploads">
      <h2>Uploads</h2>
      <ul className="uploads" aria-live="polite">
        {uploads.map((upload) => (
          <li key={upload.key} data-status={upload.status}>
            <span className="name">{upload.name}</span>{' '}
            <span className={`status ${upload.status}`}>{upload.status}</span>
            {upload.status === 'ingesting' && upload.progress !== null && (
              <progress value={upload.progress} max={1} aria-label={`${upload.name} progress`} />
            )}
            {upload.error && (
              <span className="error">
                {' '}
                <strong>{upload.error.code}</strong>: {upload.error.message}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
