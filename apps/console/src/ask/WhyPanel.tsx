import type { ApiError } from '../api/graphql.js';
import type { SearchHit } from '../api/types.js';
import { documentHref } from '../documents/DocumentRow.js';
import { ColumnHeads } from '../layout/ColumnHeads.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { Link } from '../layout/Link.js';
import { plainSnippet } from './snippet.js';

const format = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(4));

/** Why each passage was retrieved: every channel's score and rank, the fused score, the reranker's view. */
export function WhyPanel({ hits, error }: { hits: SearchHit[] | null; error: ApiError | null }) {
  return (
    <section className="why" aria-labelledby="why-heading">
      <h3 id="why-heading">Why these passages</h3>
      <ErrorMessage error={error} />
      {hits === null && !error && <p role="status">Searching…</p>}
      {hits?.length === 0 && <p>Nothing was retrieved.</p>}
      <ol>
        {hits?.map((hit) => (
          <li key={hit.chunkId}>
            <details>
              <summary>
                {hit.title || hit.sourceId} <span className="muted">score {format(hit.score)}</span>
              </summary>
              <p className="muted">
                <Link href={documentHref(hit.sourceId, { start: hit.startOffset, end: hit.endOffset })}>
                  {hit.sourceId}
                </Link>
                {hit.sectionPath && ` › ${hit.sectionPath}`}
              </p>
              <table>
                <caption>Channels of {hit.chunkId}</caption>
                <ColumnHeads names={['Channel', 'Score', 'Rank', 'Normalised']} />
                <tbody>
                  {Object.entries(hit.channels).map(([channel, score]) => (
                    <tr key={channel}>
                      <th scope="row">{channel}</th>
                      <td className="number">{format(score.score)}</td>
                      <td className="number">{score.rank}</td>
                      <td className="number">{format(score.normalized)}</td>
                    </tr>
                  ))}
                  <tr>
                    <th scope="row">fused</th>
                    <td className="number">{format(hit.fusedScore)}</td>
                    <td colSpan={2} />
                  </tr>
                </tbody>
              </table>
              {hit.mentions.length > 0 && (
                <p>
                  Mentions:{' '}
                  {hit.mentions.map((id, index) => (
                    <span key={id}>
                      {index > 0 && ', '}
                      <Link href={`/graph?${new URLSearchParams({ ids: id })}`}>{id}</Link>
                    </span>
                  ))}
                </p>
              )}
              {hit.rerank && (
                <dl className="rerank">
                  <dt>Reranker score</dt>
                  <dd>{format(hit.rerank.score)}</dd>
                  {Object.entries(hit.rerank.features ?? {}).map(([name, value]) => (
                    <div key={name}>
                      <dt>{name}</dt>
                      <dd>{format(value)}</dd>
                    </div>
                  ))}
                </dl>
              )}
              <blockquote>{plainSnippet(hit.text)}</blockquote>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}
