export { cleanHeading, countWords, pagePassages } from './html-passages.js';
export type { ManualMarkup, Passage, PassageLimits } from './html-passages.js';
export { POSTGRES_MARKUP, PYTHON_MARKUP } from './markup.js';
