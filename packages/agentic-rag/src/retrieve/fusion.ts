export type ChannelName = 'vector' | 'lexical' | 'graph';
export type FusionMethod = 'weighted' | 'rrf';
export type Normalization = 'minmax' | 'zscore';

export interface ChannelCandidates {
  name: ChannelName;
  /** Best first. */
  ids: readonly number[];
  scores: readonly number[];
  weight: number;
}

export interface ChannelScore {
  /** The channel's own score (cosine similarity, BM25, ...). */
  score: number;
  /** 1-based rank within the channel. */
  rank: number;
  /** The score after per-channel normalisation, as it entered the fusion. */
  normalized: number;
}

export interface FusedCandidate {
  id: number;
  score: number;
  channels: Partial<Record<ChannelName, ChannelScore>>;
}

export interface FusionOptions {
  method: FusionMethod;
  normalization: Normalization;
  /** Reciprocal rank fusion's constant (60 in the original paper). */
  rrfK?: number;
}

/**
 * Combines channels into one ranking. `weighted`: each channel's scores normalised (min-max to
 * [0, 1], or z-scores) and summed with the channel weights; a candidate a channel did not return
 * gets that channel's floor (0, or its lowest z-score). `rrf`: Σ weight / (k + rank), which needs
 * no score scale at all. Ties break by best single-channel rank, then id, so results are stable.
 */
export function fuse(channels: readonly ChannelCandidates[], options: FusionOptions): FusedCandidate[] {
  const fused = new Map<number, FusedCandidate>();
  const entry = (id: number) => {
    let candidate = fused.get(id);
    if (!candidate) fused.set(id, (candidate = { id, score: 0, channels: {} }));
    return candidate;
  };
  const active = channels.filter((channel) => channel.ids.length > 0 && channel.weight > 0);

  for (const channel of active) {
    const normalized = normalize(channel.scores, options.normalization);
    channel.ids.forEach((id, index) => {
      entry(id).channels[channel.name] = {
        score: channel.scores[index]!,
        rank: index + 1,
        normalized: normalized[index]!,
      };
    });
  }
  for (const candidate of fused.values()) {
    for (const channel of active) {
      const hit = candidate.channels[channel.name];
      if (options.method === 'rrf') {
        if (hit) candidate.score += channel.weight / ((options.rrfK ?? 60) + hit.rank);
      } else {
        candidate.score += channel.weight * (hit ? hit.normalized : floorOf(channel, options.normalization));
      }
    }
  }
  return [...fused.values()].sort(
    (left, right) => right.score - left.score || bestRank(left) - bestRank(right) || left.id - right.id,
  );
}

function normalize(scores: readonly number[], normalization: Normalization): number[] {
  if (normalization === 'minmax') {
    const min = Math.min(...scores);
    const max = Math.max(...scores);
    // All equal: every candidate is as good as the channel's best.
    return scores.map((score) => (max > min ? (score - min) / (max - min) : 1));
  }
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  const deviation = Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / scores.length);
  return scores.map((score) => (deviation > 0 ? (score - mean) / deviation : 0));
}

function floorOf(channel: ChannelCandidates, normalization: Normalization): number {
  if (normalization === 'minmax') return 0;
  return Math.min(0, ...normalize(channel.scores, 'zscore'));
}

function bestRank(candidate: FusedCandidate): number {
  return Math.min(...Object.values(candidate.channels).map((channel) => channel.rank));
}
