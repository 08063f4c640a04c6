export { clippingsOf, DEVELOPER_ABBREVIATIONS, learnedAcronyms, tableExpansions } from './abbreviations.js';
export { englishWords } from './english.js';
export type { EnglishWords } from './english.js';
export { isProtected, tokenize } from './tokens.js';
export type { Token, TokenKind } from './tokens.js';
export { inWordNet, lemmas, senses } from './wordnet.js';
export type { PartOfSpeech, Sense } from './wordnet.js';
export { contentStems } from './words.js';
export { compoundParts } from './compounds.js';
