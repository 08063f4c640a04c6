import { useEffect, useState, type FormEvent } from 'react';
import { useGraphqlRead } from '../api/use-graphql-read.js';
import { WORKSPACES } from '../api/operations.js';
import { useSession } from './session.js';

/**
 * The workspace every page works on: the ones the key may see are offered as suggestions, and any
 * name may be typed (a first upload creates a workspace).
 */
export function WorkspacePicker() {
  const { apiKey, workspaceId, setWorkspaceId } = useSession();
  const [draft, setDraft] = useState(workspaceId);
  // No list (the API is down, say): no suggestions, the field still takes any name.
  const { data } = useGraphqlRead<{ workspaces: Array<{ id: string }> }>(apiKey, WORKSPACES, {});
  const known = data?.workspaces.map((workspace) => workspace.id) ?? [];

  useEffect(() => setDraft(workspaceId), [workspaceId]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    if (next) setWorkspaceId(next);
  };

  return (
    <form className="workspace" onSubmit={submit}>
      <label htmlFor="workspace">Workspace</label>
      <input
        id="workspace"
        list="known-workspaces"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={submit}
        pattern="[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}"
        title="letters, digits, _ . - (1-64, starting with a letter or digit)"
        required
      />
      <datalist id="known-workspaces">
        {known.map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      <button type="submit" className="quiet" aria-label="Use this workspace">
        Use
      </button>
    </form>
  );
}
