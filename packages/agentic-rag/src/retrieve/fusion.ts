export type ChannelName = 'vector' | 'lexical' | 'graph';
export type FusionMethod = 'adaptive' | 'weighted' | 'rrf';
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

/** How much one channel counted for this query, and why (adaptive fusion). */
export interface ChannelWeight {
  /** The configured weight. */
  configured: number;
  /** What it counted for this query: configured × confidence. */
  effective: number;
  /** 1 for the anchor channel; else peak × (½ + agreement), at most 1. */
  confidence: number;
  /** How far the channel's best score stands above its tenth, relative to the best (0..1). */
  peak: number;
  /** Share of the channel's top 10 that the anchor channel also has in its top 10. */
  agreement: number;
}

export interface Fusion {
  candidates: FusedCandidate[];
  /** Per channel, what it counted for (every method reports its weights). */
  weights: Partial<Record<ChannelName, ChannelWeight>>;
}

export interface FusionOptions {
  method: FusionMethod;
  normalization: Normalization;
  /** Reciprocal rank fusion's constant (60 in the original paper). */
  rrfK?: number;
}

/** The top of a ranking that confidence and agreement are read from. */
const CONFIDENCE_DEPTH = 10;

/**
 * Combines channels into one ranking. `weighted`: each channel's scores normalised (min-max to
 * [0, 1], or z-scores) and summed with the channel weights; a candidate a channel did not return
 * gets that channel's floor (0, or its lowest z-score). `rrf`: Σ weight / (k + rank), which needs
 * no score scale at all. `adaptive`: weighted, but only the anchor channel (the highest configured
 * weight) counts in full; every other channel counts by its confidence for this query (see
 * `channelWeights`), so a channel that is weak on this text — the offline embedder on prose it
 * has no feature for — cannot pull the anchor's good ranking down. Ties break by best
 * single-channel rank, then id, so results are stable.
 */
export function fuse(channels: readonly ChannelCandidates[], options: FusionOptions): Fusion {
  const fused = new Map<number, FusedCandidate>();
  const entry = (id: number) => {
    let candidate = fused.get(id);
    if (!candidate) fused.set(id, (candidate = { id, score: 0, channels: {} }));
    return candidate;
  };
  const weights = channelWeights(channels, options.method === 'adaptive');
  const active = channels
    .filter((channel) => channel.ids.length > 0 && (weights[channel.name]?.effective ?? 0) > 0)
    .map((channel) => ({ ...channel, weight: weights[channel.name]!.effective }));

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
  const candidates = [...fused.values()].sort(
    (left, right) => right.score - left.score || bestRank(left) - bestRank(right) || left.id - right.id,
  );
  return { candidates, weights };
}

/**
 * Each channel's weight for this query. Not adaptive: as configured. Adaptive: the anchor (the
 * channel with the highest configured weight that returned anything) keeps its weight; another
 * channel's is scaled by its confidence, peak × (½ + agreement), at most 1:
 * - peak: (best − tenth best) / best of its own scores. A channel whose best hits stand out from
 *   the rest has found something specific; a flat top ten means it is guessing. On three
 *   development sets this was the feature that told, per query, when the offline dense channel
 *   beat BM25 (correlation 0.15–0.41); BM25's own peak told nothing, so the anchor is not scaled.
 * - agreement: the share of its top ten the anchor also ranks in its top ten. Corroborated hits
 *   are trusted more; a channel that agrees with nothing still counts at half its peak.
 */
export function channelWeights(
  channels: readonly ChannelCandidates[],
  adaptive: boolean,
): Partial<Record<ChannelName, ChannelWeight>> {
  const weights: Partial<Record<ChannelName, ChannelWeight>> = {};
  const returned = channels.filter((channel) => channel.ids.length > 0 && channel.weight > 0);
  const anchor = returned.reduce<ChannelCandidates | null>(
    (best, channel) => (best === null || channel.weight > best.weight ? channel : best),
    null,
  );
  const anchorTop = new Set(anchor?.ids.slice(0, CONFIDENCE_DEPTH) ?? []);
  for (const channel of channels) {
    const top = channel.ids.slice(0, CONFIDENCE_DEPTH);
    const agreement = top.length > 0 ? top.filter((id) => anchorTop.has(id)).length / top.length : 0;
    const peak = peakOf(channel.scores);
    const confidence = !adaptive || channel === anchor ? 1 : Math.min(1, peak * (0.5 + agreement));
    weights[channel.name] = {
      configured: channel.weight,
      effective: channel.ids.length > 0 ? channel.weight * confidence : 0,
      confidence: Number(confidence.toFixed(4)),
      peak: Number(peak.toFixed(4)),
      agreement: Number(agreement.toFixed(4)),
    };
  }
  return weights;
}

/** (best − tenth best) / |best|; a channel with fewer than ten hits compares with its last. */
function peakOf(scores: readonly number[]): number {
  if (scores.length < 2) return 0;
  const best = scores[0]!;
  const tenth = scores[Math.min(CONFIDENCE_DEPTH, scores.length) - 1]!;
  return best === 0 ? 0 : Math.max(0, Math.min(1, (best - tenth) / Math.abs(best)));
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
