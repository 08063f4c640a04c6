export { search } from './search.js';
export type { ChannelScore, SearchHit, SearchOptions } from './search.js';
