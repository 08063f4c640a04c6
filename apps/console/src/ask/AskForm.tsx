import { useState, type FormEvent, type KeyboardEvent } from 'react';

/** The question box: Enter asks, Shift+Enter starts a new line. */
export function AskForm({ onAsk, busy }: { onAsk: (question: string) => void; busy: boolean }) {
  const [question, setQuestion] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = question.trim();
    if (text) onAsk(text);
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
  };
  return (
    <form className="ask" onSubmit={submit}>
      <label htmlFor="question">Ask a question</label>
      <textarea
        id="question"
        rows={2}
        value={question}
        onChange={(event) => setQuestion(event.target.value)}
        onKeyDown={keyDown}
        placeholder="What endpoints can I use to create a location?"
        required
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Answering…' : 'Ask'}
      </button>
    </form>
  );
}
