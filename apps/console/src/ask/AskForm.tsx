import { useState, type FormEvent, type KeyboardEvent } from 'react';

/** The question box: Enter asks (and empties it), Shift+Enter starts a new line. */
export function AskForm({
  onAsk,
  busy,
  label,
}: {
  onAsk: (question: string) => void;
  busy: boolean;
  label: string;
}) {
  const [question, setQuestion] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = question.trim();
    if (!text || busy) return;
    onAsk(text);
    setQuestion('');
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
  };
  return (
    <form className="ask" onSubmit={submit}>
      <label htmlFor="question">{label}</label>
      <textarea
        id="question"
        rows={2}
        value={question}
        onChange={(event) => setQuestion(event.target.value)}
        onKeyDown={keyDown}
        placeholder={
          label === 'Ask a question' ? 'What endpoints can I use to create a location?' : 'And how do I…?'
        }
        required
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Answering…' : 'Ask'}
      </button>
    </form>
  );
}
