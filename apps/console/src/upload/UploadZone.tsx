import { useState, type DragEvent } from 'react';
import { droppedFiles } from './dropped-files.js';
import { ACCEPT, type PickedFile } from './read-file.js';

/** Drop files or folders here, or choose files: both hand them to `onFiles`. */
export function UploadZone({ onFiles }: { onFiles: (files: PickedFile[]) => void }) {
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void droppedFiles(event.dataTransfer).then(onFiles);
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
      <p>
        Drop files or folders here (Markdown, text, HTML, PDF, DOCX, OpenAPI YAML/JSON, knowledge packs), or
      </p>
      <label className="button">
        Choose files
        <input
          type="file"
          multiple
          accept={ACCEPT}
          aria-label="Choose files to upload"
          onChange={(event) => {
            onFiles([...(event.target.files ?? [])].map((file) => ({ file, path: file.name })));
            event.target.value = '';
          }}
        />
      </label>
    </section>
  );
}
