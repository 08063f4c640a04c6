import { useState, type DragEvent } from 'react';
import { ACCEPT } from './read-file.js';

/** Drop files here, or choose them: both hand the files to `onFiles`. */
export function UploadZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    onFiles([...event.dataTransfer.files]);
  };
  return (
    <section
      className={over ? 'drop-zone over' : 'drop-zone'}
      aria-label="Upload documents"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <p>Drop Markdown, text, HTML, PDF or DOCX files here, or</p>
      <label className="button">
        Choose files
        <input
          type="file"
          multiple
          accept={ACCEPT}
          aria-label="Choose files to upload"
          onChange={(event) => {
            onFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </label>
    </section>
  );
}
